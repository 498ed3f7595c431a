"""Interpretations 4, 35 and 41: which questions are put to a player, so that
whose turn it is never shows what he holds (``prompt_only_if_playable``)."""

from __future__ import annotations

import numpy as np

from tests.princes_of_amber.helpers import (
    END,
    PASS,
    K,
    P,
    act,
    card,
    legal,
    position,
    set_hand,
)


def fight_on_eric(p1_cards, **config):
    """Corwin (p0, with Brand to keep his phase open) fights Eric (p1)."""
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"], 1: p1_cards}, **config)
    s.controller[P["Brand"]] = 0
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    return s


def test_a_hand_without_an_answer_is_still_asked():
    s = fight_on_eric(["FIGHT"])
    assert s.phase_name() == "NEGATE" and s.current_player == 1 and legal(s) == {PASS}


def test_holding_a_negate_or_not_looks_the_same_to_the_attacker():
    held = fight_on_eric(["GET_AWAY"])
    other = fight_on_eric(["FIGHT"])
    assert held.current_player == other.current_player == 1
    assert np.array_equal(held.observation(0), other.observation(0))
    assert held.render_ansi(0) == other.render_ansi(0)


def test_opt_in_skipping_shows_the_hand():
    """With prompt_only_if_playable the attacker sees whether Eric holds a negate."""
    held = fight_on_eric(["GET_AWAY"], prompt_only_if_playable=True)
    other = fight_on_eric(["FIGHT"], prompt_only_if_playable=True, dice=[6, 6, 1, 1, 1])
    assert held.phase_name() == "NEGATE" and held.current_player == 1
    assert other.phase_name() == "ACTION_SELECT" and other.current_player == 0


def test_an_empty_hand_is_not_asked():
    s = fight_on_eric([], dice=[6, 6, 1, 1, 1])
    assert s.phase_name() == "ACTION_SELECT" and s.current_player == 0 and s.dice_used == 5


def test_a_window_every_copy_of_whose_cards_is_discarded_is_skipped():
    """Both Break Contact cards lie in the discard pile: nobody can negate a Will contest."""
    s = position(order=["Corwin", "Eric"], hands={0: ["PSYCHIC_HOLD"], 1: ["FIGHT"]}, dice=[6, 6, 1, 1])
    s.controller[P["Brand"]] = 0
    set_hand(s, 1, ["FIGHT", "BREAK_CONTACT", "BREAK_CONTACT"])
    for _ in range(2):
        s._take_card(1, K["BREAK_CONTACT"])
    s.refresh()
    act(s, P["Corwin"], card("PSYCHIC_HOLD"), P["Eric"])
    # no NEGATE: the Fury window comes first (Emotional Fury cards are still about)
    assert s.phase_name() == "FURY" and s.current_player == 1 and legal(s) == {PASS}


ERIC_WINS = [1, 1, 6, 6, 1]  # Corwin 9 + 2 against Eric 8 + 12; one damage to Corwin


def test_action_phase_with_no_prince_left_still_asked_while_a_free_card_may_be_held():
    """Interpretation 4: Corwin has acted; p0 holds a Fight (no free card) but could hold one."""
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT", "GET_AWAY"]}, dice=ERIC_WINS)
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.phase_name() == "ACTION_SELECT" and s.current_player == 0 and legal(s) == {END}
    s = position(
        order=["Corwin", "Eric"],
        hands={0: ["FIGHT", "GET_AWAY"]},
        dice=ERIC_WINS,
        prompt_only_if_playable=True,
    )
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.turn_player == 1  # the opt-in variant ends p0's phase: he holds no free card


def test_action_phase_with_no_prince_and_no_card_ends_by_itself():
    s = position(order=["Corwin", "Eric"], hands={0: ["FIGHT"]}, dice=ERIC_WINS)
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.turn_player == 1 and s.current_player == 1


def test_redeal_answers_from_the_redealt_hand():
    """Interpretation 41 by default: the window is posed whatever p1 holds, so a
    redeal for p0 need not give p1 a negate; his answers are those of his new hand."""
    s = fight_on_eric(["GET_AWAY", "BLESSING", "AMNESIA"])
    only_pass = 0
    for k in range(10):
        d = s.determinize(0, np.random.default_rng(k))
        assert d.current_player == 1 and d.phase_name() == "NEGATE"
        held = {card(kind) for kind in ("GET_AWAY", "HIDE_IN_SHADOW") if d.hand_kinds[1][K[kind]] > 0}
        assert set(d.legal) == held | {PASS}
        assert set(np.flatnonzero(d.legal_action_mask())) == set(d.legal)
        only_pass += d.legal == [PASS]
    assert only_pass > 0
