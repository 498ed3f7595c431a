"""The fast (cached, incremental) observation encoder against the from-scratch
reference encoder, on random positions and after direct edits."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber.observe import OBS_SIZE, encode
from meeplezoo.envs.princes_of_amber.observe_reference import encode_reference
from meeplezoo.envs.princes_of_amber.rules import AmberGame
from tests.princes_of_amber.helpers import P, act, card, position, set_hand


def same(s, player):
    fast = encode(s, player)
    ref = encode_reference(s, player)
    assert fast.shape == (OBS_SIZE,) and fast.dtype == np.float32
    assert np.array_equal(fast, ref), np.flatnonzero(fast != ref)
    return fast


@pytest.mark.parametrize(
    "config",
    [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 5},
        {"num_players": 4, "attribute_mode": "rolled", "prompt_only_if_playable": False},
        {"num_players": 3, "hold_turns": 2, "garrison_start": 3},
    ],
)
def test_fast_encoder_matches_reference_on_random_play(config):
    game = AmberGame(**config)
    rnd = random.Random(7)
    for seed in range(6):
        s = game.new_initial_state(seed)
        while True:
            # every viewer on the evolving state (cached path), the mover also on a fresh clone (cold path)
            for p in range(s.num_players):
                same(s, p)
            if s.current_player >= 0 and rnd.random() < 0.1:
                same(s.clone(), s.current_player)
            if s.done:
                break
            legal = s.legal_action_mask().nonzero()[0]
            s.apply(int(legal[rnd.randrange(len(legal))]))


def test_fast_encoder_matches_reference_on_determinizations_and_round_trips():
    game = AmberGame(num_players=4)
    rnd = random.Random(3)
    for seed in range(6):
        s = game.new_initial_state(seed)
        for _ in range(rnd.randrange(20, 200)):
            if s.done:
                break
            legal = s.legal_action_mask().nonzero()[0]
            s.apply(int(legal[rnd.randrange(len(legal))]))
        for p in range(4):
            same(s, p)
            same(s.determinize(p, np.random.default_rng(seed)), p)
            same(game.state_from_dict(s.to_dict()), p)


def test_fast_encoder_follows_direct_edits():
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT", "GOSSIP"], 1: ["CAPTURE"]})
    s.controller[P["Brand"]] = 0
    s.refresh()
    for p in range(2):
        same(s, p)
    # edits of every prince list, of the hands and of the discard pile (not only appends)
    s.hits[P["Eric"]] = 3
    s.armies[P["Corwin"]] = 25
    s.amnesia[P["Eric"]] = 2
    s.psychic_hold[P["Brand"]] = 1
    s.captured[P["Julian"]], s.jailer[P["Julian"]] = 1, 0
    s.role[P["Bleys"]] = 1
    s.player_prince[0] = P["Brand"]
    s.garrison = 45
    for p in range(2):
        same(s, p)
    ck = s.game.card_kind
    s.deck.discard.extend(s.deck.draw_pile[:10])
    del s.deck.draw_pile[:10]
    same(s, 0)
    s.deck.discard.pop(3)
    same(s, 0)
    s.deck.discard.append(s.deck.draw_pile.pop())
    same(s, 1)
    set_hand(s, 0, ["FIGHT", "FIGHT", "FIGHT", "FIGHT", "FIGHT", "GOSSIP"])
    same(s, 0)
    act(s, P["Corwin"], card("GOSSIP"), 9)
    assert s.known_hand[0][1] is not None and ck is s.game.card_kind
    for p in range(2):
        same(s, p)


def test_returned_observation_is_never_changed_by_the_state():
    s = AmberGame(num_players=3).new_initial_state(4)
    rnd = random.Random(0)
    kept = []
    while not s.done and len(kept) < 300:
        obs = s.observation(s.current_player)
        kept.append((obs, obs.copy()))
        obs[:] = 0.5  # a caller scribbling on its copy must not reach the state's caches
        assert np.array_equal(encode(s, s.current_player), encode_reference(s, s.current_player))
        legal = s.legal_action_mask().nonzero()[0]
        s.apply(int(legal[rnd.randrange(len(legal))]))
    assert all(np.all(o == 0.5) for o, _ in kept)
    assert len({o.tobytes() for _, o in kept}) > 10
