"""Every bot picks a legal action, on hundreds of positions of every game."""

from __future__ import annotations

import pytest

from meeplezoo.agents.base import SeatView
from meeplezoo.agents.registry import make_agent
from tests.agents.helpers import all_games, observation_dict, random_positions

BOTS = {
    "random": 300,  # positions per game
    "mcts:sims=4,depth=3": 100,
    "ismcts:sims=4,depth=3": 100,
}


@pytest.mark.parametrize("spec", list(BOTS))
@pytest.mark.parametrize("name,make_game", all_games(), ids=[n for n, _ in all_games()])
def test_bot_picks_only_legal_actions(name, make_game, spec):
    game = make_game()
    agent = make_agent(spec, seed=1)
    for state in random_positions(game, BOTS[spec], seed=7):
        seat = state.current_player
        before = state.to_dict()
        action = agent.act(observation_dict(state, seat), SeatView(state, seat))
        assert state.legal_action_mask()[action], f"{spec} chose illegal {action} in {name}"
        assert state.to_dict() == before, f"{spec} changed the real state of {name}"
