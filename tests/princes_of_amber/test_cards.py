"""One scenario per card kind and per non-card action: a position set up
through the rules layer, the card or action played, its effect checked."""

from __future__ import annotations

from meeplezoo.envs.princes_of_amber.observe import O_KNOWN, O_TOP, TOP_W
from tests.princes_of_amber.helpers import (
    END,
    EXILE,
    GUARDIAN,
    KING,
    PASS,
    SUPPORT,
    K,
    P,
    act,
    card,
    decline,
    give_amber,
    legal,
    noncard,
    position,
    reopen,
    total_cards,
)

NEXT = 9  # PLAYER(1): the next seat
# Corwin (p0) and Eric (p1); King Caine; regents Benedict, Gerard, Random; neutral exiles Bleys, Julian, Brand
CE = ["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"]


def C_PLAYER(j):
    return 8 + j


def add_prince(s, name, p=0, captured_by=-1):
    i = P[name]
    s.controller[i] = p
    if captured_by >= 0:
        s.captured[i], s.jailer[i] = 1, captured_by
    s.refresh()
    return i


def stack_deck(s, kinds):
    """Put cards of the given kinds on top of the draw pile, the first one on top."""
    ck = s.game.card_kind
    dp = s.deck.draw_pile
    top = []
    for kname in kinds:
        idx = next(i for i in range(len(dp)) if ck[dp[i]] == K[kname])
        top.append(dp.pop(idx))
    dp.extend(reversed(top))


def discarded_kinds(s, count):
    ck = s.game.card_kind
    return sorted(ck[c] for c in s.deck.discard[-count:])


# --------------------------------------------------------------------------- fights and negates
def fight_on_eric(negates, king=False):
    s = position(order=CE, hands={0: ["FIGHT"], 1: negates})
    add_prince(s, "Brand")
    if king:
        give_amber(s, 1)
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    return s


def test_fight_loser_takes_damage_even_when_attacking():
    s = position(order=["Julian", "Gerard"], hands={0: ["FIGHT"]}, dice=[1, 1, 6, 6, 5])
    add_prince(s, "Brand")
    act(s, P["Julian"], card("FIGHT"), P["Gerard"])
    assert s.contest_totals == [9, 24] and s.hits[P["Julian"]] == 4 and s.hits[P["Gerard"]] == 10
    assert s.damaged_prince == P["Julian"] and s.damage_dealer == 1


def test_get_away_cancels_the_fight():
    s = fight_on_eric(["GET_AWAY"])
    assert s.phase_name() == "NEGATE" and legal(s) == {card("GET_AWAY"), PASS}
    act(s, card("GET_AWAY"))
    assert s.dice_used == 0 and s.hits[P["Eric"]] == 8 and s.hits[P["Corwin"]] == 12
    assert discarded_kinds(s, 2) == sorted([K["FIGHT"], K["GET_AWAY"]])
    assert s.acted[P["Corwin"]] and s.current_player == 0 and s.phase_name() == "ACTION_SELECT"


def test_lords_in_amber_only_for_a_lord_target():
    s = fight_on_eric(["GET_AWAY", "HIDE_IN_SHADOW", "LORDS_IN_AMBER"], king=True)
    assert s.phase_name() == "NEGATE" and s.current_player == 1
    assert legal(s) == {card("GET_AWAY"), card("LORDS_IN_AMBER"), PASS}
    act(s, card("LORDS_IN_AMBER"))
    assert s.dice_used == 0 and s.hits[P["Eric"]] == 8 and s.role[P["Eric"]] == KING
    assert s.hand_kinds[1][K["LORDS_IN_AMBER"]] == 0 and s.hand_kinds[1][K["HIDE_IN_SHADOW"]] == 1


def test_break_contact_cancels_a_will_contest_only():
    s = position(order=CE, hands={0: ["PSYCHIC_ATTACK"], 1: ["BREAK_CONTACT"]})
    add_prince(s, "Brand")
    act(s, P["Corwin"], card("PSYCHIC_ATTACK"), P["Eric"])
    assert s.phase_name() == "NEGATE" and legal(s) == {card("BREAK_CONTACT"), PASS}
    act(s, card("BREAK_CONTACT"))
    assert s.dice_used == 0 and s.hits[P["Eric"]] == 8 and s.acted[P["Corwin"]]
    assert discarded_kinds(s, 2) == sorted([K["PSYCHIC_ATTACK"], K["BREAK_CONTACT"]])
    # against a Fight, Break Contact is no answer: p1 may only decline (he is still asked, see
    # interpretation 35)
    s = position(order=CE, hands={0: ["FIGHT"], 1: ["BREAK_CONTACT"]}, dice=[6, 6, 1, 1, 2])
    add_prince(s, "Brand")
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "NEGATE" and legal(s) == {PASS}
    act(s, PASS)
    assert s.hits[P["Eric"]] == 6 and s.hand_kinds[1][K["BREAK_CONTACT"]] == 1


# --------------------------------------------------------------------------- damage follow-ups and capture
def benedict_hits_random(p0, p1, dice=(3, 4, 2, 3, 4)):
    s = position(order=["Benedict", "Eric"], hands={0: p0, 1: p1}, dice=list(dice))
    add_prince(s, "Random", p=1)
    act(s, P["Benedict"], card("FIGHT"), P["Random"])
    if p1:
        decline(s, "NEGATE")  # p1 holds no negate, but a hand is always asked
    return s


def test_show_mercy_turns_the_wounded_ally_neutral():
    s = benedict_hits_random(["FIGHT", "SHOW_MERCY"], ["CALL_THE_GUARDS"])
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and legal(s) == {card("SHOW_MERCY"), PASS}
    act(s, card("SHOW_MERCY"))
    r = P["Random"]
    assert s.controller[r] == -1 and s.alive[r] and not s.captured[r] and s.hits[r] == 3
    # the guards window still belongs to Random's controller when the card was played
    assert s.phase_name() == "CALL_GUARDS" and s.current_player == 1


def test_show_mercy_not_offered_on_a_player_prince():
    s = position(
        order=["Benedict", "Eric"], hands={0: ["FIGHT", "SHOW_MERCY", "CAPTURE"]}, dice=[3, 4, 2, 3, 4]
    )
    add_prince(s, "Brand")
    act(s, P["Benedict"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and legal(s) == {card("CAPTURE"), PASS}


def test_capture_imprisons_the_damaged_prince():
    s = benedict_hits_random(["FIGHT", "CAPTURE"], [])
    act(s, card("CAPTURE"))
    r = P["Random"]
    assert s.captured[r] and s.jailer[r] == 0 and s.controller[r] == 1 and s.role[r] == EXILE


def test_call_the_guards_captures_the_attacker():
    s = benedict_hits_random(["FIGHT"], ["CALL_THE_GUARDS"])
    assert s.phase_name() == "CALL_GUARDS" and legal(s) == {card("CALL_THE_GUARDS"), PASS}
    act(s, card("CALL_THE_GUARDS"))
    b = P["Benedict"]
    assert s.captured[b] and s.jailer[b] == 1 and s.controller[b] == 0 and s.player_prince[0] == b
    assert s.hand_kinds[1][K["CALL_THE_GUARDS"]] == 0


def test_negate_capture_answers_call_the_guards():
    s = benedict_hits_random(["FIGHT", "NEGATE_CAPTURE"], ["CALL_THE_GUARDS"])
    decline(s, "DAMAGE_FOLLOWUP")
    act(s, card("CALL_THE_GUARDS"))
    assert s.phase_name() == "CAPTURE_NEGATE" and s.current_player == 0
    assert legal(s) == {card("NEGATE_CAPTURE"), PASS}
    act(s, card("NEGATE_CAPTURE"))
    assert not s.captured[P["Benedict"]] and s.jailer[P["Benedict"]] == -1


def test_shadow_assassins_deal_a_die_without_contest():
    s = position(order=CE, hands={0: ["SHADOW_ASSASSINS"]}, dice=[5])
    add_prince(s, "Brand")
    act(s, P["Corwin"], card("SHADOW_ASSASSINS"))
    assert legal(s) == {
        P["Eric"],
        P["Julian"],
        P["Benedict"],
        P["Bleys"],
        P["Gerard"],
        P["Random"],
        P["Caine"],
    }
    act(s, P["Eric"])
    assert s.hits[P["Eric"]] == 3 and s.dice_used == 1 and s.contest_type == 0 and s.damage_dealer == 0


# --------------------------------------------------------------------------- war
def neutral_war(p0_cards, dice):
    """Benedict (11) and his ally Bleys (10) attack the neutral Amber of King Caine (8) and the
    regents Corwin (8), Gerard (7) and Random (6): 21 against 29."""
    s = position(
        order=["Benedict", "Eric", "Caine", "Corwin", "Gerard", "Random"],
        hands={0: ["CONQUER", *p0_cards]},
        dice=dice,
    )
    s.armies[P["Benedict"]] = 6
    s.garrison = 3
    add_prince(s, "Bleys")
    act(s, P["Benedict"], card("CONQUER"))
    return s


def test_shadow_armies_add_a_die_each_until_pass():
    s = neutral_war(["SHADOW_ARMIES", "SHADOW_ARMIES"], [2, 3, 6, 6, 1, 1, 3])
    act(s, PASS)  # p1 does not support
    assert s.phase_name() == "SHADOW_ARMIES" and s.current_player == 0
    assert legal(s) == {card("SHADOW_ARMIES"), PASS}
    act(s, card("SHADOW_ARMIES"))
    assert s.war.shadow_bonus == 2 and s.phase_name() == "SHADOW_ARMIES"
    act(s, card("SHADOW_ARMIES"))  # the last one: the window then closes by itself
    assert s.war.shadow_bonus == 5 and s.war.attack == 21 + 5 and s.war.defence == 29 and s.amber == 0


def test_support_adds_leadership_of_free_exiles():
    s = position(
        n=3,
        order=["Benedict", "Eric", "Caine", "Corwin", "Gerard", "Random"],
        hands={0: ["CONQUER"]},
        dice=[6, 6, 1, 1, 3],
    )
    s.armies[P["Benedict"]] = 6
    s.garrison = 3
    add_prince(s, "Julian", p=2)
    act(s, P["Benedict"], card("CONQUER"))
    assert s.phase_name() == "SUPPORT" and s.current_player == 1
    act(s, SUPPORT)
    assert s.current_player == 2
    act(s, PASS)
    assert s.war.attack == 11 + 9 and s.war.supporters == [1]


def test_battle_wounds_on_the_losing_side():
    s = neutral_war(["BATTLE_WOUNDS"], [6, 6, 1, 1, 3, 4])
    decline(s, "SUPPORT", "SHADOW_ARMIES", "APPOINT")
    assert s.phase_name() == "WAR_FOLLOWUP" and legal(s) == {card("BATTLE_WOUNDS"), PASS}
    act(s, card("BATTLE_WOUNDS"))
    assert s.phase_name() == "TARGET_PRINCE"
    assert legal(s) == {P["Caine"], P["Corwin"], P["Gerard"], P["Random"]}
    act(s, P["Caine"])
    assert s.hits[P["Caine"]] == 3 and s.damage_dealer == 0


def test_prisoner_of_war_captures_a_beaten_lord():
    s = neutral_war(["PRISONER_OF_WAR"], [6, 6, 1, 1, 3])
    decline(s, "SUPPORT", "SHADOW_ARMIES", "APPOINT")
    act(s, card("PRISONER_OF_WAR"), P["Gerard"])
    g = P["Gerard"]
    assert s.captured[g] and s.jailer[g] == 0 and s.controller[g] == -1 and s.role[g] == EXILE


def war_on_eric(p0_cards, p1_cards):
    s = position(
        order=["Corwin", "Eric", "Julian", "Benedict", "Caine", "Gerard"],
        hands={0: ["CONQUER", *p0_cards], 1: p1_cards},
    )
    give_amber(s, 1, regents=(P["Benedict"],))
    s.armies[P["Corwin"]] = 2
    s.refresh()
    act(s, P["Corwin"], card("CONQUER"))
    return s


def test_block_the_way_stops_the_attack():
    s = war_on_eric([], ["BLOCK_THE_WAY", "WALLS_OF_AMBER"])
    assert s.phase_name() == "NEGATE" and s.current_player == 1
    act(s, card("BLOCK_THE_WAY"))
    assert s.dice_used == 0 and s.armies[P["Corwin"]] == 2 and s.amber == 1 and s.garrison == 12
    assert s.hand_kinds[1][K["WALLS_OF_AMBER"]] == 1 and s.turn_player == 1  # Corwin acted: the turn is over
    assert discarded_kinds(s, 2) == sorted([K["CONQUER"], K["BLOCK_THE_WAY"]])


def test_walls_and_army_loss_dice():
    s = war_on_eric([], ["WALLS_OF_AMBER", "ARMY_LOSS", "ARMY_LOSS"])
    decline(s, "NEGATE")  # no Block the Way in hand
    assert s.phase_name() == "BLOCK" and legal(s) == {card("WALLS_OF_AMBER"), card("ARMY_LOSS"), PASS}
    s.dice, s.dice_used = [5, 1, 6, 6, 1, 1, 6], 0
    act(s, card("WALLS_OF_AMBER"))
    assert s.war.walls_bonus == 5 and s.phase_name() == "BLOCK"
    act(s, card("ARMY_LOSS"))
    assert s.armies[P["Corwin"]] == 1
    act(s, PASS)
    # war: Corwin 8 vs Eric 9 + Benedict 11 + walls 5; the attacker loses the round and its last army
    assert s.war.attack == 8 and s.war.defence == 25 and s.war.won == 0 and s.amber == 1


def test_conquer_takes_amber_and_appoints():
    s = neutral_war([], [6, 6, 1, 1, 3])
    act(s, PASS)  # p1 does not support
    assert s.amber == 0 and s.role[P["Benedict"]] == KING and s.role[P["Bleys"]] == GUARDIAN
    assert s.garrison == 6
    assert s.phase_name() == "APPOINT" and s.current_player == 0


# --------------------------------------------------------------------------- free cards
def test_exile_makes_an_exiled_opponent_discard_three():
    s = position(order=CE, hands={0: ["EXILE"], 1: ["FIGHT", "CAPTURE", "GET_AWAY", "BLESSING"]})
    assert card("EXILE") in legal(s)
    act(s, card("EXILE"))
    assert s.phase_name() == "TARGET_PLAYER" and legal(s) == {NEXT}
    act(s, NEXT)
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 1
    assert legal(s) == {card(k) for k in ("FIGHT", "CAPTURE", "GET_AWAY", "BLESSING")}
    act(s, card("FIGHT"), card("CAPTURE"))
    assert s.phase_name() == "EFFECT_DISCARD"
    act(s, card("BLESSING"))
    assert s.hand_kinds[1][K["GET_AWAY"]] == 1 and len(s.hands[1]) == 1
    assert s.current_player == 0 and s.phase_name() == "ACTION_SELECT" and not s.acted[P["Corwin"]]
    assert total_cards(s) == 100


def test_exile_short_hand_and_lord_targets():
    s = position(order=CE, hands={0: ["EXILE"], 1: ["FIGHT"]})
    act(s, card("EXILE"), NEXT)
    assert s.phase_name() == "EFFECT_DISCARD" and s.stack[-1].count == 1
    act(s, card("FIGHT"))
    assert s.hands[1] == [] and s.current_player == 0
    # an opponent sitting on the throne is no longer an exile: no target, the card is not playable
    s = position(order=CE, hands={0: ["EXILE"], 1: ["FIGHT"]})
    give_amber(s, 1)
    assert card("EXILE") not in legal(s)
    # 3 players: only the opponent whose PP is an exile is a target
    s = position(n=3, order=["Corwin", "Eric", "Bleys"], hands={0: ["EXILE"]})
    give_amber(s, 1)
    act(s, card("EXILE"))
    assert legal(s) == {C_PLAYER(2)}


def test_distractions_hit_the_amber_holder():
    s = position(order=CE, hands={0: ["DISTRACTIONS"], 1: ["FIGHT", "CAPTURE"]})
    assert card("DISTRACTIONS") not in legal(s)  # Amber is neutral
    give_amber(s, 1)
    assert card("DISTRACTIONS") in legal(s)
    act(s, card("DISTRACTIONS"))
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 1 and s.stack[-1].count == 2
    act(s, card("CAPTURE"), card("FIGHT"))
    assert s.hands[1] == [] and s.current_player == 0 and s.phase_name() == "ACTION_SELECT"
    # the holder itself cannot play it
    s = position(order=CE, hands={0: ["DISTRACTIONS"], 1: ["FIGHT"]})
    give_amber(s, 0)
    assert card("DISTRACTIONS") not in legal(s)


def test_trump_travel_frees_a_captured_prince_without_an_action():
    s = position(order=CE, hands={0: ["TRUMP_TRAVEL"]})
    assert card("TRUMP_TRAVEL") not in legal(s)  # nobody of mine is captured
    b = add_prince(s, "Brand", captured_by=1)
    add_prince(s, "Julian", p=1, captured_by=0)
    assert card("TRUMP_TRAVEL") in legal(s)
    act(s, card("TRUMP_TRAVEL"))
    assert s.phase_name() == "TARGET_PRINCE" and legal(s) == {b}
    act(s, b)
    assert not s.captured[b] and s.jailer[b] == -1 and s.role[b] == EXILE and s.controller[b] == 0
    assert not s.acted[b] and not s.acted[P["Corwin"]] and s.captured[P["Julian"]]
    assert s.current_player == 0 and s.phase_name() == "ACTION_SELECT"


def test_amnesia_keeps_the_larger_count():
    for before, die, after in ((1, 4, 4), (5, 2, 5)):
        s = position(order=CE, hands={0: ["AMNESIA"]}, dice=[die])
        s.amnesia[P["Eric"]] = before
        assert card("AMNESIA") in legal(s)
        act(s, card("AMNESIA"))
        assert legal(s) == {P["Eric"]}  # only opponents' exiles
        act(s, P["Eric"])
        assert s.amnesia[P["Eric"]] == after and not s.acted[P["Corwin"]]


def test_shadow_mastery_cancels_a_block_card():
    s = war_on_eric(["SHADOW_MASTERY"], ["WALLS_OF_AMBER", "ARMY_LOSS"])
    decline(s, "NEGATE")
    s.dice, s.dice_used = [6], 0
    act(s, card("ARMY_LOSS"))
    assert s.phase_name() == "SHADOW_MASTERY" and s.current_player == 0
    assert legal(s) == {card("SHADOW_MASTERY"), PASS}
    act(s, card("SHADOW_MASTERY"))
    assert s.dice_used == 0 and s.armies[P["Corwin"]] == 2 and s.phase_name() == "BLOCK"


def test_blessing_gives_an_extra_turn():
    s = position(order=CE, hands={0: ["BLESSING"]})
    act(s, card("BLESSING"))
    assert s.extra_turns[0] == 1 and s.current_player == 0 and s.phase_name() == "ACTION_SELECT"
    hand = len(s.hands[0])
    act(s, END)
    assert s.turn_player == 0 and s.current_player == 0 and s.turns == 1 and s.extra_turns[0] == 0
    assert len(s.hands[0]) == hand + 1  # a full turn: the Fate draw came first
    act(s, END)
    assert s.turn_player == 1 and s.turns == 2


# --------------------------------------------------------------------------- death
def test_not_really_dead_on_a_player_prince():
    s = position(order=CE, hands={0: ["SHADOW_ASSASSINS", "NOT_REALLY_DEAD"]}, dice=[6])
    add_prince(s, "Brand")
    add_prince(s, "Julian", p=1)
    s.hits[P["Eric"]] = 2
    s.refresh()
    act(s, P["Corwin"], card("SHADOW_ASSASSINS"), P["Eric"])
    # the dead prince's controller is asked first; p1 holds nothing, so p0 (the turn player) is asked
    assert s.phase_name() == "DEATH" and s.current_player == 0
    assert legal(s) == {card("NOT_REALLY_DEAD"), PASS}
    act(s, card("NOT_REALLY_DEAD"))
    e = P["Eric"]
    assert s.alive[e] and s.hits[e] == 8 and s.controller[e] == -1 and s.role[e] == EXILE
    assert s.phase_name() == "SUCCESSION" and s.current_player == 1 and legal(s) == {P["Julian"]}


# --------------------------------------------------------------------------- action cards
def test_gain_neutral_recruits_a_neutral_exile():
    s = position(
        order=["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"], hands={0: ["GAIN_NEUTRAL"]}
    )
    act(s, P["Corwin"], card("GAIN_NEUTRAL"))
    assert legal(s) == {P["Bleys"], P["Julian"], P["Brand"]}  # never a Lord, never a controlled prince
    act(s, P["Julian"])
    assert s.controller[P["Julian"]] == 0 and s.role[P["Julian"]] == EXILE


def test_betrayal_turns_an_opponents_ally_neutral():
    s = position(order=["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"], hands={0: ["BETRAYAL"]})
    give_amber(s, 1, regents=(P["Julian"],))
    add_prince(s, "Bleys", p=1)
    act(s, P["Corwin"], card("BETRAYAL"))
    assert legal(s) == {P["Julian"], P["Bleys"]}  # not the player prince
    act(s, P["Julian"])
    assert (
        s.controller[P["Julian"]] == -1 and s.role[P["Julian"]] == GUARDIAN and s.controller[P["Bleys"]] == 1
    )


def test_walk_the_pattern_draws_three_then_discards_two():
    s = position(order=CE, hands={0: ["WALK_THE_PATTERN", "FIGHT"]})
    add_prince(s, "Brand")
    stack_deck(s, ["CAPTURE", "BLESSING", "GOSSIP"])
    act(s, P["Corwin"], card("WALK_THE_PATTERN"))
    assert sorted(s.game.card_kind[c] for c in s.hands[0]) == sorted(
        K[k] for k in ("FIGHT", "CAPTURE", "BLESSING", "GOSSIP")
    )
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 0 and s.stack[-1].count == 2
    assert legal(s) == {card(k) for k in ("FIGHT", "CAPTURE", "BLESSING", "GOSSIP")}
    act(s, card("FIGHT"), card("GOSSIP"))
    assert sorted(s.game.card_kind[c] for c in s.hands[0]) == sorted([K["CAPTURE"], K["BLESSING"]])
    assert s.phase_name() == "ACTION_SELECT" and s.acted[P["Corwin"]] and total_cards(s) == 100


def test_look_ahead_sees_seven():
    s = position(order=CE, hands={0: ["LOOK_AHEAD"]})
    add_prince(s, "Brand")
    act(s, P["Corwin"], card("LOOK_AHEAD"))
    ck = s.game.card_kind
    assert s.known_top[0] == [ck[c] for c in s.deck.draw_pile[::-1][:7]] and s.known_top[1] == []
    obs = s.observation(0)
    for pos, k in enumerate(s.known_top[0]):
        assert obs[O_TOP + pos * TOP_W + k] == 1.0
    assert not s.observation(1)[O_TOP : O_TOP + 7 * TOP_W : TOP_W].any()


def test_gossip_reveals_a_hand():
    s = position(order=CE, hands={0: ["GOSSIP"], 1: ["FIGHT", "FIGHT", "AMNESIA"]})
    add_prince(s, "Brand")
    act(s, P["Corwin"], card("GOSSIP"))
    assert s.phase_name() == "TARGET_PLAYER" and legal(s) == {NEXT}
    act(s, NEXT)
    assert s.known_hand[0][1] == s.hand_kinds[1] and s.known_hand[1][0] is None
    obs = s.observation(0)
    assert obs[O_KNOWN + K["FIGHT"]] == 0.5 and obs[O_KNOWN + K["AMNESIA"]] == 0.25


def test_escape_card_by_the_captive_or_for_him():
    s = position(order=CE, hands={0: ["ESCAPE_ACTION", "ESCAPE_ACTION"]})
    b = add_prince(s, "Brand", captured_by=1)
    j = add_prince(s, "Julian", captured_by=1)
    act(s, b)
    assert legal(s) == {noncard("ESCAPE"), card("ESCAPE_ACTION")}
    act(s, card("ESCAPE_ACTION"))  # the captive frees himself: no target step
    assert not s.captured[b] and s.jailer[b] == -1 and s.phase_name() == "ACTION_SELECT"
    act(s, P["Corwin"], card("ESCAPE_ACTION"))
    assert s.phase_name() == "TARGET_PRINCE" and legal(s) == {j}
    act(s, j)
    assert not s.captured[j] and s.controller[j] == 0


# --------------------------------------------------------------------------- Will cards
def will_on_eric(kind, dice, p0=(), p1=(), allies=False):
    s = position(order=CE, hands={0: [kind, *p0], 1: list(p1)}, dice=dice)
    add_prince(s, "Brand")
    if allies:
        add_prince(s, "Julian", p=1)
    return s


def test_contest_of_wills_won_and_lost():
    s = will_on_eric("CONTEST_OF_WILLS", [6, 6, 1, 1], p1=["FIGHT", "CAPTURE", "GET_AWAY", "BLESSING"])
    act(s, P["Corwin"], card("CONTEST_OF_WILLS"))
    assert legal(s) == {P["Eric"]}  # a neutral prince has no hand behind him
    act(s, P["Eric"])
    decline(s, "NEGATE", "FURY")  # p1 has cards: asked, though he holds no answer
    assert s.contest_totals == [23, 11] and s.phase_name() == "EFFECT_DISCARD" and s.current_player == 1
    act(s, card("FIGHT"), card("CAPTURE"), card("BLESSING"))
    decline(s, "CALL_GUARDS")
    assert len(s.hands[1]) == 1 and s.current_player == 0
    s = will_on_eric("CONTEST_OF_WILLS", [1, 1, 6, 6], p1=["FIGHT", "CAPTURE", "GET_AWAY", "BLESSING"])
    act(s, P["Corwin"], card("CONTEST_OF_WILLS"), P["Eric"])
    decline(s, "NEGATE", "FURY")
    assert s.contest_totals == [13, 21] and len(s.hands[1]) == 4
    decline(s, "CALL_GUARDS")
    assert s.phase_name() == "ACTION_SELECT"


def test_mental_domination_takes_a_non_pp_non_lord():
    s = will_on_eric("MENTAL_DOMINATION", [6, 6, 1, 1], allies=True)
    act(s, P["Corwin"], card("MENTAL_DOMINATION"))
    # Eric (a PP) and the Lords are no targets; neutral exiles and p1's ally are
    exiles = {i for i in range(9) if s.role[i] == EXILE and s.controller[i] < 0 and s.alive[i]}
    assert legal(s) == exiles | {P["Julian"]} and P["Eric"] not in legal(s)
    act(s, P["Julian"])
    assert s.controller[P["Julian"]] == 0
    s = will_on_eric("MENTAL_DOMINATION", [1, 1, 6, 6], allies=True)
    act(s, P["Corwin"], card("MENTAL_DOMINATION"), P["Julian"])
    assert s.controller[P["Julian"]] == 1


def test_psychic_attack_damages_when_won():
    s = will_on_eric("PSYCHIC_ATTACK", [6, 6, 1, 1, 3], p0=["CAPTURE"])
    act(s, P["Corwin"], card("PSYCHIC_ATTACK"), P["Eric"])
    decline(s, "FURY")  # p0 is asked first (p1's empty hand cannot hold a Break Contact)
    assert s.hits[P["Eric"]] == 5 and s.damage_dealer == 0
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and legal(s) == {card("CAPTURE"), PASS}
    s = will_on_eric("PSYCHIC_ATTACK", [1, 1, 6, 6, 3])
    act(s, P["Corwin"], card("PSYCHIC_ATTACK"), P["Eric"])
    assert s.hits[P["Eric"]] == 8 and s.hits[P["Corwin"]] == 12 and s.dice_used == 4


def test_psychic_hold_lost_sets_nothing():
    s = will_on_eric("PSYCHIC_HOLD", [1, 1, 6, 6])
    act(s, P["Corwin"], card("PSYCHIC_HOLD"), P["Eric"])
    assert s.psychic_hold[P["Eric"]] == 0 and s.contest_totals == [13, 21]


def test_mind_probe_lost_reveals_nothing():
    s = will_on_eric("MIND_PROBE", [1, 1, 6, 6], p1=["FIGHT"])
    act(s, P["Corwin"], card("MIND_PROBE"), P["Eric"])
    assert s.known_hand[0][1] is None


def test_emotional_fury_each_side_once():
    s = will_on_eric("PSYCHIC_HOLD", [1, 1, 1, 1], p0=["EMOTIONAL_FURY"], p1=["EMOTIONAL_FURY"])
    act(s, P["Corwin"], card("PSYCHIC_HOLD"), P["Eric"])
    decline(s, "NEGATE")
    assert s.phase_name() == "FURY" and s.current_player == 0 and legal(s) == {card("EMOTIONAL_FURY"), PASS}
    act(s, card("EMOTIONAL_FURY"))
    assert s.phase_name() == "FURY" and s.current_player == 1
    act(s, card("EMOTIONAL_FURY"))
    assert s.contest_totals == [11 + 5 + 2, 9 + 5 + 2] and s.psychic_hold[P["Eric"]] == 1
    # only the defender's fury: it turns the contest
    s = will_on_eric("PSYCHIC_HOLD", [1, 1, 1, 1], p0=["EMOTIONAL_FURY"], p1=["EMOTIONAL_FURY"])
    act(s, P["Corwin"], card("PSYCHIC_HOLD"), P["Eric"], PASS, PASS, card("EMOTIONAL_FURY"))
    assert s.contest_totals == [13, 16] and s.psychic_hold[P["Eric"]] == 0


# --------------------------------------------------------------------------- non-card actions
def test_bide_draws_one():
    s = position(order=CE)
    add_prince(s, "Brand")
    stack_deck(s, ["MIND_PROBE"])
    act(s, P["Corwin"], noncard("BIDE"))
    assert s.hand_kinds[0][K["MIND_PROBE"]] == 1 and len(s.hands[0]) == 1 and s.acted[P["Corwin"]]


def test_recuperate_heals_up_to_full():
    s = position(order=CE, dice=[5, 6])
    add_prince(s, "Brand")
    s.hits[P["Corwin"]] = 4
    s.hits[P["Brand"]] = 5
    s.refresh()
    act(s, P["Corwin"], noncard("RECUPERATE"))
    assert s.hits[P["Corwin"]] == 9
    act(s, P["Brand"], noncard("RECUPERATE"))
    assert s.hits[P["Brand"]] == 7  # 5 + 6, capped at Brand's 7
    # at full Hits there is nothing to heal
    s = position(order=CE)
    act(s, P["Corwin"])
    assert noncard("RECUPERATE") not in legal(s) and noncard("BIDE") in legal(s)


def test_fortune_sees_a_die_of_cards():
    s = position(order=CE, dice=[4])
    add_prince(s, "Brand")
    act(s, P["Corwin"], noncard("FORTUNE"))
    ck = s.game.card_kind
    assert s.known_top[0] == [ck[c] for c in s.deck.draw_pile[::-1][:4]] and s.known_top[1] == []
    obs = s.observation(0)
    assert obs[O_TOP + 4 * TOP_W + 36] == 1.0 and obs[O_TOP + 3 * TOP_W + 36] == 0.0


def test_fortune_reshuffles_an_empty_deck_and_needs_cards():
    s = position(order=CE, dice=[6])
    add_prince(s, "Brand")
    s.deck.discard.extend(s.deck.draw_pile)
    s.deck.draw_pile.clear()
    s.refresh()
    act(s, P["Corwin"], noncard("FORTUNE"))
    assert len(s.deck.draw_pile) > 0 and len(s.known_top[0]) == 6
    # with neither deck nor discard, Fortune (and Look Ahead) cannot be chosen
    s = position(order=CE, hands={0: ["LOOK_AHEAD"]})
    s.hands[1].extend(s.deck.draw_pile)
    s.deck.draw_pile.clear()
    s.refresh()
    act(s, P["Corwin"])
    assert noncard("FORTUNE") not in legal(s) and card("LOOK_AHEAD") not in legal(s)


def test_raise_army_to_an_exile_or_to_the_garrison():
    s = position(order=CE, dice=[3, 5])
    add_prince(s, "Brand")
    act(s, P["Corwin"], noncard("RAISE_ARMY"))
    assert s.armies[P["Corwin"]] == 3 and s.garrison == 12
    s = position(order=CE, dice=[5])
    give_amber(s, 0)
    add_prince(s, "Brand")
    act(s, P["Corwin"], noncard("RAISE_ARMY"))
    assert s.armies[P["Corwin"]] == 0 and s.garrison == 17 and s.role[P["Corwin"]] == KING


def test_intrigue_needs_five_or_six():
    s = position(order=CE, dice=[4, 5])
    add_prince(s, "Brand")
    act(s, P["Corwin"], noncard("INTRIGUE"), P["Julian"])
    assert s.controller[P["Julian"]] == -1
    act(s, P["Brand"], noncard("INTRIGUE"), P["Julian"])
    assert s.controller[P["Julian"]] == 0


def test_escape_roll_for_a_captive_only():
    s = position(order=CE, dice=[4, 5])
    b = add_prince(s, "Brand", captured_by=1)
    act(s, P["Corwin"])
    assert noncard("ESCAPE") not in legal(s)  # a free prince does not escape
    act(s, noncard("BIDE"))
    act(s, b)
    assert legal(s) == {noncard("ESCAPE")}
    act(s, noncard("ESCAPE"))
    assert s.captured[b] and s.acted[b]
    reopen(s, 0)
    act(s, b, noncard("ESCAPE"))
    assert not s.captured[b] and s.jailer[b] == -1 and s.role[b] == EXILE and s.controller[b] == 0


def test_every_card_kind_and_noncard_action_has_a_scenario():
    import inspect
    import sys

    src = inspect.getsource(sys.modules[__name__])
    from meeplezoo.envs.princes_of_amber import cards as C

    for name in C.KIND_NAMES:
        assert f'"{name}"' in src, name
    for name in C.NONCARD_NAMES:
        assert f'noncard("{name}")' in src, name
