"""One test (or more) per rule and per interpretation of
seeds/amethyst_amber.md; positions are set up through the rules layer, then
acted on."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amethyst_amber.rules import NEUTRAL, Phase
from tests.amethyst_amber.helpers import (
    AB,
    AM,
    can,
    do,
    game,
    kinds,
    legal,
    move_and_end,
    move_defender,
    position,
)


def hx(s, qr):
    return s.game.board.geo.hexes.index[qr]


# setup: resources on the red tiles, everything else in reserve
def test_setup_resources_on_red():
    s = game().new_initial_state(3)
    bd = s.game.board
    assert sorted(s.resource_hexes) == bd.red and all(s.resource_at[h] == NEUTRAL for h in bd.red)
    assert s.reserve == [5, 5] and s.unplaced == [8, 8] and s.hand == [0, 0]
    assert s.defender_bits == [0, 0] and s.attacker_hexes == [[], []]


# one action per turn: placing an attacker ends the turn
def test_one_placement_per_turn():
    s = position(reserve_attackers=[5, 5])
    do(s, "place_attacker", (-2, 4))
    assert s.current_player == AB and s.reserve[AM] == 4


# cannot both move defenders and place / step in one turn
def test_no_place_or_step_after_defender_move():
    s = position(defenders=[((2, 6), AM), ((15, 6), AM)], attackers=[((0, 0), AM)], reserve_attackers=[4, 5])
    move_defender(s, (2, 6), (3, 6))
    assert kinds(s) == {"select", "end"}


# one attacker step per turn
def test_one_attacker_step_per_turn():
    s = position(attackers=[((0, 0), AM), ((2, 0), AM)])
    do(s, "step", (0, 0), "E")
    assert s.current_player == AB


# defenders only on triangles, black only
def test_defenders_only_on_black_triangles():
    s = game().new_initial_state(0)
    tris = {s.game.board.geo.tri_index[a[1]] for a in legal(s)}
    assert tris == set(s.game.board.black)
    assert not can(s, "place_defender", (8, 10))  # yellow


def test_defender_moves_only_through_black():
    # (5,8) is black, (6,8) is yellow: the defender cannot go east along Y=8
    s = position(defenders=[((5, 8), AM)])
    do(s, "select", (5, 8))
    dests = {a[1] for a in legal(s)}
    assert all(s.game.board.is_black[s.game.board.geo.tri_index[d]] for d in dests)
    assert (6, 8) not in dests


# group limit also applies to moves, checked only at the destination
def test_group_limit_on_moves():
    s = position(defenders=[((3, 10), AM), ((4, 10), AM), ((5, 10), AM), ((3, 14), AM)])
    do(s, "select", (3, 14))
    dests = {a[1] for a in legal(s)}
    assert (5, 12) not in dests and (3, 12) not in dests  # would join the group of three
    assert (4, 12) in dests and (2, 12) in dests


def test_group_limit_checked_only_at_destination():
    # passing beside a group of three is fine; stopping there is not
    s = position(defenders=[((3, 10), AM), ((4, 10), AM), ((5, 10), AM), ((2, 12), AM)])
    do(s, "select", (2, 12))
    dests = {a[1] for a in legal(s)}
    assert (4, 14) in dests and (3, 12) not in dests


def test_moving_a_piece_out_of_its_group_counts_without_it():
    # a group of three may slide its end piece along: the mover leaves its group
    s = position(defenders=[((3, 10), AM), ((4, 10), AM), ((5, 10), AM)])
    do(s, "select", (3, 10))
    assert ("dest", (5, 12)) in legal(s)


def test_group_scope_all_counts_both_colours():
    row = [((3, 10), AM), ((4, 10), AM), ((5, 10), AB)]
    s = position(game(group_limit_scope="all"), phase="placement", current=AB, defenders=row)
    assert not can(s, "place_defender", (5, 12))
    s = position(game(), phase="placement", current=AB, defenders=row)
    assert can(s, "place_defender", (5, 12))


# attackers: only after the defenders are placed
def test_no_attackers_during_placement():
    s = game().new_initial_state(0)
    assert kinds(s) == {"place_defender"}


# attackers only move one adjacent hex, never into own pieces
def test_attacker_steps_are_single_hexes():
    s = position(attackers=[((0, 0), AM)])
    dests = {a[1:] for a in legal(s) if a[0] == "step"}
    assert dests == {((0, 0), d) for d in range(6)}


def test_attacker_cannot_enter_own_pieces():
    s = position(attackers=[((0, 2), AM), ((1, 2), AM)], resources=[((0, 3), AM, 0)])
    assert not can(s, "step", (0, 2), "E")
    assert not can(s, "step", (0, 2), "SE")


def test_attacker_on_board_edge_has_fewer_steps():
    s = position(attackers=[((-2, 4), AM)])
    assert {a[2] for a in legal(s) if a[0] == "step"} == {0, 1, 2, 3}


# captures: enemy resources are always capturable
def test_enemy_resource_capture_without_own_resources():
    s = position(attackers=[((0, 2), AM)], resources=[((1, 2), AB, 0)])
    do(s, "step", (0, 2), "E")
    assert s.hand[AM] == 1 and s.placed[AB] == 0 and s.resource_at[hx(s, (1, 2))] == -1


def test_captured_attacker_leaves_play():
    s = position(
        attackers=[((-3, 1), AM), ((-2, 1), AB)], resources=[((0, 3), AM, 0)], reserve_attackers=[4, 4]
    )
    do(s, "step", (-3, 1), "E")
    assert s.attacker_hexes[AB] == [] and s.reserve[AB] == 4


def test_wall_blocks_capture_of_resource_and_moves():
    # Amber wall on the gate between (-1,-3) and the green (-1,-2) holding Amber's resource
    s = position(attackers=[((-1, -3), AM)], resources=[((-1, -2), AB, 0)])
    assert can(s, "step", (-1, -3), "SE")
    s = position(
        defenders=[((4, 4), AB), ((5, 4), AB)], attackers=[((-1, -3), AM)], resources=[((-1, -2), AB, 0)]
    )
    assert not can(s, "step", (-1, -3), "SE")
    # Amber wall on the gate between (-3,1) and (-2,0)
    s = position(defenders=[((4, 10), AB), ((5, 10), AB)], attackers=[((-2, 0), AM)])
    assert not can(s, "step", (-2, 0), "SW")  # the gate is cut both ways


# resources: forced placement, where, and the obligation when nowhere is free
def test_resource_cannot_go_on_resource_or_attacker():
    s = position(attackers=[((-3, 2), AB)], resources=[((-1, 2), AB, 0)], hand=[1, 0])
    acts = legal(s)
    assert ("place_resource", (-3, 2)) not in acts and ("place_resource", (-1, 2)) not in acts
    assert len(acts) == 10


def test_forced_placement_waits_when_no_green_is_free():
    # Amethyst's six greens: five under Amber attackers, one holding her own resource
    g = game(green_scope="own_half")
    greens = [g.board.hex_qr[h] for h in g.board.green_half[AM]]
    s = position(
        g,
        attackers=[(green, AB) for green in greens[:5]],
        resources=[(greens[5], AM, 0)],
        hand=[1, 0],
        reserve_attackers=[5, 0],
    )
    assert kinds(s) == {"place_attacker"}
    do(s, "place_attacker", (-2, 4))
    assert s.hand[AM] == 1


def test_green_scope_own_half():
    s = position(game(green_scope="own_half"), hand=[1, 0])
    assert {a[1] for a in legal(s)} == {s.game.board.hex_qr[h] for h in s.game.board.green_half[0]}


def test_placed_resource_shows_owner_and_counts():
    s = position(hand=[0, 1], current=AB)
    do(s, "place_resource", (3, -2))
    assert s.resource_at[hx(s, (3, -2))] == AB and s.placed == [0, 1]


# capacity: a resource with two prisoners is not available
def test_capacity_two():
    s = position(attackers=[((-3, 1), AM), ((-2, 1), AB)], resources=[((0, 3), AM, 1)])
    do(s, "step", (-3, 1), "E")
    assert s.prisoners_under[hx(s, (0, 3))] == 2
    assert not s._has_available(AM)


# win: counted from placed resources at the start of one's own turn
def test_hand_resources_do_not_count():
    s = position(
        resources=[((-4, 3), AM, 0), ((-3, 2), AM, 0), ((-2, 3), AM, 0), ((0, 3), AM, 0)], hand=[1, 0]
    )
    assert not s.done


def test_five_at_start_of_opponents_turn_does_nothing():
    five = [((-4, 3), AM, 0), ((-3, 2), AM, 0), ((-2, 3), AM, 0), ((0, 3), AM, 0), ((1, 2), AM, 0)]
    s = position(current=AB, resources=five, defenders=[((2, 6), AB)])
    assert not s.done
    move_and_end(s, (2, 6), (3, 6))
    assert s.terminal and s.winner == AM


def test_win_check_before_truncation():
    five = [((-4, 3), AM, 0), ((-3, 2), AM, 0), ((-2, 3), AM, 0), ((0, 3), AM, 0), ((1, 2), AM, 0)]
    s = position(game(max_main_turns=10), current=AB, resources=five, defenders=[((2, 6), AB)], main_turns=9)
    move_and_end(s, (2, 6), (3, 6))
    assert s.terminal and not s.truncated


def test_truncation_by_resources_variant():
    g = game(max_main_turns=1, truncation_result="resources")
    s = position(g, current=AB, resources=[((0, 3), AM, 0)], defenders=[((2, 6), AB)])
    move_and_end(s, (2, 6), (3, 6))
    assert s.truncated and list(s.returns()) == [1.0, -1.0]


def test_main_first_amethyst():
    g = game(main_first="amethyst", defenders_per_player=1)
    s = g.new_initial_state(0)
    s.apply(int(np.flatnonzero(s.legal_action_mask())[0]))
    s.apply(int(np.flatnonzero(s.legal_action_mask())[0]))
    assert s.phase_name() == "turn_start" and s.current_player == AM


# selection cannot be cancelled; end is never legal before the first move
def test_selection_commits():
    s = position(defenders=[((2, 6), AM), ((15, 6), AM)])
    do(s, "select", (2, 6))
    assert kinds(s) == {"dest"}


def test_turn_ends_when_no_other_defender_can_move():
    # (4,2) is boxed in by the Amber defender on its only neighbour, so after
    # the first move "stop" would be the only answer: the turn just ends
    s = position(defenders=[((4, 2), AM), ((5, 2), AB), ((2, 6), AM)])
    assert ("select", (4, 2)) not in legal(s)
    move_defender(s, (2, 6), (3, 6))
    assert s.current_player == AB and s.main_turns == 1


def test_continue_offered_when_another_defender_can_move():
    s = position(defenders=[((4, 2), AM), ((2, 6), AM)])
    move_defender(s, (2, 6), (3, 6))
    assert legal(s) == {("select", (4, 2)), ("end",)}


def test_bulk_selectable_matches_flood_fill():
    """The cheap bulk test of which defenders can move agrees with a flood
    fill of every defender, over many random positions."""
    g = game()
    rng = np.random.default_rng(5)
    for seed in range(30):
        s = g.new_initial_state(seed)
        for _ in range(int(rng.integers(16, 200))):
            if s.done:
                break
            s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
        if s.done or s.phase != Phase.MAIN:
            continue
        for scope_all in (False, True):
            s.game.group_both_colours = scope_all
            s._movable_cache = [None, None]  # the movable cache assumes one rule set per game
            p = s.acting_seat
            bulk = set(s.game.board.geo.bits_to_tris(s._movable(p)))
            slow = {t for t in s.game.board.geo.bits_to_tris(s.defender_bits[p]) if s._dest_bits(p, t)}
            assert bulk == slow
        s.game.group_both_colours = False


def test_movable_cache_matches_fresh_search():
    """The per-seat "which defenders can move" answer kept across turns
    equals a fresh search and a flood fill of every defender, at every step
    of random games, for both seats."""
    g = game()
    rng = np.random.default_rng(11)
    for seed in range(6):
        s = g.new_initial_state(seed)
        while not s.done:
            if s.phase == Phase.MAIN:
                for p in (0, 1):
                    cached = s._movable(p)
                    fresh = s.clone()
                    fresh._movable_cache = [None, None]
                    slow = 0
                    for t in g.board.geo.bits_to_tris(s.defender_bits[p]):
                        if s._dest_bits(p, t):
                            slow |= g.board.geo.bit_tri[t]
                    assert cached == fresh._movable(p) == slow
            s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))


def test_attacker_step_memo_matches_fresh_masks():
    """Masks built with the Game's memo of attacker-step neighbourhoods equal
    masks built with an empty memo, at every step of random games."""
    g, cold = game(), game()
    rng = np.random.default_rng(12)
    for seed in range(4):
        s = g.new_initial_state(seed)
        while not s.done:
            for memo in cold.step_memo:
                memo.clear()
            fresh = cold.state_from_dict(s.to_dict())
            assert np.array_equal(s.legal_action_mask(), fresh.legal_action_mask())
            s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
    assert all(g.step_memo)


def test_pickled_game_leaves_the_step_memo_behind():
    import pickle

    g = game()
    s = g.new_initial_state(0)
    rng = np.random.default_rng(0)
    for _ in range(120):
        s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
    assert any(g.step_memo)
    g2 = pickle.loads(pickle.dumps(g))
    assert g2.step_memo == ({}, {}) and any(g.step_memo)
    t = g2.state_from_dict(s.to_dict())
    assert np.array_equal(t.legal_action_mask(), s.legal_action_mask())


# serialisation round trip and words
def test_to_dict_round_trip_mid_turn():
    s = position(
        defenders=[((2, 6), AM), ((15, 6), AM)], attackers=[((0, 0), AB)], resources=[((0, 3), AB, 1)]
    )
    do(s, "select", (2, 6))
    t = s.game.state_from_dict(s.to_dict())
    assert t.to_dict() == s.to_dict()
    assert np.array_equal(t.legal_action_mask(), s.legal_action_mask())


def test_action_names_round_trip():
    s = position(current=AB)
    for a in range(850):
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("Step (1, -4) NE") == s.string_to_action("step 1,-4 ne")
    with pytest.raises(ValueError):
        s.string_to_action("fly away")


def test_illegal_action_raises_and_changes_nothing():
    s = position(defenders=[((2, 6), AM)])
    before = s.to_dict()
    with pytest.raises(ValueError):
        do(s, "end")
    with pytest.raises(ValueError):
        s.apply(850)
    assert s.to_dict() == before
