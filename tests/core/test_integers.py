"""The one integer check: bools and non-integers are refused by type, out of
range by value, and the message names the setting and the value."""

import re

import numpy as np
import pytest

from meeplezoo.envs.core.integers import NotAnIntegerError, check_integer, integer_index


@pytest.mark.parametrize("value", [3, np.int8(3), np.int64(3), np.uint16(3)])
def test_python_and_numpy_integers_come_back_as_python_ints(value):
    result = check_integer(value, "count", 0, 5)
    assert result == 3 and type(result) is int


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 3.0, 2.5, "3", None, [3]])
def test_bools_and_non_integers_are_a_type_error_naming_the_value(value):
    with pytest.raises(TypeError, match=re.escape(f"count must be an integer from 0 to 5, got {value!r}")):
        check_integer(value, "count", 0, 5)


def test_the_type_error_is_also_a_value_error_for_callers_that_catch_bad_settings():
    with pytest.raises(ValueError):
        check_integer(True, "count")
    assert issubclass(NotAnIntegerError, TypeError)


@pytest.mark.parametrize(
    ("low", "high", "value", "words"),
    [
        (0, 5, 6, "from 0 to 5, got 6"),
        (0, 5, -1, "from 0 to 5, got -1"),
        (2, None, 1, "of at least 2, got 1"),
        (None, 9, np.int32(10), "of at most 9, got np.int32\\(10\\)|of at most 9, got 10"),
    ],
)
def test_out_of_bounds_is_a_value_error_naming_the_bounds(low, high, value, words):
    with pytest.raises(ValueError, match=rf"seat must be an integer ({words})") as caught:
        check_integer(value, "seat", low, high)
    assert not isinstance(caught.value, TypeError)


def test_bounds_are_inclusive_and_optional():
    assert check_integer(0, "seat", 0, 0) == 0
    assert check_integer(-(10**30), "anything") == -(10**30)


def test_integer_index_refuses_what_check_integer_refuses():
    assert integer_index(np.int16(7)) == 7
    for value in (True, np.bool_(False), 4.9, "4", None):
        assert integer_index(value) is None
