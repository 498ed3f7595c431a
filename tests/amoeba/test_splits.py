"""Scenario tests for splitting on seeds/amoeba.md ("Splitting",
interpretations 11 to 19): the one extra storey, the one target, bystanders
kept whole or merged, and the nuclei a split moves."""

import numpy as np
import pytest

from meeplezoo.envs.amoeba.rules import ANCHOR, SELECT
from tests.amoeba.helpers import (
    anchor,
    anchor_action,
    game,
    legal_anchors,
    own,
    place,
    select_action,
    start_turn,
)
from tests.amoeba.test_invariants import compact_greedy_action


def _top_anchors(st, slot, rot):
    """The anchors on a tile of the table offered for hand slot ``slot`` turned ``rot``."""
    if not st.legal_action_mask()[select_action(slot, rot)]:
        return []
    branch = st.clone()
    branch.apply(select_action(slot, rot))
    units = st.game.units
    return [rc for rc in legal_anchors(branch) if st.height[rc[0] * units + rc[1]] > 0]


def _split(st, slot, rot, rc):
    st.apply(select_action(slot, rot))
    st.apply(anchor_action(st.game, *rc))


def _owner_and_size(st, r, c, d):
    members, _open, owner = st.amoebas[st.amoeba_of_unit(r, c, d)]
    return owner, len(members)


def t_with_long_arm(**cfg):
    """A T of five segments: 30 | 40 [247] | 43 [27] | 73 east, 75 below
    the 40, one complete amoeba through the 40 at (11, 13)."""
    g = game(**cfg)
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 43, 0, (11, 15))
    place(st, 73, 0, (11, 17))
    place(st, 75, 0, (13, 13))
    return g, st


def test_only_one_extra_storey():
    """Interpretation 16: the same cut that is a split on a ground tile is
    not allowed on a top tile (no third storey)."""
    # on the ground: 39 [24|7] at (11, 13); p0 owns the four segments east
    # and south of it, and p1 may cut them with 37 [2|4|7]
    g, st = t_with_long_arm()
    place(st, 39, 1, (11, 13))
    own(st, (11, 14), 0, d=1)
    start_turn(st, 1, [37], die=1)
    assert _top_anchors(st, 0, 1) == [(11, 13)]
    # the same picture, with the 39 laid by p0 as a split of p1's amoeba
    g, st = t_with_long_arm()
    place(st, 40, 1, (11, 13))
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [39], die=1)
    _split(st, 0, 1, (11, 13))
    assert _owner_and_size(st, 11, 14, 1) == (0, 4)
    assert _owner_and_size(st, 11, 12, 1) == (1, 2)
    start_turn(st, 1, [37, 38, 41], die=1)
    for slot in range(3):
        for rot in range(4):
            assert _top_anchors(st, slot, rot) == []
    assert st.height.max() == 2


def t_with_bystander(**cfg):
    """Interpretations 17 and 18: a chain of four segments across 41 [27|4]
    at (11, 13), and under it, through the 41's port 4, a bystander of two
    segments (41's piece 4 and the 75 below)."""
    g = game(**cfg)
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 41, 1, (11, 13))
    place(st, 67, 1, (11, 15))
    place(st, 73, 0, (11, 17))
    place(st, 75, 0, (13, 13))
    return g, st


def test_a_split_beside_a_bystander_is_offered_and_leaves_it_whole():
    """Interpretation 18: 37 [2|4|7] cuts the chain and keeps the bystander
    apart; the bystander keeps its segments and its owner."""
    g, st = t_with_bystander(num_players=3)
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 2, d=0)
    start_turn(st, 0, [37], die=1)
    assert _top_anchors(st, 0, 1) == [(11, 13)]
    _split(st, 0, 1, (11, 13))
    assert _owner_and_size(st, 11, 12, 1) == (1, 2)
    assert _owner_and_size(st, 11, 16, 1) == (0, 3)
    assert _owner_and_size(st, 13, 14, 0) == (2, 2)
    assert st.amoebas[st.amoeba_of_unit(13, 14, 0)].open_ports == 0
    assert st.supply == [9, 9, 9]
    assert st.scores() == [3, 2, 2]
    assert st.last_split == {"mover": 0, "target_owner": 1, "parts": 2, "merged": False}


def test_a_cover_that_joins_the_parts_again_is_no_split():
    """Interpretation 18: 40 [247] would join both sides of the chain and the
    bystander into one amoeba; that is not a split and is not offered."""
    g, st = t_with_bystander(num_players=3)
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 2, d=0)
    start_turn(st, 0, [40, 41], die=1)
    for slot in range(2):
        for rot in range(4):
            assert _top_anchors(st, slot, rot) == []


def test_a_tile_on_two_opponents_large_amoebas_cannot_be_covered():
    """Interpretation 18: exactly one amoeba on the covered tile is the
    target; with a second opponent's amoeba of four segments on it, the
    cover would join or cut into two claimed amoebas, and is not a split."""
    g = game(num_players=3)
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 41, 1, (11, 13))
    place(st, 67, 1, (11, 15))
    place(st, 73, 0, (11, 17))
    # a column of four segments hangs from the 41's port 4
    place(st, 67, 2, (13, 13))
    place(st, 67, 2, (15, 13))
    place(st, 73, 1, (17, 13))
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 2, d=0)
    assert _owner_and_size(st, 11, 12, 1) == (1, 4)
    assert _owner_and_size(st, 13, 14, 0) == (2, 4)
    start_turn(st, 0, [37, 39, 38], die=1)
    for slot in range(3):
        for rot in range(4):
            assert _top_anchors(st, slot, rot) == []


def test_a_merged_bystander_of_the_splitter_returns_its_nucleus_first():
    """Interpretation 17: the bystander's nucleus goes back before the
    splitter's nuclei are counted, so a splitter with an empty supply may
    merge their own bystander, but may not split without a merge."""
    g, st = t_with_bystander(nuclei_per_player=1)
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 0, d=0)
    assert st.supply == [0, 0]
    start_turn(st, 0, [37, 39], die=1)
    assert _top_anchors(st, 0, 1) == []  # 37 keeps the bystander apart: a nucleus is needed
    assert _top_anchors(st, 1, 1) == [(11, 13)]  # 39 [24|7] merges it into the east part
    _split(st, 1, 1, (11, 13))
    assert _owner_and_size(st, 11, 16, 1) == (0, 4)
    assert st.amoeba_of_unit(13, 14, 0) == st.amoeba_of_unit(11, 16, 1)
    assert _owner_and_size(st, 11, 12, 1) == (1, 2)
    assert st.supply == [0, 0]
    assert st.last_split["merged"]


def test_the_owner_keeps_a_part_that_is_not_the_merged_one():
    """Interpretation 15: 38 [2|47] merges the unclaimed bystander into the
    west part; both parts have 3 segments and the west one has the lowest
    unit, but it is the merged part, so the owner keeps the east one."""
    g, st = t_with_bystander()
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [38], die=1)
    assert _top_anchors(st, 0, 1) == [(11, 13)]
    _split(st, 0, 1, (11, 13))
    assert _owner_and_size(st, 11, 12, 1) == (0, 3)
    assert st.amoeba_of_unit(13, 14, 0) == st.amoeba_of_unit(11, 12, 1)
    assert _owner_and_size(st, 11, 16, 1) == (1, 3)
    assert st.supply == [9, 9]
    assert st.scores() == [3, 3]


def test_an_unclaimed_bystander_merged_returns_no_nucleus():
    """Interpretation 17: merging an unclaimed bystander gives nobody a nucleus back."""
    g, st = t_with_bystander(num_players=3)
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [39], die=1)
    _split(st, 0, 1, (11, 13))
    assert _owner_and_size(st, 11, 16, 1) == (0, 4)
    assert st.supply == [9, 9, 10]


def test_the_anchors_offered_are_the_ground_fits_and_the_splits():
    """Play: a selected tile is offered exactly its ground anchors next to
    the table (pink meeting pink) and the ground tiles it would split."""
    g = game(num_players=3)
    st = g.new_initial_state(2)
    rng = np.random.default_rng(2)
    checked = splits = 0
    while not st.done and splits < 3:
        if st.phase == SELECT and (checked < 20 or _any_split(st)):
            hand = st.hands[st.mover]
            for a in np.flatnonzero(st.legal_action_mask()):
                slot, rot = divmod(int(a), 4)
                ground, tops = st._placements_of(hand[slot] * 4 + rot)
                branch = st.clone()
                branch.apply(int(a))
                offered = np.flatnonzero(branch.legal_action_mask()) - g.first_anchor_action
                assert sorted(offered) == sorted(set(ground) | set(tops))
                assert not set(ground) & set(tops)
                splits += bool(tops)
            checked += 1
        st.apply(compact_greedy_action(st, rng))
    assert splits >= 3


def _any_split(st):
    return any(st._top_plans(o) for o in st._hand_oriented())


def test_an_unclaimed_bystander_kept_apart_can_still_be_claimed():
    """Interpretations 9 and 18: the bystander a split leaves alone is still
    a complete amoeba without an owner, offered at the claim step."""
    g, st = t_with_bystander()
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [37], die=1)
    _split(st, 0, 1, (11, 13))
    bystander = st.amoeba_of_unit(13, 14, 0)
    assert _owner_and_size(st, 13, 14, 0) == (-1, 2)
    assert st.claimable() == [bystander]
    assert st.offered() == bystander


def test_a_top_tile_lies_exactly_on_one_uncovered_ground_tile():
    """Interpretations 11 and 16: never offset, never on a top tile, never on empty units."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    place(st, 67, 1, (11, 13))
    message = "a top tile must lie exactly on an uncovered ground tile"
    for rc in ((11, 12), (12, 13), (5, 5)):
        with pytest.raises(ValueError, match=message):
            st.put_top(66, 1, anchor(g, *rc))
    st.put_top(66, 1, anchor(g, 11, 13))  # [2|7]: its west piece joins the 30, its east one is open
    with pytest.raises(ValueError, match=message):
        st.put_top(67, 1, anchor(g, 11, 13))
    assert [p.level for p in st.placements] == [1, 1, 2]
    assert st.covered == bytearray([0, 1, 0])
    west = st.amoebas[st.amoeba_of_unit(11, 13, 3)]
    assert west == st.amoebas[st.amoeba_of_unit(11, 12, 1)] and (len(west.members), west.open_ports) == (2, 0)
    east = st.amoebas[st.amoeba_of_unit(11, 14, 1)]
    assert (len(east.members), east.open_ports) == (1, 1)
    st.put_top(73, 0, anchor(g, 11, 11))  # the first tile may be covered too
    assert st.covered == bytearray([1, 1, 0, 0])


def test_splits_in_play_never_cut_or_join_the_other_amoebas():
    """Interpretation 18 over played splits: a tile has at most 3 pink ports
    and the target crosses the covered tile with 2 of them, so at most one
    other amoeba touches it; that amoeba comes out whole, on its own or
    merged into one part, and the target comes out in 2 or 3 parts."""
    seen = 0
    for seed in range(8):
        g = game(num_players=3)
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.done:
            action = compact_greedy_action(st, rng)
            plan = None
            if st.phase == ANCHOR:
                slot, rot = st.selection
                plan = st._top_plans(st.hands[st.mover][slot] * 4 + rot).get(action - g.first_anchor_action)
            if plan is None:
                st.apply(action)
                continue
            covered = set(st.placement_pieces[plan.ground_index])
            target = st._split_target(plan.ground_index, st.mover)
            rest = {
                aid: set(st.amoebas[aid].members) - covered for aid in {st.piece_amoeba[p] for p in covered}
            }
            st.apply(action)
            seen += 1
            after = {aid: {st.piece_amoeba[p] for p in pieces} for aid, pieces in rest.items()}
            assert len(after) <= 2
            assert 2 <= len(after.pop(target)) <= 3
            for bystander in after.values():
                assert len(bystander) == 1
    assert seen >= 3
