"""The branch-free mask readers give what numpy gives, on any mask."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.jit import is_borrowing, njit, njit_borrowing
from meeplezoo.envs.core.compiled.masks import any_legal, list_legal


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


def test_borrowing_is_told_apart_from_counting():
    @njit_borrowing
    def borrowing(x):
        return x

    @njit
    def counting(x):
        return x

    assert is_borrowing(borrowing) and not is_borrowing(counting) and not is_borrowing(len)
