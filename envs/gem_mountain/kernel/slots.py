"""Where things live: the state row, the game row, and the design tables.

The state row's offsets come from ``GemMountainState.fields``
(:func:`~meeplezoo.envs.core.compiled.layout.layout_of`); the game row holds
one configuration (sizes, modules, the pool, the overrides, the map's
geometry and the action blocks), laid out from :data:`GAME_SLOTS` the same
way. Kernels read both through these module constants, which numba folds
into the machine code.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.layout import layout_of, offsets_of
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.decisions import ARROWS, POSITIONS, SECTIONS
from meeplezoo.envs.gem_mountain.geometry import POINTED
from meeplezoo.envs.gem_mountain.rules import START_TILES, GemMountainState

STATE_LAYOUT = layout_of(GemMountainState)
_S = STATE_LAYOUT.constants()
PLAYER, TURN, PHASE, WINDOW = _S["PLAYER"], _S["TURN"], _S["PHASE"], _S["WINDOW"]
RESOLVING, SUB_STEP, CHOSEN_ARROW = _S["RESOLVING"], _S["SUB_STEP"], _S["CHOSEN_ARROW"]
GRABS_OWED, GRAB_KIND, LANTERN_PEEKS_LEFT = _S["GRABS_OWED"], _S["GRAB_KIND"], _S["LANTERN_PEEKS_LEFT"]
TARGET, SECTION_CHOICES = _S["TARGET"], _S["SECTION_CHOICES"]
USED_BEFORE, USED_AFTER, ANCHORED = _S["USED_BEFORE"], _S["USED_AFTER"], _S["ANCHORED"]
PRISM_USED, PRISM_ACTIVE, USES_THIS_WINDOW = _S["PRISM_USED"], _S["PRISM_ACTIVE"], _S["USES_THIS_WINDOW"]
OVER, CUT_SHORT = _S["OVER"], _S["CUT_SHORT"]
ARROWS_AT, SECTION_CONTENTS, TAKEN_THIS_WINDOW = _S["ARROWS"], _S["SECTION_CONTENTS"], _S["TAKEN_THIS_WINDOW"]
GEMS, ACTION_TILES_AT, SECRET_TILES, SEEN = _S["GEMS"], _S["ACTION_TILES"], _S["SECRET_TILES"], _S["SEEN"]
RNG, CELLS, ROTATIONS, FACE_UP, PEEKS = _S["RNG"], _S["CELLS"], _S["ROTATIONS"], _S["FACE_UP"], _S["PEEKS"]
UNUSED, GEM_TILES_LEFT, FACE_DOWN_LEFT = _S["UNUSED"], _S["GEM_TILES_LEFT"], _S["FACE_DOWN_LEFT"]
LAYER_COUNTS, STATE_WIDTH = _S["LAYER_COUNTS"], _S["WIDTH"]

# capacities (row strides) from the layout's dimensions
MOST_CELLS = STATE_LAYOUT.dims["cells"].capacity
MOST_SEATS = STATE_LAYOUT.dims["seats"].capacity
MOST_LAYERS = STATE_LAYOUT.dims["layers"].capacity
PILE = STATE_LAYOUT.dims["pile"].capacity  # the unused pile's capacity
GEM_ROW, ACTION_ROW = tiles.NUM_GEMS, tiles.NUM_ACTION_TYPES  # strides of GEMS and ACTION_TILES_AT
MOST_POOL = -(-MOST_CELLS // PILE) * PILE  # whole copies of the largest pool until the map is covered
MOST_IN_A_LAYER = 12  # a layer crosses the map: at most max(rows, cols) cells

# the game row: (name, size) in order; offsets are derived, never typed
GAME_SLOTS = (
    ("NUM_PLAYERS", 1),
    ("ROWS", 1),
    ("COLS", 1),
    ("NUM_CELLS", 1),
    ("DARK_TUNNELS", 1),
    ("TWO_ARROWS", 1),
    ("ACTION_LIMIT", 1),  # index into ACTION_LIMITS
    ("START_TILES", 1),  # index into START_TILES
    ("SECRET_START_TILES", 1),
    ("CHOOSES_ARROW", 1),
    ("MAX_TURNS", 1),
    ("RANK_REWARDS", 1),  # 1: rank rewards, 0: score difference
    ("SPLIT_TILES", 1),  # the map may hold split tiles (the observer counts shards)
    ("MODULE_FLAGS", len(tiles.MODULES)),
    ("POOL_SIZE", 1),
    ("POOL", MOST_POOL),  # game.pool as built
    ("BASE_POOL_SIZE", 1),
    ("BASE_POOL", MOST_POOL),  # where a spare start tile is shuffled from
    ("POOL_COUNTS", tiles.NUM_CONTENTS),
    ("FIXED_LAYOUT", 1),
    ("LAYOUT", MOST_CELLS),  # design per cell, -1 for none
    ("FIXED_ROTATIONS", 1),
    ("ROTATION_OVERRIDE", MOST_CELLS),
    ("FIXED_ARROWS", 1),  # how many arrows are fixed (0: none)
    ("ARROW_OVERRIDE", ARROWS),
    ("FIXED_HOLDINGS", 1),
    ("HOLDING_GEMS", MOST_SEATS * GEM_ROW),
    ("HOLDING_ACTIONS", MOST_SEATS * ACTION_ROW),
    ("HOLDING_SECRETS", MOST_SEATS),
    ("DISTANCES", POSITIONS * MOST_CELLS),  # [position][cell]: the layer of the cell
    ("DEPTH", POSITIONS),  # layers seen from each position
    ("LAYER_SIZES", POSITIONS * MOST_LAYERS),  # [position][layer]: cells in that layer
    ("LAYER_CELLS", POSITIONS * MOST_LAYERS * MOST_IN_A_LAYER),  # ... and which, in cell order
    # the first action of each block (decisions.ActionBlocks)
    ("BLOCK_SECTION", 1),
    ("BLOCK_USE", 1),
    ("BLOCK_ARROW", 1),
    ("BLOCK_POSITION", 1),
    ("BLOCK_CLOCKWISE", 1),
    ("BLOCK_OPPONENT", 1),
    ("BLOCK_GEM", 1),
    ("BLOCK_DONE", 1),
    ("BLOCK_PASS", 1),
    ("NUM_ACTIONS", 1),
)


_G = offsets_of(GAME_SLOTS)
G_NUM_PLAYERS, G_ROWS, G_COLS, G_NUM_CELLS = _G["NUM_PLAYERS"], _G["ROWS"], _G["COLS"], _G["NUM_CELLS"]
G_DARK_TUNNELS, G_TWO_ARROWS, G_ACTION_LIMIT = _G["DARK_TUNNELS"], _G["TWO_ARROWS"], _G["ACTION_LIMIT"]
G_START_TILES, G_SECRET_START_TILES = _G["START_TILES"], _G["SECRET_START_TILES"]
G_CHOOSES_ARROW, G_MAX_TURNS, G_RANK_REWARDS = _G["CHOOSES_ARROW"], _G["MAX_TURNS"], _G["RANK_REWARDS"]
G_SPLIT_TILES, G_MODULE_FLAGS = _G["SPLIT_TILES"], _G["MODULE_FLAGS"]
G_POOL_SIZE, G_POOL, G_BASE_POOL_SIZE, G_BASE_POOL = (
    _G["POOL_SIZE"],
    _G["POOL"],
    _G["BASE_POOL_SIZE"],
    _G["BASE_POOL"],
)
G_POOL_COUNTS, G_FIXED_LAYOUT, G_LAYOUT = _G["POOL_COUNTS"], _G["FIXED_LAYOUT"], _G["LAYOUT"]
G_FIXED_ROTATIONS, G_ROTATION_OVERRIDE = _G["FIXED_ROTATIONS"], _G["ROTATION_OVERRIDE"]
G_FIXED_ARROWS, G_ARROW_OVERRIDE = _G["FIXED_ARROWS"], _G["ARROW_OVERRIDE"]
G_FIXED_HOLDINGS, G_HOLDING_GEMS = _G["FIXED_HOLDINGS"], _G["HOLDING_GEMS"]
G_HOLDING_ACTIONS, G_HOLDING_SECRETS = _G["HOLDING_ACTIONS"], _G["HOLDING_SECRETS"]
G_DISTANCES, G_DEPTH, G_LAYER_SIZES, G_LAYER_CELLS = (
    _G["DISTANCES"],
    _G["DEPTH"],
    _G["LAYER_SIZES"],
    _G["LAYER_CELLS"],
)
G_BLOCK_SECTION, G_BLOCK_USE, G_BLOCK_ARROW = _G["BLOCK_SECTION"], _G["BLOCK_USE"], _G["BLOCK_ARROW"]
G_BLOCK_POSITION, G_BLOCK_CLOCKWISE = _G["BLOCK_POSITION"], _G["BLOCK_CLOCKWISE"]
G_BLOCK_OPPONENT, G_BLOCK_GEM, G_BLOCK_DONE = _G["BLOCK_OPPONENT"], _G["BLOCK_GEM"], _G["BLOCK_DONE"]
G_BLOCK_PASS, G_NUM_ACTIONS, GAME_WIDTH = _G["BLOCK_PASS"], _G["NUM_ACTIONS"], _G["WIDTH"]

# --- design tables (constant arrays: numba folds them in) ---------------------------------
# SECTION_CONTENT_TABLE[d, k, s]: content at section s of design d turned to rotation k
SECTION_CONTENT_TABLE = np.array(tiles.SECTION_CONTENT, dtype=np.int64)
SHARD_COUNT = np.array([len(s) for s in tiles.SHARDS], dtype=np.int64)
SHARD_TABLE = np.array([list(s) + [-1] * (SECTIONS - len(s)) for s in tiles.SHARDS], dtype=np.int64)
PLAIN_TABLE = np.array(tiles.PLAIN, dtype=np.bool_)
HAS_GEM_TABLE = np.array(tiles.HAS_GEM, dtype=np.bool_)
GEM_VALUE_TABLE = np.array(tiles.GEM_VALUES, dtype=np.int64)
POINTED_COUNT = np.array([len(p) for p in POINTED], dtype=np.int64)
POINTED_TABLE = np.array([list(p) + [-1] * (2 - len(p)) for p in POINTED], dtype=np.int64)
START_TILES_ACTION = START_TILES.index("action")  # the first START_TILES kind that deals action tiles
