"""``State.evaluate(viewer)``: the seat's estimate, and the viewer check
every game's estimate goes through."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.state import State
from tests.core.toy_game import HighCardGame, HighCardState


def _dealt(cards, num_players=None):
    game = HighCardGame(num_players=num_players or len(cards))
    state = game.new_initial_state(0)
    state.cards = list(cards)
    return state


class _Recording(HighCardState):
    """Counts the calls that reach the game's own estimate."""

    calls = 0

    def _evaluate(self, viewer):
        type(self).calls += 1
        return super()._evaluate(viewer)


class _Default(HighCardState):
    _evaluate = State._evaluate  # the base class's estimate: returns()


def test_a_viewer_expects_every_card_it_cannot_see_to_be_any_other_value():
    state = _dealt([9, 0, 4])
    assert state.evaluate(viewer=0).tolist() == [1.0, -0.5, -0.5]  # 9 beats every other card
    assert state.evaluate(viewer=1).tolist() == [0.5, -1.0, 0.5]
    mid = state.evaluate(viewer=2)
    assert mid[2] == pytest.approx(-1 / 9) and mid.sum() == pytest.approx(0.0)
    # the whole state ranks the cards as they lie
    assert state.evaluate().tolist() == state.returns().tolist() == [1.0, -1.0, 0.0]


def test_a_viewers_estimate_ignores_the_other_cards():
    a, b = _dealt([6, 1, 2]), _dealt([6, 9, 8])
    assert a.evaluate(viewer=0).tolist() == b.evaluate(viewer=0).tolist()
    assert a.evaluate().tolist() != b.evaluate().tolist()


def test_once_over_every_viewer_gets_the_returns():
    state = _dealt([3, 7])
    state.stopped = [True, True]
    for viewer in (None, 0, 1):
        assert state.evaluate(viewer).tolist() == state.returns().tolist()


@pytest.mark.parametrize("cls", [_Recording, _Default], ids=["override", "base"])
def test_a_bad_viewer_is_refused_by_name_before_the_estimate_runs(cls):
    game = HighCardGame(num_players=3)
    state = cls(game, np.random.default_rng(0))
    state.cards = [1, 2, 3]
    _Recording.calls = 0
    for bad in (3, -1):
        with pytest.raises(ValueError, match=f"viewer {bad} is not a seat of 0..2"):
            state.evaluate(viewer=bad)
    for bad in ("0", 1.0, True, [0]):
        with pytest.raises(TypeError, match="viewer must be a seat"):
            state.evaluate(bad)
    assert _Recording.calls == 0
    assert state.evaluate(viewer=np.int64(1)).shape == (3,)  # numpy integers are seats
