"""Where things live: the state row, the game row and the rules' small tables.

The state row's offsets come from ``GoldRushGangsState.fields``
(:func:`~meeplezoo.envs.core.compiled.layout.layout_of`); the game row holds
one configuration (its numbers, the board's tables in every seat's frame and
the action blocks), laid out from :data:`GAME_SLOTS` the same way. Kernels
read both through these module constants, which numba folds into the
machine code.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.layout import layout_of, offsets_of
from meeplezoo.envs.gold_rush_gangs.pieces import (
    DEPLOY_SACKS,
    ENEMY_UNITS,
    NUM_ORIGINS,
    NUM_SEATS,
    PICKUP_ORDER,
    SLOT_CARDS,
)
from meeplezoo.envs.gold_rush_gangs.rules import MOST_CARDS, PILE_WORDS, GoldRushGangsState

STATE_LAYOUT = layout_of(GoldRushGangsState)
_S = STATE_LAYOUT.constants()
RNG, DECK, STATE_WIDTH = _S["RNG"], _S["DECK"], _S["WIDTH"]
DRAW_COUNT, DRAW_PILE = DECK, DECK + 1  # the draw pile: its length, then its cards (top last)
DISCARD_COUNT, DISCARD = DECK + PILE_WORDS, DECK + PILE_WORDS + 1
DECK_WORDS = 2 * PILE_WORDS
UNIT_CELL, UNIT_STATUS = _S["UNIT_CELL"], _S["UNIT_STATUS"]
UNIT_TURNS_TO_MISS, UNIT_CARRYING = _S["UNIT_TURNS_TO_MISS"], _S["UNIT_CARRYING"]
OCCUPANT, SACKS, DELIVERED, BANK_DAMAGE = _S["OCCUPANT"], _S["SACKS"], _S["DELIVERED"], _S["BANK_DAMAGE"]
STORES, TURNS, ACTION_POINTS, WINNER = _S["STORES"], _S["TURNS"], _S["ACTION_POINTS"], _S["WINNER"]
IS_TRUNCATED, LAST_COMBAT, FIRST_DRAW = _S["IS_TRUNCATED"], _S["LAST_COMBAT"], _S["FIRST_DRAW"]
FIRST_PLAYER, PHASE, SETUP_STEP, ACTING_SEAT = (
    _S["FIRST_PLAYER"],
    _S["PHASE"],
    _S["SETUP_STEP_INDEX"],
    _S["ACTING_SEAT"],
)

MOST_CELLS = STATE_LAYOUT.dims["cells"].capacity
MOST_FIGHTS, FIGHT_WORDS = STATE_LAYOUT.slots["last_combat"].shape
MOST_DRAW_ROUNDS, ROUND_WORDS = STATE_LAYOUT.slots["first_draw"].shape
# a fight's words: attacker, defender, attacker_won, the attacker's cards, the defender's
FIGHT_WON, FIGHT_ATTACK, FIGHT_DEFENCE = 2, 3, 3 + MOST_CARDS
NUM_DIRECTIONS = 6
# the template's ones: every cell on the board, in one base or none, in up to three
# territories, on the rim or not, and the bank
STATIC_CAPACITY = 6 * MOST_CELLS

# the game row: (name, size) in order; offsets are derived, never typed
GAME_SLOTS = (
    ("NUM_CELLS", 1),
    ("RADIUS", 1),
    ("SIDE", 1),  # the observation's planes are SIDE x SIDE
    ("BANK", 1),
    ("HOMES", NUM_SEATS),
    ("BASE_AP", 1),
    ("WIN_SACKS", 1),
    ("BANK_SACKS", 1),
    ("BANK_THRESHOLD", 1),
    ("PER_PLAYER_BANK", 1),
    ("INDEPENDENT_DRAWS", 1),
    ("DELIVERY_BONUS_NOW", 1),
    ("ZERO_SUM", 1),
    ("RANK_AT_TRUNCATION", 1),
    ("MAX_TURNS", 1),
    ("CHOOSE_STORES", 1),
    ("STEPS_PER_SEAT", 1),
    ("SPACING", 1),
    ("AP_SCALE", 1),  # the observation's AP unit
    ("FIXED_STORES", NUM_SEATS),
    ("Q", MOST_CELLS),  # axial coordinates: a distance is computed, not stored
    ("R", MOST_CELLS),
    ("BASE_OWNER", MOST_CELLS),  # seat whose base holds the cell, -1 for none
    ("TERRITORY_BITS", MOST_CELLS),  # bit per seat whose territory holds the cell
    ("NEUTRAL_RIM", MOST_CELLS),  # 1: a store-eligible rim cell
    ("AROUND_BANK", MOST_CELLS),  # 1: a thief there may hit the bank
    ("FIRST_CANDIDATES", MOST_CELLS),  # bit per seat: a gang's first thief may go there
    ("DEPLOYABLE_COUNT", NUM_SEATS),
    ("DEPLOYABLE", NUM_SEATS * MOST_CELLS),  # per seat: its deployment cells
    ("NEIGHBORS", MOST_CELLS * NUM_DIRECTIONS),  # by absolute direction, -1 off the board
    ("TO_RELATIVE", NUM_SEATS * MOST_CELLS),  # per seat's frame
    ("TO_ABSOLUTE", NUM_SEATS * MOST_CELLS),
    ("DIRECTION_TO_ABSOLUTE", NUM_SEATS * NUM_DIRECTIONS),
    ("OFFSET", NUM_SEATS * MOST_CELLS),  # per viewer: a cell's place in an observation plane
    ("STATIC_COUNT", NUM_SEATS),  # per viewer: the ones of the static planes (Encoder's template)
    ("STATIC_ONES", NUM_SEATS * STATIC_CAPACITY),  # ... and where they lie
    # the first action of each block (actions.ActionLayout)
    ("BLOCK_STORE", 1),
    ("BLOCK_DEPLOY", 1),
    ("BLOCK_MOVE", 1),
    ("BLOCK_PICKUP", 1),
    ("BLOCK_BREAK", 1),
    ("BLOCK_END", 1),
    ("NUM_ACTIONS", 1),
)


_G = offsets_of(GAME_SLOTS)
G_NUM_CELLS, G_RADIUS, G_SIDE, G_BANK, G_HOMES = (
    _G["NUM_CELLS"],
    _G["RADIUS"],
    _G["SIDE"],
    _G["BANK"],
    _G["HOMES"],
)
G_BASE_AP, G_WIN_SACKS, G_BANK_SACKS, G_BANK_THRESHOLD = (
    _G["BASE_AP"],
    _G["WIN_SACKS"],
    _G["BANK_SACKS"],
    _G["BANK_THRESHOLD"],
)
G_PER_PLAYER_BANK, G_INDEPENDENT_DRAWS = _G["PER_PLAYER_BANK"], _G["INDEPENDENT_DRAWS"]
G_DELIVERY_BONUS_NOW, G_ZERO_SUM, G_RANK_AT_TRUNCATION = (
    _G["DELIVERY_BONUS_NOW"],
    _G["ZERO_SUM"],
    _G["RANK_AT_TRUNCATION"],
)
G_MAX_TURNS, G_CHOOSE_STORES, G_STEPS_PER_SEAT = _G["MAX_TURNS"], _G["CHOOSE_STORES"], _G["STEPS_PER_SEAT"]
G_SPACING, G_AP_SCALE, G_FIXED_STORES, G_Q, G_R = (
    _G["SPACING"],
    _G["AP_SCALE"],
    _G["FIXED_STORES"],
    _G["Q"],
    _G["R"],
)
G_BASE_OWNER, G_TERRITORY_BITS, G_NEUTRAL_RIM = _G["BASE_OWNER"], _G["TERRITORY_BITS"], _G["NEUTRAL_RIM"]
G_AROUND_BANK, G_FIRST_CANDIDATES = _G["AROUND_BANK"], _G["FIRST_CANDIDATES"]
G_DEPLOYABLE_COUNT, G_DEPLOYABLE, G_NEIGHBORS = _G["DEPLOYABLE_COUNT"], _G["DEPLOYABLE"], _G["NEIGHBORS"]
G_TO_RELATIVE, G_TO_ABSOLUTE = _G["TO_RELATIVE"], _G["TO_ABSOLUTE"]
G_DIRECTION_TO_ABSOLUTE, G_OFFSET = _G["DIRECTION_TO_ABSOLUTE"], _G["OFFSET"]
G_STATIC_COUNT, G_STATIC_ONES = _G["STATIC_COUNT"], _G["STATIC_ONES"]
G_BLOCK_STORE, G_BLOCK_DEPLOY, G_BLOCK_MOVE = _G["BLOCK_STORE"], _G["BLOCK_DEPLOY"], _G["BLOCK_MOVE"]
G_BLOCK_PICKUP, G_BLOCK_BREAK, G_BLOCK_END = _G["BLOCK_PICKUP"], _G["BLOCK_BREAK"], _G["BLOCK_END"]
G_NUM_ACTIONS, GAME_WIDTH = _G["NUM_ACTIONS"], _G["WIDTH"]

# --- the rules' tables (constant arrays: numba folds them in) ----------------------------
SLOT_CARDS_TABLE = np.array(SLOT_CARDS, dtype=np.int64)
DEPLOY_SACKS_TABLE = np.array(DEPLOY_SACKS, dtype=np.int64)
ENEMY_TABLE = np.array(ENEMY_UNITS, dtype=np.int64)  # [seat]: enemy units, the next gang's first
PICKUP_TABLE = np.array(PICKUP_ORDER, dtype=np.int64)  # [seat]: origins in the order taken
NUM_ORIGIN_WORDS = NUM_ORIGINS
