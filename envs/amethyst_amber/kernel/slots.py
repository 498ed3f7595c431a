"""Where things live: the state row, the game row, and the board's tables.

The state row's offsets come from ``AmethystAmberState.fields``
(:func:`~meeplezoo.envs.core.compiled.layout.layout_of`); a bitboard field
is ``BITBOARD_WORDS`` words of 64 brick-grid bits each. The game row holds
one configuration, laid out from :data:`GAME_SLOTS`. The board's tables
(neighbours, gates, colours, the frame turn of actions and observation
cells) are module constants that numba folds into the machine code.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import NUM_DIRECTIONS, NUM_HEXES, NUM_TRIANGLES
from meeplezoo.envs.amethyst_amber.board import board
from meeplezoo.envs.amethyst_amber.rules import BITBOARD_WORDS, AmethystAmberState
from meeplezoo.envs.core.compiled.layout import layout_of

STATE_LAYOUT = layout_of(AmethystAmberState)
_S = STATE_LAYOUT.constants()
RNG, PHASE, ACTING_SEAT, SUBSTEP, SELECTED = (
    _S["RNG"],
    _S["PHASE"],
    _S["ACTING_SEAT"],
    _S["SUBSTEP"],
    _S["SELECTED"],
)
MOVED_DEFENDERS, MOVES_THIS_TURN, DEFENDER_BITS = (
    _S["MOVED_DEFENDERS"],
    _S["MOVES_THIS_TURN"],
    _S["DEFENDER_BITS"],
)
ATTACKER_AT, ATTACKER_HEXES, RESOURCE_AT = _S["ATTACKER_AT"], _S["ATTACKER_HEXES"], _S["RESOURCE_AT"]
PRISONERS_UNDER, RESOURCE_HEXES, ATTACKER_BITS = (
    _S["PRISONERS_UNDER"],
    _S["RESOURCE_HEXES"],
    _S["ATTACKER_BITS"],
)
RESOURCE_BITS, RESERVE, UNPLACED, HAND, PLACED = (
    _S["RESOURCE_BITS"],
    _S["RESERVE"],
    _S["UNPLACED"],
    _S["HAND"],
    _S["PLACED"],
)
MAIN_TURNS, WINNER, TERMINAL, TRUNCATED, STATE_WIDTH = (
    _S["MAIN_TURNS"],
    _S["WINNER"],
    _S["TERMINAL"],
    _S["TRUNCATED"],
    _S["WIDTH"],
)
WORDS = BITBOARD_WORDS
MOST_ATTACKERS = STATE_LAYOUT.dims["attackers"].capacity  # row stride of ATTACKER_HEXES
MOST_RESOURCES = STATE_LAYOUT.dims["resources"].capacity

# the game row: (name, size) in order; offsets are derived, never typed
GAME_SLOTS = (
    ("MAX_MAIN_TURNS", 1),
    ("WIN_RESOURCES", 1),
    ("DEFENDERS", 1),  # defenders_per_player
    ("ATTACKERS", 1),  # attackers_per_player
    ("DEFENDER_RANGE", 1),
    ("MAX_MOVES", 1),  # max_defenders_per_turn
    ("GROUP_LIMIT", 1),
    ("GROUP_BOTH", 1),  # group_limit_scope "all"
    ("CAPACITY", 1),  # resource_capacity
    ("GREEN_OWN_HALF", 1),
    ("BY_RESOURCES", 1),  # truncation_result "resources"
    ("MAIN_FIRST", 1),
    ("RELATIVE_FRAME", 1),
)
_G, _at = {}, 0
for _name, _size in GAME_SLOTS:
    _G[_name], _at = _at, _at + _size
GAME_WIDTH = _at
G_MAX_MAIN_TURNS, G_WIN_RESOURCES, G_DEFENDERS = _G["MAX_MAIN_TURNS"], _G["WIN_RESOURCES"], _G["DEFENDERS"]
G_ATTACKERS, G_DEFENDER_RANGE, G_MAX_MOVES = _G["ATTACKERS"], _G["DEFENDER_RANGE"], _G["MAX_MOVES"]
G_GROUP_LIMIT, G_GROUP_BOTH, G_CAPACITY = _G["GROUP_LIMIT"], _G["GROUP_BOTH"], _G["CAPACITY"]
G_GREEN_OWN_HALF, G_BY_RESOURCES, G_MAIN_FIRST = _G["GREEN_OWN_HALF"], _G["BY_RESOURCES"], _G["MAIN_FIRST"]
G_RELATIVE_FRAME = _G["RELATIVE_FRAME"]

# --- the board's tables ------------------------------------------------------------------
_BOARD = board()
_GEO = _BOARD.geo
CELLS = _GEO.width * _GEO.width  # brick-grid cells: one observation plane
LAST_CELL = CELLS - 1
# BIT[k]: bit k of an int64 word (bit 63 is the sign bit)
BIT = np.left_shift(np.int64(1), np.arange(64, dtype=np.int64))
TRI_BRICK = np.array(_BOARD.tri_brick, dtype=np.int64)  # triangle -> brick bit
BRICK_TRI = np.full(64 * WORDS, -1, dtype=np.int64)  # brick bit -> triangle (-1: none)
BRICK_TRI[TRI_BRICK] = np.arange(len(TRI_BRICK))
# BIT_BY_MOD67[2**k % 67] = k for k < 63: the powers of two differ modulo 67
BIT_BY_MOD67 = np.zeros(67, dtype=np.int64)
BIT_BY_MOD67[[pow(2, k, 67) for k in range(63)]] = np.arange(63)
HEX_BRICK = np.array(_BOARD.hex_brick, dtype=np.int64)  # hex -> brick bit
TRI_NEIGHBOURS = np.array([list(n) + [-1] * (3 - len(n)) for n in _GEO.tri_neighbors], dtype=np.int64)
IS_BLACK = np.array(_BOARD.is_black, dtype=np.bool_)
# STEP_TO[h, d]: the hex one step from h in direction d (-1: off the board);
# GATE[h, d]: the two triangles an enemy wall must hold to close that step
STEP_TO = np.full((NUM_HEXES, NUM_DIRECTIONS), -1, dtype=np.int64)
GATE = np.full((NUM_HEXES, NUM_DIRECTIONS, 2), -1, dtype=np.int64)
for _h in range(NUM_HEXES):
    for _d, _n, _gate in _BOARD.steps[_h]:
        STEP_TO[_h, _d] = _n
        GATE[_h, _d] = _GEO.bits_to_tris(_gate)  # always two: the Board's gates never leave the board
RED = np.array(_BOARD.red, dtype=np.int64)  # where the neutral resources start, in order
BLUE = np.array(_BOARD.blue, dtype=np.int64)  # [seat]: the hexes its attackers enter on
GREEN_HALF = np.array(_BOARD.green_half, dtype=np.int64)  # [seat]: its half of the greens
GREEN = np.array(_BOARD.green, dtype=np.int64)
NEAREST = np.array(_BOARD.nearest_order, dtype=np.int64)  # [captor, capture hex]: greens, nearest first
HEX_DISTANCE = np.array(_GEO.hexes.distance, dtype=np.int64)
ROT_ACTION = np.array(_BOARD.rot_action, dtype=np.int64)  # an action in the other frame


# --- triangle sets: the defender rules' bitboards -------------------------------------------
# A set of triangles is two int64 words of TRI_WORD_BITS bits (triangle t is bit t % 60 of
# word t // 60): the sign bit stays clear, and a neighbour is one table lookup.
TRI_WORD_BITS = 60
if NUM_TRIANGLES > 2 * TRI_WORD_BITS:
    raise RuntimeError("amethyst_amber kernel: the triangles do not fit two words of a triangle set")


def _tri_set(triangles) -> np.ndarray:
    """The two words of a triangle set holding ``triangles``."""
    words = np.zeros(2, dtype=np.int64)
    for t in triangles:
        words[t // TRI_WORD_BITS] |= np.int64(1) << np.int64(t % TRI_WORD_BITS)
    return words


TRI_SINGLE = np.array([_tri_set([t]) for t in range(NUM_TRIANGLES)])  # [t]: the set {t}
TRI_NEIGHBOUR_SET = np.array([_tri_set(u for u in TRI_NEIGHBOURS[t] if u >= 0) for t in range(NUM_TRIANGLES)])
BLACK_SET = _tri_set(np.flatnonzero(IS_BLACK))
if not (
    len(_GEO.bits_to_tris(sum(1 << b for b in _BOARD.tri_brick))) == NUM_TRIANGLES and CELLS <= 64 * WORDS
):
    raise RuntimeError("amethyst_amber kernel: the brick grid does not fit the row's bitboards")
