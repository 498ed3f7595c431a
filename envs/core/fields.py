"""A state's fields, declared once: how each is copied and saved.

A game's State lists its attributes as ``fields = (Field("turns"),
Field("hands", copy="lists"), ...)``. From that one list come

- ``clone()``: with ``clone = generated_clone()`` in the class body,
  compiled into plain Python once per class (one assignment per field, as a
  hand-written copy would be), because search bots clone on every
  simulation;
- the keyed part of ``to_dict()`` / ``from_dict()``: each field with a
  ``key`` is one entry of the position dict, converted by its
  ``to_json``/``from_json``.

- the compiled layout (:mod:`meeplezoo.envs.core.compiled.layout`): each
  field with a ``shape`` is a slot of the flat int64 row a kernel works on
  (``()`` a scalar, ``("cells",)`` a list as long as one of the game's
  declared dimensions, padded with ``fill`` up to that dimension's
  capacity); ``kind`` says how a value reads back (``"int"``, ``"bool"``,
  ``"generator"``, or ``"bits"``: a bitboard wider than a word, whose last
  dimension is its words).

Entries that are not one attribute each (a board written as a list of
pieces, say) stay in the game's own code, next to the fields. A field
without a ``key`` is still copied: caches use ``copy="reset"`` so a clone
starts with ``reset`` and rebuilds them.
"""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from meeplezoo.envs.core.rng import clone_rng, rng_from_dict, rng_to_dict

# How a clone copies a field: the expression is written into the compiled
# clone, with ``value`` standing for the field's value in the original.
COPY_EXPRESSIONS = {
    "value": "value",  # immutable values: ints, strings, tuples, None
    "list": "value[:]",  # a list of immutable values
    "lists": "[row[:] for row in value]",  # a list of such lists
    # two such lists (one per seat of a two-seat game): no comprehension,
    # which costs a frame of its own on Python < 3.12
    "list_pair": "[value[0][:], value[1][:]]",
    "dict_of_lists": "{k: v[:] for k, v in value.items()}",
    "copy": "value.copy()",  # arrays, sets, dicts of values, decks: anything with copy()
    "copies": "[item.copy() for item in value]",  # a list of records with copy()
    "dict_of_copies": "{k: v.copy() for k, v in value.items()}",  # e.g. a dict of sets
    "new_dict": "{}",  # a cache dict: the clone starts with an empty one of its own
    "new_list": "[]",  # a change log: the clone starts with an empty one of its own
    "copy_or_none": "None if value is None else value.copy()",  # an optional record with copy()
    "deep": "deepcopy(value)",  # anything else (slow: keep off hot paths)
    "rng": "clone_rng(value)",  # a numpy Generator, continued where it is
    "reset": None,  # a cache: the clone starts with ``reset``
}

# What a loaded position starts with in the fields a clone starts afresh.
FRESH_VALUES: dict[str, Callable[[], Any]] = {"new_dict": dict, "new_list": list}

MISSING: Any = object()

# how a compiled slot reads back into the state: an int, a bool, a Generator,
# or "bits": a non-negative bitboard wider than a word, its last dimension
# the words (64 bits each, lowest first)
SLOT_KINDS = ("int", "bool", "generator", "bits")


def _identity(value: Any, _context: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute of a state.

    ``to_json(value, state)`` and ``from_json(data, game)`` convert the value
    for the position dict under ``key`` (None: not saved on its own);
    ``default`` is used when a position dict lacks the key (MISSING: the key
    is required); ``reset`` is what ``copy="reset"`` caches start as.
    ``shape``, ``kind`` and ``fill`` place it in the compiled layout (None:
    the kernel does without it)."""

    name: str
    copy: str = "value"
    key: str | None = None
    to_json: Callable[[Any, Any], Any] = _identity
    from_json: Callable[[Any, Any], Any] = _identity
    default: Any = MISSING
    reset: Any = None
    shape: tuple[int | str, ...] | None = None
    kind: str = "int"
    fill: int = 0
    # a value that is not a (nested) list of ints (a deck, a dict, records):
    # to_row(value, state) gives the nested ints the slot holds, and
    # from_row(ints, game) turns the slot's ints (read at full size) back
    to_row: Callable[[Any, Any], Any] | None = None
    from_row: Callable[[Any, Any], Any] | None = None

    def __post_init__(self) -> None:
        if self.kind not in SLOT_KINDS:
            raise ValueError(f"field {self.name!r}: kind must be one of {SLOT_KINDS}, got {self.kind!r}")
        if self.copy not in COPY_EXPRESSIONS:
            raise ValueError(
                f"field {self.name!r}: copy must be one of {sorted(COPY_EXPRESSIONS)}, got {self.copy!r}"
            )
        if not self.name.isidentifier():
            raise ValueError(f"field name must be an identifier, got {self.name!r}")


@dataclass(frozen=True)
class Dim:
    """A named dimension of the compiled layout: its ``capacity`` (the most
    any configuration needs) and its length in a given game (None: a list
    of this dimension ends at its first fill)."""

    capacity: int
    length: Callable[[Any], int] | None = None


def saved(name: str, copy: str = "value", key: str | None = None, **kwargs: Any) -> Field:
    """A field saved under ``key`` (by default its own name)."""
    return Field(name, copy, key or name, **kwargs)


def compile_clone(cls: type, fields: Iterable[Field]) -> Callable[[Any], Any]:
    """``clone()`` for ``cls``: a new instance sharing ``game`` with every
    field copied as declared."""
    namespace: dict[str, Any] = {"cls": cls, "deepcopy": copy_module.deepcopy, "clone_rng": clone_rng}
    lines = ["def clone(self):", "    new = cls.__new__(cls)", "    new.game = self.game"]
    for field in fields:
        expression = COPY_EXPRESSIONS[field.copy]
        if expression is None:
            namespace[f"reset_{field.name}"] = field.reset
            lines.append(f"    new.{field.name} = reset_{field.name}")
        else:
            lines.append(f"    new.{field.name} = " + expression.replace("value", f"self.{field.name}"))
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from validated identifiers only
    clone = namespace["clone"]
    clone.__doc__ = "Independent copy: every declared field copied as declared (compiled from ``fields``)."
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    return clone


def generated_clone() -> Any:
    """Write ``clone = generated_clone()`` in a State class body: when the
    class is created it gets a ``clone()`` compiled from its ``fields`` by
    :func:`compile_clone`, plain Python with one assignment per field as a
    hand-written copy would be (search bots clone on every simulation).
    Generated rather than written out, so no declared field is ever left out
    of the copy."""
    return _CloneFromFields()


class _CloneFromFields:
    """Stands in the class body until the class exists, then puts the
    compiled ``clone`` in its place (``__set_name__`` runs at class creation)."""

    def __set_name__(self, owner: type, name: str) -> None:
        setattr(owner, name, compile_clone(owner, owner.fields))


def _converted(convert: Callable[[Any, Any], Any], value: Any, context: Any) -> Any:
    """``convert(value, context)``; a plain pass-through copies the value, so
    a position dict and the state never share a list."""
    if convert is _identity:
        return copy_module.deepcopy(value)
    return convert(value, context)


def fields_to_dict(state: Any, fields: Iterable[Field]) -> dict[str, Any]:
    """The position-dict entries of the keyed fields (independent of the state)."""
    return {
        field.key: _converted(field.to_json, getattr(state, field.name), state)
        for field in fields
        if field.key
    }


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text if isinstance(exc, ValueError) and text else f"{type(exc).__name__}: {text}"


def fields_from_dict(state: Any, fields: Iterable[Field], data: dict, game_name: str) -> None:
    """Set the keyed fields of ``state`` from a position dict, and every
    cache to its reset value (or a fresh empty one). A missing required key
    is a ValueError naming it."""
    for field in fields:
        if field.key is None:
            if field.copy == "reset":
                setattr(state, field.name, field.reset)
            elif field.copy in FRESH_VALUES:
                setattr(state, field.name, FRESH_VALUES[field.copy]())
            continue
        if field.key in data:
            try:
                value = _converted(field.from_json, data[field.key], state.game)
            except (ValueError, TypeError, KeyError, IndexError, OverflowError, AttributeError) as exc:
                # a converter that fails on odd input still names the entry
                raise ValueError(f"{game_name}: position entry {field.key!r}: {_reason(exc)}") from None
        elif field.default is MISSING:
            raise ValueError(f"{game_name}: the position has no {field.key!r} entry")
        else:
            value = copy_module.deepcopy(field.default)
        setattr(state, field.name, value)


GENERATOR_WORDS = 6  # a PCG64 state in the compiled layout (compiled.pcg64.WORDS)


def generator_field(name: str = "rng") -> Field:
    """The state's generator: continued by a clone, saved as its bit state
    (required when loading: a position without it would not replay), and in
    the compiled layout as the words of its PCG64 state."""
    return Field(
        name,
        "rng",
        name,
        to_json=lambda rng, _state: rng_to_dict(rng),
        from_json=lambda data, _game: rng_from_dict(data),
        shape=(GENERATOR_WORDS,),
        kind="generator",
    )
