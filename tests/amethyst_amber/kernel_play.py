"""Play the reference and the kernel side by side, comparing after every step."""

from __future__ import annotations

from collections import Counter
from functools import partial

import numpy as np

from meeplezoo.envs.amethyst_amber.kernel import rules as kernel
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row
from tests.core.kernel_checks import assert_same_position, assert_same_view

LAYOUT_STATE = S.STATE_LAYOUT


same_position = partial(assert_same_position, LAYOUT_STATE)  # (py, row, game, full)
same_view = partial(assert_same_view, kernel)  # (py, row, grow, mask)


def play_both(game, seed, pick, seen: Counter | None = None, full: bool = True, check=None, most=None) -> int:
    """Deal from ``seed`` on both sides and play ``pick(legal count)`` until
    the end (or ``most`` steps), comparing after every step (and calling
    ``check(py, row)``); returns the steps played."""
    grow = game_row(game)
    py = game.new_initial_state(seed)
    row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
    kernel.new_game(row, grow, seed)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    steps = 0
    while True:
        same_position(py, row, game, full)
        same_view(py, row, grow, mask)
        if check is not None:
            check(py, row)
        if py.done or steps == most:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[pick(len(legal))])
        if seen is not None:
            seen[py.phase_name(), py.decode(action)[0]] += 1
        py.apply(action)
        kernel.apply_action(row, grow, action)
        steps += 1
    if seen is not None:
        seen["END", "truncated" if py.truncated else "over"] += 1
    out = np.full(game.num_players, np.nan)
    kernel.returns(row, grow, out)
    np.testing.assert_array_equal(out, py.returns())
    return steps


def uniform(rng: np.random.Generator):
    return lambda count: int(rng.integers(count))
