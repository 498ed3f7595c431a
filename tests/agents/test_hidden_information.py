"""Search bots never read what their seat cannot see.

Two states that differ only in hidden information (others' cards, the deck
order, the generator's future draws) must get the same choice from a search
bot with the same seed. This holds exactly when the game's ``determinize``
itself depends only on the seat's information, which the toy game
guarantees by sorting the unseen cards before shuffling them.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.ismcts import ISMCTSAgent
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.envs.core.state import make_rng
from tests.agents.helpers import observation_dict, random_positions
from tests.core.toy_game import HighCardGame, HighCardState


def _twin(state, seat: int, seed: int):
    """Same for ``seat``: its card, everyone's stops, the deck size; the
    others' cards, the deck order and the generator are all redrawn."""
    twin = state.clone()
    rng = np.random.default_rng(seed)
    unseen = twin.deck + [c for i, c in enumerate(twin.cards) if i != seat]
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    for i in range(len(twin.cards)):
        if i != seat:
            twin.cards[i] = unseen.pop()
    twin.deck = unseen
    twin.rng = make_rng(seed + 1)
    return twin


def _toy_positions(count: int):
    game = HighCardGame(num_players=3)
    out = []
    for k in range(count):
        s = HighCardState(game, make_rng(k))
        s.deck = [int(c) for c in s.rng.permutation(10)]
        s.cards = [s.deck.pop() for _ in range(3)]
        rng = np.random.default_rng(k)
        for _ in range(int(rng.integers(0, 4))):
            if not s.done:
                s.apply(int(rng.choice(s.legal_actions())))
        if not s.done:
            out.append(s)
    return out


@pytest.mark.parametrize("cls", [ISMCTSAgent, MCTSAgent])
def test_choices_ignore_hidden_cards_on_toy_game(cls):
    differing = 0
    for k, state in enumerate(_toy_positions(60)):
        seat = state.current_player
        twin = _twin(state, seat, seed=1000 + k)
        differing += twin.cards != state.cards
        choices = [
            cls(seed=k, sims=40).act(observation_dict(s, seat), SeatView(s, seat)) for s in (state, twin)
        ]
        assert choices[0] == choices[1], f"position {k}: the choice depends on hidden cards"
    assert differing > 30  # the twins really hide different cards


def _canonical_determinize(state, seat) -> bool:
    a = state.determinize(seat, np.random.default_rng(5)).to_dict()
    twin = state.determinize(seat, np.random.default_rng(6))
    b = twin.determinize(seat, np.random.default_rng(5)).to_dict()
    a.pop("rng", None), b.pop("rng", None)
    return repr(a) == repr(b)


HIDDEN_GAMES = [n for n in envs.names() if envs.game_class(n).info.hidden_information]


@pytest.mark.parametrize("name", HIDDEN_GAMES or ["none"])
def test_ismcts_choices_ignore_hidden_state_on_registered_games(name):
    if name == "none":
        pytest.skip("no hidden-information game registered yet")
    game = envs.make_game(name)
    checked = 0
    for k, state in enumerate(random_positions(game, 12, seed=3, max_plies=40)):
        seat = state.current_player
        if state.legal_actions().size < 2:
            continue
        if not _canonical_determinize(state, seat):
            pytest.skip(f"{name}.determinize depends on the order of hidden cards, so twins differ")
        twin = state.determinize(seat, np.random.default_rng(100 + k))
        twin.rng = make_rng(200 + k)
        choices = [
            ISMCTSAgent(seed=k, sims=12, depth=4).act(observation_dict(s, seat), SeatView(s, seat))
            for s in (state, twin)
        ]
        assert choices[0] == choices[1], f"{name} position {k}: the choice depends on hidden state"
        checked += 1
    assert checked > 0
