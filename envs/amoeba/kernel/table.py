"""The table's steps over a state row (``table.py``'s ``Table``): the pink
piece at a port slot, the frontier's requirements, a ground tile laid with
its amoebas joined, and a top tile's split worked out and committed.

What the reference keeps as indexes (``slot_piece``, the claimed and
complete amoebas) is read here from the row's placements and amoeba records;
the frontier's per-anchor requirements are a derived slot of the row, kept up
to date as ground tiles go down (reading them is what every mask and apply does).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.core.compiled.jit import njit


@njit(inline="always")
def count_placements(state):
    """How many tiles lie on the table."""
    for k in range(S.TILES):
        if state[S.PLACEMENTS + 4 * k + 1] < 0:
            return k
    return S.TILES


@njit(inline="always")
def count_pieces(state, placements):
    """How many pieces were made (those of the last placement end the list)."""
    if placements == 0:
        return 0
    most = -1
    for j in range(3):
        most = max(most, state[S.PLACEMENT_PIECES + 3 * (placements - 1) + j])
    return most + 1


@njit(inline="always")
def oriented(state, placement_index):
    return state[S.PLACEMENTS + 4 * placement_index + 1] * 4 + state[S.PLACEMENTS + 4 * placement_index + 2]


@njit(inline="always")
def port_slot(units, anchor, port):
    """The slot (unit * 4 + side) of a port of the block at ``anchor``."""
    width = units - 1
    row = anchor // width + S.PORT_ROW[port]
    column = anchor % width + S.PORT_COLUMN[port]
    return (row * units + column) * 4 + S.PORT_SIDE[port]


@njit(inline="always")
def face(units, slot):
    """The facing slot of the neighbouring unit (-1 off the board)."""
    unit, side = slot >> 2, slot & 3
    row = unit // units + S.STEP_ROW[side]
    column = unit % units + S.STEP_COLUMN[side]
    if row < 0 or row >= units or column < 0 or column >= units:
        return -1
    return (row * units + column) * 4 + (side + 2) % 4


@njit(inline="always")
def slot_piece(state, units, slot):
    """``slot_piece[slot]``: the visible pink piece at a port slot, -1 none."""
    unit = slot >> 2
    k = state[S.UNIT_PLACEMENT + unit]
    if k < 0:
        return -1
    anchor = state[S.PLACEMENTS + 4 * k]
    width = units - 1
    row_in, column_in = unit // units - anchor // width, unit % units - anchor % width
    port = S.PORT_AT[(row_in * 2 + column_in) * 4 + (slot & 3)]
    if port < 0:
        return -1
    number = S.PORT_PIECE[oriented(state, k), port]
    return -1 if number == 0 else state[S.PLACEMENT_PIECES + 3 * k + number - 1]


@njit(inline="always")
def piece_slot(state, units, piece, nth):
    """The ``nth`` port slot of a piece (-1 past its last)."""
    k = state[S.PIECE_PLACEMENT + piece]
    port = S.PIECE_PORTS[oriented(state, k), state[S.PIECE_NUMBER + piece] - 1, nth]
    return -1 if port < 0 else port_slot(units, state[S.PLACEMENTS + 4 * k], port)


@njit(inline="always")
def is_open(state, units, slot):
    """A port is open when it faces an empty unit or the edge."""
    facing = face(units, slot)
    return facing < 0 or state[S.UNIT_PLACEMENT + (facing >> 2)] < 0


@njit(inline="always")
def fits(oriented_tile, need):
    """The oriented tile fits a frontier block (one that touches the table)."""
    if need <= 0:
        return False
    pink8 = S.PINK8[oriented_tile]
    pink = need >> 8
    return (pink8 & need & 255) == 0 and (pink8 & pink) == pink


@njit
def fitting_anchors(state, units, oriented_tile, mask, first):
    """Mark (from action ``first``) every frontier block the oriented tile
    :func:`fits`; written branch-free over all blocks, so that it vectorises."""
    pink8 = S.PINK8[oriented_tile]
    blue8 = 255 & ~pink8
    for anchor in range((units - 1) * (units - 1)):
        need = state[S.ANCHOR_NEED + anchor]
        mask[first + anchor] = (need > 0) & (pink8 & need & 255 == 0) & (blue8 & (need >> 8) == 0)


@njit
def ground_fits(state, units, hand, choices, probe):
    """``_hand_fit``: which of the hand's ``choices`` (bits ``slot * 4 +
    rotation`` of the hand at ``hand``) fit some frontier block, as bits; the
    scan stops once all are found, or with ``probe`` at the first."""
    width = units - 1
    found = 0
    for anchor in range(width * width):
        need = state[S.ANCHOR_NEED + anchor]
        if need <= 0:
            continue
        for choice in range(4 * S.HAND_SLOTS):
            bit = np.int64(1) << choice
            if (
                choices & bit != 0
                and found & bit == 0
                and fits(state[hand + choice // 4] * 4 + choice % 4, need)
            ):
                found |= bit
        if found == choices or (probe and found != 0):
            break
    return found


@njit
def update_frontier(state, units, anchor, oriented_tile):
    """``_update_frontier``: the blocks overlapping the new tile are no longer
    free; a free block it touches must now match the ports that face it (the
    rest of a block's requirement is unchanged, so only those bits are added)."""
    width = units - 1
    row, column = anchor // width, anchor % width
    for other_row in range(max(0, row - 1), min(width, row + 2)):
        for other_column in range(max(0, column - 1), min(width, column + 2)):
            state[S.ANCHOR_NEED + other_row * width + other_column] = -1
    for port in range(8):
        facing_row, facing_column = row + S.FACE_ROW[port], column + S.FACE_COLUMN[port]
        colour = 8 if S.PORT_PIECE[oriented_tile, port] > 0 else 0  # pink bits sit a byte up
        for other_port in S.PORTS_ON_SIDE[S.FACE_SIDE[port]]:
            other_row = facing_row - S.PORT_ROW[other_port]
            other_column = facing_column - S.PORT_COLUMN[other_port]
            if 0 <= other_row < width and 0 <= other_column < width:
                other = S.ANCHOR_NEED + other_row * width + other_column
                if state[other] >= 0:
                    state[other] |= np.int64(1) << (other_port + colour)


@njit
def record_placement(state, units, placement_index, anchor, tile, rotation, level):
    """Append a placement; its units now show it."""
    at = S.PLACEMENTS + 4 * placement_index
    state[at], state[at + 1], state[at + 2], state[at + 3] = anchor, tile, rotation, level
    state[S.COVERED + placement_index] = 0
    top = (anchor // (units - 1)) * units + anchor % (units - 1)
    for unit in (top, top + 1, top + units, top + units + 1):
        state[S.UNIT_PLACEMENT + unit] = placement_index
    state[S.ON_BOARD + tile] = 1


@njit(inline="always")
def amoeba_at(aid, word):
    return S.AMOEBAS + aid * S.AMOEBA_WORDS + word


@njit
def union(state, keep, absorb, closed):
    """Merge two amoebas: the smaller one's pieces join the larger (members
    appended in order), open ports summed less the ``closed`` ones."""
    if state[amoeba_at(keep, S.SIZE)] < state[amoeba_at(absorb, S.SIZE)]:
        keep, absorb = absorb, keep
    piece = state[amoeba_at(absorb, S.HEAD)]
    while piece >= 0:
        state[S.PIECE_AMOEBA + 2 * piece] = keep
        piece = state[S.PIECE_AMOEBA + 2 * piece + 1]
    owner = state[amoeba_at(keep, S.OWNER)]
    if state[amoeba_at(absorb, S.OWNER)] >= 0 and owner < 0:
        owner = state[amoeba_at(absorb, S.OWNER)]
    state[S.PIECE_AMOEBA + 2 * state[amoeba_at(keep, S.TAIL)] + 1] = state[amoeba_at(absorb, S.HEAD)]
    state[amoeba_at(keep, S.TAIL)] = state[amoeba_at(absorb, S.TAIL)]
    state[amoeba_at(keep, S.SIZE)] += state[amoeba_at(absorb, S.SIZE)]
    state[amoeba_at(keep, S.OPEN)] += state[amoeba_at(absorb, S.OPEN)] - closed
    state[amoeba_at(keep, S.OWNER)] = owner
    for word in range(S.AMOEBA_WORDS):
        state[amoeba_at(absorb, word)] = -1


@njit
def join_contacts(state, units, oriented_tile, anchor, base):
    """Each port of the new tile (pieces from ``base``) that meets a tile
    closes: the two amoebas join, or one amoeba loses an open port."""
    for i in range(S.PIECE_COUNT[oriented_tile]):
        for j in range(3):
            port = S.PIECE_PORTS[oriented_tile, i, j]
            if port < 0:
                break
            facing = face(units, port_slot(units, anchor, port))
            if facing < 0 or state[S.UNIT_PLACEMENT + (facing >> 2)] < 0:
                continue
            met = state[S.PIECE_AMOEBA + 2 * slot_piece(state, units, facing)]
            mine = state[S.PIECE_AMOEBA + 2 * (base + i)]
            if mine != met:
                union(state, mine, met, 1)
            else:
                state[amoeba_at(met, S.OPEN)] -= 1


@njit
def put_ground(state, units, tile, rotation, anchor):
    """Lay a ground tile: each piece an amoeba of its own with its open
    ports, then each contact closes a port and joins two amoebas."""
    k = count_placements(state)
    base = count_pieces(state, k)
    record_placement(state, units, k, anchor, tile, rotation, 1)
    o = tile * 4 + rotation
    update_frontier(state, units, anchor, o)
    aid = state[S.NEXT_AMOEBA_ID]
    for i in range(S.PIECE_COUNT[o]):
        piece = base + i
        state[S.PIECE_PLACEMENT + piece], state[S.PIECE_NUMBER + piece] = k, i + 1
        state[S.PIECE_AMOEBA + 2 * piece], state[S.PIECE_AMOEBA + 2 * piece + 1] = aid + i, -1
        state[S.PLACEMENT_PIECES + 3 * k + i] = piece
        opened = 0
        for j in range(3):
            port = S.PIECE_PORTS[o, i, j]
            if port < 0:
                break
            if is_open(state, units, port_slot(units, anchor, port)):
                opened += 1
        at = amoeba_at(aid + i, 0)
        state[at + S.HEAD], state[at + S.TAIL], state[at + S.SIZE] = piece, piece, 1
        state[at + S.OPEN], state[at + S.OWNER] = opened, -1
    state[S.NEXT_AMOEBA_ID] = aid + S.PIECE_COUNT[o]
    join_contacts(state, units, o, anchor, base)
    state[S.FIRST_TILE_PENDING] = 0
