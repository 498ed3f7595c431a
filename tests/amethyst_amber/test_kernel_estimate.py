"""The compiled estimate (``kernel/estimate.py``) is ``evaluate`` to the last
bit, for the whole state and each seat (nothing is hidden: they agree), at
every step of random games that threaten, capture, win and run out of turns."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amethyst_amber.kernel.estimate import evaluate
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row
from tests.amethyst_amber.kernel_configs import CONFIGS, game_of
from tests.amethyst_amber.kernel_play import play_both, uniform


def same_estimates(py, row) -> None:
    grow = game_row(py.game)
    expected = py.evaluate()
    for viewer in (-1, 0, 1):
        out = np.full(2, np.nan)
        evaluate(row, grow, viewer, out)
        np.testing.assert_array_equal(out, expected)
        np.testing.assert_array_equal(out, py.evaluate(None if viewer < 0 else viewer))


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_matches_the_rules_at_every_step(index):
    seed = 200 + index
    play_both(
        game_of(index), seed, uniform(np.random.default_rng(seed)), full=False, check=same_estimates, most=300
    )
