"""Wars on Amber when the first seat holds it or the first prince is its King:
the first player defends (negate, block, battle wounds after a lost attack),
his King and regents defend, and a neutral Amber's King defends alone."""

from __future__ import annotations

import json

from meeplezoo.envs.princes_of_amber.rules import AmberState

from .helpers import EXILE, GUARDIAN, KING, NORTH, PASS, P, act, card, decline, legal, position


def _second_player_attacks_first_players_amber(**config):
    s = position(
        order=["Eric", "Corwin", "Julian", "Benedict", "Caine", "Gerard"],
        turn=1,
        hands={1: ["CONQUER"], 0: ["BLOCK_THE_WAY", "WALLS_OF_AMBER", "ARMY_LOSS", "BATTLE_WOUNDS"]},
        dice=[1, 1, 6, 6, 6],
        **config,
    )
    for i in range(9):
        s.role[i] = EXILE
    s.role[P["Eric"]], s.role[P["Benedict"]], s.role[P["Caine"]] = KING, GUARDIAN, NORTH
    s.controller[P["Benedict"]] = 0
    s.controller[P["Gerard"]] = 0  # an exile of the defender: no Lord, he never defends
    s.amber = 0
    s.armies[P["Corwin"]] = 2
    s.refresh()
    act(s, P["Corwin"], card("CONQUER"))
    return s


def test_the_first_player_defends_his_amber_and_answers_a_lost_attack():
    s = _second_player_attacks_first_players_amber()
    assert s.phase_name() == "NEGATE" and s.current_player == 0 and legal(s) == {card("BLOCK_THE_WAY"), PASS}
    act(s, PASS)
    assert s.phase_name() == "BLOCK" and s.current_player == 0
    act(s, PASS)
    assert s.war.won == 0 and s.armies[P["Corwin"]] == 0
    assert s.phase_name() == "WAR_FOLLOWUP" and s.current_player == 0
    assert legal(s) == {card("BATTLE_WOUNDS"), PASS}


def test_leader_only_the_first_players_king_and_regents_defend_his_amber():
    s = _second_player_attacks_first_players_amber(amber_defenders="leader_only")
    decline(s, "NEGATE", "BLOCK")
    lead = s.leadership
    assert s.war.defence == lead(P["Eric"]) + lead(P["Benedict"])  # the neutral regent Caine stands aside


def test_leader_only_a_neutral_ambers_king_defends_alone_even_the_first_prince():
    s = position(
        order=["Benedict", "Eric", "Corwin", "Caine", "Gerard", "Random"],
        hands={0: ["CONQUER"], 1: ["BLOCK_THE_WAY"]},
        dice=[6, 6, 1, 1, 3],
        amber_defenders="leader_only",
    )
    assert s.role[P["Corwin"]] == KING and P["Corwin"] == 0
    s.armies[P["Benedict"]] = 6
    s.garrison = 3
    s.refresh()
    act(s, P["Benedict"], card("CONQUER"))
    while (
        s.war is not None and s.war.attack == 0 and s.phase_name() in ("SUPPORT", "SHADOW_ARMIES", "NEGATE")
    ):
        s.apply(PASS)
    assert s.war.defence == s.leadership(P["Corwin"])


def test_an_attack_with_a_single_army_asks_for_shadow_armies_and_saves_mid_war():
    s = position(
        order=["Eric", "Corwin", "Julian", "Benedict", "Caine", "Gerard"],
        turn=1,
        hands={1: ["CONQUER", "FIGHT"], 0: ["FIGHT"]},
    )
    for i in range(9):
        s.role[i] = EXILE
    s.role[P["Eric"]] = KING
    s.amber = 0
    s.armies[P["Corwin"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("CONQUER"))
    while s.phase_name() in ("NEGATE", "BLOCK"):
        s.apply(PASS)
    assert s.phase_name() == "SHADOW_ARMIES" and s.current_player == 1
    loaded = AmberState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    assert loaded.to_dict() == s.to_dict()


def test_a_war_won_with_a_single_army_left_takes_amber():
    s = position(
        order=["Eric", "Corwin", "Julian", "Benedict", "Caine", "Gerard"],
        turn=1,
        hands={1: ["CONQUER"], 0: []},
        dice=[6, 6, 1, 1, 1],
    )
    for i in range(9):
        s.role[i] = EXILE
    s.role[P["Eric"]] = KING
    s.amber = 0
    s.garrison = 1
    s.armies[P["Corwin"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("CONQUER"))
    while s.phase_name() in ("NEGATE", "BLOCK", "SHADOW_ARMIES"):
        s.apply(PASS)
    assert s.war.won == 1 and s.amber == 1 and s.garrison == 1


def test_a_held_king_of_a_neutral_amber_defends_seven_lower_in_the_first_round_even_the_first_prince():
    s = position(
        order=["Benedict", "Eric", "Corwin", "Caine", "Gerard", "Random"],
        hands={0: ["CONQUER"], 1: ["BLOCK_THE_WAY"]},
        dice=[6, 6, 1, 1, 3],
        amber_defenders="leader_only",
    )
    s.armies[P["Benedict"]] = 6
    s.garrison = 3
    s.psychic_hold[P["Corwin"]] = 1
    s.refresh()
    act(s, P["Benedict"], card("CONQUER"))
    while s.phase_name() in ("SUPPORT", "SHADOW_ARMIES", "NEGATE", "BLOCK"):
        s.apply(PASS)
    assert s.psychic_hold[P["Corwin"]] == 0
