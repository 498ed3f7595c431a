"""Rules that must hold for the first prince (Corwin, prince 0) and the first
seat as for any other, and the order in which a window passes along its
queue."""

from __future__ import annotations

import json

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import NUM_PRINCES
from meeplezoo.envs.princes_of_amber.frames import Succession
from meeplezoo.envs.princes_of_amber.rules import AmberState
from meeplezoo.envs.princes_of_amber.wars import battle

from .helpers import EXILE, GUARDIAN, KING, NORTH, PASS, SOUTH, Damage, P, act, card, legal, position


def test_a_player_who_still_has_his_own_prince_is_asked_no_succession_even_the_first_prince():
    s = position(n=2, order=["Corwin", "Eric"], hands={0: ["FIGHT"]})
    assert s.player_prince[0] == P["Corwin"] == 0
    s.stack.append(Succession(0))
    s._run()
    assert s.phase_name() == "ACTION_SELECT" and s.player_prince[0] == 0


def test_a_vacant_post_offered_to_the_first_players_exile_is_his_to_accept():
    s = position(n=2, order=["Eric", "Corwin"])
    s.controller[P["Gerard"]] = 1
    s.take_amber(1)
    s._run()
    assert s.phase_name() == "APPOINT" and s.current_player == 1
    act(s, P["Eric"])
    assert s.phase_name() == "REGENT_OFFER" and s.current_player == 0
    assert legal(s) == {P["Eric"], PASS}


def test_one_army_against_one_garrison_fights_its_round():
    s = position(n=2, dice=[6, 6, 1, 1, 1])
    a = s.player_prince[0]
    s.garrison, s.armies[a] = 1, 1
    battle(s, a, 10, 10, -1)
    assert s.garrison == 0 and s.armies[a] == 1
    s = position(n=2, dice=[1, 1, 6, 6, 1])
    s.garrison, s.armies[a] = 1, 1
    battle(s, a, 10, 10, -1)
    assert s.garrison == 1 and s.armies[a] == 0


def test_the_strongest_free_regent_is_found_whichever_prince_comes_first():
    s = position(n=2)
    s.role = [EXILE] * NUM_PRINCES
    s.controller = [-1] * NUM_PRINCES
    s.role[P["Corwin"]], s.role[P["Julian"]] = GUARDIAN, NORTH  # Leadership 8 and 7
    s.role[P["Benedict"]] = EXILE  # the strongest Leadership, but no regent
    assert s.leadership(P["Corwin"]) > s.leadership(P["Julian"])
    assert s.strongest_regent() == P["Corwin"]


def test_controlling_only_exiles_is_no_regency():
    s = position(n=2)
    s.role = [EXILE] * NUM_PRINCES
    s.role[P["Eric"]] = KING
    s.controller = [-1] * NUM_PRINCES
    s.controller[P["Gerard"]] = 0
    assert not s.controls_regent(0)
    s.role[P["Gerard"]] = SOUTH
    assert s.controls_regent(0)


def test_a_dying_princes_window_passes_along_every_player_of_the_queue_in_order():
    s = position(
        n=3, order=["Eric", "Corwin", "Gerard"], turn=1, hands={0: ["FIGHT"], 1: ["FIGHT"], 2: ["FIGHT"]}
    )
    v = next(i for i in range(NUM_PRINCES) if s.controller[i] < 0 and s.alive[i])
    s.stack.append(Damage(v, 1, 20))
    s._run()
    asked = []
    while s.phase_name() == "DEATH":
        asked.append(s.current_player)
        s.apply(PASS)
    assert asked == [1, 2, 0] and not s.alive[v]


def test_an_eliminated_players_hand_counts_are_empty_and_a_redeal_counts_each_card_once():
    s = position(n=3, hands={0: ["FIGHT"], 1: ["CAPTURE", "FIGHT"], 2: ["FIGHT", "FIGHT"]})
    copy = s.determinize(0, np.random.default_rng(3))
    for p in range(3):
        assert sum(copy.hand_kinds[p]) == len(copy.hands[p])
    s.eliminate(2)
    assert s.hand_kinds[2] == [0] * len(s.hand_kinds[2])


def test_when_amber_falls_the_first_players_regent_is_exiled():
    s = position(n=2)
    s.role = [EXILE] * NUM_PRINCES
    s.controller = [-1] * NUM_PRINCES
    s.role[P["Gerard"]], s.controller[P["Gerard"]] = SOUTH, 0
    s.role[P["Julian"]] = GUARDIAN
    s.amber = 1
    s.fall_neutral()
    assert s.role[P["Gerard"]] == EXILE and s.controller[P["Gerard"]] == 0
    assert s.role[P["Julian"]] == KING


def test_a_fight_marks_its_target_prince_and_a_pending_target_choice_is_a_valid_position():
    s = position(n=2, order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["GET_AWAY"]})
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"))
    assert s.phase_name() == "TARGET_PRINCE" and s.target_prince == -1
    AmberState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    act(s, P["Eric"])
    assert s.phase_name() == "NEGATE" and s.target_prince == P["Eric"]
