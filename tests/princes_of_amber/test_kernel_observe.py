"""The compiled observation (``kernel/observe.py``) is every seat's
observation byte for byte, at every step of random games on 2 to 5 players
and every option (whoever is to move, and once the game is over)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.kernel import rules as kernel
from meeplezoo.envs.princes_of_amber.kernel.game_row import game_row
from meeplezoo.envs.princes_of_amber.kernel.observe import observe
from meeplezoo.envs.princes_of_amber.state import AmberState
from tests.princes_of_amber.kernel_configs import CONFIGS

LAYOUT = layout_of(AmberState)


def assert_same_observations(py: AmberState, row: np.ndarray, grow: np.ndarray) -> None:
    out = np.full(py.game.observation_shape, np.nan, dtype=np.float32)
    for seat in range(py.num_players):
        observe(row, grow, seat, out)
        expected = py.observation(seat)
        assert out.dtype == expected.dtype
        assert out.tobytes() == expected.tobytes(), np.flatnonzero(out != expected)


def test_every_seat_sees_what_the_rules_show():
    """One game per configuration: each seat's view after every step (mid-war, memories, the end)."""
    for index, config in enumerate(CONFIGS):
        game = AmberGame(**config)
        grow = game_row(game)
        py = game.new_initial_state(50 + index)
        row = LAYOUT.new_rows(1)[0]
        kernel.new_game(row, grow, 50 + index)
        rng = np.random.default_rng(index)
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        while True:
            assert_same_observations(py, row, grow)
            if py.done:
                break
            kernel.legal_mask(row, grow, mask)
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(len(legal))])
            py.apply(action)
            kernel.apply_action(row, grow, action)
