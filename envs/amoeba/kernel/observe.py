"""Each seat's observation over a state row: the same int8 bytes as
``observe.py``'s ``Observer`` (board planes, then the global block),
painted afresh from the row at every call, tile by visible tile.

The painting runs once per env step, so it is kept lean: a tile's ports are
walked piece by piece (only the pink ones, each piece's amoeba read once),
a zero already in ``out`` is never written again, and the open ports are
read from the occupied plane rather than from the row.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.rules import hand_length, pile_length, scores
from meeplezoo.envs.amoeba.kernel.table import amoeba_at, count_placements, oriented
from meeplezoo.envs.amoeba.observe import NUM_PLANES, SEATS
from meeplezoo.envs.amoeba.tiles import NUM_TILES
from meeplezoo.envs.core.compiled.jit import njit

CAP = 127  # int8 ceiling for sizes and scores
# the port planes, in planes of U x U (each a pair: vertical side, horizontal side)
PIECE_PLANE, OPEN_PLANE, SIZE_PLANE, COMPLETE_PLANE, OWNER_PLANE, OFFER_PLANE = 4, 6, 8, 10, 12, 14


@njit(inline="always")
def relative_seat(owner, player, players):
    """The owner planes' code: 0 no owner, else 1 + the owner's seat counted from ``player``."""
    if owner < 0:
        return 0
    return 1 + owner - player + (players if owner < player else 0)


@njit(inline="always")
def port_is_open(out, units, row, column, port):
    """A port of the block at (``row``, ``column``) faces an empty unit or the
    edge (read from the occupied plane, painted first: the row stays unread)."""
    facing_row, facing_column = row + S.FACE_ROW[port], column + S.FACE_COLUMN[port]
    if facing_row < 0 or facing_row >= units or facing_column < 0 or facing_column >= units:
        return True
    return out[facing_row * units + facing_column] == 0


@njit(inline="always")
def paint_piece(state, out, units, oriented_tile, number, row, column, amoeba_bytes):
    """The port planes of every port of one pink piece: its number, open,
    and its amoeba's ``amoeba_bytes`` (size, complete, owner, offer)."""
    area = units * units
    size, complete, owner, offered = amoeba_bytes
    for j in range(3):
        port = S.PIECE_PORTS[oriented_tile, number - 1, j]
        if port < 0:
            return
        unit = (row + S.PORT_ROW[port]) * units + column + S.PORT_COLUMN[port]
        cell = (S.PORT_SIDE[port] & 1) * area + unit
        out[PIECE_PLANE * area + cell] = number
        if port_is_open(out, units, row, column, port):
            out[OPEN_PLANE * area + cell] = 1
        out[SIZE_PLANE * area + cell] = size
        out[COMPLETE_PLANE * area + cell] = complete
        out[OWNER_PLANE * area + cell] = owner
        out[OFFER_PLANE * area + cell] = offered


@njit(inline="always")
def paint_units(state, out, units, placement_index, top):
    """A visible tile's four units: occupied, second storey, the tile's top row, its left column."""
    area = units * units
    for unit in (top, top + 1, top + units, top + units + 1):
        out[unit] = 1
    if state[S.PLACEMENTS + 4 * placement_index + 3] == 2:
        for unit in (top, top + 1, top + units, top + units + 1):
            out[area + unit] = 1
    out[2 * area + top], out[2 * area + top + 1] = 1, 1
    out[3 * area + top], out[3 * area + top + units] = 1, 1


@njit(inline="always")
def paint_ports(state, out, units, placement_index, row, column, player, players, offer):
    """A visible tile's pink pieces: each piece's amoeba read once, then its ports."""
    oriented_tile = oriented(state, placement_index)
    for i in range(S.PIECE_COUNT[oriented_tile]):
        aid = state[S.PIECE_AMOEBA + 2 * state[S.PLACEMENT_PIECES + 3 * placement_index + i]]
        at = amoeba_at(aid, 0)
        amoeba_bytes = (
            min(state[at + S.SIZE], CAP),
            1 if state[at + S.OPEN] == 0 else 0,
            relative_seat(state[at + S.OWNER], player, players),
            1 if aid == offer else 0,
        )
        paint_piece(state, out, units, oriented_tile, i + 1, row, column, amoeba_bytes)


@njit
def paint_planes(state, game, player, out):
    """The board planes: every visible (uncovered) tile's units, then its
    outer ports (whose open plane reads the occupied plane just painted)."""
    units, players = game[S.G_UNITS], game[S.G_NUM_PLAYERS]
    width = units - 1
    offer = -1
    if state[S.PHASE] == S.CLAIM and state[S.OFFERS] >= 0:
        offer = state[S.OFFERS + state[S.OFFER_INDEX]]
    placements = count_placements(state)
    for k in range(placements):
        if state[S.COVERED + k] == 0:
            anchor = state[S.PLACEMENTS + 4 * k]
            paint_units(state, out, units, k, (anchor // width) * units + anchor % width)
    for k in range(placements):
        if state[S.COVERED + k] == 0:
            anchor = state[S.PLACEMENTS + 4 * k]
            paint_ports(state, out, units, k, anchor // width, anchor % width, player, players, offer)


@njit
def paint_turn(state, player, out, at):
    """The hand (each tile's piece numbers at rotation 0), the selection
    (the mover's own, at the anchor step), the die and the phase; returns the next offset."""
    for slot in range(S.HAND_SLOTS):
        tile = state[S.HANDS + player * S.HAND_SLOTS + slot]
        if tile >= 0:
            out[at] = 1
            for port in range(8):
                out[at + 1 + port] = S.PORT_PIECE[tile * 4, port]
        at += 9
    if state[S.PHASE] == S.ANCHOR and state[S.MOVER] == player and state[S.SELECTION] >= 0:
        out[at + state[S.SELECTION] * 4 + state[S.SELECTION + 1]] = 1
    at += 12
    out[at] = state[S.DIE]
    out[at + 1] = max(state[S.PLACEMENTS_LEFT], 0)
    phase = state[S.PHASE]
    if 0 <= phase <= 2:
        out[at + 2 + phase] = 1
    out[at + 5] = state[S.FIRST_TILE_PENDING]
    return at + 6


@njit
def paint_seats(state, game, player, out, at):
    """Per seat from the player's own on: present, supply, score, largest
    amoeba and hand size; then the pile, the tiles unseen and the turn."""
    players = game[S.G_NUM_PLAYERS]
    totals = np.zeros((2, players), dtype=np.int64)  # score, largest
    scores(state, players, totals[0], totals[1])
    for k in range(players):
        seat = (player + k) % players
        out[at], out[at + 1] = 1, state[S.SUPPLY + seat]
        out[at + 2], out[at + 3] = min(totals[0, seat], CAP), min(totals[1, seat], CAP)
        out[at + 4] = hand_length(state, seat)
        at += 5
    at += 5 * (SEATS - players)
    out[at] = pile_length(state)
    at += 1
    for tile in range(NUM_TILES):
        out[at + tile] = 1 - state[S.ON_BOARD + tile]
    for slot in range(S.HAND_SLOTS):
        tile = state[S.HANDS + player * S.HAND_SLOTS + slot]
        if tile >= 0:
            out[at + tile] = 0
    for k in range(S.TILES):
        tile = state[S.REMOVED + player * S.TILES + k]
        if tile < 0:
            break
        out[at + tile] = 0
    at += NUM_TILES
    out[at] = min(CAP, (100 * state[S.TURN]) // max(1, game[S.G_MAX_TURNS]))


@njit
def observe(state, game, seat, out):
    """``observation(seat)``: the planes, then the global block."""
    out[:] = 0
    units = game[S.G_UNITS]
    at = paint_turn(state, seat, out, NUM_PLANES * units * units)
    paint_seats(state, game, seat, out, at)  # its scan of the amoebas warms them for the planes
    paint_planes(state, game, seat, out)


@njit
def observe_rest(state, game, seat, out):
    """:func:`observe`'s global block alone, the planes left as they are."""
    start = NUM_PLANES * game[S.G_UNITS] * game[S.G_UNITS]
    for k in range(start, out.shape[0]):
        out[k] = 0
    paint_seats(state, game, seat, out, paint_turn(state, seat, out, start))


@njit
def planes_stamp(state, game):
    """Changes whenever the planes may: a tile laid changes the turn or the
    tiles laid in it (every amoeba's change comes with one), and a claim or
    a pass the offer index (the offer plane; the claim phase's only moves)."""
    claim = state[S.OFFER_INDEX] + 1 if state[S.PHASE] == S.CLAIM else 0
    stamp = (state[S.TURN] * (S.TILES + 1) + state[S.PLACED]) * (S.MOST_PIECES + 1) + claim
    return stamp & 0x7FFFFFFF  # one step moves it by far less than the wrap
