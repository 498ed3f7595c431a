"""The one "an integer, not a bool" check.

Actions, seats, seeds, counts and integer settings all arrive from users as
Python ints, numpy integers, or something else by mistake. ``True`` is an
``int`` to Python and ``4.9`` truncates to 4, so a loose check would play a
different move or deal a different game without a word. Every such check in
the package goes through this module, so each refuses the same inputs.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np


class NotAnIntegerError(TypeError, ValueError):
    """A value that should be an integer is not (a bool, a float, a string...).

    A TypeError by kind; also a ValueError, so that callers that have always
    caught a bad setting as ValueError keep working (numpy's ``AxisError`` is
    a ValueError and an IndexError for the same reason)."""


def integer_index(value: Any) -> int | None:
    """``value`` as a Python int if it is an integer of any kind (numpy's
    included), else None. Bools, floats (even whole ones), strings and None
    are not integers here: a mistyped action must never play a different
    move by silent truncation (``int(4.9)`` is 4)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _bounds_words(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def check_integer(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a Python int, checked to lie in ``low..high`` (either
    bound None: open on that side).

    Raises :class:`NotAnIntegerError` (a TypeError) for bools, numpy bools
    and anything that is not an integer, and ValueError for an integer out
    of bounds; both messages name ``name`` and the value."""
    index = integer_index(value)
    if index is None:
        raise NotAnIntegerError(f"{name} must be an integer{_bounds_words(low, high)}, got {value!r}")
    if (low is not None and index < low) or (high is not None and index > high):
        raise ValueError(f"{name} must be an integer{_bounds_words(low, high)}, got {value!r}")
    return index
