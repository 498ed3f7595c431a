"""The first seat winning by a secured Amber ends the game at once; a held
prince's malus weighs on the attacker too; a captured prince may play the
single captive card in his player's hand."""

from __future__ import annotations

import json

from meeplezoo.envs.princes_of_amber import cards as C
from meeplezoo.envs.princes_of_amber.rules import AmberState

from .helpers import P, act, card, give_amber, legal, position


def test_the_first_player_wins_once_his_amber_is_secured_and_nothing_more_is_asked():
    s = position(n=2, order=["Eric", "Corwin"], hands={0: ["FIGHT"]})
    give_amber(s, 0)
    rival = s.player_prince[1]
    s.captured[rival], s.jailer[rival] = 1, P["Eric"]
    s.refresh()
    assert s.winner == 0 and s.terminal
    assert s.current_player == -1 and not legal(s) and not s.stack


def test_a_held_attacker_fights_seven_lower():
    s = position(n=2, order=["Corwin", "Eric"], hands={0: ["FIGHT"]}, dice=[1, 1, 1, 1, 1])
    s.controller[P["Brand"]] = 0
    s.psychic_hold[P["Corwin"]] = 1
    s.refresh()
    act(s, P["Corwin"], card("FIGHT"), P["Eric"])
    assert s.contest_totals[0] == s.attributes[P["Corwin"]][1] + 2 - 7
    assert s.psychic_hold[P["Corwin"]] == 0


def test_a_captured_prince_may_play_the_one_captive_card_his_player_holds():
    s = position(n=2, order=["Corwin", "Eric"], hands={0: ["ESCAPE_ACTION"]})
    s.controller[P["Brand"]] = 0
    s.captured[P["Brand"]], s.jailer[P["Brand"]] = 1, P["Eric"]
    s.refresh()
    act(s, P["Brand"])
    assert card("ESCAPE_ACTION") in legal(s)


def test_gossip_reveals_the_hand_of_the_player_named_by_his_seat_offset():
    for offset in (1, 2):
        s = position(
            n=3,
            order=["Corwin", "Eric", "Gerard"],
            hands={0: ["GOSSIP", "FIGHT"], 1: ["FIGHT"], 2: ["CAPTURE"]},
        )
        act(s, P["Corwin"], card("GOSSIP"))
        assert s.phase_name() == "TARGET_PLAYER"
        act(s, C.A_PLAYER + offset)
        other = 3 - offset
        assert s.known_hand[0][offset] is not None and s.known_hand[0][other] is None
        assert s.target_prince == -1
        AmberState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))


def test_a_captured_first_prince_playing_escape_frees_himself_at_once():
    s = position(n=2, order=["Eric", "Gerard"], hands={0: ["ESCAPE_ACTION", "FIGHT"]})
    s.controller[P["Corwin"]] = 0
    s.captured[P["Corwin"]], s.jailer[P["Corwin"]] = 1, P["Gerard"]
    s.refresh()
    act(s, P["Corwin"], card("ESCAPE_ACTION"))
    assert not s.captured[P["Corwin"]] and s.phase_name() != "TARGET_PRINCE"
