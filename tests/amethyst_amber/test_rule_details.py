"""The smaller rules of seeds/amethyst_amber.md, one scenario each: the
variants of the config table, the ends of the game, and how actions are
named, encoded and refused."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amethyst_amber.actions import NUM_ACTIONS
from meeplezoo.envs.amethyst_amber.rules import Phase
from tests.amethyst_amber.helpers import AB, AM, can, do, game, kinds, legal, position

FIVE = [((-4, 3), AM, 0), ((-3, 2), AM, 0), ((-2, 3), AM, 0), ((0, 3), AM, 0), ((1, 2), AM, 0)]


# config: defenders_per_player=0 skips the placement phase
@pytest.mark.parametrize("first, seat", [("amber", AB), ("amethyst", AM)])
def test_no_defenders_starts_the_main_phase_at_once(first, seat):
    s = game(defenders_per_player=0, main_first=first).new_initial_state(0)
    assert s.phase == Phase.MAIN and s.current_player == seat and s.main_turns == 0
    assert s.phase_name() == "turn_start" and kinds(s) == {"place_attacker"}


def test_defenders_are_placed_first_when_the_game_has_them():
    s = game(defenders_per_player=1).new_initial_state(0)
    assert s.phase == Phase.PLACEMENT and s.current_player == AM and s.phase_name() == "placement"


# 7. turn limit: a draw, or by placed resources with truncation_result="resources"
@pytest.mark.parametrize(
    "rule, placed, want",
    [
        ("resources", ([((0, 3), AM, 0)], [((0, -3), AB, 0), ((1, -2), AB, 0)]), [-1.0, 1.0]),
        ("resources", ([((0, 3), AM, 0)], [((0, -3), AB, 0)]), [0.0, 0.0]),
        ("resources", ([((0, 3), AM, 0), ((1, 2), AM, 0)], [((0, -3), AB, 0)]), [1.0, -1.0]),
        ("draw", ([((0, 3), AM, 0), ((1, 2), AM, 0)], [((0, -3), AB, 0)]), [0.0, 0.0]),
    ],
)
def test_the_turn_limit_scores_by_the_rule(rule, placed, want):
    amethyst, amber = placed
    g = game(max_main_turns=1, truncation_result=rule)
    s = position(g, current=AB, resources=amethyst + amber, defenders=[((2, 6), AB)])
    do(s, "select", (2, 6))
    do(s, "dest", (3, 6))
    assert s.truncated and not s.terminal and s.current_player == -1
    assert s.returns().tolist() == want


def test_the_turn_limit_counts_main_turns_only():
    g = game(max_main_turns=1, defenders_per_player=1)
    s = g.new_initial_state(0)
    for _ in range(2):  # the two placement turns
        s.apply(int(np.flatnonzero(s.legal_action_mask())[0]))
    assert s.phase == Phase.MAIN and not s.done and s.main_turns == 0
    do(s, "place_attacker", (2, -4))
    assert s.truncated and s.main_turns == 1


# 6. winning: the winner gets +1, the loser -1, and the game is over
@pytest.mark.parametrize("seat", [AM, AB])
def test_a_win_ends_the_game_for_either_seat(seat):
    five = FIVE if seat == AM else [((-q, -r), AB, 0) for (q, r), _owner, _under in FIVE]
    s = position(current=1 - seat, resources=five, reserve_attackers=[5, 5])
    do(s, "place_attacker", (-2, 4) if seat == AB else (2, -4))
    assert s.terminal and s.winner == seat and s.current_player == -1
    assert s.returns()[seat] == 1.0 and s.returns()[1 - seat] == -1.0
    assert s.phase_name() == "over" and not s.legal_action_mask().any()


def test_fewer_than_the_target_does_not_win():
    s = position(game(win_resources=6), current=AB, resources=FIVE, reserve_attackers=[5, 5])
    do(s, "place_attacker", (2, -4))
    assert not s.done and s.current_player == AM and s.returns().tolist() == [0.0, 0.0]


# actions are named and numbered in the acting seat's frame, and bad ones are refused
@pytest.mark.parametrize("action", [NUM_ACTIONS, -1, 10_000])
def test_an_action_outside_the_space_is_refused_by_name(action):
    s = position()
    message = f"action {action} is outside 0..{NUM_ACTIONS - 1}"
    with pytest.raises(ValueError, match=message):
        s.decode(action)
    with pytest.raises(ValueError, match=message):
        s.action_to_string(action)


def test_the_first_and_last_actions_decode():
    s = position()
    assert s.decode(0) == ("place_defender", s.game.board.geo.tri_xy[0])
    assert s.decode(NUM_ACTIONS - 1) == ("pass",)
    x, y = s.game.board.geo.tri_xy[0]
    assert s.action_to_string(0) == f"place defender {x},{y}"
    assert s.action_to_string(NUM_ACTIONS - 1) == "pass"


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="teleport"):
        position().encode("teleport", (0, 0))


def test_a_direction_by_index_or_by_name():
    s = position(attackers=[((0, 0), AM)])
    assert s.encode("step", (0, 0), 1) == s.encode("step", (0, 0), "ne") == s.encode("step", (0, 0), "NE")
    assert s.decode(s.encode("step", (0, 0), "SE")) == ("step", (0, 0), 5)


def test_encode_follows_the_seat_asked_for():
    s = position(current=AM)
    mine, hers = s.encode("place_attacker", (-2, 4)), s.encode("place_attacker", (-2, 4), seat=AB)
    assert hers == s.game.board.rot_action[mine] != mine
    assert s.decode(hers, seat=AB) == ("place_attacker", (-2, 4))
    flat = position(game(relative_frame=False), current=AB)
    assert flat.encode("place_attacker", (2, -4)) == flat.encode("place_attacker", (2, -4), seat=AM)


def test_ambers_frame_turns_her_actions():
    s = position(current=AB, reserve_attackers=[5, 5])
    assert can(s, "place_attacker", (2, -4))
    a = s.encode("place_attacker", (2, -4))
    assert s.action_to_string(a) == "place attacker -2,4"  # her own home, seen at the bottom
    s.apply(a)
    assert s.attacker_at[s.game.board.geo.hexes.index[(2, -4)]] == AB


# which kinds each situation offers: forced kinds first, a lone triangle kind unpacked whole
def test_each_situation_offers_its_kinds_forced_first():
    from meeplezoo.envs.amethyst_amber import rules
    from meeplezoo.envs.amethyst_amber.rules import AmethystAmberState as S

    assert rules._mask_plan("placement") == (S._placeable_bits, 0, None)
    assert rules._mask_plan("choose_dest") == (S._destination_bits, 240, None)
    assert rules._mask_plan("turn_start") == (
        None,
        None,
        (
            (S._legal_resource_placements, True, None),
            (S._selectable_bits, False, 120),
            (S._legal_attacker_placements, False, None),
            (S._legal_steps, False, None),
        ),
    )
    assert rules._mask_plan("continue") == (
        None,
        None,
        ((S._selectable_bits, False, 120), (S._legal_end, False, None)),
    )


# 17. pass: an attacker with no open step, no reserve and no defender leaves only pass
def test_a_boxed_in_attacker_leaves_only_pass():
    s = position(
        attackers=[((-4, 4), AM), ((-3, 4), AB), ((-3, 3), AB)],
        resources=[((-4, 3), AM, 2)],  # full: no room for a prisoner
        reserve_attackers=[0, 1],
    )
    assert legal(s) == {("pass",)}
    do(s, "pass")
    assert s.current_player == AB and s.main_turns == 1


def test_the_sub_steps_are_named():
    s = position(defenders=[((2, 6), AM), ((15, 6), AM)])
    assert s.phase_name() == "turn_start"
    do(s, "select", (2, 6))
    assert s.phase_name() == "choose_dest"
    do(s, "dest", (3, 6))
    assert s.phase_name() == "continue" and s.current_player == AM


# 5. a resource goes on a green with neither a resource nor an attacker, one's own included
def test_own_pieces_also_keep_a_green_from_taking_a_resource():
    s = position(attackers=[((-3, 2), AM)], resources=[((-1, 2), AM, 0)], hand=[1, 0])
    acts = legal(s)
    assert ("place_resource", (-3, 2)) not in acts and ("place_resource", (-1, 2)) not in acts
    assert ("place_resource", (1, 2)) in acts and len(acts) == 10


# the attacker steps of a neighbourhood are remembered per frame: Amber's are her own
def test_both_seats_get_their_own_steps_from_one_game():
    g = game()
    mine = position(g, attackers=[((-2, 4), AM)])
    assert {a[1:] for a in legal(mine) if a[0] == "step"} == {((-2, 4), d) for d in range(4)}
    hers = position(g, current=AB, attackers=[((-2, 4), AB)])
    assert {a[1:] for a in legal(hers) if a[0] == "step"} == {((-2, 4), d) for d in range(4)}
    flat = game(relative_frame=False)
    for seat in (AM, AB):
        s = position(flat, current=seat, attackers=[((-2, 4), seat)])
        assert {a[1:] for a in legal(s) if a[0] == "step"} == {((-2, 4), d) for d in range(4)}


# 2. every main turn, the first straight after placement too, may move three defenders
def test_the_first_main_turn_moves_three_defenders():
    g = game(defenders_per_player=3)
    s = g.new_initial_state(0)
    for xy in [(2, 6), (2, 12), (15, 6), (16, 12), (4, 16), (13, 2)]:
        do(s, "place_defender", xy)
    assert s.phase == Phase.MAIN and s.current_player == AB
    turns = [
        (AB, [((2, 12), (3, 12)), ((16, 12), (15, 12)), ((13, 2), (14, 2))]),
        (AM, [((2, 6), (3, 6)), ((15, 6), (14, 6)), ((4, 16), (5, 16))]),  # and so does the next one
    ]
    for number, (seat, moves) in enumerate(turns, 1):
        for step, (source, target) in enumerate(moves):
            assert s.current_player == seat and (step == 0 or s.phase_name() == "continue")
            do(s, "select", source)
            do(s, "dest", target)
        assert s.current_player == 1 - seat and s.main_turns == number


# 17. pass: entries all held by the enemy, no attacker and no defender of one's own
def test_a_full_entry_row_leaves_only_pass():
    ambers = [((-3, 4), AB), ((-2, 4), AB), ((-1, 4), AB)]
    s = position(attackers=ambers, reserve_attackers=[5, 2])
    assert legal(s) == {("pass",)}


# 6. the win check runs at the start of a main turn only, never in the middle of one
def test_a_position_loaded_mid_turn_is_not_ended_by_the_win_check():
    g = game(max_main_turns=1)
    s = position(g, defenders=[((2, 6), AM)], resources=FIVE, substep="choose_dest", selected=[2, 6])
    assert not s.done and s.phase_name() == "choose_dest"
    do(s, "dest", (3, 6))
    assert s.truncated and not s.terminal  # Amber's turn would be the second main turn


# 3. groups: with group_limit_scope="all" a move may not join a full group of the other colour
def test_scope_all_keeps_a_defender_from_joining_a_full_mixed_group():
    row = [((3, 10), AB), ((4, 10), AB), ((5, 10), AB)]
    # (1, 10) touches only (2, 10), which touches the end of Amber's row of three
    for scope, movable in (("all", False), ("own", True)):
        s = position(game(group_limit_scope=scope, defender_range=1), defenders=[*row, ((1, 10), AM)])
        assert (("select", (1, 10)) in legal(s)) is movable


# 4. taking an attacker depends on the room under one's resources now, in one game as in another
def test_room_for_a_prisoner_is_judged_afresh_in_each_position():
    g = game()
    pair = [((-3, 1), AM), ((-2, 1), AB)]
    for full, capture in ((0, True), (2, False), (1, True), (2, False)):
        s = position(g, attackers=pair, resources=[((0, 3), AM, full)], reserve_attackers=[4, 4 - full])
        assert can(s, "step", (-3, 1), "E") is capture


# the mask is a plain 0/1 array whichever kinds wrote it (its bytes are what the env hands out)
def test_mask_bytes_are_zero_or_one():
    continuing = position(defenders=[((2, 6), AM), ((15, 6), AM)])
    do(continuing, "select", (2, 6))
    do(continuing, "dest", (3, 6))
    placing = position(hand=[1, 0])
    entering = position(attackers=[((0, 0), AM)], reserve_attackers=[4, 5], defenders=[((2, 6), AM)])
    stuck = position(attackers=[((-3, 4), AB), ((-2, 4), AB), ((-1, 4), AB)], reserve_attackers=[5, 2])
    for s in (continuing, placing, entering, stuck):
        assert set(np.unique(s.legal_action_mask().view(np.uint8)).tolist()) == {0, 1}


# 17. pass is offered only when nothing else is: attacker steps alone keep it out
def test_steps_alone_leave_no_pass():
    s = position(attackers=[((0, 0), AM)], reserve_attackers=[0, 5])
    assert kinds(s) == {"step"}


# 1. placement: a seat with defenders left places on until it has none, if the other has none
def test_the_seat_with_defenders_left_places_the_rest():
    s = position(phase="placement", current=AB, unplaced_defenders=[2, 1])
    seats = []
    for xy in [(2, 12), (2, 6), (15, 6)]:
        seats.append(s.current_player)
        do(s, "place_defender", xy)
    assert seats == [AB, AM, AM]
    assert s.phase == Phase.MAIN and s.current_player == AB and s.unplaced == [0, 0]


# 3. groups: a defender may stop beside a friend while the group stays within the limit
def test_a_defender_may_move_to_join_a_small_group():
    # (1, 10) can only reach (2, 10), which touches the single Amethyst defender on (3, 10)
    s = position(game(defender_range=1), defenders=[((1, 10), AM), ((3, 10), AM)])
    assert ("select", (1, 10)) in legal(s)
    do(s, "select", (1, 10))
    assert legal(s) == {("dest", (2, 10))}


# 27. a loaded position must be reachable: a selected defender needs somewhere to go
def test_a_selection_with_nowhere_to_go_is_refused():
    # (4, 2)'s only neighbour (5, 2) holds an Amber defender
    with pytest.raises(ValueError, match=r"the defender on \(4, 2\) has no destination"):
        position(defenders=[((4, 2), AM), ((5, 2), AB)], substep="choose_dest", selected=[4, 2])


# 17. pass: a boxed-in defender does not make pass legal beside other actions
def test_a_boxed_in_defender_offers_nothing():
    s = position(defenders=[((4, 2), AM), ((5, 2), AB)], reserve_attackers=[5, 5])
    assert kinds(s) == {"place_attacker"}


# actions: a step's target is (hex, direction), a triangle's or hex's its index, end and pass none
def test_each_kind_names_its_target():
    from meeplezoo.envs.amethyst_amber import actions

    assert actions._target_of(actions.STEP, 6 * 7 + 4) == (7, 4)
    assert actions._target_of(actions.SELECT, 5) == 5 and actions._target_of(actions.PLACE_RESOURCE, 60) == 60
    assert (
        actions._target_of(actions.PASS, 0) is None
        and actions._target_of(actions.END_DEFENDER_MOVES, 0) is None
    )
