"""A state's flat layout, derived from its declared fields.

Every field with a ``shape`` (:class:`~meeplezoo.envs.core.fields.Field`)
gets a slot of one int64 row, in declaration order: a scalar takes one
word, a list as many words as its dimensions' capacities (padded with the
field's ``fill``), a bitboard (kind ``"bits"``) its words of 64 bits,
lowest first, a generator the words of its PCG64 state (read as
uint64 by the kernels). A batch of games is a 2-D array, one row a game.

The dimensions are named by the game (``State.layout_dims``): each has a
capacity (the most any configuration needs, so one layout and one compiled
kernel serve every configuration) and, for lists of a fixed length, the
length in a given game. A list whose dimension has no length is read back
up to its first ``fill`` (a pile, the arrows on the board).

:class:`Layout` is built once per State class; ``slot(name)`` gives the
offsets the kernels use as constants, ``write``/``read`` convert between a
State and a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.fields import FRESH_VALUES, Dim, Field

ROW_DTYPE = np.int64


@dataclass(frozen=True)
class Slot:
    """Where one field lives in the row."""

    field: Field
    offset: int
    shape: tuple[int, ...]  # capacities

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def end(self) -> int:
        return self.offset + self.size


class Layout:
    """The row layout of a State class (``layout_of(cls)`` caches it)."""

    def __init__(self, state_cls: type) -> None:
        self.state_cls = state_cls
        self.dims: dict[str, Dim] = dict(getattr(state_cls, "layout_dims", {}))
        self.slots: dict[str, Slot] = {}
        offset = 0
        for field in state_cls.fields:
            if field.shape is None:
                continue
            shape = tuple(self._capacity(field, d) for d in field.shape)
            slot = Slot(field, offset, shape)
            self.slots[field.name] = slot
            offset = slot.end
        self.width = offset

    def _capacity(self, field: Field, dim: int | str) -> int:
        if isinstance(dim, int):
            return dim
        if dim not in self.dims:
            raise ValueError(f"field {field.name!r}: dimension {dim!r} is not in layout_dims")
        return self.dims[dim].capacity

    def offset(self, name: str) -> int:
        """The first word of field ``name``."""
        return self.slots[name].offset

    def constants(self) -> dict[str, int]:
        """``{FIELD_NAME: offset}`` for every slot, plus ``WIDTH``: what a
        kernel module binds as its compile-time constants."""
        out = {name.upper().lstrip("_"): slot.offset for name, slot in self.slots.items()}
        out["WIDTH"] = self.width
        return out

    def new_rows(self, count: int) -> np.ndarray:
        return np.zeros((count, self.width), dtype=ROW_DTYPE)

    # --- State -> row ---------------------------------------------------------
    def write(self, state: Any, row: np.ndarray) -> np.ndarray:
        """Write every slot of ``state`` into ``row`` (and return it)."""
        for slot in self.slots.values():
            value = getattr(state, slot.field.name)
            if slot.field.to_row is not None:
                value = slot.field.to_row(value, state)
            words = row[slot.offset : slot.end]
            if slot.field.kind == "generator":
                words.view(np.uint64)[:] = pcg64.to_words(value)
            elif slot.field.kind == "bits":
                words[:] = 0
                _write_bits(words.reshape(slot.shape), value)
            elif not slot.shape:
                words[0] = int(value)
            else:
                words[:] = slot.field.fill
                _write_nested(words.reshape(slot.shape), value)
        return row

    # --- row -> State ---------------------------------------------------------
    def read(self, row: np.ndarray, game: Any) -> Any:
        """A State of ``game`` holding ``row``; fields outside the layout
        start as a loaded position's do, then ``_after_load`` rebuilds what
        is derived."""
        state = self.state_cls.__new__(self.state_cls)
        state.game = game
        for field in self.state_cls.fields:
            slot = self.slots.get(field.name)
            if slot is None:
                setattr(state, field.name, _fresh(field))
            elif field.from_row is not None:
                setattr(state, field.name, field.from_row(self._read_slot(slot, row, game), game))
            else:
                setattr(state, field.name, self._read_slot(slot, row, game))
        state._after_load({})
        return state

    def _read_slot(self, slot: Slot, row: np.ndarray, game: Any) -> Any:
        words = row[slot.offset : slot.end]
        kind = slot.field.kind
        if kind == "generator":
            return pcg64.from_words(words.view(np.uint64))
        if kind == "bits":
            return _read_bits(words.reshape(slot.shape))
        if not slot.shape:
            return bool(words[0]) if kind == "bool" else int(words[0])
        lengths = [self._length(d, game) for d in slot.field.shape]
        return _read_nested(words.reshape(slot.shape), lengths, slot.field.fill, kind == "bool")

    def _length(self, dim: int | str, game: Any) -> int | None:
        if isinstance(dim, int):
            return dim
        length = self.dims[dim].length
        return None if length is None else length(game)


def _write_nested(target: np.ndarray, value: Any) -> None:
    if target.ndim == 1:
        items = [int(x) for x in value]
        if len(items) > len(target):
            raise ValueError(f"a list of {len(items)} entries does not fit a slot of {len(target)}")
        target[: len(items)] = items
        return
    for sub, item in zip(target, value):
        _write_nested(sub, item)


def _read_nested(words: np.ndarray, lengths: list[int | None], fill: int, as_bool: bool) -> list:
    length = lengths[0]
    if words.ndim == 1:
        values = words.tolist()
        if length is None:
            length = values.index(fill) if fill in values else len(values)
        values = values[:length]
        return [bool(x) for x in values] if as_bool else values
    count = len(words) if length is None else length
    return [_read_nested(words[k], lengths[1:], fill, as_bool) for k in range(count)]


def _write_bits(target: np.ndarray, value: Any) -> None:
    """A bitboard (or nested lists of them) as words of 64 bits, lowest first."""
    if target.ndim > 1:
        for sub, item in zip(target, value):
            _write_bits(sub, item)
        return
    bits = int(value)
    if bits < 0 or bits >> (64 * len(target)):
        raise ValueError(f"a bitboard of {bits.bit_length()} bits does not fit {len(target)} words")
    target.view(np.uint64)[:] = [(bits >> (64 * k)) & (2**64 - 1) for k in range(len(target))]


def _read_bits(words: np.ndarray) -> Any:
    if words.ndim > 1:
        return [_read_bits(sub) for sub in words]
    return sum(int(word) << (64 * k) for k, word in enumerate(words.view(np.uint64).tolist()))


def _fresh(field: Field) -> Any:
    """What a field outside the layout starts as in a state read from a row."""
    if field.copy in FRESH_VALUES:
        return FRESH_VALUES[field.copy]()
    return field.reset


_LAYOUTS: dict[type, Layout] = {}


def layout_of(state_cls: type) -> Layout:
    """The (cached) layout of a State class."""
    layout = _LAYOUTS.get(state_cls)
    if layout is None:
        layout = _LAYOUTS[state_cls] = Layout(state_cls)
    return layout


def offsets_of(declaration) -> dict[str, int]:
    """Offsets of a ``(name, size)`` declaration laid end to end (a kernel's
    game row), plus ``"WIDTH"``: the one place such offsets are counted."""
    out, at = {}, 0
    for name, size in declaration:
        out[name] = at
        at += size
    out["WIDTH"] = at
    return out
