"""Each seat's observation, compiled: the same bytes as ``observe.py``.

``observe(state, game, me, out)`` overwrites ``out`` (int8, ``N_PLANES``
brick-grid planes of ``CELLS`` then ``N_SCALARS``) with what seat ``me``
sees, in its frame: the turned board (frame 1) is cell ``LAST_CELL - b``
for brick bit ``b``. The seven static planes (tile shapes and colours) are
built once per observer and frame; the piece planes are written from the
row's bitboards, the prisoner counts and the scalars as the reference
encoder writes them.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES
from meeplezoo.envs.amethyst_amber.board import NEUTRAL, HexColour, board
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.pieces import has_bit
from meeplezoo.envs.amethyst_amber.kernel.rules import CHOOSE_DESTINATION, CONTINUE, MAIN, TURN_START
from meeplezoo.envs.amethyst_amber.observe import MY_PRISONERS, N_PLANES, N_SCALARS, THEIR_PRISONERS
from meeplezoo.envs.core.compiled.bits import lowest_bit
from meeplezoo.envs.core.compiled.jit import njit

MY_DEFENDERS, MY_ATTACKERS = 7, 9  # then theirs; after the attackers, the resources: neutral, mine, theirs
MY_WALLS, MOVED, SELECTED = 16, 18, 19
SCALARS_AT = N_PLANES * S.CELLS
OBSERVATION_SIZE = SCALARS_AT + N_SCALARS


def _static_cells() -> np.ndarray:
    """[frame, observer]: the cells of planes 0..6 (as ``ObservationTables``
    builds them) that hold 1; the same count for every frame and observer."""
    bd = board()
    colour = bd.hex_colour
    cells = [
        [bd.hex_brick[h] for h in range(NUM_HEXES)],
        [bd.tri_brick[t] for t in bd.black],
        [bd.tri_brick[t] for t in bd.yellow],
        [bd.hex_brick[h] for h in range(NUM_HEXES) if colour[h] == HexColour.RED],
        [bd.hex_brick[h] for h in range(NUM_HEXES) if colour[h] == HexColour.GREEN],
    ]
    out = []
    for frame in (0, 1):
        row = []
        for observer in (0, 1):
            planes = [
                *cells,
                [bd.hex_brick[h] for h in bd.blue[observer]],
                [bd.hex_brick[h] for h in bd.blue[1 - observer]],
            ]
            row.append(
                [
                    k * S.CELLS + (S.LAST_CELL - b if frame else b)
                    for k, bricks in enumerate(planes)
                    for b in bricks
                ]
            )
        out.append(row)
    return np.array(out, dtype=np.int64)


# (an element-wise copy of whole static planes costs more than writing their ones)
STATIC_ONES = _static_cells()


@njit
def observe(state, game, me, out):
    """Seat ``me``'s whole observation of the state row ``state`` into ``out``."""
    frame = 1 if me == 1 and game[S.G_RELATIVE_FRAME] else 0
    out[:] = 0
    ones = STATIC_ONES[frame, me]
    for k in range(ones.shape[0]):
        out[ones[k]] = 1
    _defender_planes(state, me, frame, out)
    _hex_planes(state, me, frame, out)
    _scalars(state, game, me, frame, out)


@njit
def _cell(frame, brick):
    return S.LAST_CELL - brick if frame else brick


@njit
def _paint(state, at, plane, frame, out):
    """Plane ``plane``: the set bits of the bitboard at ``at`` (lowest first)."""
    for k in range(S.WORDS):
        word = state[at + k]
        while word != 0:
            bit = lowest_bit(word)
            out[plane * S.CELLS + _cell(frame, 64 * k + bit)] = 1
            word ^= S.BIT[bit]


@njit
def _hex_planes(state, me, frame, out):
    """Planes 9-13: attackers (mine, theirs), neutral resources, resources (mine, theirs)."""
    opponent = 1 - me
    _paint(state, S.ATTACKER_BITS + me * S.WORDS, MY_ATTACKERS, frame, out)
    _paint(state, S.ATTACKER_BITS + opponent * S.WORDS, MY_ATTACKERS + 1, frame, out)
    _paint(state, S.RESOURCE_BITS + NEUTRAL * S.WORDS, MY_ATTACKERS + 2, frame, out)
    _paint(state, S.RESOURCE_BITS + me * S.WORDS, MY_ATTACKERS + 3, frame, out)
    _paint(state, S.RESOURCE_BITS + opponent * S.WORDS, MY_ATTACKERS + 4, frame, out)


@njit
def _defender_planes(state, me, frame, out):
    """Planes 7-8 (defenders), 16-17 (walls: defenders beside one of their
    colour), 18 (moved this turn) and 19 (the selection)."""
    for side in range(2):
        at = S.DEFENDER_BITS + (me if side == 0 else 1 - me) * S.WORDS
        for k in range(S.WORDS):
            word = state[at + k]
            while word != 0:
                bit = lowest_bit(word)
                word ^= S.BIT[bit]
                cell = _cell(frame, 64 * k + bit)
                out[(MY_DEFENDERS + side) * S.CELLS + cell] = 1
                t = S.BRICK_TRI[64 * k + bit]
                for j in range(3):
                    u = S.TRI_NEIGHBOURS[t, j]
                    if u >= 0 and has_bit(state, at, S.TRI_BRICK[u]):
                        out[(MY_WALLS + side) * S.CELLS + cell] = 1
    _paint(state, S.MOVED_DEFENDERS, MOVED, frame, out)
    selected = state[S.SELECTED]
    if selected >= 0:
        out[SELECTED * S.CELLS + _cell(frame, S.TRI_BRICK[selected])] = 1


@njit
def _prisoners(state, game, me, frame, out):
    """The prisoner counts under each resource; whether my resources, and theirs, have room."""
    room_mine = room_theirs = 0
    for k in range(S.MOST_RESOURCES):
        h = state[S.RESOURCE_HEXES + k]
        if h < 0:
            break
        owner = state[S.RESOURCE_AT + h]
        if owner == NEUTRAL:
            continue
        count = state[S.PRISONERS_UNDER + h]
        if count:
            plane = MY_PRISONERS if owner == me else THEIR_PRISONERS
            out[plane * S.CELLS + _cell(frame, S.HEX_BRICK[h])] = count
        if count < game[S.G_CAPACITY]:
            if owner == me:
                room_mine = 1
            else:
                room_theirs = 1
    return room_mine, room_theirs


@njit
def _held(state, game, seat):
    """Attackers neither on the board nor in reserve: held prisoner."""
    on_board = 0
    base = S.ATTACKER_HEXES + seat * S.MOST_ATTACKERS
    while on_board < S.MOST_ATTACKERS and state[base + on_board] >= 0:
        on_board += 1
    return game[S.G_ATTACKERS] - state[S.RESERVE + seat] - on_board


@njit
def _scalars(state, game, me, frame, out):
    opponent = 1 - me
    held_mine, held_theirs = _held(state, game, me), _held(state, game, opponent)
    if held_mine or held_theirs:
        room_mine, room_theirs = _prisoners(state, game, me, frame, out)
    else:
        room_mine = 1 if state[S.PLACED + me] else 0
        room_theirs = 1 if state[S.PLACED + opponent] else 0
    main = state[S.PHASE] == MAIN
    substep = state[S.SUBSTEP]
    done = state[S.TERMINAL] != 0 or state[S.TRUNCATED] != 0
    at = SCALARS_AT
    for k in range(2):  # mine, then theirs
        seat = me if k == 0 else opponent
        out[at + k] = state[S.RESERVE + seat]
        out[at + 2 + k] = state[S.UNPLACED + seat]
        out[at + 4 + k] = state[S.HAND + seat]
        out[at + 6 + k] = state[S.PLACED + seat]
    out[at + 8], out[at + 9] = held_mine, held_theirs
    out[at + 10], out[at + 11] = not main, main
    out[at + 12] = main and substep == TURN_START
    out[at + 13], out[at + 14] = substep == CHOOSE_DESTINATION, substep == CONTINUE
    out[at + 15], out[at + 16] = state[S.MOVES_THIS_TURN], me == 0
    out[at + 17] = state[S.MAIN_TURNS] * 100 // game[S.G_MAX_MAIN_TURNS]
    out[at + 18], out[at + 19] = room_mine, room_theirs
    out[at + 20] = not done and state[S.ACTING_SEAT] == me
