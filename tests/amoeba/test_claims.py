"""Scenario tests for the claims on seeds/amoeba.md ("Claims",
interpretations 9, 10 and 22): what is offered, in which order, and while
the mover has nuclei."""

import numpy as np

from meeplezoo.envs.amoeba.rules import CLAIM, SELECT
from tests.amoeba.helpers import anchor_action, game, own, place, select_action, start_turn


def three_pairs(**cfg):
    """Two complete amoebas of two segments on the table (rows 5 and 11),
    and a third that seat 0's 73 at (15, 13) completes."""
    g = game(**cfg)
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 73, 0, (11, 13))
    place(st, 30, 0, (5, 5))
    place(st, 73, 0, (5, 7))
    place(st, 30, 0, (15, 11))
    start_turn(st, 0, [73], die=1, pile=[1, 2, 3, 4, 5])
    st.hands[1] = [6, 7, 8]
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 15, 13))
    return g, st


def _offered_row(st):
    members = st.amoebas[st.offered()].members
    return min(min(st.piece_slots[p]) for p in members) // 4 // st.game.units


def test_every_complete_amoeba_is_offered_in_order_of_its_smallest_port():
    """Claims: the ones completed before this turn too, lowest port first;
    the claim step offers only claim and decline."""
    g, st = three_pairs()
    assert st.phase == CLAIM and st.mover == 0
    rows = []
    for _ in range(3):
        mask = st.legal_action_mask()
        assert list(np.flatnonzero(mask)) == [g.claim_action, g.decline_action]
        rows.append(_offered_row(st))
        st.apply(g.decline_action)
    assert rows == [5, 11, 15]
    assert st.mover == 1 and st.phase == SELECT


def test_claiming_takes_a_nucleus_and_scores_the_segments():
    """Claims: a claimed amoeba is the mover's; a declined one stays claimable."""
    g, st = three_pairs()
    st.apply(g.claim_action)
    st.apply(g.decline_action)
    st.apply(g.claim_action)
    assert st.supply == [8, 10] and st.scores() == [4, 0]
    owners = sorted((_row_of(st, aid), v.owner) for aid, v in st.amoebas.items() if len(v.members) == 2)
    assert owners == [(5, 0), (11, -1), (15, 0)]
    assert [_row_of(st, aid) for aid in st.claimable()] == [11]


def _row_of(st, aid):
    return st.amoeba_key(aid) // 4 // st.game.units


def test_the_claims_stop_when_the_nuclei_run_out():
    """Claims: offers go on only while the mover has a nucleus left."""
    g, st = three_pairs(nuclei_per_player=2)
    assert st.phase == CLAIM
    st.apply(g.claim_action)
    assert st.mover == 0 and st.offered() is not None  # one nucleus left: the next offer
    st.apply(g.claim_action)
    assert st.mover == 1 and st.supply == [0, 2]
    assert len(st.claimable()) == 1


def test_no_claim_step_without_a_nucleus():
    """Interpretation 29: the claim step is skipped when the mover has no nucleus."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    st.supply = [0, 10]
    start_turn(st, 0, [73], die=1)
    st.hands[1] = [6, 7, 8]
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    assert st.mover == 1 and st.phase == SELECT and not st.done
    assert len(st.claimable()) == 1


def test_amoebas_below_the_claim_size_are_not_offered():
    """Interpretation 10 (config ``min_claim_size``): two segments are too
    few when three are needed, so nothing is offered."""
    g, st = three_pairs(min_claim_size=3)
    assert st.mover == 1 and st.phase == SELECT
    assert st.claimable() == []


def test_the_next_player_may_claim_what_the_mover_declined():
    """Interpretation 9: an amoeba completed by another player is offered
    at the end of your own turn."""
    g, st = three_pairs()
    for _ in range(3):
        st.apply(g.decline_action)
    start_turn(st, 1, [30], die=1, pile=[1, 2, 3])
    st.apply(select_action(0, 0))
    st.apply(int(np.flatnonzero(st.legal_action_mask())[0]))
    assert st.phase == CLAIM and st.mover == 1
    assert _offered_row(st) == 5
    st.apply(g.claim_action)
    assert st.supply[1] == 9 and st.scores()[1] == 2


def test_a_nucleus_taken_off_makes_the_amoeba_claimable_again():
    """Building positions: ``set_owner(amoeba, -1)`` leaves a complete amoeba
    unclaimed, so it is offered again; an open one is not."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 73, 0, (11, 13))
    pair = own(st, (11, 12), 0, d=1)
    single = st.amoeba_of_unit(11, 11, 0)
    st.set_owner(single, 1)
    assert st.claimable() == [] and st.scores() == [2, 1]
    st.set_owner(pair, -1)
    st.set_owner(single, -1)
    assert st.claimable() == [pair] and st.scores() == [0, 0]
    assert not st.claimed
