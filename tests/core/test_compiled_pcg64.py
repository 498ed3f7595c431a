"""The compiled PCG64 gives NumPy's draws bit for bit: seeding, raw bits,
bounded integers over every range class, permutations, and the generator
state words both ways."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeplezoo.envs.core.compiled import pcg64

SEEDS = [0, 1, 7, 12345, 2**32 - 1, 2**32 + 5, 987654321987, 2**63 - 2]
# one bound per draw path: 1 (no draw), small and large 32-bit Lemire, the
# full 32-bit range, and 64-bit Lemire
HIGHS = [1, 2, 3, 4, 7, 36, 100, 2**31, 2**32 - 1, 2**32, 2**40, 2**63 - 1]


def words_of(seed: int) -> np.ndarray:
    gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
    pcg64.seed(gen, seed)
    return gen


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_matches_numpy(seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    assert words_of(seed).tolist() == pcg64.to_words(rng).tolist()


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_raw_bits_and_halves_match_numpy(seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    gen = words_of(seed)
    expected = rng.bit_generator.random_raw(50)
    assert [int(pcg64.next64(gen)) for _ in range(50)] == expected.tolist()


@pytest.mark.parametrize("seed", SEEDS)
def test_bounded_draws_match_numpy(seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    gen = words_of(seed)
    for k in range(300):
        high = HIGHS[k % len(HIGHS)]
        low = k % 3 if high < 2**62 else 0
        assert pcg64.bounded(gen, low, low + high) == rng.integers(low, low + high)
    # an array draw takes the same values in order (the rules draw rotations so)
    drawn = rng.integers(0, 4, size=37)
    assert [pcg64.bounded(gen, 0, 4) for _ in range(37)] == drawn.tolist()
    assert gen.tolist() == pcg64.to_words(rng).tolist()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 2), sizes=st.lists(st.integers(0, 300), min_size=1, max_size=6))
def test_permutations_match_numpy(seed, sizes):
    rng = np.random.Generator(np.random.PCG64(seed))
    gen = words_of(seed)
    for n in sizes:
        items = np.arange(n, dtype=np.int64)
        pcg64.shuffle(gen, items, n)
        assert items.tolist() == rng.permutation(n).tolist()
    assert gen.tolist() == pcg64.to_words(rng).tolist()


def test_words_round_trip_mid_stream():
    rng = np.random.Generator(np.random.PCG64(99))
    rng.integers(0, 5)  # leaves a buffered 32-bit half
    words = pcg64.to_words(rng)
    assert words[pcg64.HAS_UINT32] == 1
    again = pcg64.from_words(words)
    assert again.integers(0, 2**40, size=5).tolist() == rng.integers(0, 2**40, size=5).tolist()


def test_other_bit_generators_are_refused():
    with pytest.raises(ValueError, match="PCG64"):
        pcg64.to_words(np.random.Generator(np.random.MT19937(1)))


@pytest.mark.parametrize("seed", [0, 1, 2**32 + 5, 2**63 - 1, 2**63, 2**70])
def test_seeded_words_are_default_rngs(seed):
    assert pcg64.seeded_words(seed).tolist() == pcg64.to_words(np.random.default_rng(seed)).tolist()
