"""A seat's observation in the row (``observe.py``'s ``Encoder``, float for float):
the static planes of the board, the thieves, the gold and the 47 scalars,
all in the viewer's frame with the gangs as me / next / prev."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
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


@njit
def relative_origin(origin, viewer):
    """A sack's origin as ``viewer`` sees it: me / next / prev, then store and bank."""
    return (origin - viewer) % NUM_SEATS if origin < NUM_SEATS else origin


@njit
def write_board(game, viewer, out):
    """Encoder._template: the board, bases, territories, rim and bank (their ones, listed per viewer)."""
    ones = S.G_STATIC_ONES + viewer * S.STATIC_CAPACITY
    for k in range(game[S.G_STATIC_COUNT + viewer]):
        out[game[ones + k]] = 1.0


@njit
def write_gold(state, game, viewer, out):
    """The stores and the lying sacks (a pile of 3 or more shows full)."""
    area = game[S.G_SIDE] * game[S.G_SIDE]
    offsets = S.G_OFFSET + viewer * S.MOST_CELLS
    for k in range(NUM_SEATS):
        cell = state[S.STORES + k]
        if cell >= 0:
            out[STORES * area + game[offsets + cell]] = 1.0
    for cell in range(game[S.G_NUM_CELLS]):
        pile = S.SACKS + cell * NUM_ORIGINS
        if not (state[pile] | state[pile + 1] | state[pile + 2] | state[pile + 3] | state[pile + 4]):
            continue  # most cells hold no gold
        for origin in range(NUM_ORIGINS):
            count = state[pile + origin]
            if count:
                plane = LYING + relative_origin(origin, viewer)
                out[plane * area + game[offsets + cell]] = count / 3.0 if count < 3 else 1.0


@njit
def write_units(state, game, viewer, out):
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
                    out[(MY_UNITS + slot) * area + at] = 1.0
                elif slot == 0:
                    out[(NEXT_PRO - 2 + 2 * rel) * area + at] = 1.0
                else:  # two amateurs may share their home cell
                    out[(NEXT_AMATEURS - 2 + 2 * rel) * area + at] += 0.5
                carrying = state[S.UNIT_CARRYING + unit]
                if carrying >= 0:
                    out[(CARRIED + relative_origin(carrying, viewer)) * area + at] = 1.0
                out[scalars + DEPLOYED + kind] = 1.0
            elif status == INCAPACITATED:
                out[(OUT_AT_HOME + rel) * area + game[offsets + game[S.G_HOMES + seat]]] += 1.0 / 3.0
                out[scalars + TURNS_OUT + kind] = (state[S.UNIT_TURNS_TO_MISS + unit] + 1) / 2.0
                out[scalars + DEPLOYED + kind] = 1.0


@njit
def write_scalars(state, game, viewer, out):
    """Encoder._write_scalars: the turn, AP, deliveries, phase, bank, the draw pile's ranks."""
    first = NUM_PLANES * game[S.G_SIDE] * game[S.G_SIDE]
    scale = float(game[S.G_AP_SCALE])
    over = state[S.WINNER] >= 0 or state[S.IS_TRUNCATED] != 0
    if state[S.ACTING_SEAT] == viewer and not over:
        out[first + MY_TURN] = 1.0
        if state[S.PHASE] == MOVEMENT:
            out[first + AP_LEFT] = min(state[S.ACTION_POINTS] / scale, 1.0)
    out[first + AP_ALLOWANCE] = min((game[S.G_BASE_AP] + state[S.DELIVERED + viewer]) / scale, 1.0)
    for rel in range(NUM_SEATS):
        delivered = state[S.DELIVERED + (viewer + rel) % NUM_SEATS]
        out[first + DELIVERED + rel] = min(delivered / game[S.G_WIN_SACKS], 1.0)
    out[first + PHASE + state[S.PHASE]] = 1.0
    threshold = game[S.G_BANK_THRESHOLD]
    damage = state[S.BANK_DAMAGE + (viewer if game[S.G_PER_PLAYER_BANK] else 0)]
    out[first + BANK_DAMAGE] = min(damage / threshold, 1.0) if threshold else 1.0
    out[first + BANK_OPEN] = 1.0 if damage >= threshold else 0.0
    if game[S.G_INDEPENDENT_DRAWS]:
        for k in range(first + RANKS_LEFT, first + PILE_SIZE + 1):
            out[k] = 1.0
    else:
        count = state[S.DRAW_COUNT]
        for k in range(count):
            out[first + RANKS_LEFT - 1 + state[S.DRAW_PILE + k] % 13 + 1] += 0.25
        out[first + PILE_SIZE] = count / 52.0
    out[first + TURNS_PLAYED] = min(state[S.TURNS] / game[S.G_MAX_TURNS], 1.0)
    out[first + FIRST_PLAYER + (state[S.FIRST_PLAYER] - viewer) % NUM_SEATS] = 1.0


@njit
def observe(state, game, seat, out):
    """Encoder.encode(state, seat) into the flat float32 ``out``."""
    out[:] = 0.0
    write_board(game, seat, out)
    write_gold(state, game, seat, out)
    write_units(state, game, seat, out)
    write_scalars(state, game, seat, out)
