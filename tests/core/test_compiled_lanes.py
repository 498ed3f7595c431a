"""The eight-lane helpers give the scalar code's answers bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.compiled import lanes
from meeplezoo.envs.core.compiled.jit import njit


@njit
def add_scaled_compiled(row, start, values, offset, scale, count):
    lanes.add_scaled(row, start, values, offset, scale, count)


@njit
def nonzero_lanes_compiled(values, start):
    return lanes.nonzero_lanes(values, start)


@pytest.mark.parametrize("count", [0, 1, 7, 8, 9, 16, 23, 48])
def test_add_scaled_equals_float32_arithmetic(count):
    rng = np.random.default_rng(count)
    row = rng.normal(size=60).astype(np.float32)
    values = rng.normal(scale=5, size=60).astype(np.float32)
    scale = np.float32(rng.normal())
    want = row.copy()
    want[3 : 3 + count] += scale * values[5 : 5 + count]
    add_scaled_compiled(row, 3, values, 5, scale, count)
    assert row.tobytes() == want.tobytes()  # the runs outside untouched too


def test_the_plain_lanes_match_the_vector_ones():
    rng = np.random.default_rng(1)
    row = rng.normal(size=24).astype(np.float32)
    values = rng.normal(size=24).astype(np.float32)
    in_python = row.copy()
    lanes.add_lanes_in_python(in_python, 8, values, 3, np.float32(0.75))
    add_scaled_compiled(row, 8, values, 3, np.float32(0.75), lanes.LANES)
    assert in_python.tobytes() == row.tobytes()


def test_nonzero_lanes_read_each_entry():
    """Zeros of either sign are zero; NaN and tiny values are not."""
    values = np.zeros(40, dtype=np.float32)
    values[[0, 9, 10, 17, 31, 39]] = [1.0, -2.5, 1e-30, np.nan, 4.0, 7.0]
    values[[2, 20]] = -0.0
    for start in (0, 8, 16, 24, 32, 5):
        want = sum(1 << lane for lane in range(8) if values[start + lane] != 0.0)
        assert nonzero_lanes_compiled(values, start) == want
        assert lanes.nonzero_lanes_in_python(values, start) == want
