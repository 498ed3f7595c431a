"""The smaller rules of seeds/gold_rush_gangs.md, one scenario each: board
sizes at the edge of the config table, the iid deck, the first-player
draw, and the end of the game."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.cards import card_rank
from tests.gold_rush_gangs.helpers import (
    NW,
    PRO,
    SE,
    SW,
    A,
    B,
    E,
    W,
    act,
    end_turn,
    game,
    legal,
    position,
    sacks_at,
    unit,
)


# 4. stores: the rim cells 6 or more from every home; a small board leaves exactly three
def test_a_board_with_three_store_cells_offers_those_three():
    g = game(radius=6, territory_radius=5)
    s = g.new_initial_state(0, first_player=0)
    offered = {g.decode(0, a) for a in np.flatnonzero(s.legal_action_mask())}
    assert offered == {("store", (6, -6)), ("store", (-6, 0)), ("store", (0, 6))}


# 35. iid deck: every card drawn is fresh, so nothing is ever discarded
def test_iid_draws_leave_the_deck_whole():
    g = game(deck_mode="iid")
    s = g.new_initial_state(0)
    assert len(s.first_draw[0]) == 3 and s.deck.discard == [] and len(s.deck.draw_pile) == 52
    s = position(g, units={(0, A): (0, 3), (1, A): (2, 2)})
    act(s, "move", A, E)
    (fight,) = s.last_combat
    assert len(fight["attacker_cards"]) == len(fight["defender_cards"]) == 1
    assert s.deck.discard == [] and len(s.deck.draw_pile) == 52


# the board's shapes must nest: base inside territory inside the board
def test_a_base_as_large_as_the_territory_is_refused():
    with pytest.raises(ValueError, match="need base_radius < territory_radius < radius"):
        game(base_radius=2, territory_radius=2)


# 33. a loaded position's AP: at most base_ap plus two per sack needed to win
def test_ap_beyond_what_any_turn_gives_is_refused_as_out_of_range():
    data = position().to_dict()
    data["ap"] = 5 + 2 * 8 + 1
    with pytest.raises(ValueError, match="position entry 'ap': must be from 0 to 21, got 22"):
        game().state_from_dict(data)


# the end of the game: "over" whether won (by any seat, player_0 included) or cut short
def test_a_finished_game_is_over():
    data = position().to_dict()
    data["delivered"], data["winner"] = [8, 0, 0], 0
    won = game().state_from_dict(data)
    assert won.terminal and not won.truncated and won.phase_name() == "over" and won.current_player == -1
    cut = position(max_rounds=1, turns=2)
    end_turn(cut)
    assert cut.truncated and not cut.terminal and cut.phase_name() == "over" and cut.current_player == -1


# 27. setup with fixed stores: three deployments per seat, in seat order, then movement
def test_fixed_stores_make_setup_three_steps_a_seat():
    s = game(store_placement="fixed").new_initial_state(0, first_player=1)
    seats = []
    while s.phase_name() != "movement":
        seats.append(s.current_player)
        s.apply(int(s.legal_actions()[0]))
    assert seats == [1, 1, 1, 2, 2, 2, 0, 0, 0] and s.current_player == 1
    for q, r in [(-9, 0), (9, -9), (0, 9)]:  # the three corners that are not homes
        assert sacks_at(s, q, r) == {"store": 1}


# the bank starts intact, even when a single hit would open it
def test_a_fresh_bank_is_intact():
    s = game(bank_threshold=1).new_initial_state(0)
    assert not any(s.bank_broken(seat) for seat in range(3))


# 33. a setup position that leaves out its step starts at the first seat's first step
def test_a_setup_position_without_its_step_starts_at_the_first():
    g = game()
    data = g.new_initial_state(0, first_player=2).to_dict()
    del data["setup_pos"]
    s = g.state_from_dict(data)
    assert s.phase_name() == "store" and s.current_player == 2
    assert {g.decode(2, a)[0] for a in s.legal_actions()} == {"store"}


# 33. a deck override may ask for any rank from the Ace (1) to the King (13)
def test_a_deck_override_may_start_with_an_ace():
    s = game().new_initial_state(0, deck=[1, 13, 2], first_player=0)
    assert [card_rank(card) for card in reversed(s.deck.draw_pile[-3:])] == [1, 13, 2]


# 12, 13. any gang's gold counts, player_0's too: carried at 2 AP a step, delivered in the base
def test_player_0_gold_is_carried_and_delivered_like_any_other():
    s = position(current=1, units={(1, A): {"cell": (1, -7), "carry": "p0"}}, sacks={(2, -7): {"p2": 1}})
    assert not legal(s, "move", A, E)  # a carrier never steps onto lying gold
    act(s, "move", A, NW)  # to (1, -8), next to the base
    assert s.action_points == 3 and s.delivered[1] == 0
    act(s, "move", A, W)  # into the base cell (0, -8)
    assert s.delivered[1] == 1 and s.action_points == 2 and unit(s, 1, A)[3] is None


# 25. a thief's cell is closed to the others; only the own home cell holds the whole gang
def test_a_cell_holds_one_thief_but_home_holds_the_gang():
    s = position(units={(0, A): (0, 3), (0, B): (2, 3)})
    act(s, "move", A, E)  # to (1, 3)
    assert not legal(s, "move", B, W)
    s = position(units={(0, PRO): (-7, 8), (0, A): (-8, 9), (0, B): (-9, 8)})
    act(s, "move", A, W)
    act(s, "move", B, SE)
    assert unit(s, 0, A)[0] == unit(s, 0, B)[0] == (-9, 9)
    act(s, "move", PRO, SW)  # to (-8, 9), which A has left
    assert unit(s, 0, PRO)[0] == (-8, 9)


# 14. only a thief next to the standing bank may break it
def test_breaking_needs_a_thief_next_to_the_bank():
    s = position(units={(0, A): (-1, 1), (0, B): (-2, 1)})
    assert legal(s, "break", A) and not legal(s, "break", B) and not legal(s, "break", PRO)


# 2. a thief deploys on an empty cell: gold lying there (a hand-made position) keeps it off
def test_gold_lying_in_a_territory_keeps_a_thief_from_deploying_there():
    g = game()
    s = g.new_initial_state(0, first_player=1)
    while not (s.current_player == 0 and s.phase_name() == "deploy"):
        s.apply(int(s.legal_actions()[0]))
    assert legal(s, "deploy", (-9, 4))
    data = s.to_dict()
    for row in data["sacks"]:  # one of player_1's sacks moves from under its pro to (-9, 4)
        if row[2] == "p1" and row[3] == 3:
            row[3] = 2
    data["sacks"].append([-9, 4, "p1", 1])
    t = g.state_from_dict(data)
    assert not legal(t, "deploy", (-9, 4)) and legal(t, "deploy", (-9, 5))


# 8. a thief carrying a sack, player_0's included, picks up nothing more
def test_a_carrier_of_player_0_gold_picks_up_nothing_more():
    s = position(current=1, units={(1, A): {"cell": (3, -3), "carry": "p0"}}, sacks={(3, -3): {"p2": 1}})
    assert not legal(s, "pickup", A)
    s = position(current=1, units={(1, A): (3, -3)}, sacks={(3, -3): {"p2": 1}})
    assert legal(s, "pickup", A)


# 14. the last AP of a turn may still go into the bank
def test_one_ap_left_is_enough_to_break():
    s = position(units={(0, A): (-1, 1)}, ap=1)
    assert legal(s, "break", A)
    act(s, "break", A)
    assert s.action_points == 0 and s.bank_damage[0] == 1


# 25. the home cell holds the gang, for every gang (player_1's home is cell 0);
# every other cell holds one thief, the pro's too
def test_home_and_the_pros_cell():
    s = position(current=1, units={(1, A): (1, -9)})  # player_1's pro and B are at home
    assert legal(s, "move", A, W)
    s = position(units={(0, PRO): (0, 3), (0, A): (1, 3)})
    assert not legal(s, "move", A, W)


def test_an_action_outside_the_space_is_refused():
    g = game()
    for action in (g.num_actions, -1):
        with pytest.raises(ValueError, match=f"action {action} out of range"):
            g.decode(0, action)
