"""Interpretation 11: who defends Amber in a war (``amber_defenders``)."""

from __future__ import annotations

from tests.princes_of_amber.helpers import (
    EXILE,
    GUARDIAN,
    KING,
    NORTH,
    PASS,
    SOUTH,
    P,
    act,
    card,
    position,
)

# p0 Corwin (Leadership 8) attacks; p1 is Eric (9); King Caine (8); regents Benedict (11),
# Gerard (7), Random (6); neutral exiles Bleys, Julian, Brand
ORDER = ["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"]


def war_totals(s, prince="Corwin"):
    """Corwin's attack played out with every window declined; (attack, defence)."""
    s.armies[P[prince]] = 3
    s.refresh()
    act(s, P[prince], card("CONQUER"))
    while s.war.won < 0:
        act(s, PASS)
    return s.war.attack, s.war.defence


def held_by_p1(n=2, **config):
    """p1 holds Amber: Eric King, Benedict his regent, Gerard an appointed neutral regent."""
    s = position(n=n, order=ORDER, hands={0: ["CONQUER"]}, dice=[1, 1, 6, 6, 6], **config)
    for i in range(9):
        s.role[i] = EXILE
    s.role[P["Eric"]], s.role[P["Benedict"]], s.role[P["Gerard"]] = KING, GUARDIAN, NORTH
    s.controller[P["Benedict"]] = 1
    s.amber = 1
    return s


def test_neutral_amber_defended_by_the_king_and_every_free_regent():
    s = position(order=ORDER, hands={0: ["CONQUER"]}, dice=[1, 1, 6, 6, 6])
    assert war_totals(s) == (8, 8 + 11 + 7 + 6)


def test_neutral_amber_with_a_vacant_throne_defended_by_the_regents():
    s = position(order=ORDER, hands={0: ["CONQUER"]}, dice=[1, 1, 6, 6, 6])
    s.role[P["Caine"]] = EXILE
    assert war_totals(s) == (8, 11 + 7 + 6)


def test_held_amber_neutral_regents_defend_too():
    s = held_by_p1()
    assert war_totals(s) == (8, 9 + 11 + 7)


def test_the_attackers_own_regent_never_defends_against_him():
    """An accepted regent of the attacker stands aside; one of a third player defends."""
    s = held_by_p1(n=3)
    s.role[P["Julian"]], s.controller[P["Julian"]] = SOUTH, 0  # p0's prince accepted a regency
    s.controller[P["Gerard"]] = 2  # and p2's
    assert war_totals(s) == (8, 9 + 11 + 7)
    assert s.war.supporters == []  # p2, with a regent, was not asked to support


def test_leader_only_variant_neutral_amber():
    s = position(order=ORDER, hands={0: ["CONQUER"]}, dice=[1, 1, 6, 6, 6], amber_defenders="leader_only")
    assert war_totals(s) == (8, 8)
    s = position(order=ORDER, hands={0: ["CONQUER"]}, dice=[1, 1, 6, 6, 6], amber_defenders="leader_only")
    s.role[P["Caine"]] = EXILE  # no King: the strongest free regent leads alone
    assert war_totals(s) == (8, 11)


def test_leader_only_variant_held_amber_neutral_regents_stand_aside():
    s = held_by_p1(amber_defenders="leader_only")
    assert war_totals(s) == (8, 9 + 11)
