"""Amoeba's determinization over a state row (``AmoebaState.determinize``).

The same draws, in the same order, from the searcher's generator words (a
``uint64[6]`` array advanced in place as the NumPy generator would be): the
sorted bag of tiles ``player`` has not seen (the pile, the other hands, the
other seats' removed tiles) shuffled (``canonical_shuffle``), dealt back in
seat order (hand, then removed tiles), the rest the pile, and the copy's
generator seeded from one more draw. The bag is sorted, so where the hidden
tiles truly lie never shows.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.rules import hand_length, pile_length
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.core.rng import SEED_BOUND

ZERO, DRAW_SEED_BOUND = np.int64(0), np.int64(SEED_BOUND)


@njit
def removed_length(state, seat):
    for k in range(S.TILES):
        if state[S.REMOVED + seat * S.TILES + k] < 0:
            return k
    return S.TILES


@njit
def sorted_bag(state, game, player, bag):
    """The hidden tiles, sorted (returns how many)."""
    size = pile_length(state)
    for k in range(size):
        bag[k] = state[S.PILE + k]
    for seat in range(game[S.G_NUM_PLAYERS]):
        if seat == player:
            continue
        for slot in range(hand_length(state, seat)):
            bag[size] = state[S.HANDS + seat * S.HAND_SLOTS + slot]
            size += 1
        for k in range(removed_length(state, seat)):
            bag[size] = state[S.REMOVED + seat * S.TILES + k]
            size += 1
    for k in range(1, size):  # insertion sort: a small bag, and far quicker to compile than np.sort
        tile = bag[k]
        j = k - 1
        while j >= 0 and bag[j] > tile:
            bag[j + 1] = bag[j]
            j -= 1
        bag[j + 1] = tile
    return size


@njit
def determinize(state, game, player, searcher, out):
    """determinize(player, rng): keep what ``player`` knows, deal what it cannot see afresh from ``searcher``."""
    for k in range(S.STATE_WIDTH):
        out[k] = state[k]
    bag = np.empty(S.TILES, dtype=np.int64)
    size = sorted_bag(state, game, player, bag)
    pcg64.shuffle(searcher, bag, size)  # permutation(n) applied to the sorted bag: the same swaps
    dealt = 0
    for seat in range(game[S.G_NUM_PLAYERS]):
        if seat == player:
            continue
        for slot in range(hand_length(state, seat)):
            out[S.HANDS + seat * S.HAND_SLOTS + slot] = bag[dealt]
            dealt += 1
        for k in range(removed_length(state, seat)):
            out[S.REMOVED + seat * S.TILES + k] = bag[dealt]
            dealt += 1
    for k in range(S.TILES):
        out[S.PILE + k] = bag[dealt + k] if dealt + k < size else -1
    pcg64.seed(
        out[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64), pcg64.bounded(searcher, ZERO, DRAW_SEED_BOUND)
    )
