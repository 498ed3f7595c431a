"""Checks for positions handed in from outside (``state_from_dict``).

A position dict may come from a file, a user or a fuzzer, so every entry is
checked as it is read: the ``from_json`` converters here check type, length
and range and return the value in the state's own form, and
:func:`check_conservation` checks that every card, tile or piece is in
exactly one place. A failed check is a :class:`PositionError` (a
ValueError) naming the entry and the rule, raised before any env or state
takes the position in.

Bounds may depend on the game's config: pass a function of the Game, e.g.
``integer_entry(0, lambda game: game.max_turns)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from meeplezoo.envs.core.errors import UsageError
from meeplezoo.envs.core.state import integer_index

Bound = int | Callable[[Any], int]


class PositionError(UsageError):
    """A position dict that breaks a rule of its game (the message says which; a ValueError)."""


def _bound(bound: Bound, game: Any) -> int:
    return bound(game) if callable(bound) else bound


def _named(what: str) -> str:
    return f"{what} " if what else ""


def as_integer(value: Any, low: int, high: int, what: str = "") -> int:
    """``value`` as a Python int in ``low..high`` (bools and floats refused)."""
    index = integer_index(value)
    if index is None:
        raise PositionError(f"{_named(what)}must be an integer, got {value!r}")
    if not low <= index <= high:
        raise PositionError(f"{_named(what)}must be from {low} to {high}, got {index}")
    return index


def integer_entry(low: Bound, high: Bound) -> Callable[[Any, Any], int]:
    """A ``from_json`` for one integer in ``low..high``."""
    return lambda value, game: as_integer(value, _bound(low, game), _bound(high, game))


def flag_entry() -> Callable[[Any, Any], bool]:
    def convert(value: Any, game: Any) -> bool:
        if not isinstance(value, bool):
            raise PositionError(f"must be true or false, got {value!r}")
        return value

    return convert


def name_entry(names: tuple[str, ...]) -> Callable[[Any, Any], int]:
    """A ``from_json`` for a name from ``names``, stored as its index."""

    def convert(value: Any, game: Any) -> int:
        if not isinstance(value, str) or value not in names:
            raise PositionError(f"must be one of {names}, got {value!r}")
        return names.index(value)

    return convert


def as_list(value: Any, length: int | None = None, what: str = "") -> list:
    if not isinstance(value, list):
        raise PositionError(f"{_named(what)}must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise PositionError(f"{_named(what)}must have {length} entries, got {len(value)}")
    return value


def integer_list(low: Bound, high: Bound, length: Bound | None = None) -> Callable[[Any, Any], list[int]]:
    """A ``from_json`` for a list of integers in ``low..high`` (of ``length`` entries, if given)."""

    def convert(value: Any, game: Any) -> list[int]:
        size = None if length is None else _bound(length, game)
        lo, hi = _bound(low, game), _bound(high, game)
        return [as_integer(v, lo, hi, f"entry {i}") for i, v in enumerate(as_list(value, size))]

    return convert


def flag_list(length: Bound | None = None) -> Callable[[Any, Any], list[bool]]:
    """A ``from_json`` for a list of true/false values (of ``length`` entries, if given)."""
    flag = flag_entry()

    def convert(value: Any, game: Any) -> list[bool]:
        size = None if length is None else _bound(length, game)
        converted = []
        for i, entry in enumerate(as_list(value, size)):
            try:
                converted.append(flag(entry, game))
            except PositionError as exc:
                raise PositionError(f"entry {i} {exc}") from None
        return converted

    return convert


def integer_rows(
    low: Bound, high: Bound, rows: Bound, row_length: Bound | None = None
) -> Callable[[Any, Any], list[list[int]]]:
    """A ``from_json`` for ``rows`` lists of integers in ``low..high`` (one per seat, say)."""
    row = integer_list(low, high, row_length)

    def convert(value: Any, game: Any) -> list[list[int]]:
        converted = []
        for i, entry in enumerate(as_list(value, _bound(rows, game))):
            try:
                converted.append(row(entry, game))
            except PositionError as exc:
                raise PositionError(f"row {i}: {exc}") from None
        return converted

    return convert


def seat_entry(allow_none: bool = False) -> Callable[[Any, Any], int]:
    """A seat of the game (``-1`` also accepted when ``allow_none``: no one)."""
    return integer_entry(-1 if allow_none else 0, lambda game: game.num_players - 1)


def require(condition: bool, message: str) -> None:
    """Raise PositionError(``message``) unless ``condition``."""
    if not condition:
        raise PositionError(message)


def check_conservation(
    zones: Mapping[str, Iterable], expected: Iterable, what: str, complete: bool = True
) -> None:
    """Every item of ``expected`` (a multiset: a deck's cards, a bag's tiles)
    lies in exactly one of ``zones`` (name -> items), and nothing else does;
    with ``complete=False`` items may also be gone (cards out of the game),
    but none is there twice. The error names the first item found too often
    or missing."""
    want = Counter(expected)
    found: Counter = Counter()
    where: dict[Any, list[str]] = {}
    for zone, items in zones.items():
        for item in items:
            found[item] += 1
            where.setdefault(item, []).append(zone)
    for item in sorted(set(want) | set(found), key=repr):
        if found[item] > want[item]:
            places = ", ".join(where[item])
            raise PositionError(
                f"{what} {item!r} is there {found[item]} times (in {places}); the game has {want[item]}"
            )
        if complete and found[item] < want[item]:
            raise PositionError(f"{what} {item!r} is missing: {found[item]} of {want[item]} found")
