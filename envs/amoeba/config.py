"""Amoeba's settings, declared once (defaults, bounds, checks, meaning).

Every number is bounded; the lists are bounded by what they hold (die faces
1..3, distinct tile ids). The rules page's configuration table is written
from ``OPTIONS``.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.amoeba.records import HAND_SLOTS
from meeplezoo.envs.amoeba.tiles import NUM_TILES
from meeplezoo.envs.core.dice import check_die_script
from meeplezoo.envs.core.integers import integer_index
from meeplezoo.envs.core.options import choice, custom, flag, integer


def _check_die_faces(value: Any, key: str, game_name: str) -> tuple[int, ...]:
    ok = isinstance(value, (list, tuple)) and value
    if not ok or not all((face := integer_index(entry)) is not None and 1 <= face <= 3 for entry in value):
        raise ValueError(f"{game_name}: {key} must be a non-empty list of integers 1..3, got {value!r}")
    return tuple(int(face) for face in value)


def _check_board_units(value: Any, key: str, game_name: str) -> int:
    value = integer(24, 6, 64, "").check(value, key, game_name)
    if value % 2:
        raise ValueError(f"{game_name}: {key} must be even, got {value!r}")
    return value


def _check_pile(value: Any, key: str, game_name: str) -> list[int] | None:
    """None, or a list of distinct tile ids (the error names the first bad entry)."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise ValueError(
            f"{game_name}: {key} must be None or a list of distinct tile ids 0..83, got {value!r}"
        )
    seen: set[int] = set()
    for index, tile in enumerate(value):
        if (tile_id := integer_index(tile)) is None or not 0 <= tile_id < NUM_TILES:
            raise ValueError(f"{game_name}: {key} entry {index} must be a tile id 0..83, got {tile!r}")
        if int(tile) in seen:
            raise ValueError(f"{game_name}: {key} entry {index}: tile {int(tile)} is in the pile twice")
        seen.add(int(tile))
    return [int(t) for t in value]


def check_pile_deals(config: dict, game_name: str) -> None:
    """A pile override must hold enough tiles to deal every hand."""
    pile = config["pile_override"]
    needed = config["num_players"] * config["hand_size"]
    if pile is not None and len(pile) < needed:
        raise ValueError(
            f"{game_name}: pile_override has {len(pile)} tiles; dealing {config['num_players']} hands "
            f"of {config['hand_size']} needs at least {needed}"
        )


def _check_dice_script(value: Any, key: str, game_name: str) -> list[int] | None:
    return check_die_script(value, key, 1, 3, game_name)


OPTIONS = {
    "num_players": integer(2, 2, 4, "seats at the table"),
    "board_units": custom(24, "U: the board is U x U half-tile units", "even, 6..64", _check_board_units),
    "nuclei_per_player": integer(10, 1, 40, "nuclei in each supply"),
    "hand_size": integer(3, 1, HAND_SLOTS, "tiles held"),
    "die_faces": custom(
        (1, 1, 2, 2, 3, 3),
        "the die's faces: placements per turn",
        "non-empty list of 1..3",
        _check_die_faces,
    ),
    "min_claim_size": integer(2, 1, 20, "segments an amoeba needs to be claimed"),
    "min_split_size": integer(4, 2, 40, "segments an owned amoeba needs to be split"),
    "min_part_size": integer(2, 1, 20, "segments each part of a split needs"),
    "allow_rotation": flag(True, "tiles may be turned (false: rotation 0 only)"),
    "remove_stuck_hand": flag(True, "a hand that cannot place a tile leaves the game"),
    "max_turns": integer(400, 1, 100000, "turns before the game is truncated"),
    "reward_mode": choice("rank", ("rank", "score_diff"), "rank rewards, or score difference / 50"),
    "dice_override": custom(
        None,
        "test hook: the first die results, in order",
        "none or a list of 1..3",
        lambda value, key, name: check_die_script(value, key, 1, 3, name),
    ),
    "pile_override": custom(
        None,
        "test hook: the pile order (drawn from the end)",
        "none or a list of distinct tile ids 0..83, enough to deal every hand",
        _check_pile,
    ),
}
