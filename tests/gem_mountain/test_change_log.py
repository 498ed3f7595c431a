"""The rules' change logs (``changed_cells``, ``changed_seats``) and the
observer that follows them: a clone or a loaded position has logs of its own,
so observing a clone never replays the original's changes (or the reverse)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain.observe import encode
from meeplezoo.envs.gem_mountain.rules import GRAB, GemMountainGame

CONFIGS = [{}, *GemMountainGame.test_configs]


def _step(state, rng) -> None:
    legal = state.legal_actions()
    state.apply(int(legal[rng.integers(len(legal))]))


def _check_every_seat(state) -> None:
    """Each seat observed twice (the second time through its kept view)."""
    for p in range(state.game.num_players):
        for _ in range(2):
            assert np.array_equal(state.observation(p), encode(state, p))


@pytest.mark.parametrize(
    "cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_clone_and_original_after_different_moves_observe_as_fresh(cfg):
    game = GemMountainGame(**cfg)
    rng = make_rng(11)
    original = game.new_initial_state(5)
    for _ in range(4):
        _step(original, rng)
    _check_every_seat(original)  # the views now follow the original
    clone = original.clone()
    assert clone.changed_cells == [] and clone.changed_seats == []
    assert clone.changed_cells is not original.changed_cells
    for _ in range(30):
        for state in (original, clone):
            if not state.done:
                _step(state, rng)  # each its own random move
            _check_every_seat(state)


def test_loaded_position_starts_empty_logs_and_observes_as_fresh():
    game = GemMountainGame(dark_tunnels=True, gemshards=True, golden_actions=True)
    rng = make_rng(3)
    state = game.new_initial_state(8)
    for _ in range(10):
        _step(state, rng)
    _check_every_seat(state)
    loaded = game.state_from_dict(state.to_dict())
    assert loaded.changed_cells == [] and loaded.changed_seats == []
    while not loaded.done:
        _step(loaded, rng)
        _check_every_seat(loaded)


def test_a_grab_logs_its_cell_and_the_seat_that_gained():
    game = GemMountainGame()
    state = game.new_initial_state(0)
    while state.phase != GRAB:
        _step(state, make_rng(0))
    seat, cell = state.player, int(state.legal_actions()[0])
    cells, seats = len(state.changed_cells), len(state.changed_seats)
    state.apply(cell)
    assert state.changed_cells[cells:] == [cell]
    assert state.changed_seats[seats:] == [seat]
