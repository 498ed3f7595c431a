"""Config options: checks, canonical values, defaults and the rules-page tables."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.options import (
    choice,
    custom,
    flag,
    integer,
    markdown_table,
    number,
    validated_config,
)
from meeplezoo.envs.rules_tables import main as check_tables
from tests.core.toy_game import HighCardGame


def test_integer_accepts_numpy_ints_and_stores_python_ints():
    value = integer(3, 1, 5, "doc").validated(np.int64(4), "k", "g")
    assert value == 4 and type(value) is int


@pytest.mark.parametrize("bad", [0, 6, 2.0, True, "3", None])
def test_integer_refuses_out_of_range_and_other_types_naming_key_and_value(bad):
    with pytest.raises(ValueError, match=r"g: k must be an integer from 1 to 5, got"):
        integer(3, 1, 5, "doc").validated(bad, "k", "g")


def test_integer_may_allow_none():
    assert integer(None, 1, 5, "doc", allow_none=True).validated(None, "k", "g") is None


def test_number_flag_choice():
    assert number(0.5, 0.0, 1.0, "doc").validated(1, "k", "g") == 1.0
    with pytest.raises(ValueError, match="k must be a number from 0.0 to 1.0"):
        number(0.5, 0.0, 1.0, "doc").validated(1.5, "k", "g")
    assert flag(True, "doc").validated(np.bool_(False), "k", "g") is False
    with pytest.raises(ValueError, match="k must be True or False, got 1"):
        flag(True, "doc").validated(1, "k", "g")
    assert choice("a", ("a", "b"), "doc").validated("b", "k", "g") == "b"
    with pytest.raises(ValueError, match=r"k must be one of \('a', 'b'\), got 'c'"):
        choice("a", ("a", "b"), "doc").validated("c", "k", "g")


def test_custom_option_runs_its_check():
    def check(value, key, game_name):
        if value not in (None, [1]):
            raise ValueError(f"{game_name}: {key} bad {value!r}")
        return value

    with pytest.raises(ValueError, match="g: k bad 2"):
        custom(None, "doc", "none or [1]", check).validated(2, "k", "g")


def test_first_bad_key_in_declaration_order_is_named():
    options = {"a": integer(1, 0, 2, "x"), "b": integer(1, 0, 2, "y")}
    with pytest.raises(ValueError, match="a must be"):
        validated_config(options, {"a": 9, "b": 9}, "g")


def test_game_defaults_come_from_options_and_bad_values_are_refused():
    assert HighCardGame.defaults == {"num_players": 2, "max_turns": 12}
    with pytest.raises(ValueError, match=r"high_card_v0: max_turns must be an integer from 1 to 1000, got 0"):
        HighCardGame(max_turns=0)
    assert type(HighCardGame(max_turns=np.int32(7)).config["max_turns"]) is int


def test_markdown_table_lists_every_option_with_its_bounds():
    table = markdown_table(HighCardGame.options)
    assert "| `max_turns` | 12 | 1..1000 | turns before the game is cut short |" in table
    assert table.count("\n") == 1 + len(HighCardGame.options)


def test_rules_pages_match_the_declared_options(capsys):
    assert check_tables(["--check"]) == 0, capsys.readouterr().out
