"""Declared state fields: the compiled clone and the keyed position dict."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.fields import Field, compile_clone, fields_from_dict, fields_to_dict, saved
from tests.core.toy_game import HighCardGame


class Holder:
    pass


def test_clone_copies_each_kind_independently():
    fields = (
        Field("number"),
        Field("items", "list"),
        Field("rows", "lists"),
        Field("seats", "list_pair"),
        Field("table", "dict_of_lists"),
        Field("array", "copy"),
        Field("cache", "reset", reset=None),
    )
    original = Holder()
    original.game = "the game"
    original.number, original.items, original.rows = 3, [1, 2], [[1], [2]]
    original.seats = [[4], [5, 6]]
    original.table, original.array, original.cache = {"k": [1]}, np.zeros(2), {"stale": 1}
    clone = compile_clone(Holder, fields)(original)
    clone.items.append(9)
    clone.rows[0].append(9)
    clone.seats[1].append(9)
    clone.table["k"].append(9)
    clone.array[0] = 9
    assert original.items == [1, 2] and original.rows == [[1], [2]] and original.table == {"k": [1]}
    assert original.seats == [[4], [5, 6]] and clone.seats == [[4], [5, 6, 9]]
    assert original.array[0] == 0 and clone.cache is None and clone.game == "the game" and clone.number == 3


def test_unknown_copy_kind_is_refused():
    with pytest.raises(ValueError, match="copy must be one of"):
        Field("x", "shallow")


def test_toy_state_round_trips_and_its_clone_continues_the_same_chance():
    game = HighCardGame()
    state = game.new_initial_state(seed=3)
    state.apply(0)
    loaded = game.state_from_dict(state.to_dict())
    assert loaded.to_dict() == state.to_dict()
    twin = state.clone()
    assert twin.rng.integers(1 << 30) == state.rng.integers(1 << 30)


def test_missing_required_key_is_named():
    game = HighCardGame()
    data = game.new_initial_state(seed=3).to_dict()
    del data["rng"]
    with pytest.raises(ValueError, match="high_card_v0: the position has no 'rng' entry"):
        game.state_from_dict(data)


def test_defaults_fill_missing_keys_and_to_json_converts():
    fields = (saved("turns", default=0), saved("seen", "list", to_json=lambda value, _s: sorted(value)))
    holder = Holder()
    holder.game = HighCardGame()
    fields_from_dict(holder, fields, {"seen": [2, 1]}, "g")
    assert holder.turns == 0 and fields_to_dict(holder, fields) == {"turns": 0, "seen": [1, 2]}


def test_a_saved_position_shares_no_list_with_its_state():
    game = HighCardGame()
    state = game.new_initial_state(seed=3)
    position = state.to_dict()
    state.apply(0)
    assert position == game.new_initial_state(seed=3).to_dict()
    loaded = game.state_from_dict(position)
    position["deck"].clear()
    assert loaded.deck
