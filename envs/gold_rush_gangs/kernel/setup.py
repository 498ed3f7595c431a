"""The setup steps in the row: placing the stores and deploying the thieves
(``actions.py``'s store and deploy rules, ``advance_setup``)."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    DEPLOY_PHASE,
    GANG_SIZE,
    MOVEMENT,
    NUM_ORIGINS,
    NUM_SEATS,
    STORE,
    STORE_PHASE,
)


@njit_borrowing
def setup_slot(state, game):
    """setup_step()'s slot: -1 for a store step, else the thief deployed now."""
    step = state[S.SETUP_STEP] % game[S.G_STEPS_PER_SEAT]
    return step - 1 if game[S.G_CHOOSE_STORES] else step


@njit_borrowing
def distance(game, cell, other):
    """Hex distance of two cells from their axial coordinates."""
    dq = game[S.G_Q + cell] - game[S.G_Q + other]
    dr = game[S.G_R + cell] - game[S.G_R + other]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit_borrowing
def is_deployable(game, seat, cell):
    """The cell is in the seat's territory and outside its base."""
    if cell < 0:
        return False
    in_territory = game[S.G_TERRITORY_BITS + cell] >> seat & 1
    return in_territory != 0 and game[S.G_BASE_OWNER + cell] != seat


@njit_borrowing
def is_candidate(game, seat, slot, first, second, cell):
    """deploy_candidates: some legal triple holds the thieves placed and ``cell``."""
    spacing = game[S.G_SPACING]
    if slot == 0:
        return game[S.G_FIRST_CANDIDATES + cell] >> seat & 1 != 0
    if distance(game, first, cell) < spacing:
        return False
    if slot == 2:
        return distance(game, second, cell) >= spacing
    cells = S.G_DEPLOYABLE + seat * S.MOST_CELLS
    for k in range(game[S.G_DEPLOYABLE_COUNT + seat]):
        third = game[cells + k]
        if distance(game, first, third) >= spacing and distance(game, cell, third) >= spacing:
            return True
    return False


@njit_borrowing
def mark_deploys(state, game, seat, mask):
    """_deploy_legal: a free, gold-free cell from which the whole gang can still deploy."""
    slot = setup_slot(state, game)
    first, second = state[S.UNIT_CELL + GANG_SIZE * seat], state[S.UNIT_CELL + GANG_SIZE * seat + 1]
    if slot >= 1 and not is_deployable(game, seat, first):
        return
    if slot == 2 and (
        not is_deployable(game, seat, second) or distance(game, first, second) < game[S.G_SPACING]
    ):
        return
    cells = S.G_DEPLOYABLE + seat * S.MOST_CELLS
    for k in range(game[S.G_DEPLOYABLE_COUNT + seat]):
        cell = game[cells + k]
        if state[S.OCCUPANT + cell] >= 0 or not is_candidate(game, seat, slot, first, second, cell):
            continue
        pile = S.SACKS + cell * NUM_ORIGINS
        gold = 0
        for origin in range(NUM_ORIGINS):
            gold += state[pile + origin]
        if gold == 0:
            mask[game[S.G_BLOCK_DEPLOY] + game[S.G_TO_RELATIVE + seat * S.MOST_CELLS + cell]] = True


@njit_borrowing
def mark_setup(state, game, seat, mask):
    """The store or deploy actions of the setup step; False when none is legal."""
    if state[S.PHASE] == STORE_PHASE:
        for cell in range(game[S.G_NUM_CELLS]):
            if game[S.G_NEUTRAL_RIM + cell] and not is_store(state, cell):
                mask[game[S.G_BLOCK_STORE] + game[S.G_TO_RELATIVE + seat * S.MOST_CELLS + cell]] = True
    else:
        mark_deploys(state, game, seat, mask)
    return mask.any()


@njit_borrowing
def is_store(state, cell):
    """A store stands on ``cell``."""
    for k in range(NUM_SEATS):
        if state[S.STORES + k] == cell:
            return True
    return False


@njit_borrowing
def advance_setup(state, game):
    """advance_setup: the next setup step, seat by seat from the first player;
    True when setup is over (the caller starts the first movement turn)."""
    state[S.SETUP_STEP] += 1
    per_seat = game[S.G_STEPS_PER_SEAT]
    if state[S.SETUP_STEP] >= NUM_SEATS * per_seat:
        state[S.PHASE] = MOVEMENT
        state[S.ACTING_SEAT] = state[S.FIRST_PLAYER]
        return True
    state[S.ACTING_SEAT] = (state[S.FIRST_PLAYER] + state[S.SETUP_STEP] // per_seat) % NUM_SEATS
    state[S.PHASE] = STORE_PHASE if setup_slot(state, game) < 0 else DEPLOY_PHASE
    return False


@njit_borrowing
def play_setup(state, game, action):
    """_place_store or _deploy of a setup action (cell in the seat's frame); True when setup is over."""
    seat = state[S.ACTING_SEAT]
    if action < game[S.G_BLOCK_DEPLOY]:
        cell = game[S.G_TO_ABSOLUTE + seat * S.MOST_CELLS + action - game[S.G_BLOCK_STORE]]
        count = 0
        while count < NUM_SEATS - 1 and state[S.STORES + count] >= 0:
            count += 1
        state[S.STORES + count] = cell
        state[S.SACKS + cell * NUM_ORIGINS + STORE] += 1
    else:
        slot = setup_slot(state, game)
        cell = game[S.G_TO_ABSOLUTE + seat * S.MOST_CELLS + action - game[S.G_BLOCK_DEPLOY]]
        unit = GANG_SIZE * seat + slot
        state[S.UNIT_CELL + unit] = cell
        state[S.UNIT_STATUS + unit] = ACTIVE
        state[S.OCCUPANT + cell] = unit
        state[S.SACKS + cell * NUM_ORIGINS + seat] += S.DEPLOY_SACKS_TABLE[slot]
    return advance_setup(state, game)
