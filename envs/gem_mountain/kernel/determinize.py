"""Gem Mountain's determinization over a state row (``GemMountainState.determinize``).

The same draws, in the same order, from the searcher's generator words (a
``uint64[6]`` array advanced in place as the NumPy generator would be): the
sorted bag of hidden tiles shuffled (``canonical_shuffle``), each other
secret seat's tile drawn among the fitting ones, the hidden cells dealt with
fresh rotations, the rest left unused, and the copy's generator seeded from
one more draw. Only what ``player`` may know is read: the bag is sorted, so
where the hidden tiles truly lie never shows.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.core.rng import SEED_BOUND
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.estimate import fits_secret, is_hidden, secret_seats

MOST_HIDDEN = S.MOST_CELLS + S.PILE + S.MOST_SEATS  # the largest bag
# int64 constants (a plain int would compile the generator's draw once more for its literal)
ZERO, ROTATIONS, DRAW_SEED_BOUND = np.int64(0), np.int64(4), np.int64(SEED_BOUND)


@njit
def hidden_cells(state, game, player, cells):
    """hidden_tiles: the face-down cells ``player`` has not peeked at, in cell order (returns how many)."""
    count = 0
    for cell in range(game[S.G_NUM_CELLS]):
        if is_hidden(state, player, cell):
            cells[count] = cell
            count += 1
    return count


@njit
def sorted_bag(state, cells, hidden, seats, secrets, bag):
    """hidden_tiles: the tiles of the hidden cells, the unused pool and the other secrets, sorted
    (which tiles are hidden, never where); returns the bag's size."""
    size = 0
    for j in range(hidden):
        bag[size] = state[S.CELLS + cells[j]]
        size += 1
    for k in range(S.PILE):
        if state[S.UNUSED + k] < 0:
            break
        bag[size] = state[S.UNUSED + k]
        size += 1
    for j in range(secrets):
        bag[size] = state[S.SECRET_TILES + seats[j]]
        size += 1
    for k in range(1, size):  # insertion sort: a small bag, and far quicker to compile than np.sort
        design = bag[k]
        j = k - 1
        while j >= 0 and bag[j] > design:
            bag[j + 1] = bag[j]
            j -= 1
        bag[j + 1] = design
    return size


@njit
def deal_secrets(out, game, seats, secrets, bag, size, searcher):
    """Each other secret seat takes ``bag.pop(fits[integers(len(fits))])``; returns the bag's new size."""
    for j in range(secrets):
        fitting = 0
        for k in range(size):
            if fits_secret(game, bag[k]):
                fitting += 1
        if fitting == 0:  # never (each secret put one fitting tile in the bag); the true tile stays hidden
            out[S.SECRET_TILES + seats[j]] = -1
            continue
        pick = pcg64.bounded(searcher, ZERO, fitting)
        k = -1
        while pick >= 0:  # k: the pick-th fitting tile
            k += 1
            if fits_secret(game, bag[k]):
                pick -= 1
        out[S.SECRET_TILES + seats[j]] = bag[k]
        size -= 1
        for rest in range(k, size):  # bag.pop(k)
            bag[rest] = bag[rest + 1]
    return size


@njit
def deal_cells(out, game, cells, hidden, bag, size, searcher):
    """deal_out: the hidden cells take the bag's first tiles (each with a fresh rotation), the rest
    stays unused; gem_tiles_left is counted from the map the player knows plus the dealt tiles."""
    for j in range(hidden):
        out[S.CELLS + cells[j]] = bag[j]
        out[S.ROTATIONS + cells[j]] = pcg64.bounded(searcher, ZERO, ROTATIONS)
    for k in range(S.PILE):  # loops, not slices: a slice assignment compiles its error message's formatting
        out[S.UNUSED + k] = bag[hidden + k] if hidden + k < size else -1
    gem_tiles = 0
    for cell in range(game[S.G_NUM_CELLS]):
        design = out[S.CELLS + cell]
        if design >= 0 and S.HAS_GEM_TABLE[design]:
            gem_tiles += 1
    out[S.GEM_TILES_LEFT] = gem_tiles


@njit_borrowing
def misses_nothing(state, game, player):
    """No face-down cell ``player`` has not peeked at, no other secret tile
    and no unused tile: the bag is empty, and the deal draws nothing."""
    if state[S.UNUSED] >= 0:
        return False
    for seat in range(game[S.G_NUM_PLAYERS]):
        if seat != player and state[S.SECRET_TILES + seat] >= 0:
            return False
    for cell in range(game[S.G_NUM_CELLS]):
        if is_hidden(state, player, cell):
            return False
    return True


@njit
def deal_hidden(state, game, player, searcher, out):
    """The bag of what ``player`` cannot see, shuffled and dealt into ``out``."""
    cells = np.zeros(S.MOST_CELLS, dtype=np.int64)
    hidden = hidden_cells(state, game, player, cells)
    seats = np.zeros(S.MOST_SEATS, dtype=np.int64)
    secrets = secret_seats(state, game, player, seats)
    bag = np.zeros(MOST_HIDDEN, dtype=np.int64)
    size = sorted_bag(state, cells, hidden, seats, secrets, bag)
    pcg64.shuffle(searcher, bag, size)  # permutation(n) applied to the sorted bag: the same swaps
    size = deal_secrets(out, game, seats, secrets, bag, size, searcher)
    deal_cells(out, game, cells, hidden, bag, size, searcher)


@njit
def determinize(state, game, player, searcher, out):
    """determinize(player, rng): keep what ``player`` knows, deal what it
    cannot see afresh from ``searcher``. A player that misses nothing (every
    tile face up, no secrets: most configurations) gets the copy as it is,
    without the bag's arrays: the empty bag's deal would draw nothing and
    change nothing."""
    for k in range(S.STATE_WIDTH):
        out[k] = state[k]
    if not misses_nothing(state, game, player):
        deal_hidden(state, game, player, searcher, out)
    pcg64.seed(
        out[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64), pcg64.bounded(searcher, ZERO, DRAW_SEED_BOUND)
    )
