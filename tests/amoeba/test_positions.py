"""Loaded positions: every entry checked as it is read, the table laid again
only where each placement was legal, and the rules that tie the entries
together (each refusal names the entry and the rule)."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.amoeba.records import ANCHOR, CLAIM, OVER, SELECT
from tests.amoeba.helpers import game

PREFIX = "amoeba_v0: "


def _played(g, seed, until, moves=400):
    """A position of a seeded random game at the first move where ``until`` holds."""
    state = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if until(state):
            return state
        state.apply(int(rng.choice(state.legal_actions())))
    raise AssertionError("no such position in the game")


def _select_step(g=None, seed=3):
    g = g or game()
    return _played(g, seed, lambda s: s.phase == SELECT and len(s.placements) >= 6 and s.mover == 0)


def _refused(g, data, message):
    with pytest.raises(ValueError, match="^" + re.escape(PREFIX + message) + "$"):
        g.state_from_dict(data)


def test_a_played_position_loads_back_as_it_was():
    g = game()
    for until in (lambda s: s.phase == ANCHOR, lambda s: s.phase == CLAIM, lambda s: s.done):
        state = _played(g, 1, until, moves=2000)
        data = state.to_dict()
        back = g.state_from_dict(copy.deepcopy(data))
        assert back.to_dict() == data
        assert np.array_equal(back.legal_action_mask(), state.legal_action_mask())


def test_a_tile_in_two_hands_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    tile = data["hands"][0][0]
    data["hands"][1][0] = tile
    _refused(g, data, f"tile {tile} is there 2 times (in hand 0, hand 1); the game has 1")


def test_a_tile_both_in_the_pile_and_on_the_table_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    tile = data["placements"][0][2]
    data["pile"].append(tile)
    _refused(g, data, f"tile {tile} is there 2 times (in the pile, the placements); the game has 1")


def test_a_missing_tile_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    tile = data["pile"].pop()
    _refused(g, data, f"tile {tile} is missing: 0 of 1 found")


def test_a_seat_out_of_range_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["mover"] = 2
    _refused(g, data, "position entry 'mover': must be from 0 to 1, got 2")


def test_an_owner_seat_out_of_range_is_refused():
    g = game()
    state = _played(g, 3, lambda s: s.phase == SELECT and any(v.owner >= 0 for v in s.amoebas.values()))
    data = state.to_dict()
    data["owners"][0][1] = 5
    _refused(g, data, "position entry 'owners': owner 0: the seat must be from 0 to 1, got 5")


def test_an_owner_on_no_amoeba_is_refused():
    g = game()
    state = _played(g, 3, lambda s: s.phase == SELECT and any(v.owner >= 0 for v in s.amoebas.values()))
    data = state.to_dict()
    data["owners"][0][0] = 0  # the corner slot of the board: nothing lies there
    _refused(g, data, "position entry 'owners': owner 0: no amoeba on the table has key 0")


def test_a_phase_that_does_not_fit_the_game_is_refused():
    g = game()
    running = _select_step(g).to_dict()
    data = dict(running, phase=int(OVER))
    _refused(g, data, "position entry 'phase': must be -1 exactly when the game is over")
    data = dict(running, phase=int(ANCHOR))
    _refused(g, data, "position entry 'selection': the anchor step needs a selected tile")
    data = dict(running, phase=int(CLAIM))
    _refused(g, data, "position entry 'offer_index': 0 is not an offer of the 0 on the table")
    data = dict(running, selection=[0, 0])
    _refused(g, data, "position entry 'selection': a tile is selected only at the anchor step")


def test_an_ended_game_that_has_tiles_and_nuclei_left_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data.update(terminal=True, phase=int(OVER))
    _refused(
        g, data, "position entry 'terminal': the game ends only when the tiles or the nuclei have run out"
    )


def test_a_game_cut_short_before_max_turns_is_refused():
    g = game(max_turns=60)
    data = _select_step(g).to_dict()
    data.update(truncated=True, phase=int(OVER))
    _refused(
        g,
        data,
        f"position entry 'truncated': the game is cut short only after 60 turns, at turn {data['turn']}",
    )


def test_turn_counters_that_do_not_add_up_to_the_die_are_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["placed"] = data["die"]
    _refused(
        g,
        data,
        f"position entry 'die': {data['die']} placements this turn, but {data['die']} made and "
        f"{data['placements_left']} left",
    )


def test_a_first_tile_off_the_centre_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["placements"][0][0] += 1
    _refused(g, data, "position entry 'placements': placement 0: the first tile must be laid on the centre")


def test_a_tile_laid_away_from_the_table_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["placements"][-1][:2] = [0, 0]
    index = len(data["placements"]) - 1
    _refused(
        g,
        data,
        f"position entry 'placements': placement {index}: the tile does not fit there "
        "(next to the table, pink meeting pink)",
    )


def test_a_top_tile_on_an_empty_block_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    r, c = data["placements"][0][:2]
    data["placements"][0][4] = 2
    _refused(
        g,
        data,
        f"position entry 'placements': placement 0 at ({r}, {c}): "
        "a top tile must lie exactly on an uncovered ground tile",
    )


def test_a_tile_laid_twice_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    tile = data["placements"][0][2]
    data["placements"][1][2] = tile
    _refused(g, data, f"position entry 'placements': placement 1: tile {tile} is already on the table")


def test_a_placement_of_the_wrong_shape_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["placements"][2] = data["placements"][2][:4]
    _refused(
        g,
        data,
        "position entry 'placements': placement 2 [row, column, tile, rotation, level] must have 5 entries, got 4",
    )


def test_a_rotation_the_config_forbids_is_refused():
    g = game(allow_rotation=False)
    data = _select_step(g).to_dict()
    tile = data["placements"][0][2]
    data["placements"][0][3] = 1
    _refused(
        g,
        data,
        f"position entry 'placements': placement 0: rotation 1 of tile {tile} is not one a player may "
        "choose in this config",
    )


def test_a_nucleus_gained_or_lost_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["supply"][1] -= 1
    owned = 10 - data["supply"][1] - 1
    _refused(
        g,
        data,
        f"position entry 'supply': seat 1 has {data['supply'][1]} nuclei in supply and {owned} on amoebas; "
        "each seat has 10",
    )


def test_a_hand_not_drawn_up_is_refused():
    g = game()
    data = _select_step(g).to_dict()
    data["removed"][1].append(data["hands"][1].pop())
    _refused(
        g, data, "position entry 'hands': seat 1 holds 2 tiles while the pile has tiles; it draws up to 3"
    )


def test_removed_tiles_without_remove_stuck_hand_are_refused():
    g = game(remove_stuck_hand=False)
    data = _select_step(g).to_dict()
    data["removed"][0].append(data["pile"].pop())
    _refused(g, data, "position entry 'removed': no tile leaves the game when remove_stuck_hand is off")


def test_a_refused_position_leaves_the_env_as_it_was():
    env = envs.make("amoeba_v0")
    env.reset(seed=4)
    before = env.get_state()
    data = copy.deepcopy(before)
    data["pile"].append(data["hands"][0][0])
    with pytest.raises(ValueError, match="is there 2 times"):
        env.load_state(data)
    assert env.get_state() == before


def test_the_mask_handed_out_cannot_change_the_game():
    state = _select_step()
    mask = state.legal_action_mask()
    legal = mask.copy()
    illegal = int(np.flatnonzero(~legal)[0])
    mask[:] = True
    assert np.array_equal(state.legal_action_mask(), legal)
    with pytest.raises(ValueError, match="amoeba_v0"):
        state.apply(illegal)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ([1, 2, 3, 4, 5, 1], "pile_override entry 5: tile 1 is in the pile twice"),
        ([1, 2, 84], "pile_override entry 2 must be a tile id 0..83, got 84"),
        ([1, 2, 3], "pile_override has 3 tiles; dealing 2 hands of 3 needs at least 6"),
    ],
)
def test_a_pile_override_that_cannot_deal_the_game_is_refused_at_construction(override, message):
    with pytest.raises(ValueError, match="^" + re.escape(PREFIX + message) + "$"):
        game(pile_override=override)


def test_a_pile_override_deals_from_its_end():
    state = game(pile_override=list(range(10))).new_initial_state(0)
    assert state.hands == [[9, 8, 7], [6, 5, 4]]
    assert state.pile.draw_pile == [0, 1, 2, 3]
