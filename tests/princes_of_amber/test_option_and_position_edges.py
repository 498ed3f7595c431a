"""Edges of the options and the position dict: the deck bounds are inclusive,
a deck entry is exactly [name, copies], a saved position is independent data
and a rolled table survives the round trip."""

from __future__ import annotations

import json

import pytest

from meeplezoo.envs.princes_of_amber.rules import MAX_DECK_CARDS, AmberGame, AmberState


def _full_deck() -> dict:
    """A deck of exactly MAX_DECK_CARDS Fight cards."""
    return {"FIGHT": [[f"Duel {i}", 100] for i in range(MAX_DECK_CARDS // 100)]}


def test_a_deck_of_exactly_the_card_bound_is_accepted():
    assert AmberGame(deck_counts=_full_deck()).num_cards == MAX_DECK_CARDS


def test_a_deck_override_as_long_as_the_card_bound_is_accepted_one_more_is_refused():
    game = AmberGame(deck_counts=_full_deck(), deck_override=["FIGHT"] * MAX_DECK_CARDS)
    assert game.num_cards == MAX_DECK_CARDS
    with pytest.raises(ValueError, match="deck_override must be None or a list of card kind names"):
        AmberGame(deck_counts=_full_deck(), deck_override=["FIGHT"] * (MAX_DECK_CARDS + 1))


def test_a_deck_entry_with_more_than_a_name_and_copies_is_refused():
    with pytest.raises(ValueError, match=r"entries must be \[name, copies 0..100\], got \['Duel', 3, 4\]"):
        AmberGame(deck_counts={"FIGHT": [["Duel", 3, 4]]})


def test_well_formed_deck_entries_build_the_deck_they_name():
    game = AmberGame(deck_counts={"FIGHT": [["Duel", 6], ("Brawl", 4)], "CAPTURE": [["Net", 2]]})
    assert game.num_cards == 12
    assert sorted(game.card_names) == sorted(["Duel"] * 6 + ["Brawl"] * 4 + ["Net"] * 2)


def test_a_saved_position_is_plain_data_independent_of_the_state():
    s = AmberGame(num_players=3).new_initial_state(4)
    data = s.to_dict()
    json.dumps(data)
    data["attributes"][0][0] = 99
    data["hits"][0] = 99
    data["hands"][0].clear()
    assert s.game.table_attributes[0][0] != 99 and s.attributes[0][0] != 99
    assert s.hits[0] != 99 and s.hands[0]
    assert all(type(row) is list for row in data["attributes"])


def test_a_rolled_table_of_attributes_survives_saving_and_loading():
    game = AmberGame(attribute_mode="rolled")
    s = game.new_initial_state(11)
    assert s.attributes != game.table_attributes
    loaded = AmberState.from_dict(game, json.loads(json.dumps(s.to_dict())))
    assert loaded.attributes == s.attributes
    assert loaded.to_dict() == s.to_dict()


def test_a_fresh_game_has_no_amber_holding_and_no_contest_totals():
    s = AmberGame(num_players=4).new_initial_state(2)
    assert s.hold_count == [0, 0, 0, 0]
    assert s.contest_totals == [0, 0]


def test_deck_entries_of_none_and_of_a_hundred_copies_are_accepted():
    game = AmberGame(deck_counts={"FIGHT": [["Duel", 100], ["Spare", 0]]})
    assert game.num_cards == 100 and "Spare" not in game.card_names
