"""Gem Mountain's scores and final rewards over a state row (``GemMountainState.gem_counts``,
``score_counts``, ``returns``), shared by the estimate and the rules kernels.

``counts`` is an int64 ``[seat, gem]`` array with at least ``num_players`` rows.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.gem_mountain.estimate import SCORE_DIFF_SCALE
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.tiles import NUM_GEMS

ALL_SEATS = np.int64(-1)  # gem_counts: every seat's secret (include_secret_of=None); int64, not a literal
GEM_VALUES = S.GEM_VALUE_TABLE


@njit
def gem_counts(state, game, secrets_of, counts):
    """gem_counts: gems per seat, plus the secret gem of seat ``secrets_of`` (ALL_SEATS: of every seat)."""
    for seat in range(game[S.G_NUM_PLAYERS]):
        for gem in range(NUM_GEMS):
            counts[seat, gem] = state[S.GEMS + seat * S.GEM_ROW + gem]
        secret = state[S.SECRET_TILES + seat]
        if (secrets_of == ALL_SEATS or secrets_of == seat) and 0 <= secret < NUM_GEMS:
            counts[seat, secret] += 1


@njit
def score_counts(counts, num_players, out):
    """score_counts: most of a gem scores +value per gem, least -value per gem (all tied: net 0)."""
    for seat in range(num_players):
        out[seat] = 0
    for gem in range(NUM_GEMS):
        most = counts[0, gem]
        least = most
        for seat in range(1, num_players):
            most = max(most, counts[seat, gem])
            least = min(least, counts[seat, gem])
        if most == least:
            continue
        value = GEM_VALUES[gem]
        for seat in range(num_players):
            count = counts[seat, gem]
            if count == most:
                out[seat] += value * count
            elif count == least:
                out[seat] -= value * count


@njit
def scores(state, game, secrets_of, out):
    """scores: score_counts of gem_counts (every secret counted with ALL_SEATS)."""
    counts = np.zeros((S.MOST_SEATS, NUM_GEMS), dtype=np.int64)
    gem_counts(state, game, secrets_of, counts)
    score_counts(counts, game[S.G_NUM_PLAYERS], out)


@njit
def final_scores(state, game, out):
    """The State's ``scores()`` (every secret counted), so a finished game's points need no reference."""
    scores(state, game, ALL_SEATS, out)


@njit
def rank_rewards(points, num_players, out):
    """rank_rewards: rank k of n is worth 1 - 2k/(n-1), tied seats share the average of their ranks' values."""
    for seat in range(num_players):
        ahead = 0
        tied = 0
        for other in range(num_players):
            if points[other] > points[seat]:
                ahead += 1
            elif points[other] == points[seat]:
                tied += 1
        total = 0.0
        for rank in range(ahead, ahead + tied):
            total += 1.0 - 2.0 * rank / (num_players - 1)
        out[seat] = total / tied


@njit
def score_differences(points, num_players, out):
    """The score_diff reward: (own - mean of the others) / SCORE_DIFF_SCALE."""
    total = 0.0
    for seat in range(num_players):
        total += points[seat]
    for seat in range(num_players):
        own = float(points[seat])
        out[seat] = (own - (total - own) / (num_players - 1)) / SCORE_DIFF_SCALE


@njit
def returns(state, game, out):
    """returns: rank rewards of the scores (every secret counted), or the score difference."""
    num_players = game[S.G_NUM_PLAYERS]
    points = np.zeros(num_players, dtype=np.int64)
    scores(state, game, ALL_SEATS, points)
    if game[S.G_RANK_REWARDS]:
        rank_rewards(points, num_players, out)
    else:
        score_differences(points, num_players, out)
