"""The board CNN's body (:class:`~meeplezoo.training.features.PlanesCNN`)
for the small batches a search asks about.

At a self-play batch (64 Gem Mountain positions, one core) numpy spent 3.1
of the network's 3.5 ms here. Now:

* The first layer is read from the nonzero inputs alone, in compiled code.
  A position sets about 190 of Gem Mountain's 4,068 plane entries; the scan
  tests eight entries at once and steps only to the nonzero ones, and each
  adds its symlogged value times its taps into the cells around it, eight
  channels per vector instruction (:mod:`~meeplezoo.envs.core.compiled.lanes`).
* The maps stay channel-last (a cell's channels side by side), so the
  middle 3x3 convolution is a matrix product over cells (each cell's nine
  neighbours' channels gathered into a row), a few positions at a time so
  the gathered rows stay in cache, and the 1x1 squeeze another.
* The global values' shift of the first layer's channels comes in as one
  row per position.
* Large arrays are kept from call to call (:class:`Scratch`).

The sums are torch's, in another order (float32 rounding apart).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from meeplezoo.envs.core.compiled.bits import trailing_zeros
from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.core.compiled.lanes import LANES, add_scaled, nonzero_lanes


@njit_borrowing
def first_layer(boards, taps, shift, places, rows, cols, nonzero, out):
    """``out[b]``: relu of ``shift[b]`` in every cell plus every nonzero
    board entry's symlog times the taps linking its cell to the cells
    around it. ``boards`` is (batch, at least plane * cell) raw; ``taps``
    (plane * 3 + dr, reversed dc * channel), :func:`reversed_taps`;
    ``places`` each entry's (plane, row, column); ``out`` (batch, cell *
    channel); ``nonzero`` room for a board's entry numbers."""
    cells, channels = rows * cols, shift.shape[1]
    board_entries = places.shape[0]
    for b in range(boards.shape[0]):
        maps, board = out[b], boards[b]
        for cell in range(cells):
            for o in range(channels):
                maps[cell * channels + o] = shift[b, o]
        for k in range(_list_nonzero(board, board_entries, nonzero)):
            entry = nonzero[k]
            _add_taps(maps, taps, places[entry], board[entry], rows, cols, channels)
        for at in range(cells * channels):
            maps[at] = max(maps[at], 0.0)


@njit_borrowing(inline="always")
def _list_nonzero(board, entries, nonzero):
    """Writes the numbers of the nonzero entries among the first
    ``entries`` to the front of ``nonzero``, in order, and returns how
    many: eight entries tested at once, then one step per nonzero one."""
    count, start = 0, 0
    while start + LANES <= entries:
        found = nonzero_lanes(board, start)
        while found:
            nonzero[count] = start + trailing_zeros(found)
            count += 1
            found &= found - 1
        start += LANES
    for entry in range(start, entries):
        if board[entry] != 0.0:
            nonzero[count] = entry
            count += 1
    return count


@njit_borrowing(inline="always")
def _add_taps(maps, taps, place, value, rows, cols, channels):
    """One input's taps into the (up to nine) cells it reaches: per row of
    the 3x3 window, the (up to three) cells side by side are one run of
    ``maps``, and their taps, stored with dc reversed, one run of ``taps``."""
    scaled = np.float32(math.copysign(math.log1p(abs(value)), value))
    plane, r, c = place[0], place[1], place[2]
    first_col, last_col = max(c - 1, 0), min(c + 1, cols - 1)
    count = (last_col - first_col + 1) * channels
    tap_start = (first_col - c + 1) * channels
    for dr in range(max(0, r + 2 - rows), min(3, r + 2)):
        start = ((r + 1 - dr) * cols + first_col) * channels
        add_scaled(maps, start, taps[plane * 3 + dr], tap_start, scaled, count)


def board_places(planes: int, rows: int, cols: int) -> np.ndarray:
    """Each board entry's (plane, row, column), plane-major as boards are
    laid: a table read instead of three divisions per nonzero entry."""
    plane, row, col = np.indices((planes, rows, cols)).reshape(3, -1)
    return np.ascontiguousarray(np.stack([plane, row, col], axis=1), dtype=np.int64)


def reversed_taps(weight: np.ndarray) -> np.ndarray:
    """A (channel, plane, dr, dc) first-layer weight as (plane * 3 + dr,
    (2 - dc) * channel + channel): the taps an input adds into the cells to
    its right, centre and left, in the cells' order."""
    channels, planes = weight.shape[:2]
    flipped = weight[:, :, :, ::-1].transpose(1, 2, 3, 0)
    return np.ascontiguousarray(flipped.reshape(planes * 3, 3 * channels), dtype=np.float32)


@njit_borrowing
def neighbourhoods(maps, rows, cols, out):
    """Adds to ``out[b * cells + cell]`` (zeros) the nine cells around
    ``cell`` (row-major (dr, dc)), each its channels, as one row; the taps
    off the board stay zero. ``maps`` is (batch, cell * channel)."""
    cells, channels = rows * cols, maps.shape[1] // (rows * cols)
    one = np.float32(1.0)
    for b in range(maps.shape[0]):
        for r in range(rows):
            for c in range(cols):
                row = out[b * cells + r * cols + c]
                for dr in range(max(0, 1 - r), min(3, rows + 1 - r)):
                    for dc in range(max(0, 1 - c), min(3, cols + 1 - c)):
                        source = ((r + dr - 1) * cols + c + dc - 1) * channels
                        add_scaled(row, (dr * 3 + dc) * channels, maps[b], source, one, channels)


# The gathered neighbourhoods of one matrix product: a 24x24 board's are 330 KB
# a position, and a whole batch's fell out of the caches.
NEIGHBOURHOOD_BYTES = 512 * 1024


class Scratch(threading.local):
    """Arrays a forward reuses from call to call, one set per thread. A
    search's batches are a few hundred kilobytes each; fresh arrays of that
    size come from the system as new pages, and touching them cost about a
    tenth of compiled self-play's time."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def rows(self, name: str, count: int, width: int, dtype=np.float32) -> np.ndarray:
        """``count`` rows of ``width`` (kept at the most rows asked so far)."""
        array = self.arrays.get(name)
        if array is None or array.shape[0] < count or array.shape[1] != width or array.dtype != dtype:
            array = self.arrays[name] = np.empty((max(count, 1), width), dtype=dtype)
        return array[:count]


class BoardCNN:
    """:class:`PlanesCNN`'s board part from its weights: raw observations'
    board entries (and the globals' per-channel shift) to the squeezed
    per-cell maps as (batch, out_channels, cells), channel-major."""

    def __init__(self, weights: dict, rows: int, cols: int) -> None:
        first, middle = weights["body.conv_in.weight"], weights["body.convs.1.weight"]
        squeeze = weights["body.convs.3.weight"][:, :, 0, 0]
        self.rows, self.cols = int(rows), int(cols)
        self.first_taps = reversed_taps(first)
        self.places = board_places(first.shape[1], self.rows, self.cols)
        self.first_bias = np.asarray(weights["body.conv_in.bias"], dtype=np.float32)
        # (tap, in) rows against out columns, taps row-major as neighbourhoods() lays them
        self.middle = np.ascontiguousarray(middle.transpose(2, 3, 1, 0).reshape(-1, middle.shape[0]))
        self.middle_bias = np.asarray(weights["body.convs.1.bias"], dtype=np.float32)
        self.squeeze = np.ascontiguousarray(squeeze.T, dtype=np.float32)
        self.squeeze_bias = np.asarray(weights["body.convs.3.bias"], dtype=np.float32)
        self.channels = first.shape[0]
        self.scratch = Scratch()

    def __call__(self, boards: np.ndarray, shift: np.ndarray | None = None) -> np.ndarray:
        """``boards`` (batch, planes * cells, then anything) raw; ``shift``
        (batch, channels) added to the first layer's bias (the globals' part)."""
        batch, cells = boards.shape[0], self.rows * self.cols
        boards = np.ascontiguousarray(boards, dtype=np.float32)
        shift = self.first_bias + (0.0 if shift is None else shift)
        shift = np.ascontiguousarray(np.broadcast_to(shift, (batch, self.channels)), dtype=np.float32)
        first = self.scratch.rows("first", batch, cells * self.channels)
        nonzero = self.scratch.rows("nonzero", 1, self.places.shape[0] + 1, np.int64)[0]
        first_layer(boards, self.first_taps, shift, self.places, self.rows, self.cols, nonzero, first)
        middle = self.scratch.rows("middle", batch * cells, self.channels)
        chunk = max(1, NEIGHBOURHOOD_BYTES // (cells * self.middle.shape[0] * 4))
        for start in range(0, batch, chunk):  # a few positions' neighbourhoods at a time, kept in cache
            stop = min(start + chunk, batch)
            around = self.scratch.rows("around", (stop - start) * cells, self.middle.shape[0])
            around.fill(0.0)
            neighbourhoods(first[start:stop], self.rows, self.cols, around)
            np.matmul(around, self.middle, out=middle[start * cells : stop * cells])
        middle += self.middle_bias
        squeezed = np.maximum(middle, 0, out=middle) @ self.squeeze
        squeezed += self.squeeze_bias
        maps = np.maximum(squeezed, 0, out=squeezed).reshape(batch, cells, -1)
        return np.ascontiguousarray(maps.transpose(0, 2, 1))
