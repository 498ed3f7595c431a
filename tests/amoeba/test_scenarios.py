"""Scenario tests for the rules on seeds/amoeba.md: each builds a position
through the rules layer and checks one rule (docstrings name the
interpretation)."""

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.amoeba.rules import ANCHOR, CLAIM, SELECT, Amoeba
from meeplezoo.envs.core.cards import Deck
from tests.amoeba.helpers import (
    amoeba_sizes,
    anchor,
    anchor_action,
    game,
    legal_anchors,
    own,
    place,
    select_action,
    start_turn,
)


def fresh(**cfg):
    g = game(**cfg)
    return g, g.empty_state()


# The tile set (interpretation 1) is checked in test_tiles.py.


def test_first_tile_only_centre():
    """Interpretation 6."""
    g = game()
    st = g.new_initial_state(0)
    m = st.legal_action_mask()
    selects = np.flatnonzero(m[:12])
    assert len(selects) > 0
    for a in selects:
        s = st.clone()
        s.apply(int(a))
        assert legal_anchors(s) == [(11, 11)]


def test_matching_pink_against_pink():
    """Interpretation 5."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73, 30])
    st.apply(select_action(0, 0))
    assert (11, 13) in legal_anchors(st)
    st2 = st.clone()
    st2.selection = None
    st2.phase = SELECT
    st2._cache = {}
    st2.apply(select_action(1, 0))
    assert (11, 13) not in legal_anchors(st2)


def test_offset_half_tile_and_corner_only():
    """Interpretations 3 and 4."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [30])
    st.apply(select_action(0, 0))
    anchors = legal_anchors(st)
    assert (12, 13) in anchors
    assert (13, 13) not in anchors


def test_completion_and_claim():
    """Interpretation 9."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=1)
    st.hands[1] = [66]
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    assert st.phase == CLAIM and st.mover == 0
    assert len(st.offers) == 1
    assert len(st.amoebas[st.offers[0]][0]) == 2
    assert amoeba_sizes(st) == [1, 1, 2]
    st.apply(g.claim_action)
    assert st.supply[0] == 9 and st.scores()[0] == 2
    assert st.turn == 1 and st.mover == 1  # the claim step closed p0's turn


def test_decline_keeps_amoeba_claimable_later_by_anyone():
    """Interpretation 9."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=1)
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    st.hands[1] = [66]
    st.apply(g.decline_action)
    assert st.turn == 1
    assert len(st.claimable()) == 1  # still there for the next player's claim step


def test_board_edge_is_open():
    """Interpretation 8."""
    g, st = fresh()
    place(st, 30, 0, (0, 11))  # pink port 0 faces the top edge
    cid = st.amoeba_of_unit(0, 11, 0)
    assert st.amoebas[cid][1] == 1
    start_turn(st, 0, [73], die=1)
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 0, 13))
    assert all(st.amoebas[c][0] != st.amoebas[cid][0] for c in st.claimable()) or st.amoebas.get(cid) is None
    for c in st.claimable():
        assert all(min(st.piece_slots[p]) >= 0 for p in st.amoebas[c][0])
        assert st.amoebas[c][1] == 0


def chain4(st):
    place(st, 30, 0, (11, 11))
    place(st, 67, 1, (11, 13))
    place(st, 43, 0, (11, 15))
    place(st, 73, 0, (11, 17))


def test_split_two_parts():
    """Interpretations 11 and 13."""
    g, st = fresh()
    chain4(st)
    cid = st.amoeba_of_unit(11, 12, 1)
    assert len(st.amoebas[cid][0]) == 4 and st.amoebas[cid][1] == 0
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [66], die=1)
    st.apply(select_action(0, 1))
    tops = [rc for rc in legal_anchors(st) if st.height[rc[0] * g.units + rc[1]] > 0]
    assert tops == [(11, 13)]
    st.apply(anchor_action(g, 11, 13))
    assert st.supply[0] == 9
    assert st.scores() == [3, 2]
    left = st.amoebas[st.amoeba_of_unit(11, 12, 1)]
    right = st.amoebas[st.amoeba_of_unit(11, 16, 1)]
    assert (len(left[0]), left[2]) == (2, 1)
    assert (len(right[0]), right[2]) == (3, 0)
    for r in (11, 12):
        for c in (13, 14):
            assert st.height[r * g.units + c] == 2


def test_cannot_split_own_amoeba():
    """Interpretation 12."""
    g, st = fresh()
    chain4(st)
    own(st, (11, 12), 0, d=1)
    start_turn(st, 0, [66], die=1)
    assert not st.legal_action_mask()[select_action(0, 1)] or all(
        st.height[r * g.units + c] == 0 for r, c in _anchors_after(st, 0, 1)
    )


def _anchors_after(st, slot, rot):
    s = st.clone()
    s.apply(select_action(slot, rot))
    return legal_anchors(s)


def test_split_needs_four_segments():
    """Interpretation 13."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    place(st, 67, 1, (11, 13))
    place(st, 73, 0, (11, 15))
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [66], die=1)
    m = st.legal_action_mask()
    if m[select_action(0, 1)]:
        assert (11, 13) not in _anchors_after(st, 0, 1)


def test_unclaimed_cannot_be_split():
    """Interpretation 12."""
    g, st = fresh()
    chain4(st)
    start_turn(st, 0, [66], die=1)
    if st.legal_action_mask()[select_action(0, 1)]:
        assert all(st.height[r * g.units + c] == 0 for r, c in _anchors_after(st, 0, 1))


def t_shape(st):
    place(st, 30, 0, (11, 11))
    place(st, 40, 1, (11, 13))
    place(st, 73, 0, (11, 15))
    place(st, 75, 0, (13, 13))


def test_three_parts():
    """Interpretations 14 and 15."""
    g, st = fresh()
    t_shape(st)
    cid = own(st, (11, 12), 1, d=1)
    assert len(st.amoebas[cid][0]) == 4
    start_turn(st, 0, [37], die=1)
    assert (11, 13) in _anchors_after(st, 0, 1)
    st.apply(select_action(0, 1))
    st.apply(anchor_action(g, 11, 13))
    assert st.scores() == [4, 2]
    assert st.supply[0] == 8
    assert st.amoebas[st.amoeba_of_unit(11, 12, 1)][2] == 1  # left part (lowest unit) stays with p1
    assert st.amoebas[st.amoeba_of_unit(11, 15, 3)][2] == 0
    assert st.amoebas[st.amoeba_of_unit(13, 14, 0)][2] == 0


def test_three_parts_need_two_nuclei():
    """Interpretation 14."""
    g, st = fresh()
    t_shape(st)
    own(st, (11, 12), 1, d=1)
    st.supply[0] = 1
    start_turn(st, 0, [37], die=1)
    m = st.legal_action_mask()
    if m[select_action(0, 1)]:
        assert (11, 13) not in _anchors_after(st, 0, 1)


def test_merge_exception():
    """Interpretation 17."""
    g, st = fresh(num_players=3)
    place(st, 30, 0, (11, 11))
    place(st, 41, 1, (11, 13))
    place(st, 67, 1, (11, 15))
    place(st, 73, 0, (11, 17))
    place(st, 75, 0, (13, 13))
    a = own(st, (11, 12), 1, d=1)
    assert len(st.amoebas[a][0]) == 4
    b = own(st, (13, 14), 2, d=0)
    assert len(st.amoebas[b][0]) == 2
    start_turn(st, 0, [39], die=1)
    st.apply(select_action(0, 1))
    assert (11, 13) in legal_anchors(st)
    st.apply(anchor_action(g, 11, 13))
    merged = st.amoebas[st.amoeba_of_unit(11, 16, 1)]
    assert len(merged[0]) == 4 and merged[2] == 0
    assert st.amoeba_of_unit(13, 14, 0) == st.amoeba_of_unit(11, 16, 1)
    kept = st.amoebas[st.amoeba_of_unit(11, 12, 1)]
    assert len(kept[0]) == 2 and kept[2] == 1
    assert st.supply == [9, 9, 10]
    assert st.scores() == [4, 2, 0]


def test_one_storey_only():
    """Interpretation 16."""
    g, st = fresh()
    chain4(st)
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [66, 67, 65], die=3)
    st.apply(select_action(0, 1))
    st.apply(anchor_action(g, 11, 13))
    # p1 now owns the left part (size 2) and p0 the right one (size 3): nothing may go on or straddle the top
    start_turn(st, 1, [66, 67, 43], die=1)
    for a in np.flatnonzero(st.legal_action_mask()[:12]):
        for rc in _anchors_after(st, int(a) // 4, int(a) % 4):
            assert rc not in ((11, 13), (11, 12), (11, 14))


def test_compulsory_placements_follow_the_die():
    """Play: the die gives the number of placements, which are compulsory."""
    g = game(dice_override=[3])
    st = g.new_initial_state(5)
    assert st.die == 3
    for _i in range(3):
        assert st.mover == 0 and st.phase == SELECT
        m = st.legal_action_mask()
        assert not m[g.claim_action] and not m[g.decline_action]
        a = int(np.flatnonzero(m)[0])
        st.apply(a)
        assert st.phase == ANCHOR
        st.apply(int(np.flatnonzero(st.legal_action_mask())[0]))
    assert st.placed == 3 or st.mover == 1
    assert len(st.placements) == 3


def stuck_position(seed=11, placed=30):
    g = game(board_units=12)
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(0)
    while len(st.placements) < placed and not st.done:
        st.apply(int(rng.choice(st.legal_actions())))
    # tiles that fit nowhere for the player to move
    cur = st.mover
    bad = []
    for t in range(84):
        if any(t == pl[1] for pl in st.placements):
            continue
        ok = False
        for r in range(4):
            ground, tops = st._placements_of(t * 4 + r)
            ok = ok or len(ground) > 0 or bool(tops)
        if not ok:
            bad.append(t)
    return g, st, cur, bad


def test_stuck_hand_is_removed_and_turn_goes_on():
    """Interpretation 21."""
    for seed in range(40):
        g, st, cur, bad = stuck_position(seed, 25)
        if len(bad) >= 3 and not st.done and st.phase == SELECT:
            break
    assert len(bad) >= 3
    hand = bad[:3]
    others = [t for t in range(84) if t not in hand and all(t != pl[1] for pl in st.placements)]
    for p in range(g.num_players):
        if p != cur:
            st.hands[p] = [t for t in st.hands[p] if t not in hand]
    st.hands[cur] = hand
    st.pile = Deck([t for t in others if all(t not in h for h in st.hands)][:20])
    st.phase = SELECT
    st.placements_left = st.die = 2
    st.placed = 0
    st._cache = {}
    assert not st._any_select()
    before = list(st.removed[cur])
    st._advance_from_placements()
    # the hand went out face down (later stuck turns may add more on this crowded board)
    assert st.removed[cur][: len(before) + 3] == before + hand
    assert not set(st.hands[cur]) & set(hand)
    assert st.turn > 0
    other = (cur + 1) % g.num_players
    from meeplezoo.envs.amoeba.observe import HAND_SLOTS, NUM_PLANES, SEATS

    base = NUM_PLANES * g.units * g.units + HAND_SLOTS * 9 + 12 + 6 + SEATS * 5 + 1
    mine = st.observation(cur)[base : base + 84]
    theirs = st.observation(other)[base : base + 84]
    for t in hand:
        assert mine[t] == 0 and theirs[t] == 1


def test_end_when_no_nuclei_left():
    """Interpretations 22 and 23."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    st.supply = [1, 0]
    start_turn(st, 0, [73], die=1)
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    assert st.phase == CLAIM
    st.apply(g.claim_action)
    assert st.terminal and st.current_player == -1
    assert list(st.returns()) == [1.0, -1.0]


def test_end_when_all_tiles_placed():
    """Play: the game ends when the pile and every hand are empty."""
    g = game(num_players=2)
    for seed in range(5):
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.done:
            st.apply(int(rng.choice(st.legal_actions())))
        if st.terminal and any(st.supply):
            assert not st.pile and not any(st.hands)


def _fake_owned(st, seat, size):
    cid = st.next_amoeba_id
    st.next_amoeba_id += 1
    st.amoebas[cid] = Amoeba(members=tuple(range(size)), open_ports=0, owner=seat)


def test_tie_break_largest_amoeba():
    """Interpretation 24."""
    g, st = fresh()
    _fake_owned(st, 0, 5)
    _fake_owned(st, 0, 3)
    _fake_owned(st, 1, 4)
    _fake_owned(st, 1, 4)
    assert st.scores() == [8, 8]
    assert list(st.returns()) == [1.0, -1.0]
    g, st = fresh()
    _fake_owned(st, 0, 4)
    _fake_owned(st, 1, 4)
    assert list(st.returns()) == [0.0, 0.0]


def test_seeded_determinism():
    def play(seed):
        env = envs.make("amoeba_v0", num_players=3)
        env.reset(seed=seed)
        rng = np.random.default_rng(1)
        trace = []
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), r))
            a = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
        return trace

    assert play(7) == play(7)


def test_a_ground_tile_may_not_overlap_a_laid_tile():
    """Ground placement: the 4 units must be empty, also half a tile over."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    for rc in ((11, 11), (12, 12), (12, 10), (10, 12), (10, 10)):  # all, or one unit each
        with pytest.raises(ValueError, match="the block is not empty"):
            place(st, 73, 0, rc)
    assert len(st.placements) == 1
    assert st.amoeba_of_unit(13, 13) == -1  # still empty: no pink port, no amoeba


def test_a_ground_tile_refuses_pink_against_blue():
    """Interpretation 5: a tile whose port meets the other colour is refused."""
    g, st = fresh()
    place(st, 30, 0, (11, 11))
    with pytest.raises(ValueError, match="pink would touch blue"):
        place(st, 30, 0, (11, 13))  # its blue port 7 would face the 30's pink port 2
    with pytest.raises(ValueError, match="pink would touch blue"):
        place(st, 73, 0, (9, 11))  # its blue port 5 would face the 30's pink port 0
    assert len(st.placements) == 1
    place(st, 66, 0, (9, 11))  # pink port 5 on pink port 0, blue port 4 on blue port 1
    assert st.amoeba_of_unit(10, 11, 2) == st.amoeba_of_unit(11, 11, 0)


def test_the_far_corner_of_the_board_is_open_too():
    """Interpretation 8 at the last anchor: 73 [3|4] at (22, 22) has its two
    pink ports on the east and south edges, both open."""
    g, st = fresh()
    place(st, 73, 2, (22, 22))
    east, south = st.amoeba_of_unit(23, 23, 1), st.amoeba_of_unit(23, 23, 2)
    assert east != south
    assert st.amoebas[east].open_ports == 1 and st.amoebas[south].open_ports == 1
    assert st.claimable() == []


def test_pieces_are_numbered_within_their_tile():
    """Observation planes 4 and 5: the pieces of each tile are numbered 1..3,
    for ground and top tiles alike."""
    g, st = fresh()
    chain4(st)
    own(st, (11, 12), 1, d=1)
    st.put_top(66, 1, anchor(g, 11, 13))
    for k, pieces in enumerate(st.placement_pieces):
        assert [st.piece_number[p] for p in pieces] == list(range(1, len(pieces) + 1)), k
        assert all(st.piece_placement[p] == k for p in pieces)
    assert len(st.piece_number) == len(st.piece_slots) == sum(len(p) for p in st.placement_pieces)
