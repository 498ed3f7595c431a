"""The branch-free mask readers give what numpy gives, on any mask."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import JIT_DISABLED, is_borrowing, njit, njit_borrowing
from meeplezoo.envs.core.compiled.masks import any_legal, copy_mask, list_legal, pick_legal


@pytest.mark.parametrize("size", [1, 7, 8, 81, 567])
def test_any_and_list_match_numpy(size):
    rng = np.random.default_rng(size)
    for density in (0.0, 0.02, 0.5, 1.0):
        mask = rng.random(size) < density
        legal = np.full(size, -1, dtype=np.int64)
        count = list_legal(mask, legal)
        assert any_legal(mask) == mask.any()
        assert count == mask.sum()
        assert legal[:count].tolist() == np.flatnonzero(mask).tolist()


def test_a_single_last_action_is_found():
    mask = np.zeros(81, dtype=np.bool_)
    mask[80] = True
    legal = np.zeros(81, dtype=np.int64)
    assert any_legal(mask) and list_legal(mask, legal) == 1 and legal[0] == 80


@pytest.mark.parametrize("size", [1, 7, 8, 9, 81, 567])
def test_a_pick_is_the_drawn_kth_legal_action(size):
    """The word-at-a-time pick plays the k-th legal action for the draw
    ``integers(count)``, exactly: a rollout's moves must not depend on how
    the mask is read."""
    rng = np.random.default_rng(size)
    for density in (0.02, 0.3, 1.0):
        for seed in range(20):
            mask = rng.random(size) < density
            if not mask.any():
                mask[rng.integers(size)] = True
            words = pcg64.seeded_words(seed)
            expected = np.flatnonzero(mask)[np.random.default_rng(seed).integers(0, mask.sum())]
            assert pick_legal(mask, words) == expected
            assert words.tolist() == pcg64.to_words(_after_one_draw(seed, int(mask.sum()))).tolist()


def _after_one_draw(seed: int, count: int) -> np.random.Generator:
    generator = np.random.default_rng(seed)
    generator.integers(0, count)
    return generator


def test_an_empty_mask_draws_nothing():
    words = pcg64.seeded_words(3)
    assert pick_legal(np.zeros(17, dtype=np.bool_), words) == -1
    assert words.tolist() == pcg64.seeded_words(3).tolist()


def test_a_mask_copy_is_the_mask():
    mask = np.random.default_rng(0).random(81) < 0.3
    out = np.zeros(81, dtype=np.bool_)
    copy_mask(mask, out)
    assert out.tolist() == mask.tolist()


@pytest.mark.skipif(JIT_DISABLED, reason="plain Python functions have no compile options")
def test_borrowing_is_told_apart_from_counting():
    @njit_borrowing
    def borrowing(x):
        return x

    @njit
    def counting(x):
        return x

    assert is_borrowing(borrowing) and not is_borrowing(counting) and not is_borrowing(len)
