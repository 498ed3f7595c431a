"""The rules' log of replaced amoeba records (``changed_amoebas``) and the
observer that follows it: a clone has a log of its own, so observing a clone
and the original after different moves gives what fresh observers give."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.observe import encode_reference
from meeplezoo.envs.amoeba.rules import AmoebaGame
from meeplezoo.envs.core.rng import make_rng


def _step(state, rng) -> None:
    legal = state.legal_actions()
    state.apply(int(legal[rng.integers(len(legal))]))


def _check_every_seat(state) -> None:
    for p in range(state.game.num_players):
        assert np.array_equal(state.observation(p), encode_reference(state, p))


def test_clone_and_original_after_different_moves_observe_as_fresh():
    game = AmoebaGame(num_players=3)
    rng = make_rng(4)
    original = game.new_initial_state(2)
    for _ in range(12):
        _step(original, rng)
    _check_every_seat(original)
    clone = original.clone()
    assert clone.changed_amoebas == [] and clone.changed_amoebas is not original.changed_amoebas
    for _ in range(40):
        for state in (original, clone):
            if not state.done:
                _step(state, rng)
            _check_every_seat(state)


def test_every_replaced_record_is_logged():
    """Whatever changed in the amoeba records since a point is in the log after it."""
    game = AmoebaGame()
    rng = make_rng(9)
    state = game.new_initial_state(1)
    while not state.done:
        before, read = dict(state.amoebas), len(state.changed_amoebas)
        _step(state, rng)
        replaced = {aid for aid, record in state.amoebas.items() if before.get(aid) is not record}
        assert replaced <= set(state.changed_amoebas[read:])
