"""The compiled observation (``kernel/observe.py``) is ``Encoder.encode`` byte
for byte: for every seat, at every step of random games on every
configuration the tests name (board sizes, frames, deck modes, bank rules),
into a buffer full of garbage, and through the compiled AEC backend."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.state import CompiledState
from meeplezoo.envs.gold_rush_gangs.kernel import rules as kernel
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.kernel.game_row import game_row
from meeplezoo.envs.gold_rush_gangs.kernel.observe import observe
from tests.gold_rush_gangs.kernel_configs import CONFIGS, game_of
from tests.gold_rush_gangs.test_kernel_rules import SMALL_BOARDS, mover, play_both


def same_views(py, row) -> None:
    """Every seat's compiled view of the row is its reference view, every word overwritten."""
    game = py.game
    grow = game_row(game)
    for seat in range(game.num_players):
        out = np.full(game.observation_shape[0], np.nan, dtype=np.float32)
        observe(row, grow, seat, out)
        expected = py.observation(seat)
        if not np.array_equal(out, expected):
            wrong = np.flatnonzero(out != expected)
            raise AssertionError(f"seat {seat}: words {wrong[:12].tolist()} differ")


@pytest.mark.parametrize("index", SMALL_BOARDS)
def test_every_seat_sees_what_the_encoder_shows_at_every_step(index):
    game = game_of(index)
    for seed in range(2):
        play_both(
            game, seed, mover(np.random.default_rng([7, index, seed]), game), full=False, check=same_views
        )


@pytest.mark.parametrize("index", [k for k in range(len(CONFIGS)) if k not in SMALL_BOARDS])
def test_the_large_boards_show_the_same_through_a_short_game(index):
    """The default board sizes: the setup and the first turns of a game, every step."""
    game = game_of(index)
    rng = np.random.default_rng(index)
    grow = game_row(game)
    py = game.new_initial_state(index)
    row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
    kernel.new_game(row, grow, index)
    for _ in range(60):
        same_views(py, row)
        legal = np.flatnonzero(py.legal_action_mask())
        action = int(legal[rng.integers(max(1, len(legal) - 1))])
        py.apply(action)
        kernel.apply_action(row, grow, action)


def test_the_compiled_backend_answers_as_the_reference():
    """CompiledState (what ``make`` runs) gives the reference's masks, views, rewards and estimates."""
    game = game_of(SMALL_BOARDS[0])
    rng = np.random.default_rng(4)
    py = game.new_initial_state(21)
    twin = CompiledState.new(game, 21)
    while not py.done:
        np.testing.assert_array_equal(twin.legal_action_mask(), py.legal_action_mask())
        assert twin.current_player == py.current_player
        for seat in range(game.num_players):
            np.testing.assert_array_equal(twin.observation(seat), py.observation(seat))
            np.testing.assert_allclose(twin.evaluate(seat), py.evaluate(seat), rtol=0, atol=1e-12)
        legal = np.flatnonzero(py.legal_action_mask())
        action = int(legal[rng.integers(len(legal))])
        py.apply(action)
        twin.apply(action)
    assert twin.to_dict() == py.to_dict()
    np.testing.assert_allclose(twin.returns(), py.returns(), rtol=0, atol=1e-12)
