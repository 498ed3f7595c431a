"""Rank-based, zero-sum rewards shared by the multi-player games."""

from __future__ import annotations

import numpy as np


def rank_rewards(scores, higher_is_better: bool = True) -> np.ndarray:
    """Reward per seat from final scores: rank k of n is worth
    1 - 2(k-1)/(n-1); tied seats share the average of their ranks' values.

    Scores may be tuples (compared lexicographically) for tie-breaks.
    The result always sums to zero.
    """
    keys = [tuple(np.atleast_1d(s).tolist()) for s in scores]
    n = len(keys)
    if n == 1:
        return np.zeros(1)
    values = 1.0 - 2.0 * np.arange(n) / (n - 1)
    order = sorted(range(n), key=lambda i: keys[i], reverse=higher_is_better)
    out = np.zeros(n)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and keys[order[j + 1]] == keys[order[i]]:
            j += 1
        share = values[i : j + 1].mean()
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


def ranks(scores, higher_is_better: bool = True) -> np.ndarray:
    """1-based competition ranks (ties share the best rank), for ratings."""
    keys = [tuple(np.atleast_1d(s).tolist()) for s in scores]
    sign = -1 if higher_is_better else 1
    return np.array([1 + sum(1 for other in keys if (other > k if sign < 0 else other < k)) for k in keys])


def soft_rank_rewards(scores, spread: float) -> np.ndarray:
    """A smooth estimate of ``rank_rewards`` while scores may still change.

    The rank reward of a seat equals the mean, over the other seats, of +1 for
    each seat it is ahead of, -1 for each it is behind and 0 for a tie. Here
    each of those terms becomes ``tanh(lead / spread)``, as if the final lead
    were the current one blurred by ``spread`` points of play still to come.
    Zero-sum and within [-1, 1]; it tends to ``rank_rewards`` as ``spread``
    shrinks to 0.
    """
    s = np.asarray(scores, dtype=np.float64)
    n = s.size
    if n == 1:
        return np.zeros(1)
    lead = s[:, None] - s[None, :]
    return np.tanh(lead / float(spread)).sum(axis=1) / (n - 1)
