"""Gem Mountain's position estimate over a state row (``GemMountainState.evaluate``).

The whole state scores every holding; a seat's view is the exact expectation
over the deals of the other seats' secret start tiles from what it has not
seen, as :mod:`meeplezoo.envs.gem_mountain.estimate` computes it: each deal
is one sequence of classes (a gem, or NO_GEM for an action tile), drawn one
after another among the fitting tiles left, enumerated in the same order.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.gem_mountain.estimate import NO_GEM, SPREAD_AT_END, SPREAD_PER_CELL
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.scores import (
    ALL_SEATS,
    gem_counts,
    returns,
    score_counts,
    score_differences,
    scores,
)
from meeplezoo.envs.gem_mountain.rules import START_TILES
from meeplezoo.envs.gem_mountain.tiles import NUM_GEMS

CLASSES = NO_GEM + 1  # what a secret tile may be, as the estimate counts it
WHOLE_STATE = np.int64(-1)  # evaluate's viewer for None
ACTION_SECRET = START_TILES.index("action_secret")


@njit
def evaluate(state, game, viewer, out):
    """evaluate(viewer): returns once over or cut short, else the whole state (viewer -1) or a seat's view."""
    if state[S.OVER] or state[S.CUT_SHORT]:
        returns(state, game, out)
    elif viewer == WHOLE_STATE:
        whole_state(state, game, out)
    else:
        seat_view(state, game, viewer, out)


@njit
def spread(gem_tiles_left):
    """Points of play still to come: the blur of the soft rank."""
    return SPREAD_AT_END + SPREAD_PER_CELL * gem_tiles_left


@njit
def soft_rank_rewards(points, num_players, blur, out):
    """soft_rank_rewards: per seat, the mean over the others of tanh(lead / spread)."""
    for seat in range(num_players):
        total = 0.0
        for other in range(num_players):
            total += math.tanh(float(points[seat] - points[other]) / blur)
        out[seat] = total / (num_players - 1)


@njit
def whole_state(state, game, out):
    """estimate.whole_state: soft ranks of every holding, blurred by the gem tiles left (score_diff: returns)."""
    if not game[S.G_RANK_REWARDS]:
        returns(state, game, out)
        return
    num_players = game[S.G_NUM_PLAYERS]
    points = np.zeros(num_players, dtype=np.int64)
    scores(state, game, ALL_SEATS, points)
    soft_rank_rewards(points, num_players, spread(float(state[S.GEM_TILES_LEFT])), out)


@njit
def is_hidden(state, viewer, cell):
    """hidden_tiles: a face-down tile on the map that ``viewer`` has not peeked at."""
    return (
        state[S.CELLS + cell] >= 0
        and not state[S.FACE_UP + cell]
        and not (state[S.PEEKS + cell] >> viewer) & 1
    )


@njit
def fits_secret(game, design):
    """Whether a secret start tile of this game could be ``design`` (plain; an action tile with action_secret)."""
    return S.PLAIN_TABLE[design] and (game[S.G_START_TILES] != ACTION_SECRET or design >= NUM_GEMS)


@njit
def secret_seats(state, game, viewer, seats):
    """hidden_tiles: the other seats holding a secret start tile, in seat order (returns how many)."""
    count = 0
    for seat in range(game[S.G_NUM_PLAYERS]):
        if seat != viewer and state[S.SECRET_TILES + seat] >= 0:
            seats[count] = seat
            count += 1
    return count


@njit
def _count_tile(game, design, fitting, totals):
    """One tile of the hidden bag: its class if it fits a secret, the bag's size and gem tiles."""
    if fits_secret(game, design):
        fitting[min(design, NO_GEM)] += 1
    totals[0] += 1
    totals[1] += S.HAS_GEM_TABLE[design]


@njit
def hidden_summary(state, game, viewer, seats, count, fitting):
    """The viewer's hidden bag as the estimate reads it: fitting tiles per class into ``fitting``;
    returns (hidden cells, bag size, gem tiles in the bag, gem tiles it sees on the map)."""
    totals = np.zeros(2, dtype=np.int64)
    hidden = 0
    known = 0
    for cell in range(game[S.G_NUM_CELLS]):
        design = state[S.CELLS + cell]
        if is_hidden(state, viewer, cell):
            hidden += 1
            _count_tile(game, design, fitting, totals)
        elif design >= 0 and S.HAS_GEM_TABLE[design]:
            known += 1
    for k in range(S.PILE):
        if state[S.UNUSED + k] < 0:
            break
        _count_tile(game, state[S.UNUSED + k], fitting, totals)
    for j in range(count):
        _count_tile(game, state[S.SECRET_TILES + seats[j]], fitting, totals)
    return hidden, totals[0], totals[1], known


@njit
def deal_chance(fitting, code, draws, drawn):
    """secret_deals: the classes of deal number ``code`` (the first draw most significant) into ``drawn``
    and its chance, each draw uniform among the fitting tiles left (0: the deal cannot happen)."""
    left = fitting.copy()
    remaining = 0
    for c in range(CLASSES):
        remaining += left[c]
    chance = 1.0
    for j in range(draws):
        c = (code // CLASSES ** (draws - 1 - j)) % CLASSES
        if left[c] == 0:
            return 0.0
        chance = chance * left[c] / remaining
        drawn[j] = c
        left[c] -= 1
        remaining -= 1
    return chance


@njit
def deal_value(game, counts, seats, drawn, draws, blur_of, points, value):
    """The estimate of one deal: the known counts plus the drawn secret gems, soft-ranked with the
    spread of its expected gem tiles left (``blur_of``: the spread by gems drawn), or score_diff."""
    num_players = game[S.G_NUM_PLAYERS]
    dealt = counts.copy()
    gems_drawn = 0
    for j in range(draws):
        if drawn[j] < NUM_GEMS:
            dealt[seats[j], drawn[j]] += 1
            gems_drawn += 1
    score_counts(dealt, num_players, points)
    if game[S.G_RANK_REWARDS]:
        soft_ranks(points, num_players, blur_of[gems_drawn], value)
    else:
        score_differences(points, num_players, value)


@njit
def soft_ranks(points, num_players, blur, out):
    """estimate.soft_ranks of one deal: one tanh per pair, given to the first seat and taken from the second."""
    for seat in range(num_players):
        out[seat] = 0.0
    for first in range(num_players):
        for second in range(first + 1, num_players):
            pair = math.tanh(float(points[first] - points[second]) / blur)
            out[first] += pair
            out[second] -= pair
    for seat in range(num_players):
        out[seat] /= num_players - 1


@njit
def spreads(hidden, bag, gem_tiles, known, draws):
    """The spread per number of gems the secrets drew: the known gem tiles plus each hidden cell's
    share of the gem tiles the deal leaves in the bag."""
    out = np.empty(draws + 1, dtype=np.float64)
    for gems_drawn in range(draws + 1):
        left = float(known)
        if hidden:
            left += hidden * (gem_tiles - gems_drawn) / (bag - draws)
        out[gems_drawn] = spread(left)
    return out


@njit
def seat_view(state, game, viewer, out):
    """estimate.seat_view: the expected estimate over the deals of what ``viewer`` has not seen."""
    num_players = game[S.G_NUM_PLAYERS]
    seats = np.zeros(S.MOST_SEATS, dtype=np.int64)
    draws = secret_seats(state, game, viewer, seats)
    fitting = np.zeros(CLASSES, dtype=np.int64)
    hidden, bag, gem_tiles, known = hidden_summary(state, game, viewer, seats, draws, fitting)
    if hidden == 0 and draws == 0:
        whole_state(state, game, out)
        return
    counts = np.zeros((S.MOST_SEATS, NUM_GEMS), dtype=np.int64)
    gem_counts(state, game, viewer, counts)
    blur_of = spreads(hidden, bag, gem_tiles, known, draws)
    drawn = np.zeros(max(draws, 1), dtype=np.int64)
    points = np.zeros(num_players, dtype=np.int64)
    value = np.zeros(num_players, dtype=np.float64)
    for seat in range(num_players):
        out[seat] = 0.0
    for code in range(CLASSES**draws):
        chance = deal_chance(fitting, code, draws, drawn)
        if chance == 0.0:
            continue
        deal_value(game, counts, seats, drawn, draws, blur_of, points, value)
        for seat in range(num_players):
            out[seat] += chance * value[seat]
