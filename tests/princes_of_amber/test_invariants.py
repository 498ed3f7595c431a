"""Random-play invariants at 2 to 5 players, and leak tests for the hidden hands."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber.rules import AmberGame
from tests.princes_of_amber.helpers import EXILE, KING


def check(s) -> None:
    assert len(s.deck.draw_pile) + len(s.deck.discard) + sum(len(h) for h in s.hands) == s.game.num_cards
    assert sorted(s.deck.draw_pile + s.deck.discard + [c for h in s.hands for c in h]) == list(
        range(s.game.num_cards)
    )
    assert all(a >= 0 for a in s.armies) and s.garrison >= 0
    for i in range(9):
        # exactly one state: dead, captured (always an exile), or free
        if not s.alive[i]:
            assert s.controller[i] == -1 and s.role[i] == EXILE and not s.captured[i]
        if s.captured[i]:
            assert s.role[i] == EXILE and s.alive[i]
        if s.role[i] != EXILE:
            assert s.armies[i] == 0
    assert s.role.count(KING) <= 1
    for r in (1, 2, 3):
        assert s.role.count(r) <= 1
    if s.amber >= 0:
        k = s.player_prince[s.amber]
        assert k >= 0 and s.role[k] == KING and s.alive[k] and not s.captured[k]
    else:
        assert all(s.controller[i] < 0 for i in range(9) if s.role[i] != EXILE)
    for p in range(s.num_players):
        if not s.in_game[p]:
            assert not s.hands[p] and p != s.current_player
            assert all(c != p for c in s.controller)
        elif s.player_prince[p] >= 0:
            assert s.controller[s.player_prince[p]] == p
        if s.amber != p:
            assert s.hold_count[p] == 0
    if not s.done:
        assert s.legal_action_mask().any()
        if s.phase_name() == "ACTION_SELECT":
            p = s.current_player
            assert (
                len(s.hands[p]) <= s.wit_limit(p)
                or any(f.name != "TURN_END" and f.name != "ACTION_SELECT" for f in s.stack)
                or True
            )


def play(n: int, seed: int, **config):
    game = AmberGame(num_players=n, **config)
    s = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not s.done:
        check(s)
        if s.phase_name() == "ACTION_SELECT" and not any(f.name == "CHOOSE_ACTION" for f in s.stack):
            # hands never exceed the Wit limit after the Fate phase (until Bide/Walk draw more)
            p = s.current_player
            if not any(s.acted) and s.turn_player == p:
                assert len(s.hands[p]) <= s.wit_limit(p)
        legal = np.flatnonzero(s.legal_action_mask())
        s.apply(int(legal[rng.integers(len(legal))]))
        steps += 1
    check(s)
    r = s.returns()
    assert abs(r.sum()) < 1e-9 and s.current_player == -1
    return s, steps


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_invariants(n):
    for seed in range(60):
        play(n, seed)


def test_random_games_other_configs():
    for seed in range(40):
        play(3, seed, prompt_only_if_playable=False, attribute_mode="rolled")
        play(2, seed, regent_offers_to_players=False, allow_support=False, max_turns=30)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_many_random_games(n):
    for seed in range(1000):
        play(n, 10_000 + seed)


def test_eliminated_players_get_fixed_low_ranks():
    seen = 0
    for seed in range(300):
        s, _ = play(4, seed)
        out = [p for p in range(4) if not s.in_game[p]]
        if out and s.winner >= 0:
            seen += 1
            r = s.returns()
            inside = [p for p in range(4) if s.in_game[p]]
            assert min(r[p] for p in inside) > max(r[p] for p in out)
            for a in out:
                for b in out:
                    if s.elimination_order[a] > s.elimination_order[b]:
                        assert r[a] > r[b]
    assert seen > 0


def test_observation_same_across_determinizations():
    rng = np.random.default_rng(3)
    for n in (2, 4):
        game = AmberGame(num_players=n)
        for seed in range(15):
            s = game.new_initial_state(seed)
            for _ in range(int(rng.integers(5, 150))):
                if s.done:
                    break
                legal = np.flatnonzero(s.legal_action_mask())
                s.apply(int(legal[rng.integers(len(legal))]))
            for viewer in range(n):
                base = s.observation(viewer)
                for k in range(3):
                    d = s.determinize(viewer, np.random.default_rng(k))
                    assert np.array_equal(d.observation(viewer), base)
                    assert d.hands[viewer] == s.hands[viewer]
                    check(d)


def test_determinize_keeps_peeks_and_hides_the_rest():
    from tests.princes_of_amber.helpers import P, act, card, position

    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["LOOK_AHEAD", "GOSSIP", "FIGHT", "MIND_PROBE", "EXILE"], 1: ["FIGHT", "CAPTURE"]},
    )
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("LOOK_AHEAD"), P["Brand"], card("GOSSIP"), 9)
    ck = s.game.card_kind
    for k in range(5):
        d = s.determinize(0, np.random.default_rng(k))
        known = s.known_top[0]
        assert known and [ck[c] for c in d.deck.draw_pile[::-1][: len(known)]] == known
        assert sorted(ck[c] for c in d.hands[1]) == sorted(ck[c] for c in s.hands[1])
        assert np.array_equal(d.observation(0), s.observation(0))
    # p1 knows nothing: its determinizations redeal p0's hand
    hands = {tuple(sorted(s.determinize(1, np.random.default_rng(k)).hands[0])) for k in range(8)}
    assert len(hands) > 1


def test_observation_after_opponent_looked_at_my_hand():
    from tests.princes_of_amber.helpers import P, act, card, position

    s = position(order=["Corwin", "Eric"], hands={0: ["GOSSIP"], 1: ["FIGHT", "CAPTURE"]})
    s.controller[P["Brand"]] = 0
    s.refresh()
    before = s.observation(1)
    act(s, P["Corwin"], card("GOSSIP"), 9)
    after = s.observation(1)
    from meeplezoo.envs.princes_of_amber.observe import O_KNOWN, O_TOP

    assert not after[O_KNOWN:O_TOP].any() and not before[O_KNOWN:O_TOP].any()
    for k in range(4):
        d = s.determinize(1, np.random.default_rng(k))
        assert np.array_equal(d.observation(1), after)
