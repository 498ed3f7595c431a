"""The compiled observation (``kernel/observe.py``) is the same int8 bytes as
the observer's (``observe.py``) for every seat at every step of random
games, on every configuration (boards of 6 to 64 units, 2 to 4 seats, the
claim step's offer and the split tiles' second storey included)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amoeba.kernel.game_row import game_row
from meeplezoo.envs.amoeba.kernel.observe import observe
from tests.amoeba.kernel_configs import CONFIGS, game_of, play_both, uniform


def same_observations(py, row) -> None:
    game = py.game
    out = np.full(game.observation_shape, -1, dtype=np.int8)
    for seat in range(game.num_players):
        observe(row, game_row(game), seat, out)
        expected = py.observation(seat)
        if not np.array_equal(out, expected):
            wrong = np.flatnonzero(out != expected)
            raise AssertionError(f"seat {seat}: {len(wrong)} bytes differ, first at {wrong[:8].tolist()}")


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_seat_sees_the_same_bytes(index):
    rng = np.random.default_rng([7, index])
    play_both(game_of(index), index, uniform(rng), full=False, check=same_observations)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_seat_sees_the_same_bytes_in_many_games(index):
    for seed in range(100, 110):
        rng = np.random.default_rng([index, seed])
        play_both(game_of(index), seed, uniform(rng), full=False, check=same_observations)
