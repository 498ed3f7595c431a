"""Scenarios for the finer points of seeds/princes_of_amber.md: the turn
limit, ties in choosing Lords, the deck during peeks, and the other details
a rule's wording fixes. Each pins the response-window config it needs."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber import determinize as redeals
from meeplezoo.envs.princes_of_amber.cards import PRINCE_NAMES, Kind
from meeplezoo.envs.princes_of_amber.rules import AmberGame
from tests.princes_of_amber.helpers import (
    END,
    EXILE,
    GUARDIAN,
    KING,
    NORTH,
    PASS,
    SOUTH,
    Damage,
    K,
    P,
    act,
    card,
    give_amber,
    legal,
    noncard,
    position,
)

ASK_IF_HELD = {"prompt_only_if_playable": True}
NEXT_SEAT = 9  # PLAYER(1): the opponent one seat after the player


def play_ends(s, turns):
    """End ``turns`` action phases (discarding the first legal card at a Fate discard)."""
    done = 0
    while done < turns and not s.done:
        if s.phase_name() == "FATE_DISCARD":
            act(s, min(legal(s)))
        elif s.phase_name() == "ACTION_SELECT":
            act(s, END)
            done += 1
        else:
            raise AssertionError(f"unexpected decision {s.phase_name()}")


# --------------------------------------------------------------------------- the turn limit
def test_the_game_is_truncated_when_the_max_turns_th_player_turn_ends():
    """Winning: truncated at the end of player-turn max_turns; with "tie" every player still in ties."""
    s = position(order=["Corwin", "Eric"], max_turns=3, **ASK_IF_HELD)
    play_ends(s, 2)
    assert not s.done and s.turns == 2 and s.turn_player == 0
    play_ends(s, 1)
    assert s.truncated and not s.terminal and s.turns == 3 and s.current_player == -1
    assert list(s.returns()) == [0.0, 0.0] and list(s.evaluate()) == [0.0, 0.0]


def test_amber_first_truncation_ranks_the_holder_first():
    s = position(
        n=3, order=["Corwin", "Eric", "Bleys"], max_turns=1, truncation_ranking="amber_first", **ASK_IF_HELD
    )
    give_amber(s, 1)
    assert list(s.returns()) == [0.0, 0.0, 0.0]  # not over yet
    play_ends(s, 1)
    assert s.truncated and list(s.returns()) == [-0.5, 1.0, -0.5]
    s = position(n=3, order=["Corwin", "Eric", "Bleys"], max_turns=1, **ASK_IF_HELD)
    give_amber(s, 1)
    play_ends(s, 1)
    assert list(s.returns()) == [0.0, 0.0, 0.0]


# --------------------------------------------------------------------------- choosing Lords
def test_the_taking_fills_the_posts_by_leadership_then_by_id():
    """Taking Amber: Julian, Gerard and Brand (Leadership 7 each) beat Random (6); ties go by id."""
    s = position(order=["Corwin", "Eric"], **ASK_IF_HELD)
    for name in ("Random", "Brand", "Gerard", "Julian"):
        s.controller[P[name]] = 0
        s.armies[P[name]] = 1
    s.armies[P["Corwin"]] = 2
    s.garrison = 3
    give_amber(s, 0)
    assert s.role[P["Corwin"]] == KING
    assert [s.role[P[x]] for x in ("Julian", "Gerard", "Brand")] == [GUARDIAN, NORTH, SOUTH]
    assert s.role[P["Random"]] == EXILE and s.armies[P["Random"]] == 1
    assert s.garrison == 3 + 2 + 3 and s.armies[P["Julian"]] == 0


def test_a_vacant_throne_goes_to_the_strongest_free_regent_first_by_id():
    """Falling neutral: the King dies with nobody to blame; of the regents Julian and
    Gerard (7) and Random (6), Julian (the lower id) is crowned and his post stays vacant."""
    s = position(order=["Corwin", "Eric", "Caine", "Julian", "Gerard", "Random"], **ASK_IF_HELD)
    s.stack.append(Damage(P["Caine"], -1, 20))
    s._run()
    assert not s.alive[P["Caine"]] and s.amber == -1
    assert s.role[P["Julian"]] == KING and s.role[P["Gerard"]] == NORTH and s.role[P["Random"]] == SOUTH
    assert s.vacant_posts() == [GUARDIAN]


def test_a_captured_regent_is_passed_over_for_the_throne():
    s = position(order=["Corwin", "Eric", "Caine", "Benedict", "Gerard", "Random"], **ASK_IF_HELD)
    s.captured[P["Benedict"]], s.jailer[P["Benedict"]] = 1, 0
    s.stack.append(Damage(P["Caine"], -1, 20))
    s._run()
    assert s.role[P["Gerard"]] == KING and s.role[P["Benedict"]] == GUARDIAN


# --------------------------------------------------------------------------- the deck during peeks
def test_fortune_leaves_the_discard_alone_while_the_deck_has_cards():
    """A turn, Fortune: the discard is reshuffled only when the deck is empty."""
    s = position(order=["Corwin", "Eric"], dice=[3], **ASK_IF_HELD)
    s.controller[P["Brand"]] = 0
    s.deck.discard.extend(s.deck.draw_pile[:10])
    del s.deck.draw_pile[:10]
    s.refresh()
    discard, pile = list(s.deck.discard), list(s.deck.draw_pile)
    act(s, P["Corwin"], noncard("FORTUNE"))
    assert s.deck.discard == discard and s.deck.draw_pile == pile and len(s.known_top[0]) == 3
    assert PASS not in legal(s)


# --------------------------------------------------------------------------- which negate fits
NEGATES = ["GET_AWAY", "HIDE_IN_SHADOW", "LORDS_IN_AMBER", "BREAK_CONTACT", "BLOCK_THE_WAY"]


@pytest.mark.parametrize(
    "attack, eric_is_king, answers",
    [
        ("FIGHT", False, {"GET_AWAY", "HIDE_IN_SHADOW"}),
        ("FIGHT", True, {"GET_AWAY", "LORDS_IN_AMBER"}),
        ("PSYCHIC_ATTACK", False, {"BREAK_CONTACT"}),
        ("PSYCHIC_ATTACK", True, {"BREAK_CONTACT"}),
        ("CONQUER", True, {"BLOCK_THE_WAY"}),
    ],
)
def test_each_negate_card_answers_only_its_own_kind_of_attack(attack, eric_is_king, answers):
    """The Fate deck: Get Away any Fight, Hide in Shadow a Fight on an exile, Lords
    in Amber a Fight on a Lord, Break Contact a Will contest, Block the Way a war."""
    s = position(order=["Corwin", "Eric"], hands={0: [attack], 1: NEGATES}, **ASK_IF_HELD)
    if eric_is_king:
        give_amber(s, 1)
    s.controller[P["Brand"]] = 0
    s.armies[P["Corwin"]] = 3
    s.refresh()
    act(s, P["Corwin"], card(attack))
    if attack != "CONQUER":
        act(s, P["Eric"])
    assert s.phase_name() == "NEGATE" and s.current_player == 1
    assert legal(s) == {card(k) for k in answers} | {PASS}


# --------------------------------------------------------------------------- seat 0 as the other side
def test_a_single_army_is_enough_to_attack_amber():
    """Attacking Amber: the attacker needs at least one army."""
    s = position(order=["Corwin", "Eric"], hands={0: ["CONQUER"]}, **ASK_IF_HELD)
    s.armies[P["Corwin"]] = 1
    s.refresh()
    act(s, P["Corwin"])
    assert card("CONQUER") in legal(s)


def test_distractions_reach_an_amber_holder_in_seat_zero():
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: ["DISTRACTIONS"]}, turn=1, **ASK_IF_HELD)
    give_amber(s, 0)
    assert card("DISTRACTIONS") in legal(s)
    act(s, card("DISTRACTIONS"))
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 0


def test_show_mercy_frees_an_ally_of_seat_zero():
    """Show Mercy on another player's ally, here p0's Brand wounded by p1's Eric."""
    s = position(
        order=["Corwin", "Eric"],
        hands={1: ["FIGHT", "SHOW_MERCY"]},
        turn=1,
        dice=[6, 6, 1, 1, 2],
        **ASK_IF_HELD,
    )
    s.controller[P["Brand"]] = 0
    s.controller[P["Julian"]] = 1
    s.refresh()
    act(s, P["Eric"], card("FIGHT"), P["Brand"])
    assert s.phase_name() == "DAMAGE_FOLLOWUP" and legal(s) == {card("SHOW_MERCY"), PASS}
    act(s, card("SHOW_MERCY"))
    assert s.controller[P["Brand"]] == -1


# --------------------------------------------------------------------------- action names
def test_every_action_has_the_name_of_the_actions_table():
    """Actions (58): PRINCE(i), PLAYER(j), CARD(k), the non-card actions, end phase, pass, support."""
    s = position(order=["Corwin", "Eric"])
    names = [s.action_to_string(a) for a in range(58)]
    assert names[:9] == ["prince " + name.lower() for name in PRINCE_NAMES]
    assert names[9:13] == ["player +1", "player +2", "player +3", "player +4"]
    assert names[13:49] == ["card " + kind.name.lower() for kind in Kind]
    assert names[49:] == ["bide", "recuperate", "fortune", "intrigue", "raise_army", "escape"] + [
        "end phase",
        "pass",
        "support",
    ]
    assert [s.string_to_action(name.upper()) for name in names] == list(range(58))


def test_distractions_make_the_holder_discard_three_of_a_longer_hand():
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["DISTRACTIONS"], 1: ["FIGHT", "FIGHT", "CAPTURE", "GET_AWAY", "BLESSING"]},
        **ASK_IF_HELD,
    )
    give_amber(s, 1)
    act(s, card("DISTRACTIONS"))
    assert s.phase_name() == "EFFECT_DISCARD" and s.stack[-1].count == 3
    act(s, card("FIGHT"), card("CAPTURE"), card("BLESSING"))
    assert len(s.hands[1]) == 2 and s.current_player == 0


# --------------------------------------------------------------------------- redeals for a posed window
def test_a_redeal_that_never_fits_the_posed_window_leaves_only_card_free_answers(monkeypatch):
    """Interpretation 41: the redeal is drawn up to 30 times until the window
    really goes to the asked player; if none fits, he keeps only PASS."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT"], 1: ["NOT_REALLY_DEAD"]},
        dice=[6, 6, 1, 1, 3],
        prompt_only_if_playable=True,
    )
    s.controller[P["Brand"]] = 0
    s.hits[P["Eric"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "DEATH" and s.current_player == 1
    calls = []
    redeal = redeals.redeal
    monkeypatch.setattr(redeals, "redeal", lambda *args: calls.append(1) or redeal(*args))
    outcomes = set()
    for seed in range(12):
        calls.clear()
        d = s.determinize(0, np.random.default_rng(seed))
        assert d.current_player == 1 and d.phase_name() == "DEATH"
        if d.hand_kinds[1][K["NOT_REALLY_DEAD"]]:
            assert d.legal == [card("NOT_REALLY_DEAD"), PASS] and len(calls) <= 30
            outcomes.add("fits")
        else:
            assert d.legal == [PASS] and len(calls) == 30
            outcomes.add("none fits")
    assert outcomes == {"fits", "none fits"}


def test_a_players_own_determinization_is_a_single_redeal(monkeypatch):
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"]})
    calls = []
    redeal = redeals.redeal
    monkeypatch.setattr(redeals, "redeal", lambda *args: calls.append(1) or redeal(*args))
    d = s.determinize(0, np.random.default_rng(0))
    assert len(calls) == 1 and d.current_player == 0 and d.legal == s.legal


# --------------------------------------------------------------------------- settings read at setup
def test_deck_override_puts_the_named_kinds_on_top_to_be_dealt_first():
    game = AmberGame(deck_override=["BLESSING", "NOT_REALLY_DEAD", "CONQUER"], starting_hand=2)
    s = game.new_initial_state(3)
    first, second = ([game.card_kind[c] for c in hand] for hand in s.hands)
    assert first[:2] == [K["BLESSING"], K["NOT_REALLY_DEAD"]] and second[0] == K["CONQUER"]


def test_a_deck_of_more_than_a_thousand_cards_is_refused():
    with pytest.raises(ValueError, match="deck_counts must hold at most 1000 cards, got 1010"):
        AmberGame(
            deck_counts={kind.name: [["x", 100]] for kind in list(Kind)[:10]} | {"BLESSING": [["y", 10]]}
        )


def test_a_finished_game_names_its_phase_game_over():
    s = position(order=["Corwin", "Eric"], max_turns=1, **ASK_IF_HELD)
    play_ends(s, 1)
    assert s.done and s.phase_name() == "GAME_OVER" and not s.legal_action_mask().any()


def eric_against_seat_zero(hand1, dice=(), brand_is_p0=True):
    """p1's turn: Eric (and Julian, so the phase stays open) act against p0's Corwin (and ally Brand)."""
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT", "CAPTURE"], 1: hand1},
        turn=1,
        dice=list(dice),
        **ASK_IF_HELD,
    )
    if brand_is_p0:
        s.controller[P["Brand"]] = 0
    s.controller[P["Julian"]] = 1
    s.refresh()
    return s


def test_will_cards_reach_the_princes_of_seat_zero():
    """Contest of Wills and Mind Probe target a free prince another player controls, seat 0 included."""
    s = eric_against_seat_zero(["CONTEST_OF_WILLS", "MIND_PROBE"], dice=[6, 6, 1, 1, 6, 6, 1, 1])
    act(s, P["Eric"], card("CONTEST_OF_WILLS"))
    assert legal(s) == {P["Corwin"], P["Brand"]}
    act(s, P["Corwin"])
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 0 and s.stack[-1].count == 2
    act(s, card("FIGHT"), card("CAPTURE"))
    act(s, P["Julian"], card("MIND_PROBE"), P["Brand"])
    assert s.known_hand[1][0] == [0] * 36


def test_betrayal_and_intrigue_turn_an_ally_of_seat_zero_neutral():
    s = eric_against_seat_zero(["BETRAYAL"], dice=[5])
    act(s, P["Eric"], card("BETRAYAL"))
    assert legal(s) == {P["Brand"]}
    act(s, P["Brand"])
    assert s.controller[P["Brand"]] == -1
    s = eric_against_seat_zero([], dice=[5])
    act(s, P["Eric"], noncard("INTRIGUE"), P["Brand"])
    assert s.controller[P["Brand"]] == -1


def test_exile_reaches_an_opponent_whose_prince_is_corwin():
    """Exile: any opponent whose player prince is an exile, Corwin (id 0) too."""
    s = eric_against_seat_zero(["EXILE"], brand_is_p0=False)
    act(s, card("EXILE"))
    assert legal(s) == {NEXT_SEAT}
    act(s, NEXT_SEAT)
    assert s.phase_name() == "EFFECT_DISCARD" and s.current_player == 0


def test_recuperate_heals_up_to_the_hits_attribute():
    """Corwin (Hits 12, Fight 9) at 10 hits is wounded; 8 + 6 heals to 12."""
    s = position(order=["Corwin", "Eric"], dice=[6, 6], **ASK_IF_HELD)
    s.controller[P["Brand"]] = 0
    s.hits[P["Corwin"]] = 10
    s.refresh()
    act(s, P["Corwin"])
    assert noncard("RECUPERATE") in legal(s)
    s.hits[P["Corwin"]] = 8
    act(s, noncard("RECUPERATE"))
    assert s.hits[P["Corwin"]] == 12


def test_mental_domination_spares_the_player_prince_of_seat_zero():
    """Mental Domination: a non-PP non-Lord; Corwin, p0's own prince, is no target, his ally Brand is."""
    s = eric_against_seat_zero(["MENTAL_DOMINATION"])
    act(s, P["Eric"], card("MENTAL_DOMINATION"))
    assert P["Brand"] in legal(s) and P["Corwin"] not in legal(s) and P["Julian"] not in legal(s)


def test_amnesia_reaches_the_exiles_of_seat_zero():
    s = eric_against_seat_zero(["AMNESIA"], dice=[4])
    act(s, card("AMNESIA"))
    assert legal(s) == {P["Corwin"], P["Brand"]}
    act(s, P["Corwin"])
    assert s.amnesia[P["Corwin"]] == 4
