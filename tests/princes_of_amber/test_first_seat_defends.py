"""The answers the rules owe a defender are owed to the first seat too: the
second player attacks the first player's princes, and the first player is
asked every window, saves his dying prince first and keeps what the rules
leave him."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import NUM_PRINCES

from .helpers import PASS, Damage, P, act, card, decline, legal, position


def _second_player_fights():
    s = position(
        order=["Eric", "Benedict"],
        turn=1,
        hands={1: ["FIGHT", "CAPTURE", "SHOW_MERCY"], 0: ["GET_AWAY", "CALL_THE_GUARDS", "NEGATE_CAPTURE"]},
    )
    s.controller[P["Random"]] = 0
    s.refresh()
    act(s, P["Benedict"], card("FIGHT"), P["Random"])
    assert s.phase_name() == "NEGATE" and s.current_player == 0
    s.dice, s.dice_used = [3, 4, 2, 3, 4], 0
    act(s, PASS)
    assert s.hits[P["Random"]] == 3
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and s.current_player == 1
    return s


def test_the_first_player_may_negate_a_fight_and_call_the_guards_on_his_prince():
    s = _second_player_fights()
    act(s, PASS)
    assert s.phase_name() == "CALL_GUARDS" and s.current_player == 0
    assert legal(s) == {card("CALL_THE_GUARDS"), PASS}


def test_the_first_player_may_negate_a_capture_of_his_prince():
    s = _second_player_fights()
    act(s, card("CAPTURE"))
    assert s.phase_name() == "CAPTURE_NEGATE" and s.current_player == 0
    act(s, card("NEGATE_CAPTURE"))
    assert not s.captured[P["Random"]]


def test_the_first_player_is_asked_for_fury_in_a_will_contest_on_his_prince():
    s = position(
        order=["Eric", "Corwin"],
        turn=1,
        hands={1: ["CONTEST_OF_WILLS"], 0: ["EMOTIONAL_FURY", "FIGHT"]},
        dice=[6, 6, 1, 1],
    )
    s.controller[P["Brand"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("CONTEST_OF_WILLS"), P["Eric"])
    decline(s, "NEGATE")
    assert s.phase_name() == "FURY" and s.current_player == 0
    assert legal(s) == {card("EMOTIONAL_FURY"), PASS}


def _hit(s, victim: int, dealer: int, amount: int) -> None:
    s.stack.append(Damage(victim, dealer, amount))
    s._run()


def test_a_prince_left_with_one_hit_lives_and_one_dealt_past_his_hits_shows_none():
    s = position(order=["Eric", "Corwin"], turn=1, hands={0: ["NOT_REALLY_DEAD"], 1: ["FIGHT"]})
    v = P["Random"]
    s.controller[v] = 0
    s.refresh()
    _hit(s, v, 1, s.hits[v] - 1)
    assert s.alive[v] and s.hits[v] == 1
    _hit(s, v, 1, 5)
    assert s.phase_name() == "DEATH" and s.current_player == 0  # his controller is asked first
    assert s.hits[v] == 0


def test_a_prince_saved_from_death_has_his_full_hits_and_a_dead_one_keeps_nothing():
    s = position(order=["Eric", "Corwin"], turn=1, hands={0: ["NOT_REALLY_DEAD"], 1: ["FIGHT"]})
    v = P["Gerard"]  # his Hits differ from his Fight
    s.controller[v] = 0
    s.refresh()
    _hit(s, v, 1, 20)
    act(s, card("NOT_REALLY_DEAD"))
    assert s.alive[v] and s.hits[v] == s.attributes[v][0]
    assert s.player_prince[0] == P["Eric"]
    s = position(order=["Eric", "Corwin"], turn=1, hands={1: ["FIGHT"]})
    s.controller[v] = 0
    s.armies[v], s.amnesia[v], s.psychic_hold[v] = 2, 1, 1
    s.refresh()
    _hit(s, v, 1, 20)
    while s.phase_name() == "DEATH":
        s.apply(PASS)
    assert not s.alive[v] and s.hits[v] == 0 and s.controller[v] == -1
    assert (s.armies[v], s.amnesia[v], s.psychic_hold[v], s.captured[v]) == (0, 0, 0, 0)
    assert s.player_prince == [P["Eric"], P["Corwin"]] and all(s.in_game)


def test_a_neutral_prince_dying_is_offered_to_the_players_in_turn_order_from_the_turn_player():
    s = position(
        n=3, order=["Eric", "Corwin", "Gerard"], turn=1, hands={0: ["FIGHT"], 1: ["FIGHT"], 2: ["FIGHT"]}
    )
    v = next(i for i in range(NUM_PRINCES) if s.controller[i] < 0 and s.alive[i])
    _hit(s, v, 1, 20)
    assert s.phase_name() == "DEATH"
    assert s.current_player == 1 and s.stack[-1].queue == [2, 0]


def test_a_copy_resampled_for_the_attacker_asks_the_first_player_only_cards_his_new_hand_holds():
    s = position(
        order=["Eric", "Benedict"],
        turn=1,
        hands={1: ["FIGHT", "CAPTURE"], 0: ["GET_AWAY", "CALL_THE_GUARDS", "NEGATE_CAPTURE"]},
    )
    s.controller[P["Random"]] = 0
    s.refresh()
    act(s, P["Benedict"], card("FIGHT"), P["Random"])
    assert s.phase_name() == "NEGATE" and s.current_player == 0
    for seed in range(6):
        copy = s.determinize(1, np.random.default_rng(seed))
        assert copy.current_player == 0
        held = {card(k) for k in range(len(copy.hand_kinds[0])) if copy.hand_kinds[0][k] > 0}
        assert {a for a in copy.legal if a != PASS} <= held
