"""What the tree search finds on the toy game, and how it scores cut-off rollouts."""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.base import SeatView
from meeplezoo.agents.mcts import MCTSAgent, TreeSearch
from tests.agents.helpers import observation_dict
from tests.core.toy_game import STOP, SWAP, HighCardGame, HighCardState


def _position(my_card: int, other_card: int) -> HighCardState:
    state = HighCardGame(num_players=2).new_initial_state(0)
    state.deck = [c for c in range(10) if c not in (my_card, other_card)]
    state.cards = [my_card, other_card]
    return state


def test_keeps_the_top_card_and_swaps_the_bottom_one():
    for card, best in ((9, STOP), (0, SWAP)):
        state = _position(card, 5)
        choice = MCTSAgent(seed=1, sims=200).act(observation_dict(state, 0), SeatView(state, 0))
        assert choice == best


class _Evaluated(HighCardState):
    def _evaluate(self, viewer):
        return np.array([0.25, -0.25])


def test_capped_rollouts_use_the_states_estimate():
    state = _position(3, 4)
    evaluated = _Evaluated(state.game, state.rng)
    evaluated.deck, evaluated.cards = list(state.deck), list(state.cards)
    search = TreeSearch(sims=1, c=1.4, depth=0, rng=np.random.default_rng(0))
    assert list(search._rollout(evaluated)) == [0.25, -0.25]
    assert list(search._rollout(state.clone())) == list(state.returns())  # no estimate: the game's returns


def test_backend_python_keeps_the_reference_search_on_a_game_with_a_kernel(monkeypatch):
    from meeplezoo import envs

    def refuse(self):
        raise AssertionError("backend=python must not reach the compiled search")

    monkeypatch.setattr(SeatView, "compiled_state", refuse)
    state = envs.make_game("gem_mountain_v0").new_initial_state(2)
    while state.legal_actions().size < 2:
        state.apply(int(state.legal_actions()[0]))
    seat = state.current_player
    choice = MCTSAgent(seed=3, sims=8, depth=3, backend="python").act(
        observation_dict(state, seat), SeatView(state, seat)
    )
    assert state.legal_action_mask()[choice]
