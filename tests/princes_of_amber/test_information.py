"""Determinization reads only the viewer's information set; evaluate() is a
sensible, zero-sum estimate inside the reward range."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber.rules import AmberGame
from tests.princes_of_amber.helpers import PASS, P, act, card, position


def _random_position(game, seed, steps):
    s = game.new_initial_state(seed)
    rng = np.random.default_rng(seed + 1000)
    for _ in range(steps):
        if s.done:
            break
        legal = np.flatnonzero(s.legal_action_mask())
        s.apply(int(legal[rng.integers(len(legal))]))
    return s


def _dict(s):
    d = s.to_dict()
    d.pop("rng")
    return d


def test_every_viewer_gets_the_same_redeal_from_any_consistent_truth():
    for n in (2, 3, 5):
        game = AmberGame(num_players=n)
        for seed in range(8):
            s = _random_position(game, seed, 15 * seed)
            if s.done:
                continue
            for viewer in range(n):
                twin = s.determinize(viewer, np.random.default_rng(77 + seed))
                a = _dict(s.determinize(viewer, np.random.default_rng(seed)))
                b = _dict(twin.determinize(viewer, np.random.default_rng(seed)))
                assert a == b


def test_redeal_keeps_the_window_another_player_is_asked():
    """Interpretation 41, with the opt-in ``prompt_only_if_playable`` (the window shows a card)."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: ["GET_AWAY", "BLESSING", "AMNESIA"]},
        prompt_only_if_playable=True,
    )
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "NEGATE" and s.current_player == 1
    for k in range(10):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.current_player == 1 and d.phase_name() == "NEGATE"
        # the window is only posed to a holder of a negating card: the redeal honours that
        assert any(a != PASS for a in d.legal) and PASS in d.legal
        assert all(d.hand_kinds[1][a - card(0)] > 0 for a in d.legal if a != PASS)
        assert set(np.flatnonzero(d.legal_action_mask())) == set(d.legal)


def test_other_players_deck_memory_is_rebuilt_from_the_redeal():
    s = position(order=["Corwin", "Eric"], hands={0: ["LOOK_AHEAD", "FIGHT"], 1: ["FIGHT"]})
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("LOOK_AHEAD"))
    assert len(s.known_top[0]) >= 3
    ck = s.game.card_kind
    tops = set()
    for k in range(8):
        d = s.determinize(1, np.random.default_rng(k))
        # p1 only knows how many cards p0 saw; p0's memory now describes the new deck
        assert len(d.known_top[0]) == len(s.known_top[0])
        assert d.known_top[0] == [ck[c] for c in d.deck.draw_pile[::-1][: len(d.known_top[0])]]
        tops.add(tuple(d.known_top[0]))
    assert len(tops) > 1


def test_memory_of_a_third_players_hand_is_forgotten():
    s = position(
        n=3, order=["Corwin", "Eric", "Benedict"], hands={0: ["GOSSIP"], 1: ["FIGHT"], 2: ["CAPTURE"]}
    )
    s.controller[P["Brand"]] = 0
    s.refresh()
    s.known_hand[0][2] = list(s.hand_kinds[2])  # p0 saw p2's hand
    d = s.determinize(1, np.random.default_rng(0))
    assert d.known_hand[0][2] is None
    # what p0 knows of the viewer's own hand is kept: the viewer can work it out
    s.known_hand[0][1] = list(s.hand_kinds[1])
    d = s.determinize(1, np.random.default_rng(0))
    assert d.known_hand[0][1] == s.hand_kinds[1] and d.hands[1] == s.hands[1]


def test_evaluate_favours_the_stronger_player_and_stays_zero_sum():
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["FIGHT"]})
    even = s.evaluate()
    assert np.allclose(even, 0.0)
    for name in ("Brand", "Gerard", "Caine"):
        s.controller[P[name]] = 0
    v = s.evaluate()
    assert v[0] > 0 > v[1] and abs(v.sum()) < 1e-9 and np.all(np.abs(v) < 1)
    s.take_amber(1)
    w = s.evaluate()
    assert w[1] > v[1]


def test_evaluate_keeps_eliminated_players_exact():
    s = position(n=3, order=["Corwin", "Eric", "Benedict"], hands={0: ["FIGHT"], 1: ["FIGHT"], 2: []})
    s.eliminate(2)
    v = s.evaluate()
    assert v[2] == -1.0 and abs(v.sum()) < 1e-9
    assert np.all(v[:2] >= 0.0 - 1e-9) and np.all(v[:2] <= 1.0)
    s.controller[P["Brand"]] = 0
    v = s.evaluate()
    assert v[0] > v[1] >= 0.0 and v[2] == -1.0


def test_evaluate_equals_returns_at_the_end():
    game = AmberGame(num_players=3)
    for seed in range(6):
        s = _random_position(game, seed, 5000)
        assert s.done
        assert np.allclose(s.evaluate(), s.returns())
