"""Positions handed in from outside: each broken rule is refused with a
ValueError naming the entry and the rule, and the env keeps its game."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from tests.amethyst_amber.helpers import AB, AM, game, position

GAME = "amethyst_amber_v0"


def refused(message: str, g=None, **entries) -> None:
    with pytest.raises(ValueError) as caught:
        position(g, **entries)
    assert str(caught.value) == f"{GAME}: {message}"


def test_a_defender_listed_twice():
    refused(
        "position entry 'defenders': entry 1: triangle (4, 16) already holds a defender",
        defenders=[((4, 16), AM), ((4, 16), AB)],
    )


def test_a_defender_on_a_yellow_triangle():
    refused(
        "position entry 'defenders': entry 0: triangle (7, 6) is yellow; defenders stand on black triangles",
        defenders=[((7, 6), AM)],
    )


def test_an_attacker_in_two_places_at_once():
    refused(
        "position entry 'attackers': entry 1: hex (0, 2) already holds an attacker",
        attackers=[((0, 2), AM), ((0, 2), AB)],
    )


def test_an_attacker_on_a_resource():
    refused(
        "position entry 'resources': entry 0: hex (0, 2) holds an attacker; a piece stepping onto a resource takes it",
        attackers=[((0, 2), AM)],
        resources=[((0, 2), AM, 0)],
    )


def test_a_seat_out_of_range():
    refused("position entry 'attackers': entry 0 seat must be from 0 to 1, got 2", attackers=[((0, 2), 2)])
    refused("position entry 'current': seat must be from 0 to 1, got -1", current=-1)


def test_a_hex_off_the_board():
    refused("position entry 'attackers': entry 0: no hex at (9, 0)", attackers=[((9, 0), AM)])


def test_a_float_count():
    refused("position entry 'main_turns': must be an integer, got 1.5", main_turns=1.5)


def test_more_attackers_than_a_seat_owns():
    refused(
        "position entries 'attackers', 'reserve_attackers' and 'resources': seat 0 has 1 attackers on the "
        "board, 5 in reserve and 0 held prisoner, more than the 5 it owns",
        attackers=[((0, 2), AM)],
        reserve_attackers=[5, 5],
    )


def test_more_resources_than_the_game_has():
    refused(
        "position entries 'resources' and 'hand': 1 resources on the board and 6 in hand, more than the game's 6",
        resources=[((0, 1), None, 0)],
        hand=[3, 3],
    )


def test_a_placed_resource_off_the_greens():
    refused(
        "position entry 'resources': entry 0: seat 0's resource cannot lie on (0, 1), not a green it may use",
        resources=[((0, 1), AM, 0)],
    )
    refused(
        "position entry 'resources': entry 0: seat 0's resource cannot lie on (3, -2), not a green it may use",
        game(green_scope="own_half"),
        resources=[((3, -2), AM, 0)],
    )


def test_prisoners_beyond_the_capacity():
    refused(
        "position entry 'resources': entry 0 prisoners must be from 0 to 2, got 3",
        resources=[((1, 2), AB, 3)],
    )


def test_a_group_over_the_limit():
    refused(
        "position entry 'defenders': the defender on (4, 16) is in a group of more than group_limit 1",
        game(group_limit=1),
        defenders=[((4, 16), AM), ((5, 16), AM)],
    )


def test_attackers_in_the_placement_phase():
    refused(
        "position entry 'phase': in the placement phase no attacker is out and every resource is neutral",
        phase="placement",
        attackers=[((0, 2), AM)],
    )


def test_unplaced_defenders_in_the_main_phase():
    refused(
        "position entries 'phase' and 'unplaced_defenders': [1, 0] defenders unplaced in the main phase",
        unplaced_defenders=[1, 0],
    )


def test_choosing_a_destination_without_a_selection():
    refused(
        "position entries 'substep' and 'selected': choose_dest needs a selected, unmoved defender of seat 0",
        substep="choose_dest",
        defenders=[((4, 16), AM)],
    )


def test_selecting_the_opponents_defender():
    refused(
        "position entries 'substep' and 'selected': choose_dest needs a selected, unmoved defender of seat 0",
        substep="choose_dest",
        defenders=[((4, 16), AB)],
        selected=[4, 16],
    )


def test_continue_without_a_move():
    refused(
        "position entries 'substep', 'selected' and 'moved': continue follows a move, with nothing selected",
        substep="continue",
        defenders=[((4, 16), AM)],
    )


def test_a_winner_without_the_resources():
    refused(
        "position entries 'winner', 'current' and 'resources': the winner is the seat to act, with at least "
        "win_resources 5 placed",
        winner=AM,
    )


def test_cut_short_before_the_turn_limit():
    refused(
        "position entries 'truncated' and 'main_turns': a game is cut short at max_main_turns 300, unless "
        "the seat to act has won",
        truncated=True,
        main_turns=12,
    )


def test_the_generator_is_required():
    data = position().to_dict()
    del data["rng"]
    with pytest.raises(ValueError, match="the position has no 'rng' entry"):
        game().state_from_dict(data)


def test_a_refused_position_leaves_the_env_as_it_was():
    env = envs.make(GAME)
    env.reset(seed=3)
    before = json.dumps(env.unwrapped.get_state(), sort_keys=True)
    broken = position(reserve_attackers=[5, 5]).to_dict()
    broken["attackers"] = [[0, 2, 0]]
    with pytest.raises(ValueError, match="more than the 5 it owns"):
        env.unwrapped.load_state(broken)
    assert json.dumps(env.unwrapped.get_state(), sort_keys=True) == before


def test_a_mid_game_position_loads_back():
    g = game()
    s = g.new_initial_state(4)
    rng = np.random.default_rng(4)
    for _ in range(80):
        s.apply(int(rng.choice(s.legal_actions())))
        assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_the_mask_is_read_only():
    s = position(reserve_attackers=[5, 5])
    mask = s.legal_action_mask()
    with pytest.raises(ValueError, match="read-only"):
        mask[0] = True
    assert not s.legal_action_mask()[0]
    assert s.clone().legal_action_mask().flags.writeable is False
