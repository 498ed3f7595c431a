"""Position checks: entries are converted with their rule named, pieces conserved."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.fields import fields_from_dict, saved
from meeplezoo.envs.core.positions import (
    PositionError,
    check_conservation,
    flag_entry,
    integer_entry,
    integer_list,
    integer_rows,
    name_entry,
    seat_entry,
)
from tests.core.toy_game import HighCardGame


class Holder:
    game = HighCardGame(num_players=3)


def load(field, value):
    holder = Holder()
    fields_from_dict(holder, (field,), {field.key: value}, "g")
    return getattr(holder, field.name)


def test_integers_are_checked_against_bounds_that_may_depend_on_the_game():
    field = saved("turns", from_json=integer_entry(0, lambda game: game.max_turns))
    assert load(field, np.int64(12)) == 12
    for bad, rule in [
        (13, "from 0 to 12, got 13"),
        (1.0, "must be an integer"),
        (True, "must be an integer"),
    ]:
        with pytest.raises(ValueError, match=f"g: position entry 'turns': .*{rule}"):
            load(field, bad)


def test_lists_rows_names_flags_and_seats():
    assert load(saved("cards", from_json=integer_list(0, 9, 3)), [1, 2, 3]) == [1, 2, 3]
    with pytest.raises(ValueError, match="'cards': must have 3 entries, got 2"):
        load(saved("cards", from_json=integer_list(0, 9, 3)), [1, 2])
    with pytest.raises(ValueError, match="'hands': row 1: entry 0 must be from 0 to 9, got 10"):
        load(saved("hands", from_json=integer_rows(0, 9, 2)), [[1], [10]])
    assert load(saved("phase", from_json=name_entry(("setup", "play"))), "play") == 1
    with pytest.raises(ValueError, match="must be one of"):
        load(saved("phase", from_json=name_entry(("setup", "play"))), "Play")
    with pytest.raises(ValueError, match="must be true or false"):
        load(saved("over", from_json=flag_entry()), 1)
    assert load(saved("winner", from_json=seat_entry(allow_none=True)), -1) == -1
    with pytest.raises(ValueError, match="from 0 to 2, got 3"):
        load(saved("current", from_json=seat_entry()), 3)


def test_a_converter_crashing_on_odd_input_still_names_the_entry():
    field = saved("table", from_json=lambda value, game: value["missing"])
    with pytest.raises(ValueError, match="position entry 'table': KeyError"):
        load(field, {})


def test_conservation_names_the_duplicated_and_the_missing_item():
    check_conservation({"deck": [1, 2], "hand": [3]}, [1, 2, 3], "card")
    with pytest.raises(PositionError, match=r"card 2 is there 2 times \(in deck, hand\); the game has 1"):
        check_conservation({"deck": [1, 2], "hand": [2, 3]}, [1, 2, 3], "card")
    with pytest.raises(PositionError, match="card 3 is missing: 0 of 1 found"):
        check_conservation({"deck": [1, 2]}, [1, 2, 3], "card")
    with pytest.raises(PositionError, match="card 7 is there 1 times"):
        check_conservation({"deck": [1, 2, 3, 7]}, [1, 2, 3], "card")


def test_a_position_of_another_config_is_refused():
    position = HighCardGame(max_turns=12).new_initial_state(seed=1).to_dict()
    with pytest.raises(ValueError, match="belongs to another config"):
        HighCardGame(max_turns=13).state_from_dict(position)
    del position["config_digest"]  # a hand-written position names no config: accepted
    HighCardGame(max_turns=13).state_from_dict(position)


def test_loader_crashes_become_value_errors_and_non_dicts_type_errors():
    game = HighCardGame()
    position = game.new_initial_state(seed=1).to_dict()
    position["deck"] = 5
    with pytest.raises(ValueError, match="high_card_v0"):
        game.state_from_dict(position)
    with pytest.raises(TypeError, match="a position must be a dict, got list"):
        game.state_from_dict([])


def test_the_toy_game_refuses_a_card_in_two_places():
    game = HighCardGame()
    position = game.new_initial_state(seed=1).to_dict()
    position["cards"][1] = position["cards"][0]
    with pytest.raises(ValueError, match=r"card \d is there 2 times \(in cards, cards\)"):
        game.state_from_dict(position)
