"""Scenarios for the war rounds, the Fate deck's reshuffle and Call the
Guards (seeds/princes_of_amber.md). Each pins the response-window config it
needs; the wars are fought against an Amber held by a King alone, whose
defence is his Leadership however the Lords' defence is counted."""

from __future__ import annotations

from tests.princes_of_amber.helpers import (
    EXILE,
    KING,
    PASS,
    Turn,
    act,
    card,
    give_amber,
    legal,
    noncard,
    position,
    total_cards,
)
from tests.princes_of_amber.helpers import P as PRINCE

CORWIN, ERIC, BRAND = PRINCE["Corwin"], PRINCE["Eric"], PRINCE["Brand"]
WIN, LOSE = [6, 6, 1, 1], [1, 1, 6, 6]  # one round's dice: attacker's two, then defender's two


def war_on_erics_amber(armies, garrison, dice, hands1=(), window_always=False, ally=False, extra0=()):
    """Corwin (p0, Leadership 8, ``armies``) plays a Conquer card on Amber held by
    p1, whose King Eric (Leadership 9) is the only Lord; G = ``garrison``. With
    ``ally`` p0 also controls Brand (Leadership 7, who joins the attack)."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["CONQUER", *extra0], 1: list(hands1)},
        prompt_only_if_playable=not window_always,
        allow_support=False,
    )
    give_amber(s, 1)
    assert [i for i in range(9) if s.role[i] != EXILE] == [ERIC]
    s.armies[CORWIN], s.garrison = armies, garrison
    if ally:
        s.controller[BRAND] = 0
    s.refresh()
    s.dice, s.dice_used = list(dice), 0
    act(s, CORWIN, card("CONQUER"))
    return s


# --------------------------------------------------------------------------- war rounds
def test_war_rounds_repeat_until_the_garrison_is_gone():
    """Attacking Amber, step 4, and interpretation 12: rounds go on while both
    sides have armies; the attacker who empties G takes Amber with what is left."""
    s = war_on_erics_amber(6, 5, WIN + [3] + LOSE + [4] + WIN + [5])
    assert (s.war.attack, s.war.defence) == (8, 9)
    assert s.dice_used == 15  # three rounds of four contest dice and one loss die
    assert s.war.won == 1 and s.amber == 0 and s.role[CORWIN] == KING
    assert s.garrison == 2 and s.armies[CORWIN] == 0  # 6 - 4 armies left became G


def test_war_rounds_repeat_until_the_attacker_has_no_armies():
    s = war_on_erics_amber(7, 12, LOSE + [2] + WIN + [1] + LOSE + [3] + LOSE + [6])
    assert s.dice_used == 20 and s.war.won == 0
    assert s.armies[CORWIN] == 0 and s.garrison == 11 and s.amber == 1 and s.role[ERIC] == KING


def test_the_loser_of_a_round_loses_one_die_of_armies():
    """Each round's loser (only he) removes 1d6 armies."""
    s = war_on_erics_amber(6, 3, WIN + [3])
    assert s.dice_used == 5 and s.war.won == 1
    assert s.garrison == 6 and s.armies[CORWIN] == 0  # G lost 3; Corwin's 6 untouched, now G
    s = war_on_erics_amber(2, 12, LOSE + [2])
    assert s.dice_used == 5 and s.war.won == 0
    assert s.armies[CORWIN] == 0 and s.garrison == 12


def test_a_round_loss_larger_than_the_armies_leaves_none():
    s = war_on_erics_amber(2, 12, LOSE + [6])
    assert s.armies[CORWIN] == 0 and s.garrison == 12 and s.dice_used == 5
    s = war_on_erics_amber(5, 2, WIN + [6])
    assert s.garrison == 5 and s.armies[CORWIN] == 0 and s.amber == 0


def test_a_tied_round_is_rerolled_before_the_loss_die():
    """Interpretation 22 in a war: 8 + 3 = 9 + 2 is rolled again."""
    s = war_on_erics_amber(6, 3, [1, 2, 1, 1] + WIN + [3])
    assert s.dice_used == 9 and s.war.won == 1 and s.garrison == 6


def held_war(held, dice):
    """Corwin (6 armies) attacks Eric's Amber (G 3) with a Psychic Hold pending on ``held``."""
    s = position(order=["Corwin", "Eric"], hands={0: ["CONQUER"]}, prompt_only_if_playable=True)
    give_amber(s, 1)
    s.armies[CORWIN], s.garrison, s.psychic_hold[held] = 6, 3, 1
    s.refresh()
    s.dice, s.dice_used = list(dice), 0
    act(s, CORWIN, card("CONQUER"))
    return s


def test_psychic_hold_weighs_on_the_attackers_first_war_round_only():
    """Contests: a held attacking prince has -7 in round 1 of his war, then the hold is gone.
    Round 1: 8 - 7 + 8 = 9 loses to 9 + 6; round 2: 8 + 8 = 16 beats 15."""
    s = held_war(CORWIN, [4, 4, 3, 3, 2] + [4, 4, 3, 3, 3])
    assert s.psychic_hold[CORWIN] == 0 and s.dice_used == 10
    assert s.war.won == 1 and s.garrison == 4  # Corwin lost 2 armies, then G its 3


def test_psychic_hold_weighs_on_the_defending_leader_in_the_first_round():
    """Round 1: 8 + 2 = 10 beats the held King's 9 - 7 + 6 = 8."""
    s = held_war(ERIC, [1, 1, 3, 3, 3] + [1, 1, 3, 3, 3])
    assert s.psychic_hold[ERIC] == 0 and s.dice_used == 5
    assert s.war.won == 1 and s.garrison == 6 and s.amber == 0


# --------------------------------------------------------------------------- the Fate deck
def empty_the_draw_pile(s, keep=0):
    """Move every draw-pile card but the top ``keep`` onto the discard pile."""
    pile = s.deck.draw_pile
    cut = len(pile) - keep
    s.deck.discard.extend(pile[:cut])
    del pile[:cut]


def test_the_fate_draw_reshuffles_the_discard_when_the_deck_is_empty():
    """A turn, step 2: the discard becomes the (shuffled) draw pile; the deck
    memories are void."""
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["FIGHT"]}, prompt_only_if_playable=True)
    empty_the_draw_pile(s)
    discard = list(s.deck.discard)
    s.known_top[1] = [0, 1]
    s.stack = [Turn(0)]
    s._run()
    assert len(s.hands[0]) == 2 and s.hands[0][1] in discard
    assert s.deck.discard == [] and len(s.deck.draw_pile) == len(discard) - 1
    assert sorted(s.deck.draw_pile + [s.hands[0][1]]) == sorted(discard)
    assert s.deck.draw_pile != [c for c in discard if c != s.hands[0][1]]  # shuffled
    assert s.known_top == [[], []] and total_cards(s) == 100


def test_a_draw_of_several_reshuffles_when_the_pile_runs_out_midway():
    """Walk the Pattern draws 3 from a pile of 1: the third and second come from the reshuffled discard."""
    s = position(order=["Corwin", "Eric"], hands={0: ["WALK_THE_PATTERN"]}, prompt_only_if_playable=True)
    empty_the_draw_pile(s, keep=1)
    last = s.deck.draw_pile[0]
    act(s, CORWIN, card("WALK_THE_PATTERN"))
    assert len(s.hands[0]) == 3 and s.hands[0][0] == last
    assert s.phase_name() == "EFFECT_DISCARD" and total_cards(s) == 100
    assert len(s.deck.discard) == 0  # the Walk the Pattern card itself was reshuffled in


def test_nothing_is_drawn_when_deck_and_discard_are_both_empty():
    s = position(
        order=["Corwin", "Eric"], deck_counts={"FIGHT": [["Duel", 10]]}, prompt_only_if_playable=True
    )
    s.hands = [list(range(5)), list(range(5, 10))]
    s.deck.draw_pile, s.deck.discard = [], []
    s.refresh_counts()
    s.stack = [Turn(0)]
    s._run()
    assert len(s.hands[0]) == 5 and s.deck.draw_pile == [] and s.deck.discard == []
    act(s, CORWIN, noncard("BIDE"))
    assert len(s.hands[0]) == 5 and total_cards(s) == 10


# --------------------------------------------------------------------------- Call the Guards
def fight_on_eric(attacker_is_king=False, dice=(6, 6, 1, 1, 2), hands1=("CALL_THE_GUARDS",)):
    """Corwin (p0) fights p1's Eric; p0 also has Brand, so his phase stays open."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: list(hands1)},
        dice=list(dice),
        prompt_only_if_playable=True,
    )
    if attacker_is_king:
        give_amber(s, 0)
    s.controller[BRAND] = 0
    s.refresh()
    act(s, CORWIN, card("FIGHT"), ERIC)
    return s


def test_call_the_guards_answers_a_fight_by_an_exile():
    """Interpretation 7: the target's controller may capture the exile who just attacked."""
    s = fight_on_eric()
    assert s.hits[ERIC] == 6 and s.phase_name() == "CALL_GUARDS" and s.current_player == 1
    assert legal(s) == {card("CALL_THE_GUARDS"), PASS}
    act(s, card("CALL_THE_GUARDS"))
    assert s.captured[CORWIN] and s.jailer[CORWIN] == 1 and not s.captured[ERIC]


def test_call_the_guards_is_not_offered_against_a_lord():
    """Only a free exile can be called on: the King who attacked is not."""
    s = fight_on_eric(attacker_is_king=True)
    assert s.hits[ERIC] == 6 and s.role[CORWIN] == KING
    assert s.phase_name() == "ACTION_SELECT" and s.current_player == 0
    assert s.hand_kinds[1][card("CALL_THE_GUARDS") - card(0)] == 1


def test_call_the_guards_is_not_offered_once_the_attacker_is_captured():
    """Eric wins, deals the damage and captures Corwin: no free attacker is left to call on."""
    s = fight_on_eric(dice=(1, 1, 6, 6, 2), hands1=("CAPTURE", "CALL_THE_GUARDS"))
    assert s.hits[CORWIN] == 10 and s.phase_name() == "DAMAGE_FOLLOWUP" and s.current_player == 1
    act(s, card("CAPTURE"))
    assert s.captured[CORWIN] and s.phase_name() == "ACTION_SELECT" and s.current_player == 0


def test_call_the_guards_needs_the_attacker_alive():
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: ["CALL_THE_GUARDS"]},
        dice=[1, 1, 6, 6, 5],
        prompt_only_if_playable=True,
    )
    s.controller[BRAND] = 0
    s.hits[CORWIN] = 4
    s.refresh()
    act(s, CORWIN, card("FIGHT"), ERIC)
    assert not s.alive[CORWIN] and s.phase_name() == "SUCCESSION" and s.current_player == 0
    act(s, BRAND)
    assert s.phase_name() == "ACTION_SELECT" and s.current_player == 0


def test_call_the_guards_answers_a_will_attack_too():
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["PSYCHIC_HOLD"], 1: ["CALL_THE_GUARDS"]},
        dice=[1, 1, 6, 6],
        prompt_only_if_playable=True,
    )
    s.controller[BRAND] = 0
    s.refresh()
    act(s, CORWIN, card("PSYCHIC_HOLD"), ERIC)
    assert not s.psychic_hold[ERIC] and s.phase_name() == "CALL_GUARDS" and s.current_player == 1


def test_call_the_guards_is_not_offered_for_a_neutral_target():
    """Nobody controlled the prince attacked: nobody may call the guards."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: ["CALL_THE_GUARDS"]},
        dice=[6, 6, 1, 1, 2],
        prompt_only_if_playable=True,
    )
    s.controller[BRAND] = 0
    s.refresh()
    act(s, CORWIN, card("FIGHT"), PRINCE["Julian"])
    assert s.controller[PRINCE["Julian"]] == -1 and s.phase_name() == "ACTION_SELECT"
    assert s.current_player == 0


def test_call_the_guards_answers_a_failed_war_on_the_holders_amber():
    s = war_on_erics_amber(2, 12, LOSE + [2], hands1=["CALL_THE_GUARDS"])
    assert s.war.won == 0 and s.phase_name() == "CALL_GUARDS" and s.current_player == 1
    act(s, card("CALL_THE_GUARDS"))
    assert s.captured[CORWIN] and s.jailer[CORWIN] == 1


def test_the_guards_window_is_asked_without_the_card_when_windows_always_ask():
    """prompt_only_if_playable=False: an eligible responder with cards in hand
    is asked even with only PASS (an empty hand is a public reason to skip)."""
    s = war_on_erics_amber(
        2, 12, LOSE + [2], hands1=["GAIN_NEUTRAL"], window_always=True, extra0=["GAIN_NEUTRAL"]
    )
    assert s.phase_name() == "NEGATE" and legal(s) == {PASS}
    act(s, PASS)
    assert s.phase_name() == "BLOCK" and legal(s) == {PASS}
    act(s, PASS)
    assert s.phase_name() == "SHADOW_ARMIES" and s.current_player == 0 and legal(s) == {PASS}
    act(s, PASS)
    assert s.war.won == 0
    asked = []
    while s.current_player == 1 and s.phase_name() in ("CALL_GUARDS", "WAR_FOLLOWUP"):
        assert legal(s) == {PASS}
        asked.append(s.phase_name())
        act(s, PASS)
    assert sorted(asked) == ["CALL_GUARDS", "WAR_FOLLOWUP"]


def test_call_the_guards_is_not_asked_after_the_attacker_was_taken_prisoner():
    """The Amber holder takes the beaten attacker prisoner of war: whenever the
    guards window comes, it is only asked while the attacker is still free."""
    s = war_on_erics_amber(2, 12, LOSE + [2], hands1=["PRISONER_OF_WAR", "CALL_THE_GUARDS"], ally=True)
    assert s.war.won == 0 and s.war.attack == 15
    asked = []
    while s.current_player == 1 and s.phase_name() in ("CALL_GUARDS", "WAR_FOLLOWUP", "TARGET_PRINCE"):
        asked.append(s.phase_name())
        if s.phase_name() == "CALL_GUARDS":
            assert not s.captured[CORWIN]
            act(s, PASS)
        elif s.phase_name() == "WAR_FOLLOWUP":
            act(s, card("PRISONER_OF_WAR"))
        else:
            act(s, CORWIN)
    assert "WAR_FOLLOWUP" in asked and s.captured[CORWIN] and s.jailer[CORWIN] == 1
    assert not s.done


def test_army_loss_beyond_the_attackers_armies_leaves_none_and_ends_the_attack():
    """Attacking Amber, step 2: Army Loss takes 1d6 armies (never below 0); at 0 the attack fails at once."""
    s = war_on_erics_amber(2, 12, [6], hands1=["ARMY_LOSS"])
    assert s.phase_name() == "BLOCK" and s.current_player == 1
    act(s, card("ARMY_LOSS"))
    assert s.armies[CORWIN] == 0 and s.dice_used == 1
    assert s.war.won == 0 and s.garrison == 12 and s.amber == 1
    assert s.contest_totals == [8, 9]  # the bare totals: no round was rolled


def test_a_captured_prince_of_the_losing_side_is_no_target_of_the_follow_up():
    """Attacking Amber, step 6: the cards aim at free losing-side princes only."""
    s = war_on_erics_amber(2, 12, LOSE + [2], hands1=["PRISONER_OF_WAR", "BATTLE_WOUNDS"], ally=True)
    assert s.phase_name() == "WAR_FOLLOWUP" and s.current_player == 1
    act(s, card("PRISONER_OF_WAR"))
    assert legal(s) == {CORWIN, BRAND}
    act(s, CORWIN)
    assert s.captured[CORWIN] and s.phase_name() == "WAR_FOLLOWUP"
    act(s, card("BATTLE_WOUNDS"))
    assert legal(s) == {BRAND}
