"""Scenario tests for the rules on seeds/princes_of_amber.md, set up through
the rules layer (docstrings name the interpretation or section)."""

from __future__ import annotations

from meeplezoo.envs.princes_of_amber.rules import AmberGame
from tests.princes_of_amber.helpers import (
    END,
    EXILE,
    GUARDIAN,
    KING,
    NORTH,
    PASS,
    SUPPORT,
    ActionSelect,
    Damage,
    Kind,
    P,
    Turn,
    TurnEnd,
    act,
    card,
    decline,
    give_amber,
    legal,
    noncard,
    position,
    reopen,
    set_hand,
    total_cards,
)


def test_setup_two_players():
    """Setup."""
    s = AmberGame(num_players=2).new_initial_state(7)
    assert len(s.deck.draw_pile) == 89 and len(s.hands[0]) == 6 and len(s.hands[1]) == 5
    assert total_cards(s) == 100
    assert all(s.role[s.player_prince[p]] == EXILE and s.armies[s.player_prince[p]] == 0 for p in range(2))
    lords = [i for i in range(9) if s.role[i] != EXILE]
    assert sorted(s.role[i] for i in lords) == [0, 1, 2, 3] and all(s.controller[i] < 0 for i in lords)
    assert sum(1 for i in range(9) if s.role[i] == EXILE and s.controller[i] < 0) == 3
    assert s.garrison == 12 and s.amber == -1
    assert s.current_player == 0 and s.phase_name() in ("ACTION_SELECT", "FATE_DISCARD")


def test_hand_limit_gerard():
    """A turn (Fate) and interpretation 3."""
    s = position(
        order=["Gerard", "Eric"], hands={0: ["FIGHT", "FIGHT", "CAPTURE", "GET_AWAY", "BLESSING", "EXILE"]}
    )
    s.stack = [Turn(0)]
    s._run()
    assert len(s.hands[0]) == 7 and s.phase_name() == "FATE_DISCARD"
    held = {card(k) for k in range(36) if s.hand_kinds[0][k] > 0}
    assert legal(s) == held
    act(s, card("FIGHT"))
    assert len(s.hands[0]) == 6 and s.phase_name() == "ACTION_SELECT"


def scenario3():
    s = position(
        order=["Benedict", "Eric"],
        hands={0: ["FIGHT", "CAPTURE", "SHOW_MERCY"], 1: ["GET_AWAY", "CALL_THE_GUARDS", "NEGATE_CAPTURE"]},
    )
    s.controller[P["Random"]] = 1
    s.refresh()
    act(s, P["Benedict"], card("FIGHT"), P["Random"])
    assert s.phase_name() == "NEGATE" and s.current_player == 1
    s.dice, s.dice_used = [3, 4, 2, 3, 4], 0
    act(s, PASS)
    assert s.hits[P["Random"]] == 3
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and s.current_player == 0
    assert legal(s) == {card("CAPTURE"), card("SHOW_MERCY"), PASS}
    return s


def test_fight_win_damage_capture_offer_then_guards():
    """Interpretations 6 and 7."""
    s = scenario3()
    act(s, PASS)
    assert s.phase_name() == "CALL_GUARDS" and s.current_player == 1
    assert legal(s) == {card("CALL_THE_GUARDS"), PASS}


def test_tie_reroll():
    """Interpretation 22."""
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"]}, dice=[1, 1, 2, 1, 6, 6, 1, 1, 2])
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.hits[P["Eric"]] == 6 and s.dice_used == 9


def test_negate_conditions():
    """Interpretation 8."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: ["GET_AWAY", "HIDE_IN_SHADOW", "LORDS_IN_AMBER"]},
        dice=[6, 6, 1, 1, 1],
    )
    king = s.role.index(KING)
    act(s, P["Corwin"], card("FIGHT"), king)
    assert s.dice_used == 5 and s.hits[king] == s.attributes[king][0] - 1  # no window: resolved at once
    s = position(
        order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["GET_AWAY", "HIDE_IN_SHADOW", "LORDS_IN_AMBER"]}
    )
    s.controller[P["Brand"]] = 0  # a second prince keeps p0's action phase open
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "NEGATE"
    assert legal(s) == {card("GET_AWAY"), card("HIDE_IN_SHADOW"), PASS}
    act(s, card("HIDE_IN_SHADOW"))
    ck = s.game.card_kind
    assert s.dice_used == 0 and sorted(ck[c] for c in s.deck.discard[-2:]) == sorted([0, 5])
    assert s.acted[P["Corwin"]] == 1


def test_capture_negated_or_not():
    """Interpretations 6 and 8."""
    s = scenario3()
    act(s, card("CAPTURE"))
    assert s.phase_name() == "CAPTURE_NEGATE" and s.current_player == 1
    act(s, card("NEGATE_CAPTURE"))
    assert not s.captured[P["Random"]]
    s = scenario3()
    set_hand(s, 1, ["CALL_THE_GUARDS"])
    act(s, card("CAPTURE"))
    decline(s, "CAPTURE_NEGATE")  # p1 holds no negate; with a hand he is asked all the same
    r = P["Random"]
    assert s.captured[r] and s.jailer[r] == 0 and s.controller[r] == 1


def test_kill_neutral_king_take_amber_and_appoint():
    """Interpretation 14."""
    s = position(
        order=["Bleys", "Eric", "Caine", "Benedict", "Gerard", "Random"],
        hands={0: ["FIGHT", "GAIN_NEUTRAL"]},
        dice=[6, 6, 1, 1, 2],
    )
    s.controller[P["Julian"]] = 0
    s.armies[P["Bleys"]], s.armies[P["Julian"]] = 3, 2
    s.hits[P["Caine"]] = 2
    s.refresh()
    act(s, P["Bleys"], card("FIGHT"), P["Caine"])
    decline(s, "DEATH")  # p0 holds no Not Really Dead (p1's empty hand cannot)
    assert not s.alive[P["Caine"]]
    assert s.amber == 0 and s.role[P["Bleys"]] == KING and s.role[P["Julian"]] == GUARDIAN
    for old in ("Benedict", "Gerard", "Random"):
        assert s.role[P[old]] == EXILE and s.controller[P[old]] == -1
    assert (
        s.garrison == 17
        and s.armies[P["Bleys"]] == 0
        and s.armies[P["Julian"]] == 0
        and s.hold_count == [0, 0]
    )
    assert s.phase_name() == "APPOINT" and s.current_player == 0
    assert {P["Benedict"], P["Gerard"], P["Random"], P["Eric"], PASS} <= legal(s)
    act(s, P["Benedict"])
    assert s.role[P["Benedict"]] == NORTH and s.controller[P["Benedict"]] == -1
    act(s, PASS)
    assert P["Benedict"] not in s.prince_targets(0, Kind.GAIN_NEUTRAL)


def test_neutral_amber_war_leader_only():
    """Interpretations 11 (the ``leader_only`` variant: the King alone defends) and 12."""
    s = position(
        order=["Benedict", "Eric", "Caine", "Corwin", "Gerard", "Random"],
        hands={0: ["CONQUER", "PRISONER_OF_WAR"], 1: ["BLOCK_THE_WAY", "WALLS_OF_AMBER"]},
        dice=[6, 6, 1, 1, 3],
        amber_defenders="leader_only",
    )
    s.armies[P["Benedict"]] = 6
    s.garrison = 3
    s.refresh()
    act(s, P["Benedict"], card("CONQUER"))
    assert s.phase_name() == "SUPPORT" and s.current_player == 1 and legal(s) == {SUPPORT, PASS}
    decline(s, "SUPPORT", "SHADOW_ARMIES")
    assert s.war.attack == 11 and s.war.defence == 8
    assert s.amber == 0 and s.role[P["Benedict"]] == KING and s.garrison == 6 and s.armies[P["Benedict"]] == 0
    assert all(
        s.role[P[x]] == EXILE and s.controller[P[x]] == -1 for x in ("Caine", "Corwin", "Gerard", "Random")
    )
    assert s.phase_name() == "APPOINT"
    act(s, PASS)
    assert s.phase_name() == "WAR_FOLLOWUP" and s.current_player == 0
    act(s, card("PRISONER_OF_WAR"))
    assert P["Caine"] in legal(s)


def war9(extra_p0=("SHADOW_MASTERY",)):
    s = position(
        order=["Corwin", "Eric", "Julian", "Benedict", "Caine", "Gerard"],
        hands={
            0: ["CONQUER", *extra_p0],
            1: ["BLOCK_THE_WAY", "WALLS_OF_AMBER", "ARMY_LOSS", "BATTLE_WOUNDS"],
        },
    )
    for i in range(9):
        s.role[i] = EXILE
    s.role[P["Eric"]], s.role[P["Benedict"]], s.role[P["Caine"]] = KING, GUARDIAN, NORTH
    s.controller[P["Benedict"]] = 1
    s.amber = 1
    s.armies[P["Corwin"]] = 2
    s.refresh()
    return s


def test_controlled_amber_defence_blocks_and_army_loss():
    """Interpretations 9 and 11 (the neutral regent Caine defends p1's Amber too)."""
    s = war9()
    act(s, P["Corwin"], card("CONQUER"))
    assert s.phase_name() == "NEGATE" and s.current_player == 1 and legal(s) == {card("BLOCK_THE_WAY"), PASS}
    act(s, PASS)
    assert s.phase_name() == "BLOCK" and legal(s) == {card("WALLS_OF_AMBER"), card("ARMY_LOSS"), PASS}
    s.dice, s.dice_used = [6], 0
    act(s, card("WALLS_OF_AMBER"))
    assert s.phase_name() == "SHADOW_MASTERY" and s.current_player == 0 and s.dice_used == 0
    act(s, card("SHADOW_MASTERY"))  # Walls negated: no die
    assert s.dice_used == 0 and s.war.walls_bonus == 0
    act(s, card("ARMY_LOSS"))  # p0's hand is empty now: the window is skipped, die rolled
    assert s.dice_used == 1 and s.armies[P["Corwin"]] == 0
    assert s.war.defence == 9 + 11 + 8 and s.war.won == 0
    assert s.phase_name() == "WAR_FOLLOWUP" and s.current_player == 1
    assert legal(s) == {card("BATTLE_WOUNDS"), PASS}


def test_walls_die_after_shadow_mastery_pass():
    """Attacking Amber, step 2: the die is rolled after the Shadow Mastery window."""
    s = war9()
    act(s, P["Corwin"], card("CONQUER"), PASS)
    s.dice, s.dice_used = [4], 0
    act(s, card("WALLS_OF_AMBER"))
    assert s.dice_used == 0
    act(s, PASS)
    assert s.dice_used == 1 and s.war.walls_bonus == 4


def test_conquer_legality():
    """Attacking Amber (Conquer cards)."""
    s = position(order=["Corwin", "Eric"], hands={0: ["CONQUER"]})
    act(s, P["Corwin"])
    assert card("CONQUER") not in legal(s)  # no armies
    s = position(order=["Corwin", "Eric"], hands={0: ["CONQUER"]})
    s.armies[P["Corwin"]] = 3
    s.refresh()
    act(s, P["Corwin"])
    assert card("CONQUER") in legal(s)
    s = position(order=["Corwin", "Eric"], hands={0: ["CONQUER"]})
    s.controller[P["Brand"]] = 0
    s.armies[P["Brand"]] = 3
    s.captured[P["Corwin"]], s.jailer[P["Corwin"]] = 1, 1
    s.refresh()
    act(s, P["Brand"])
    assert card("CONQUER") not in legal(s)  # the PP is captured
    s = war9()
    s.controller[P["Caine"]] = 1  # p1's regent, a Lord, has armies: a Lord cannot conquer
    s.armies[P["Caine"]] = 3
    s.stack = [TurnEnd(1), ActionSelect(1)]
    set_hand(s, 1, ["CONQUER"])
    s.refresh()
    act(s, P["Caine"])
    assert card("CONQUER") not in legal(s)


def test_hold_victory_and_reset():
    """Winning (V2) and interpretation 18."""
    s = position(order=["Corwin", "Eric"])
    give_amber(s, 0)
    counts = []
    while not s.done:
        assert legal(s) >= {END} or s.phase_name() == "FATE_DISCARD"
        if s.phase_name() == "FATE_DISCARD":
            act(s, min(legal(s)))
            continue
        if s.current_player == 0 and s.phase_name() == "ACTION_SELECT":
            counts.append(s.hold_count[0])
        act(s, END)
    assert counts == [0, 1, 2, 3, 4]
    assert s.winner == 0 and list(s.returns()) == [1.0, -1.0]
    s = position(order=["Corwin", "Eric"])
    give_amber(s, 0)
    s.hold_count[0] = 3
    s.role[P["Corwin"]] = EXILE
    give_amber(s, 1)
    assert s.hold_count == [0, 0]


def test_v1_capture_last_prince():
    """Winning (V1)."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT", "CAPTURE"], 1: ["CALL_THE_GUARDS"]},
        dice=[6, 6, 1, 1, 1],
    )
    give_amber(s, 0)
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    decline(s, "NEGATE")
    act(s, card("CAPTURE"))
    decline(s, "CAPTURE_NEGATE")
    assert s.terminal and s.winner == 0 and s.current_player == -1
    assert list(s.returns()) == [1.0, -1.0]


def test_succession_and_elimination():
    """Interpretations 19 and 20."""
    s = position(order=["Corwin", "Eric"], hands={0: ["SHADOW_ASSASSINS"]}, dice=[3])
    s.controller[P["Caine"]] = 1
    s.hits[P["Eric"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("SHADOW_ASSASSINS"), P["Eric"])
    assert s.phase_name() == "SUCCESSION" and s.current_player == 1 and legal(s) == {P["Caine"]}
    act(s, P["Caine"])
    assert s.player_prince[1] == P["Caine"]
    # Caine dies, no allies: one neutral non-Lord exile is left
    exiles = [
        i for i in range(9) if s.role[i] == EXILE and s.controller[i] < 0 and s.alive[i] and i != P["Eric"]
    ]
    for i in exiles[1:]:
        s.alive[i] = 0
    s.alive[P["Eric"]] = 0
    s.stack.append(Damage(P["Caine"], 0, 20))
    s._run()
    decline(s, "DEATH")  # p1 drew at his turn: asked, though he holds no Not Really Dead
    assert s.phase_name() == "SUCCESSION" and legal(s) == {exiles[0]}
    act(s, exiles[0])
    assert s.player_prince[1] == exiles[0] and s.controller[exiles[0]] == 1
    # and now nobody is left
    set_hand(s, 1, ["FIGHT", "GET_AWAY"])
    s.stack.append(Damage(exiles[0], 0, 20))
    s._run()
    decline(s, "DEATH")
    assert not s.in_game[1] and s.hands[1] == [] and s.winner == 0 and total_cards(s) == 100
    assert list(s.returns()) == [1.0, -1.0]


def test_psychic_hold():
    """Interpretation 23."""
    s = position(order=["Corwin", "Gerard"], hands={0: ["PSYCHIC_HOLD", "FIGHT", "FIGHT"]}, dice=[6, 6, 1, 1])
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("PSYCHIC_HOLD"), P["Gerard"])
    decline(s, "FURY")
    assert s.psychic_hold[P["Gerard"]] == 1
    s.dice, s.dice_used = [1, 1, 1, 1, 1], 0
    act(s, P["Brand"], card("FIGHT"), P["Gerard"])
    assert s.contest_totals == [9, 7] and s.psychic_hold[P["Gerard"]] == 0
    reopen(s, 0)
    s.dice, s.dice_used = [1, 1, 1, 1, 1], 0
    act(s, P["Brand"], card("FIGHT"), P["Gerard"])
    assert s.contest_totals == [9, 14]


def test_mind_probe_memory():
    """Interpretation 31 and Hidden information (what a player saw is remembered)."""
    from meeplezoo.envs.princes_of_amber.observe import O_KNOWN

    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["MIND_PROBE", "FIGHT"], 1: ["FIGHT", "FIGHT", "GET_AWAY"]},
        dice=[6, 6, 1, 1],
    )
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("MIND_PROBE"), P["Eric"])
    decline(s, "NEGATE", "FURY", "FURY", "CALL_GUARDS")
    obs = s.observation(0)
    assert obs[O_KNOWN + 0] == 0.5 and obs[O_KNOWN + 4] == 0.25
    before1 = s.observation(1)
    act(s, P["Brand"], card("FIGHT"), P["Eric"], card("GET_AWAY"))
    obs = s.observation(0)
    assert obs[O_KNOWN + 4] == 0 and obs[O_KNOWN + 0] == 0.5
    assert not before1[O_KNOWN : O_KNOWN + 144].any() and not s.observation(1)[O_KNOWN : O_KNOWN + 144].any()


def test_look_ahead_attribution():
    """Interpretation 30 and Hidden information (a seen card an opponent draws)."""
    from meeplezoo.envs.princes_of_amber.observe import O_KNOWN, O_TOP, TOP_W

    s = position(order=["Corwin", "Eric"], hands={0: ["LOOK_AHEAD"]})
    s.controller[P["Brand"]] = 0  # a second prince keeps p0's action phase open
    s.refresh()
    ck = s.game.card_kind
    dp = s.deck.draw_pile
    idx = next(i for i in range(len(dp)) if ck[dp[i]] == 1)
    dp.append(dp.pop(idx))  # a CAPTURE on top
    act(s, P["Corwin"], card("LOOK_AHEAD"))
    seen = list(s.known_top[0])
    assert len(seen) == 7 and seen[0] == 1
    act(s, END)  # p1's turn: it draws the CAPTURE
    assert s.known_top[0] == seen[1:]
    assert s.known_hand[0][1][1] == 1
    obs = s.observation(0)
    assert obs[O_KNOWN + 1] == 0.25 and obs[O_TOP + seen[1]] == 1.0
    assert obs[O_TOP + 6 * TOP_W + 36] == 1.0  # only 6 known now


def test_amnesia():
    """Interpretation 25."""
    s = position(order=["Corwin", "Eric"], hands={0: ["AMNESIA"]}, dice=[2])
    act(s, card("AMNESIA"), P["Eric"])
    assert s.amnesia[P["Eric"]] == 2
    seen = []
    for _ in range(3):
        while not (s.current_player == 1 and s.phase_name() == "ACTION_SELECT"):
            act(s, END if END in legal(s) else min(legal(s)))
        seen.append(P["Eric"] in legal(s))
        act(s, END if END in legal(s) else min(legal(s)))
    assert seen == [False, False, True]


def test_not_really_dead_on_king():
    """Interpretation 27."""
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["NOT_REALLY_DEAD"]}, dice=[6, 6, 1, 1, 3])
    give_amber(s, 1)
    s.controller[P["Julian"]] = 1
    s.role[P["Julian"]] = EXILE
    s.hits[P["Eric"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    decline(s, "NEGATE")
    assert s.phase_name() == "DEATH" and s.current_player == 1
    act(s, card("NOT_REALLY_DEAD"))
    e = P["Eric"]
    assert s.alive[e] and s.hits[e] == 8 and s.controller[e] == -1 and s.role[e] == EXILE
    assert s.amber == 0 and s.role[P["Corwin"]] == KING
    assert s.phase_name() == "APPOINT" and s.current_player == 0
    act(s, PASS)
    assert s.phase_name() == "SUCCESSION" and s.current_player == 1 and P["Julian"] in legal(s)
    act(s, P["Julian"])
    assert s.player_prince[1] == P["Julian"] and not s.done


def test_intrigue():
    """Interpretation 32."""
    s = position(order=["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"], dice=[4])
    s.controller[P["Brand"]] = 0
    s.controller[P["Benedict"]] = 1  # an ally regent of p1 (set up directly)
    s.refresh()
    act(s, P["Corwin"], noncard("INTRIGUE"), P["Julian"])
    assert s.controller[P["Julian"]] == -1
    s.dice, s.dice_used = [5, 6], 0
    act(s, P["Brand"], noncard("INTRIGUE"), P["Julian"])
    assert s.controller[P["Julian"]] == 0
    s.acted[P["Corwin"]] = 0
    s.refresh()
    act(s, P["Corwin"], noncard("INTRIGUE"), P["Benedict"])
    assert s.controller[P["Benedict"]] == -1 and s.role[P["Benedict"]] == GUARDIAN


def test_regent_offers():
    """Interpretation 15: the regency is offered, accepted, and its guardian's
    wars follow his player."""
    s = _crowned_with_a_guardian()
    _wars_under_the_guardian(s)


def _crowned_with_a_guardian():
    """Bleys takes Amber; the regency's offers, Eric accepting for player 1."""
    s = position(
        n=3,
        order=["Bleys", "Eric", "Corwin", "Caine", "Benedict", "Gerard", "Random"],
        hands={0: ["FIGHT"]},
        dice=[6, 6, 1, 1, 3],
    )
    s.hits[P["Caine"]] = 1
    s.armies[P["Eric"]] = 4
    s.refresh()
    act(s, P["Bleys"], card("FIGHT"), P["Caine"])
    assert s.amber == 0 and s.role[P["Bleys"]] == KING and s.garrison == 12
    cands = legal(s)
    assert {
        P["Benedict"],
        P["Gerard"],
        P["Random"],
        P["Julian"],
        P["Brand"],
        P["Eric"],
        P["Corwin"],
        PASS,
    } == cands
    act(s, P["Eric"])
    assert s.phase_name() == "REGENT_OFFER" and s.current_player == 1 and legal(s) == {P["Eric"], PASS}
    act(s, P["Eric"])
    assert s.role[P["Eric"]] == GUARDIAN and s.controller[P["Eric"]] == 1 and s.player_prince[1] == P["Eric"]
    assert s.garrison == 16 and s.armies[P["Eric"]] == 0
    act(s, P["Corwin"])
    assert s.current_player == 2
    act(s, PASS)
    assert s.phase_name() == "APPOINT" and P["Corwin"] not in legal(s)
    act(s, PASS)
    return s


def _wars_under_the_guardian(s):
    """Player 1 is not asked to support against its own guardian; Amber falls neutral when Bleys dies."""
    # p1 gains Julian; p2's Corwin attacks
    s.controller[P["Julian"]] = 1
    s.armies[P["Corwin"]] = 2
    s.acted = [0] * 9
    s.stack = [TurnEnd(2), ActionSelect(2)]
    set_hand(s, 2, ["CONQUER"])
    set_hand(s, 1, [])
    set_hand(s, 0, [])
    s.dice, s.dice_used = [6, 6, 1, 1, 6], 0
    s.refresh()
    act(s, P["Corwin"], card("CONQUER"))
    assert s.war.attack == 8 and s.war.defence == 19  # p1 was not asked to support
    # p1's exile ally Julian attacks: Eric does not defend against his own player
    s.acted = [0] * 9
    s.armies[P["Julian"]] = 2
    s.stack = [TurnEnd(1), ActionSelect(1)]
    set_hand(s, 1, ["CONQUER"])
    set_hand(s, 0, [])
    set_hand(s, 2, [])
    s.dice, s.dice_used = [1, 1, 6, 6, 6], 0
    s.refresh()
    act(s, P["Julian"], card("CONQUER"))
    assert s.phase_name() == "SUPPORT" and s.current_player == 2
    act(s, PASS)
    assert s.war.attack == 7 and s.war.defence == 10
    # Bleys dies with no causer: Amber falls neutral, Eric back in exile under p1
    s.stack.append(Damage(P["Bleys"], -1, 20))
    s._run()
    assert s.amber == -1 and s.role[P["Eric"]] == EXILE and s.controller[P["Eric"]] == 1


def test_two_players_no_v1_while_accepted_regent_free():
    """Interpretation 15 and Winning (V1)."""
    s = position(order=["Bleys", "Eric", "Caine"], hands={0: ["FIGHT"]}, dice=[6, 6, 1, 1, 3])
    s.hits[P["Caine"]] = 1
    s.refresh()
    act(s, P["Bleys"], card("FIGHT"), P["Caine"], P["Eric"], P["Eric"])
    assert s.role[P["Eric"]] == GUARDIAN and not s.done


def test_v1_waits_for_succession():
    """Winning (V1): not checked while a player is owed a new player prince."""
    s = position(order=["Corwin", "Random"], hands={0: ["SHADOW_ASSASSINS"]}, dice=[6])
    give_amber(s, 0)
    s.hits[P["Random"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("SHADOW_ASSASSINS"), P["Random"])
    assert not s.done and s.phase_name() == "SUCCESSION" and s.current_player == 1
    j = min(legal(s))
    act(s, j)
    assert not s.done and s.player_prince[1] == j
