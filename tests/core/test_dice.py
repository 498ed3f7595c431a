"""The dice helpers in envs/core/dice.py: contest_with runs opposed rolls fed by
a die function (scripted dice or a generator)."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_check_die_script_normalises_and_rejects():
    from meeplezoo.envs.core.dice import check_die_script

    assert check_die_script(None, "dice_override", 1, 6, "g") is None
    assert check_die_script((np.int64(2), 6), "dice_override", 1, 6, "g") == [2, 6]
    for bad in ([0], [7], [True], [2.0], "12", 3):
        with pytest.raises(ValueError, match="g: dice_override must be None"):
            check_die_script(bad, "dice_override", 1, 6, "g")


def test_scripted_or_rolled_uses_the_script_first_then_the_die():
    from meeplezoo.envs.core.dice import scripted_or_rolled

    rolled = iter([4, 5])
    results, used = [], 0
    for _ in range(4):
        value, used = scripted_or_rolled([2, 3], used, lambda: next(rolled))
        results.append(value)
    assert results == [2, 3, 4, 5] and used == 2
    assert scripted_or_rolled(None, 0, lambda: 6) == (6, 0)


def test_scripted_dice_use_one_key_in_every_game():
    from meeplezoo import envs

    amoeba = envs.make_game("amoeba", dice_override=[3, 1]).new_initial_state(0)
    assert amoeba.die == 3
    princes = envs.make_game("princes_of_amber", dice_override=[5, 2]).new_initial_state(0)
    assert [princes.d6(), princes.d6()] == [5, 2]
