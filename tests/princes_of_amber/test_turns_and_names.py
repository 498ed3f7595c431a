"""Turn order, the turn limit, action names and the determinized copy: each
seat in turn ends its action phase and the next one moves; a game cut at the
turn limit and a resampled copy are valid positions; names read both ways."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber.rules import AmberState
from meeplezoo.envs.princes_of_amber.windows import offer_window

from .helpers import END, K, P, card, legal, position


def test_turns_pass_round_the_table_one_each_without_extra_turns():
    s = position(n=3)
    seats = []
    for _ in range(7):
        seats.append(s.current_player)
        s.apply(END)
    assert seats == [0, 1, 2, 0, 1, 2, 0]
    assert s.extra_turns == [0, 0, 0]


def test_a_game_cut_at_the_turn_limit_is_truncated_and_saves_as_a_valid_position():
    s = position(n=2, max_turns=1)
    s.apply(END)
    assert s.truncated and not s.terminal
    loaded = AmberState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    assert loaded.truncated and loaded.to_dict() == s.to_dict()


def test_a_determinized_copy_is_a_valid_position():
    s = position(n=3, hands={0: ["FIGHT"], 1: ["CAPTURE", "FIGHT"], 2: ["FIGHT"]})
    copy = s.determinize(0, np.random.default_rng(5))
    copy.check_position()
    loaded = AmberState.from_dict(copy.game, json.loads(json.dumps(copy.to_dict())))
    assert loaded.to_dict() == copy.to_dict()


def test_action_names_read_back_case_and_spaces_aside_and_an_unknown_name_is_refused():
    s = position(n=2)
    name = s.action_to_string(card("FIGHT"))
    assert s.string_to_action(f"  {name.upper()} ") == card("FIGHT")
    with pytest.raises(ValueError, match="no action named 'card nothing'"):
        s.string_to_action("card nothing")


def test_no_card_window_is_put_to_nobody_or_to_an_eliminated_player():
    s = position(n=3, hands={1: ["FIGHT"], 2: ["FIGHT"]})
    kinds = [K["FIGHT"]]
    assert offer_window(s, 2, kinds) is not None
    assert offer_window(s, -1, kinds) is None
    s.eliminate(1)
    assert offer_window(s, 1, kinds) is None


def test_a_free_card_is_played_by_no_prince_and_leaves_a_valid_position():
    s = position(n=2, hands={0: ["BLESSING", "FIGHT"]})
    s.controller[P["Brand"]] = 0
    s.refresh()
    assert card("BLESSING") in legal(s)
    s.apply(card("BLESSING"))
    assert s.acting_prince == -1
    loaded = AmberState.from_dict(s.game, json.loads(json.dumps(s.to_dict())))
    assert loaded.to_dict() == s.to_dict()
