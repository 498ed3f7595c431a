"""The dice helpers in envs/core/dice.py: contest_with runs opposed rolls fed by
a die function (scripted dice or a generator)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.dice import contest_with, roll


def test_contest_with_scripted_dice_rerolls_ties():
    dice = iter([1, 1, 2, 1, 6, 6, 1, 1])
    winner, history = contest_with(lambda: next(dice), 9, 8)
    assert winner == 0 and history == [(11, 11), (21, 10)]


def test_contest_with_side_b_wins_and_uses_count():
    dice = iter([1, 1, 1, 6, 6, 6])
    winner, history = contest_with(lambda: next(dice), 0, 0, count=3)
    assert winner == 1 and history == [(3, 18)]


def test_contest_with_generator_die():
    rng = np.random.default_rng(0)
    winner, history = contest_with(lambda: roll(rng), 3, 3)
    assert winner in (0, 1) and history[-1][0] != history[-1][1]
