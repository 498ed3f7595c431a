"""Gold Rush Gangs' estimate and determinization over a state row
(``GoldRushGangsState.evaluate`` and ``determinize``).

The estimate reads only the table, as the reference does: every viewer
gets the same numbers. The determinization redeals the one hidden thing,
the draw pile's order, from the searcher's generator words (a ``uint64[6]``
array advanced in place as the NumPy generator would be): the pile sorted,
then shuffled (``canonical_shuffle``), and the copy's generator seeded from
one more draw. The pile is sorted first, so its true order never shows.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.core.rng import SEED_BOUND
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.kernel.rules import is_done, rank_rewards, returns
from meeplezoo.envs.gold_rush_gangs.kernel.setup import distance
from meeplezoo.envs.gold_rush_gangs.pieces import ACTIVE, GANG_SIZE, NUM_ORIGINS, NUM_SEATS, NUM_UNITS

# int64 constants (a plain int would compile the generator's draw once more for its literal)
ZERO, DRAW_SEED_BOUND = np.int64(0), np.int64(SEED_BOUND)


@njit_borrowing
def nearest_gold(state, game, seat, cell, span):
    """The distance from ``cell`` to the nearest gold the seat may steal (``span`` if none nearer)."""
    near = span
    for other in range(game[S.G_NUM_CELLS]):
        pile = S.SACKS + other * NUM_ORIGINS
        total = 0
        for origin in range(NUM_ORIGINS):
            total += state[pile + origin]
        if total > state[pile + seat]:
            away = distance(game, cell, other)
            if away < near:
                near = float(away)
    return near


@njit_borrowing
def progress(state, game, out):
    """_progress: deliveries, part of a sack per carrier (more the nearer home) and
    a little per empty-handed thief near gold it may steal."""
    span = 2.0 * game[S.G_RADIUS]
    for seat in range(NUM_SEATS):
        out[seat] = float(state[S.DELIVERED + seat])
    for unit in range(NUM_UNITS):
        if state[S.UNIT_STATUS + unit] != ACTIVE:
            continue
        seat = unit // GANG_SIZE
        cell = state[S.UNIT_CELL + unit]
        if state[S.UNIT_CARRYING + unit] >= 0:
            home = distance(game, cell, game[S.G_HOMES + seat])
            out[seat] += 0.25 + 0.65 * (1.0 - home / span)
        else:
            out[seat] += 0.15 * (1.0 - nearest_gold(state, game, seat, cell, span) / span)


@njit
def evaluate(state, game, viewer, out):
    """evaluate(viewer): progress to win chances by a softmax, blended toward the
    truncation result as the turn limit nears (``returns()`` once over)."""
    if is_done(state):
        returns(state, game, out)
        return
    scores = np.zeros(NUM_SEATS)
    progress(state, game, scores)
    steepness = 6.0 / game[S.G_WIN_SACKS]
    top = max(scores[0], max(scores[1], scores[2]))
    total = 0.0
    for seat in range(NUM_SEATS):
        scores[seat] = math.exp(steepness * (scores[seat] - top))
        total += scores[seat]
    at_limit = np.zeros(NUM_SEATS)
    if game[S.G_RANK_AT_TRUNCATION]:
        rank_rewards(state, at_limit)
    late = min(1.0, state[S.TURNS] / game[S.G_MAX_TURNS])
    for seat in range(NUM_SEATS):
        win = scores[seat] / total
        value = 1.5 * win - 0.5 if game[S.G_ZERO_SUM] else win
        out[seat] = (1.0 - late) * value + late * at_limit[seat]


@njit_borrowing
def determinize(state, game, player, searcher, out):
    """determinize(player, rng): the draw pile redealt sorted-then-shuffled from
    ``searcher``, the copy's generator seeded from one more draw."""
    for k in range(S.STATE_WIDTH):
        out[k] = state[k]
    count = state[S.DRAW_COUNT]
    pile = out[S.DRAW_PILE : S.DRAW_PILE + count]
    for k in range(1, count):  # insertion sort: a small pile, and far quicker to compile than np.sort
        card = pile[k]
        j = k - 1
        while j >= 0 and pile[j] > card:
            pile[j + 1] = pile[j]
            j -= 1
        pile[j + 1] = card
    pcg64.shuffle(searcher, pile, count)
    pcg64.seed(
        out[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64), pcg64.bounded(searcher, ZERO, DRAW_SEED_BOUND)
    )
