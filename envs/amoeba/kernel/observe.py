"""Each seat's observation over a state row: the same int8 bytes as
``observe.py``'s ``Observer`` (board planes, then the global block),
painted afresh from the row at every call, tile by visible tile."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.rules import hand_length, pile_length, scores
from meeplezoo.envs.amoeba.kernel.table import amoeba_at, count_placements, oriented
from meeplezoo.envs.amoeba.observe import NUM_PLANES, SEATS
from meeplezoo.envs.amoeba.tiles import NUM_TILES
from meeplezoo.envs.core.compiled.jit import njit

CAP = 127  # int8 ceiling for sizes and scores


@njit
def paint_port(state, out, units, player, players, placement_index, row, column, port, offer):
    """The port planes of one outer port of a visible tile: piece number,
    open, and its amoeba's size, completeness, owner (relative seat) and
    offer. (``row, column``: the tile's anchor, worked out once per tile.)"""
    number = S.PORT_PIECE[oriented(state, placement_index), port]
    if number == 0:
        return
    piece = state[S.PLACEMENT_PIECES + 3 * placement_index + number - 1]
    area = units * units
    unit = (row + S.PORT_ROW[port]) * units + column + S.PORT_COLUMN[port]
    cell = (S.PORT_SIDE[port] & 1) * area + unit
    facing_row, facing_column = row + S.FACE_ROW[port], column + S.FACE_COLUMN[port]
    is_open = facing_row < 0 or facing_row >= units or facing_column < 0 or facing_column >= units
    if not is_open:
        is_open = state[S.UNIT_PLACEMENT + facing_row * units + facing_column] < 0
    aid = state[S.PIECE_AMOEBA + 2 * piece]
    at = amoeba_at(aid, 0)
    owner = state[at + S.OWNER]
    out[4 * area + cell] = number
    out[6 * area + cell] = 1 if is_open else 0
    out[8 * area + cell] = min(state[at + S.SIZE], CAP)
    out[10 * area + cell] = 1 if state[at + S.OPEN] == 0 else 0
    if owner >= 0:
        out[12 * area + cell] = 1 + owner - player + (players if owner < player else 0)
    out[14 * area + cell] = 1 if aid == offer else 0


@njit
def paint_planes(state, game, player, out):
    """The board planes: every visible tile's units and its outer ports (a
    tile's blocks never overlap another's; a top tile hides the one below)."""
    units, players = game[S.G_UNITS], game[S.G_NUM_PLAYERS]
    area, width = units * units, units - 1
    offer = -1
    if state[S.PHASE] == S.CLAIM and state[S.OFFERS] >= 0:
        offer = state[S.OFFERS + state[S.OFFER_INDEX]]
    for k in range(count_placements(state)):
        anchor = state[S.PLACEMENTS + 4 * k]
        row, column = anchor // width, anchor % width
        top = row * units + column
        if state[S.UNIT_PLACEMENT + top] != k:
            continue
        level = 1 if state[S.PLACEMENTS + 4 * k + 3] == 2 else 0
        for unit, first_row, first_column in (
            (top, 1, 1),
            (top + 1, 1, 0),
            (top + units, 0, 1),
            (top + units + 1, 0, 0),
        ):
            out[unit], out[area + unit] = 1, level
            out[2 * area + unit], out[3 * area + unit] = first_row, first_column
        for port in range(8):
            paint_port(state, out, units, player, players, k, row, column, port, offer)


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
    score = np.zeros(players, dtype=np.int64)
    largest = np.zeros(players, dtype=np.int64)
    scores(state, players, score, largest)
    for k in range(players):
        seat = (player + k) % players
        out[at], out[at + 1] = 1, state[S.SUPPLY + seat]
        out[at + 2], out[at + 3] = min(score[seat], CAP), min(largest[seat], CAP)
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
    paint_planes(state, game, seat, out)
    at = paint_turn(state, seat, out, NUM_PLANES * units * units)
    paint_seats(state, game, seat, out, at)
