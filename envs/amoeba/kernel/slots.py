"""Where things live: the state row, the game row, and the tile tables.

The state row's offsets come from ``AmoebaState.fields``
(:func:`~meeplezoo.envs.core.compiled.layout.layout_of`, words as
``rows.py`` puts them); the game row holds one configuration, laid out from
:data:`GAME_SLOTS`, with the die's faces, the dice script and the pile
override as variable tails. Kernels read both through these module
constants, which numba folds into the machine code.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba import rows
from meeplezoo.envs.amoeba.rules import AmoebaState
from meeplezoo.envs.amoeba.tiles import DISTINCT_ROTS, NUM_TILES, ORIENTED, PINK8_LIST, PORT_DIR, PORT_UNIT
from meeplezoo.envs.core.compiled.layout import layout_of, offsets_of

STATE_LAYOUT = layout_of(AmoebaState)
_S = STATE_LAYOUT.constants()
RNG, HANDS, PILE, REMOVED, SUPPLY = _S["RNG"], _S["HANDS"], _S["PILE"], _S["REMOVED"], _S["SUPPLY"]
PLACEMENTS, COVERED, PLACEMENT_PIECES = _S["PLACEMENTS"], _S["COVERED"], _S["PLACEMENT_PIECES"]
UNIT_PLACEMENT, ON_BOARD = _S["UNIT_PLACEMENT"], _S["ON_BOARD"]
PIECE_PLACEMENT, PIECE_NUMBER, PIECE_AMOEBA = _S["PIECE_PLACEMENT"], _S["PIECE_NUMBER"], _S["PIECE_AMOEBA"]
AMOEBAS, NEXT_AMOEBA_ID, OFFERS = _S["AMOEBAS"], _S["NEXT_AMOEBA_ID"], _S["OFFERS"]
FIRST_TILE_PENDING, MOVER, PHASE, DIE = _S["FIRST_TILE_PENDING"], _S["MOVER"], _S["PHASE"], _S["DIE"]
PLACEMENTS_LEFT, PLACED, SELECTION = _S["PLACEMENTS_LEFT"], _S["PLACED"], _S["SELECTION"]
OFFER_INDEX, TURN, TERMINAL, TRUNCATED = _S["OFFER_INDEX"], _S["TURN"], _S["TERMINAL"], _S["TRUNCATED"]
DICE_USED, STATE_WIDTH = _S["DICE_USED"], _S["WIDTH"]
# per anchor: -1 once its block is not empty, else the ports that must be blue
# (low byte) and pink (next byte); the reference's frontier, kept up to date
ANCHOR_NEED = _S["ANCHOR_FREE"]

# capacities (row strides) from the layout's dimensions
MOST_SEATS = STATE_LAYOUT.dims["seats"].capacity
HAND_SLOTS = STATE_LAYOUT.dims["hand"].capacity
TILES = NUM_TILES
MOST_UNITS = STATE_LAYOUT.dims["units"].capacity
MOST_PIECES = STATE_LAYOUT.dims["pieces"].capacity
MOST_AMOEBAS = STATE_LAYOUT.dims["amoeba_ids"].capacity
AMOEBA_WORDS = rows.AMOEBA_WORDS
HEAD, TAIL, SIZE, OPEN, OWNER = rows.HEAD, rows.TAIL, rows.SIZE, rows.OPEN, rows.OWNER
SELECT, ANCHOR, CLAIM, OVER = 0, 1, 2, -1
FIRST_ANCHOR_ACTION = 12

# the game row: (name, size) in order; offsets are derived, never typed
GAME_SLOTS = (
    ("NUM_PLAYERS", 1),
    ("UNITS", 1),
    ("CENTER", 1),
    ("NUCLEI", 1),
    ("HAND_SIZE", 1),
    ("MIN_CLAIM", 1),
    ("MIN_SPLIT", 1),
    ("MIN_PART", 1),
    ("ALLOW_ROTATION", 1),
    ("REMOVE_STUCK", 1),
    ("MAX_TURNS", 1),
    ("RANK_REWARDS", 1),
    ("CLAIM_ACTION", 1),
    ("PILE_OVERRIDE_SIZE", 1),  # -1: the pile is shuffled
    ("PILE_OVERRIDE", NUM_TILES),
    ("NUM_FACES", 1),
    ("SCRIPT_SIZE", 1),
    ("FACES", 0),  # the faces, then the dice script: the row's tail
)


_G = offsets_of(GAME_SLOTS)
G_NUM_PLAYERS, G_UNITS, G_CENTER, G_NUCLEI = _G["NUM_PLAYERS"], _G["UNITS"], _G["CENTER"], _G["NUCLEI"]
G_HAND_SIZE, G_MIN_CLAIM, G_MIN_SPLIT, G_MIN_PART = (
    _G["HAND_SIZE"],
    _G["MIN_CLAIM"],
    _G["MIN_SPLIT"],
    _G["MIN_PART"],
)
G_ALLOW_ROTATION, G_REMOVE_STUCK, G_MAX_TURNS = _G["ALLOW_ROTATION"], _G["REMOVE_STUCK"], _G["MAX_TURNS"]
G_RANK_REWARDS, G_CLAIM_ACTION = _G["RANK_REWARDS"], _G["CLAIM_ACTION"]
G_PILE_OVERRIDE_SIZE, G_PILE_OVERRIDE = _G["PILE_OVERRIDE_SIZE"], _G["PILE_OVERRIDE"]
G_NUM_FACES, G_SCRIPT_SIZE, G_FACES = _G["NUM_FACES"], _G["SCRIPT_SIZE"], _G["FACES"]

# --- tile tables (constant arrays: numba folds them in) -----------------------------------
ORIENTED_COUNT = NUM_TILES * 4
PINK8 = np.array(PINK8_LIST, dtype=np.int64)
PIECE_COUNT = np.array([len(pieces) for pieces in ORIENTED], dtype=np.int64)
# PIECE_PORTS[o, i, j]: the j-th port of piece i of oriented tile o (-1 past its end)
PIECE_PORTS = np.full((ORIENTED_COUNT, 3, 3), -1, dtype=np.int64)
PORT_PIECE = np.zeros((ORIENTED_COUNT, 8), dtype=np.int64)  # piece number 1..3 of each port, 0 blue
for _o, _pieces in enumerate(ORIENTED):
    for _i, _piece in enumerate(_pieces):
        for _j, _port in enumerate(_piece):
            PIECE_PORTS[_o, _i, _j] = _port
            PORT_PIECE[_o, _port] = _i + 1
_PATTERNS: dict = {}
PATTERN = np.array([_PATTERNS.setdefault(p, len(_PATTERNS)) for p in ORIENTED], dtype=np.int64)
DISTINCT = np.zeros(ORIENTED_COUNT, dtype=np.bool_)  # a rotation giving a new pattern
for _t, _rots in enumerate(DISTINCT_ROTS):
    for _r in _rots:
        DISTINCT[_t * 4 + _r] = True
PORT_ROW = np.array([unit[0] for unit in PORT_UNIT], dtype=np.int64)
PORT_COLUMN = np.array([unit[1] for unit in PORT_UNIT], dtype=np.int64)
PORT_SIDE = np.array(PORT_DIR, dtype=np.int64)
# PORT_AT[(row in block * 2 + column in block) * 4 + side]: the port there, -1 inside the tile
PORT_AT = np.full(16, -1, dtype=np.int64)
for _p in range(8):
    PORT_AT[(PORT_UNIT[_p][0] * 2 + PORT_UNIT[_p][1]) * 4 + PORT_DIR[_p]] = _p
STEP_ROW = np.array([-1, 0, 1, 0], dtype=np.int64)
STEP_COLUMN = np.array([0, 1, 0, -1], dtype=np.int64)
# the unit and side each port of a block faces, as offsets from the block's anchor
FACE_ROW = np.array([PORT_UNIT[p][0] + (-1, 0, 1, 0)[PORT_DIR[p]] for p in range(8)], dtype=np.int64)
FACE_COLUMN = np.array([PORT_UNIT[p][1] + (0, 1, 0, -1)[PORT_DIR[p]] for p in range(8)], dtype=np.int64)
FACE_SIDE = np.array([(PORT_DIR[p] + 2) % 4 for p in range(8)], dtype=np.int64)
# PORTS_ON_SIDE[side]: the two ports of a block on that side (N, E, S, W)
PORTS_ON_SIDE = np.array([[p for p in range(8) if PORT_DIR[p] == side] for side in range(4)], dtype=np.int64)
