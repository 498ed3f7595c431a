"""Each seat's observation, compiled: the same bytes as ``observe.encode``.

``observe(state, game, me, out)`` reads the state row and the game row
(:mod:`.slots`) and overwrites ``out`` (int8, ``PLANES * M + GLOBAL``) with
what seat ``me`` sees: the cell planes (plane k, cell i at ``k * M + i``),
then the globals (:mod:`.observe_globals`). The vector is cleared once and
only the non-zero entries are written; nothing is allocated but a small
scratch row (``observe_with`` takes the caller's, ``observe_all`` shares one
between the seats). The offsets are the reference encoder's own constants,
imported, never retyped.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.gem_mountain.decisions import ARROWS, SECTIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.observe_globals import SCRATCH, write_globals
from meeplezoo.envs.gem_mountain.observe import (
    CONTENT_SLOTS,
    P_ARROWS,
    P_AVAIL,
    P_KNOWN,
    P_PEEK,
    P_PRESENT,
    P_SECTIONS,
    P_SHARDS,
    P_TUNNEL,
    P_UP,
    PLANES,
)
from meeplezoo.envs.gem_mountain.tiles import UNKNOWN

ARROW_PLANES = (P_AVAIL - P_ARROWS) // ARROWS  # per arrow: distance, top layer, second layer
NOT_A_LAYER = -2  # a layer index no cell has (an arrow that is not on the board)


@njit
def observe(state, game, me, out):
    """Seat ``me``'s whole observation of the state row ``state`` into ``out``."""
    observe_with(state, game, me, out, np.empty(SCRATCH, dtype=np.int64))


@njit
def observe_all(state, game, out2d):
    """Every seat's observation: seat ``q``'s view into row ``q`` of ``out2d``."""
    scratch = np.empty(SCRATCH, dtype=np.int64)
    for me in range(game[S.G_NUM_PLAYERS]):
        observe_with(state, game, me, out2d[me], scratch)


@njit_borrowing
def observe_with(state, game, me, out, scratch):
    """``observe`` with the caller's scratch row (SCRATCH int64 words, kept between calls)."""
    out[:] = 0
    m = game[S.G_NUM_CELLS]
    _cell_planes(state, game, me, out, m)
    if game[S.G_DARK_TUNNELS]:
        _peek_planes(state, game, me, out, m)
    _arrow_planes(state, game, me, out, m)
    write_globals(state, game, me, out[PLANES * m :], scratch)


# ------------------------------------------------------------------ planes 0..98
@njit_borrowing
def _known_tile(state, cell, num_cells, face_up, out):
    """Planes P_PRESENT..P_PEEK-1 of ``cell`` holding a tile the seat knows (face up or peeked at)."""
    out[P_PRESENT * num_cells + cell] = 1
    out[P_UP * num_cells + cell] = 1 if face_up else 0
    out[P_KNOWN * num_cells + cell] = 1
    d, rotation = state[S.CELLS + cell], state[S.ROTATIONS + cell]
    for s in range(SECTIONS):
        out[(P_SECTIONS + CONTENT_SLOTS * s + S.SECTION_CONTENT_TABLE[d, rotation, s]) * num_cells + cell] = 1


@njit_borrowing
def _unknown_tile(cell, num_cells, out):
    """Planes P_PRESENT..P_PEEK-1 of ``cell`` holding a face-down tile seat ``me`` has not seen."""
    out[P_PRESENT * num_cells + cell] = 1
    for s in range(SECTIONS):
        out[(P_SECTIONS + CONTENT_SLOTS * s + UNKNOWN) * num_cells + cell] = 1


@njit_borrowing
def knows(state, game, me, cell):
    """Whether seat ``me`` knows the tile at ``cell``: face up, or face down and peeked at by it."""
    if not game[S.G_DARK_TUNNELS] or state[S.FACE_UP + cell]:
        return True
    return ((state[S.PEEKS + cell] >> me) & 1) == 1


@njit_borrowing
def _cell_planes(state, game, me, out, num_cells):
    """Planes P_PRESENT..P_PEEK-1: present, face up, known and the four section one-hots per cell."""
    dark = game[S.G_DARK_TUNNELS]
    for i in range(num_cells):
        if state[S.CELLS + i] < 0:
            continue
        face_up = not dark or state[S.FACE_UP + i] != 0
        if face_up or (state[S.PEEKS + i] >> me) & 1:
            _known_tile(state, i, num_cells, face_up, out)
        else:
            _unknown_tile(i, num_cells, out)


@njit_borrowing
def _peek_planes(state, game, me, out, num_cells):
    """Planes P_PEEK..P_ARROWS-1 (Dark Tunnels): which seats, counted from ``me``, peeked at each cell."""
    n = game[S.G_NUM_PLAYERS]
    for i in range(num_cells):
        peeks = state[S.PEEKS + i]
        if peeks == 0:
            continue
        for q in range(n):
            if (peeks >> q) & 1:
                out[(P_PEEK + (q - me) % n) * num_cells + i] = 1


# ------------------------------------------------------------------ planes 104..112
@njit_borrowing
def top_and_second(state, game, position):
    """The top layer and the one under it seen from arrow ``position`` (-1 where none)."""
    top = second = -1
    at = S.LAYER_COUNTS + position * S.MOST_LAYERS
    for k in range(game[S.G_DEPTH + position]):
        if state[at + k] != 0:
            if top < 0:
                top = k
            else:
                second = k
                break
    return top, second


@njit_borrowing
def _arrow_planes(state, game, me, out, num_cells):
    """Planes P_ARROWS..P_SHARDS: per arrow distance, top and second layer; grabbable, Tunnel, shards."""
    p0, p1 = state[S.ARROWS_AT], state[S.ARROWS_AT + 1]
    if p0 < 0:  # no arrow yet (the start player picks the corner): all zero
        return
    top0, second0 = top_and_second(state, game, p0)
    top1 = second1 = NOT_A_LAYER
    if p1 >= 0:
        top1, second1 = top_and_second(state, game, p1)
    for i in range(num_cells):
        if state[S.CELLS + i] < 0:
            continue
        grabbable = _arrow_cell(game, out, num_cells, i, 0, p0, top0, second0)
        if p1 >= 0:
            grabbable |= _arrow_cell(game, out, num_cells, i, 1, p1, top1, second1)
        if grabbable and knows(state, game, me, i):
            out[P_SHARDS * num_cells + i] = np.int8(_shards(state, game, i, p0, top0, p1, top1))


@njit_borrowing
def _arrow_cell(game, out, num_cells, cell, arrow, position, top, second):
    """Arrow ``arrow``'s three planes at occupied ``cell``, with the grabbable and Tunnel
    planes; whether the cell lies in its top layer."""
    k = game[S.G_DISTANCES + position * S.MOST_CELLS + cell]
    plane = P_ARROWS + ARROW_PLANES * arrow
    out[plane * num_cells + cell] = np.int8(k)
    if k == second:
        out[(plane + 2) * num_cells + cell] = 1
        out[P_TUNNEL * num_cells + cell] = 1
    if k == top:
        out[(plane + 1) * num_cells + cell] = 1
        out[P_AVAIL * num_cells + cell] = 1
        return True
    return False


@njit_borrowing
def _shards(state, game, cell, p0, top0, p1, top1):
    """Shards a grab of the known grabbable tile at ``cell`` yields (``grab_options``; Prism: all)."""
    d = state[S.CELLS + cell]
    if not game[S.G_SPLIT_TILES] or S.PLAIN_TABLE[d]:
        return 1
    if state[S.PRISM_ACTIVE]:
        return S.SHARD_COUNT[d]
    pointed = _pointed_bits(game, cell, p0, top0) | _pointed_bits(game, cell, p1, top1)
    rotation = state[S.ROTATIONS + cell]
    seen = 0  # bit c: content c lies under a pointed section
    for s in range(SECTIONS):
        if (pointed >> s) & 1:
            seen |= 1 << S.SECTION_CONTENT_TABLE[d, rotation, s]
    count = 0
    while seen:
        seen &= seen - 1
        count += 1
    return count


@njit_borrowing
def _pointed_bits(game, cell, position, top):
    """Bit s set when arrow ``position`` points at section s of ``cell`` (in its top layer)."""
    if position < 0 or game[S.G_DISTANCES + position * S.MOST_CELLS + cell] != top:
        return 0
    bits = 0
    for k in range(S.POINTED_COUNT[position]):
        bits |= 1 << S.POINTED_TABLE[position, k]
    return bits
