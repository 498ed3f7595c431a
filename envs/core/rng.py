"""A state's random generator: created, derived, copied and saved one way.

All chance in a game comes from its state's generator, so these few
functions are what makes a seeded game replay bit for bit.
"""

from __future__ import annotations

import copy

import numpy as np


def make_rng(seed: int | None) -> np.random.Generator:
    """The one way a state's generator is created (PCG64, like np_random)."""
    return np.random.Generator(np.random.PCG64(seed))


SEED_BOUND = 2**63 - 1  # seeds drawn for derived generators lie in 0..SEED_BOUND-1


def derive_rng(rng: np.random.Generator, seed_bound: int = SEED_BOUND) -> np.random.Generator:
    """A fresh generator seeded by one draw from ``rng``.

    A determinized or searched copy must not keep the true generator (it
    knows the dice and draws still to come), yet must stay reproducible from
    the searcher's own generator: one draw from it seeds the copy's.
    ``seed_bound`` is the draw's exclusive upper bound; the search bots pass
    ``2**63``, which they have always drawn with, so seeded bot play replays."""
    return make_rng(int(rng.integers(0, seed_bound)))


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator that continues exactly where ``rng`` is."""
    # A fixed seed skips the OS-entropy read of PCG64(); the state is then
    # overwritten anyway (about twice as fast, and clone() is MCTS's hot path).
    new = np.random.Generator(np.random.PCG64(0))
    new.bit_generator.state = rng.bit_generator.state
    return new


def rng_to_dict(rng: np.random.Generator) -> dict:
    """JSON-able snapshot of a generator (for ``State.to_dict``)."""
    return copy.deepcopy(rng.bit_generator.state)


def rng_from_dict(data: dict) -> np.random.Generator:
    rng = np.random.Generator(np.random.PCG64(0))
    rng.bit_generator.state = data
    return rng
