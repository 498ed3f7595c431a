"""Configurations the kernel's differential tests share, and the two-sided play."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import rules as kernel
from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.game_row import game_row
from meeplezoo.envs.amoeba.rules import AmoebaGame

# small boards with small amoebas to split: random play reaches splits, merges and claims there
SPLITS = {"min_split_size": 2, "min_part_size": 1, "min_claim_size": 1, "board_units": 12}
CONFIGS = [
    {},
    *AmoebaGame.test_configs,
    {**SPLITS, "num_players": 3},
    {**SPLITS, "num_players": 2, "board_units": 10, "nuclei_per_player": 30},
    {**SPLITS, "num_players": 4, "min_split_size": 3, "nuclei_per_player": 20, "reward_mode": "score_diff"},
    {**SPLITS, "num_players": 2, "board_units": 8, "allow_rotation": False, "remove_stuck_hand": False},
    {"num_players": 2, "board_units": 6, "hand_size": 1},
    {"num_players": 3, "die_faces": [3], "dice_override": [1, 2, 3, 1], "hand_size": 2, "max_turns": 25},
    {"num_players": 4, "board_units": 64, "pile_override": list(range(10, 50))},
]
LAYOUT = S.STATE_LAYOUT
GAMES: dict[int, AmoebaGame] = {}


def game_of(index: int) -> AmoebaGame:
    if index not in GAMES:
        GAMES[index] = AmoebaGame(**CONFIGS[index])
    return GAMES[index]


def row_of(state) -> np.ndarray:
    return LAYOUT.write(state, LAYOUT.new_rows(1)[0])


def same_position(py, row, full: bool) -> None:
    """The row holds ``py`` word for word (generator included); with
    ``full``, read back it is the same position dict too."""
    expected = row_of(py)
    if not np.array_equal(row, expected):
        wrong = sorted(
            {name for name, slot in LAYOUT.slots.items() if (row != expected)[slot.offset : slot.end].any()}
        )
        raise AssertionError(f"the rows differ in {wrong}")
    if full:
        assert LAYOUT.read(row, py.game).to_dict() == py.to_dict()


def same_view(py, row, grow, mask) -> None:
    """The same legal mask, seat to move and end."""
    kernel.legal_mask(row, grow, mask)
    np.testing.assert_array_equal(mask, py.legal_action_mask())
    assert kernel.current_player(row) == py.current_player
    assert kernel.is_terminal(row) == py.terminal
    assert kernel.is_truncated(row) == py.truncated


def play_both(game, seed, pick, seen=None, full: bool = True, check=None) -> int:
    """Deal from ``seed`` on both sides and play ``pick(legal count)`` until
    the end, comparing after every step (and ``check(py, row)``), then the
    returns and points; returns the steps."""
    grow = game_row(game)
    py = game.new_initial_state(seed)
    row = LAYOUT.new_rows(1)[0]
    kernel.new_game(row, grow, seed)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    steps = 0
    while True:
        same_position(py, row, full)
        same_view(py, row, grow, mask)
        if check is not None:
            check(py, row)
        if py.done:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[pick(len(legal))])
        py.apply(action)
        kernel.apply_action(row, grow, action)
        if seen is not None:
            seen[py.phase_name()] += 1
            if py.last_split is not None:
                seen["split merged" if py.last_split["merged"] else "split"] += 1
                py.last_split = None
        steps += 1
    if seen is not None:
        seen["truncated" if py.truncated else "over"] += 1
    out = np.full(game.num_players, np.nan)
    kernel.returns(row, grow, out)
    np.testing.assert_array_equal(out, py.returns())
    points = np.full(game.num_players, -1, dtype=np.int64)
    kernel.points(row, grow, points)
    assert points.tolist() == py.scores()
    return steps


def uniform(rng: np.random.Generator):
    return lambda count: int(rng.integers(count))
