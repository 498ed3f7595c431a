"""Gem Mountain's settings, declared once (defaults, bounds, checks, meaning).

Every number is bounded; the test hooks are checked by
:mod:`~meeplezoo.envs.gem_mountain.overrides`. The rules page's
configuration table is written from ``OPTIONS`` (``GemMountainGame.options``).
"""

from __future__ import annotations

from meeplezoo.envs.core.options import Option, choice, custom, flag, integer
from meeplezoo.envs.gem_mountain.overrides import check_arrows, check_holdings, check_layout, check_rotations

START_TILES = ("none", "action", "action_secret", "any", "any_secret")
ACTION_LIMITS = ("per_window", "per_turn", "unlimited")
PER_WINDOW, PER_TURN, UNLIMITED = range(len(ACTION_LIMITS))
REWARD_MODES = ("rank", "score_diff")
MAX_TURNS_BOUND = 100_000  # a game lasts at most R C turns; the limit only has to be finite

OPTIONS: dict[str, Option] = {
    "num_players": integer(2, 2, 5, "seats at the table"),
    "map_rows": integer(6, 2, 12, "rows of the map"),
    "map_cols": integer(6, 2, 12, "columns of the map"),
    "dark_tunnels": flag(False, "module: face-down tiles, Onyx, Lantern and Flare"),
    "second_arrow": flag(False, "module: a second arrow opposite the first"),
    "gemshards": flag(False, "module: split tiles, Opal, Turn Stone and Prism"),
    "golden_actions": flag(False, "module: Thief, Gift, Avalanche, Earthquake, Greed and Twister"),
    "start_tiles": choice(
        "none",
        START_TILES,
        "a start tile per seat: none, an action tile or any plain tile, public or secret",
    ),
    "start_player_chooses_arrow": flag(False, "seat 0 picks the starting corner and gets no start tile"),
    "action_limit": choice(
        "per_window", ACTION_LIMITS, "action tiles a turn: one per window, one per turn, or any"
    ),
    "max_turns": integer(
        None, 1, MAX_TURNS_BOUND, "turns before the game is cut short (none: 4 R C)", allow_none=True
    ),
    "reward_mode": choice("rank", REWARD_MODES, "rank rewards, or (own - mean of the others) / 20"),
    "layout_override": custom(
        None, "test hook: the tile name per cell (None: empty)", "none or a list", check_layout
    ),
    "rotation_override": custom(
        None, "test hook: the rotation 0..3 per cell", "none or a list", check_rotations
    ),
    "arrow_override": custom(
        None, "test hook: the starting position 0..7 per arrow", "none or a list", check_arrows
    ),
    "holdings_override": custom(
        None,
        'test hook: each seat\'s starting tiles, e.g. `{"Ruby": 2, "secret": "Anchor"}`',
        "none or a list of dicts",
        check_holdings,
    ),
}


def bound(option: str) -> int:
    """The largest value an integer option allows (layouts size their slots by it)."""
    return OPTIONS[option].high
