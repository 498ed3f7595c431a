"""A seat's observation in the row (``observe.py``'s ``Encoder``, float for float):
the static planes of the board, the thieves, the gold and the 47 scalars,
all in the viewer's frame with the gangs as me / next / prev. Every write
goes through ``entries.py``'s ``put``/``add``, so ``make_vec`` rewrites only
the entries a step changes (the observation is 43.5 KB, mostly zeros)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.entries import add, put
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.observe import (
    AP_ALLOWANCE,
    AP_LEFT,
    BANK_DAMAGE,
    BANK_OPEN,
    CARRIED,
    DELIVERED,
    DEPLOYED,
    FIRST_PLAYER,
    LYING,
    MY_TURN,
    MY_UNITS,
    NEXT_AMATEURS,
    NEXT_PRO,
    NUM_PLANES,
    OUT_AT_HOME,
    PHASE,
    PILE_SIZE,
    RANKS_LEFT,
    STORES,
    TURNS_OUT,
    TURNS_PLAYED,
)
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NUM_ORIGINS,
    NUM_SEATS,
)


@njit_borrowing
def relative_origin(origin, viewer):
    """A sack's origin as ``viewer`` sees it: me / next / prev, then store and bank."""
    return (origin - viewer) % NUM_SEATS if origin < NUM_SEATS else origin


@njit_borrowing
def write_board(game, viewer, out, entries, count):
    """Encoder._template: the board, bases, territories, rim and bank (their ones, listed per viewer)."""
    ones = S.G_STATIC_ONES + viewer * S.STATIC_CAPACITY
    for k in range(game[S.G_STATIC_COUNT + viewer]):
        count = put(out, entries, count, game[ones + k], 1.0)
    return count


@njit_borrowing
def write_gold(state, game, viewer, out, entries, count):
    """The stores and the lying sacks (a pile of 3 or more shows full)."""
    area = game[S.G_SIDE] * game[S.G_SIDE]
    offsets = S.G_OFFSET + viewer * S.MOST_CELLS
    for k in range(NUM_SEATS):
        cell = state[S.STORES + k]
        if cell >= 0:
            count = put(out, entries, count, STORES * area + game[offsets + cell], 1.0)
    for cell in range(game[S.G_NUM_CELLS]):
        pile = S.SACKS + cell * NUM_ORIGINS
        if not (state[pile] | state[pile + 1] | state[pile + 2] | state[pile + 3] | state[pile + 4]):
            continue  # most cells hold no gold
        for origin in range(NUM_ORIGINS):
            sacks = state[pile + origin]
            if sacks:
                plane = LYING + relative_origin(origin, viewer)
                value = sacks / 3.0 if sacks < 3 else 1.0
                count = put(out, entries, count, plane * area + game[offsets + cell], value)
    return count


@njit_borrowing
def write_units(state, game, viewer, out, entries, count):
    """Encoder._write_units: where each thief stands, what it carries, who is out."""
    area = game[S.G_SIDE] * game[S.G_SIDE]
    offsets = S.G_OFFSET + viewer * S.MOST_CELLS
    scalars = NUM_PLANES * area
    for rel in range(NUM_SEATS):
        seat = (viewer + rel) % NUM_SEATS
        for slot in range(GANG_SIZE):
            unit = GANG_SIZE * seat + slot
            kind = GANG_SIZE * rel + slot
            status = state[S.UNIT_STATUS + unit]
            if status == ACTIVE:
                at = game[offsets + state[S.UNIT_CELL + unit]]
                if rel == 0:
                    count = put(out, entries, count, (MY_UNITS + slot) * area + at, 1.0)
                elif slot == 0:
                    count = put(out, entries, count, (NEXT_PRO - 2 + 2 * rel) * area + at, 1.0)
                else:  # two amateurs may share their home cell
                    count = add(out, entries, count, (NEXT_AMATEURS - 2 + 2 * rel) * area + at, 0.5)
                carrying = state[S.UNIT_CARRYING + unit]
                if carrying >= 0:
                    plane = CARRIED + relative_origin(carrying, viewer)
                    count = put(out, entries, count, plane * area + at, 1.0)
                count = put(out, entries, count, scalars + DEPLOYED + kind, 1.0)
            elif status == INCAPACITATED:
                home = game[offsets + game[S.G_HOMES + seat]]
                count = add(out, entries, count, (OUT_AT_HOME + rel) * area + home, 1.0 / 3.0)
                turns = (state[S.UNIT_TURNS_TO_MISS + unit] + 1) / 2.0
                count = put(out, entries, count, scalars + TURNS_OUT + kind, turns)
                count = put(out, entries, count, scalars + DEPLOYED + kind, 1.0)
    return count


@njit_borrowing
def write_turn(state, game, viewer, out, entries, count):
    """Encoder._write_scalars, first part: the turn, AP, deliveries, phase and bank."""
    first = NUM_PLANES * game[S.G_SIDE] * game[S.G_SIDE]
    scale = float(game[S.G_AP_SCALE])
    over = state[S.WINNER] >= 0 or state[S.IS_TRUNCATED] != 0
    if state[S.ACTING_SEAT] == viewer and not over:
        count = put(out, entries, count, first + MY_TURN, 1.0)
        if state[S.PHASE] == MOVEMENT:
            count = put(out, entries, count, first + AP_LEFT, min(state[S.ACTION_POINTS] / scale, 1.0))
    allowance = min((game[S.G_BASE_AP] + state[S.DELIVERED + viewer]) / scale, 1.0)
    count = put(out, entries, count, first + AP_ALLOWANCE, allowance)
    for rel in range(NUM_SEATS):
        delivered = state[S.DELIVERED + (viewer + rel) % NUM_SEATS]
        count = put(out, entries, count, first + DELIVERED + rel, min(delivered / game[S.G_WIN_SACKS], 1.0))
    count = put(out, entries, count, first + PHASE + state[S.PHASE], 1.0)
    threshold = game[S.G_BANK_THRESHOLD]
    damage = state[S.BANK_DAMAGE + (viewer if game[S.G_PER_PLAYER_BANK] else 0)]
    count = put(out, entries, count, first + BANK_DAMAGE, min(damage / threshold, 1.0) if threshold else 1.0)
    return put(out, entries, count, first + BANK_OPEN, 1.0 if damage >= threshold else 0.0)


@njit_borrowing
def write_draws(state, game, viewer, out, entries, count):
    """Encoder._write_scalars, second part: the draw pile's ranks, the turns played, the first player."""
    first = NUM_PLANES * game[S.G_SIDE] * game[S.G_SIDE]
    if game[S.G_INDEPENDENT_DRAWS]:
        for k in range(first + RANKS_LEFT, first + PILE_SIZE + 1):
            count = put(out, entries, count, k, 1.0)
    else:
        pile = state[S.DRAW_COUNT]
        for k in range(pile):
            count = add(out, entries, count, first + RANKS_LEFT - 1 + state[S.DRAW_PILE + k] % 13 + 1, 0.25)
        count = put(out, entries, count, first + PILE_SIZE, pile / 52.0)
    count = put(out, entries, count, first + TURNS_PLAYED, min(state[S.TURNS] / game[S.G_MAX_TURNS], 1.0))
    seat = (state[S.FIRST_PLAYER] - viewer) % NUM_SEATS
    return put(out, entries, count, first + FIRST_PLAYER + seat, 1.0)


@njit_borrowing
def observe_fixed(game, seat, out, entries):
    """The board in ``seat``'s frame: the entries only the game and the seat
    decide, so ``make_vec`` keeps them while the same seat moves on."""
    return write_board(game, seat, out, entries, 0)


@njit_borrowing
def observe_changing(state, game, seat, out, entries, count):
    """The rest of the observation (gold, thieves, scalars), listed after
    the ``count`` entries already written; none shares an index with the board's."""
    count = write_gold(state, game, seat, out, entries, count)
    count = write_units(state, game, seat, out, entries, count)
    count = write_turn(state, game, seat, out, entries, count)
    return write_draws(state, game, seat, out, entries, count)


@njit_borrowing
def observe_entries(state, game, seat, out, entries):
    """Encoder.encode(state, seat) into an all-zero flat float32 ``out``,
    each write's index recorded in ``entries`` (see ``entries.py``)."""
    return observe_changing(state, game, seat, out, entries, observe_fixed(game, seat, out, entries))


@njit
def observe(state, game, seat, out):
    """Encoder.encode(state, seat) into the flat float32 ``out``."""
    out[:] = 0.0
    observe_entries(state, game, seat, out, np.empty(1, dtype=np.int32))  # entries not kept
