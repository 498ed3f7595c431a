"""Bookkeeping rules of the table: elimination, the fall of Amber to the
neutral lords, the hand limit, discarding a played card and the strength
estimate the evaluator reads."""

from __future__ import annotations

from meeplezoo.envs.princes_of_amber.cards import EXILE, GUARDIAN, KING, NORTH, NUM_PRINCES, SOUTH, WIT
from meeplezoo.envs.princes_of_amber.rules import NOBODY_HAS_A_PRINCE

from .helpers import K, P, legal, position, set_hand


def test_eliminated_players_are_ranked_in_the_order_they_fell_and_lose_their_princes():
    s = position(n=4)
    before = list(s.controller)
    s.extra_turns[1] = 1
    s.hold_count[1] = 1
    s.eliminate(1)
    s.eliminate(2)
    assert s.elimination_order == [-1, 0, 1, -1] and s.eliminated_count == 2
    assert s.in_game == [1, 0, 0, 1]
    assert s.extra_turns[1] == 0 and s.hold_count[1] == 0
    for i in range(NUM_PRINCES):
        expected = -1 if before[i] in (1, 2) else before[i]
        assert s.controller[i] == expected
    assert s.winner < 0
    s.eliminate(3)
    assert s.winner == 0
    returns = s.returns()
    assert returns[0] > returns[3] > returns[2] > returns[1]


def test_when_amber_falls_its_holders_regents_go_neutral_other_regents_are_exiled_and_a_free_regent_is_crowned():
    s = position(n=2)
    s.role = [EXILE] * NUM_PRINCES
    s.controller = [-1] * NUM_PRINCES
    s.captured = [0] * NUM_PRINCES
    s.role[0], s.controller[0] = GUARDIAN, -1  # a neutral regent
    s.role[1], s.controller[1], s.captured[1] = NORTH, 0, 1  # the holder's captured regent
    s.role[2], s.controller[2] = SOUTH, 1  # a regent of another player
    s.controller[3] = 0  # an exile of the holder
    s.controller[4], s.controller[5] = 0, 1
    s.player_prince = [4, 5]
    s.amber = 0
    s.fall_neutral()
    assert s.amber == -1 and s.hold_count == [0, 0]
    assert s.controller[1] == -1 and s.role[1] == NORTH
    assert s.controller[2] == 1 and s.role[2] == EXILE
    assert s.controller[3] == 0 and s.role[3] == EXILE
    assert s.role[0] == KING and s.controller[0] == -1


def test_the_hand_limit_is_the_own_princes_wit_whichever_prince_it_is():
    s = position(n=2)
    for k in (0, 1):
        s.player_prince[0] = k
        assert s.wit_limit(0) == s.attributes[k][WIT]
    s.player_prince[0] = -1
    assert s.wit_limit(0) == NOBODY_HAS_A_PRINCE


def test_a_played_card_leaves_the_hand_for_the_discard_wherever_it_lies_in_the_hand():
    for kinds, taken, kept in (
        (["FIGHT", "CAPTURE"], "FIGHT", "CAPTURE"),
        (["FIGHT", "CAPTURE"], "CAPTURE", "FIGHT"),
    ):
        s = position(n=2, hands={0: kinds})
        discarded = len(s.deck.discard)
        s._take_card(0, K[taken])
        assert [s.game.card_kind[c] for c in s.hands[0]] == [K[kept]]
        assert s.game.card_kind[s.deck.discard[-1]] == K[taken] and len(s.deck.discard) == discarded + 1
        assert s.hand_kinds[0][K[taken]] == 0 and s.hand_kinds[0][K[kept]] == 1


def test_strength_grows_with_amber_held_longer_cards_armies_and_health():
    s = position(n=2, hands={0: ["FIGHT"]})
    own = s.player_prince[0]
    base = s.strength(0)
    set_hand(s, 0, ["FIGHT", "FIGHT"])
    more_cards = s.strength(0)
    assert more_cards > base
    s.armies[own] += 1
    more_armies = s.strength(0)
    assert more_armies > more_cards
    s.hits[own] -= 1
    wounded = s.strength(0)
    assert wounded < more_armies
    s.amber = 0
    s.hold_count[0] = 0
    crowned = s.strength(0)
    s.hold_count[0] = 1
    assert crowned > wounded and s.strength(0) > crowned


def test_a_captured_prince_adds_less_strength_than_a_free_one_but_still_some():
    s = position(n=2)
    other = next(i for i in range(NUM_PRINCES) if s.controller[i] < 0 and s.role[i] == EXILE)
    alone = s.strength(0)
    s.controller[other] = 0
    free = s.strength(0)
    s.captured[other], s.jailer[other] = 1, 1
    captured = s.strength(0)
    assert free > captured > alone


def test_without_regent_offers_another_players_exile_is_no_candidate_for_a_vacant_post():
    s = position(n=2, order=["Corwin", "Eric"], regent_offers_to_players=False)
    s.controller[P["Gerard"]] = 1
    s.take_amber(1)
    s._run()
    assert s.phase_name() == "APPOINT" and s.current_player == 1
    assert P["Corwin"] not in legal(s)
    assert all(s.controller[i] < 0 for i in legal(s) if i < NUM_PRINCES)


def test_at_the_turn_limit_an_eliminated_player_ranks_below_the_players_still_in():
    s = position(n=3)
    s.eliminate(2)
    s.turn_limit_reached = 1
    returns = s.returns()
    assert returns[0] == returns[1] > returns[2]


def test_a_dying_prince_with_no_hits_left_adds_no_health_to_strength():
    s = position(n=2)
    own = s.player_prince[0]
    s.hits[own] = 1
    one_hit = s.strength(0)
    s.hits[own] = 0
    assert s.strength(0) < one_hit
