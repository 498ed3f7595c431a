"""Dice rolled from a state's generator (never from global randomness)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from meeplezoo.envs.core.integers import integer_index


def roll(rng: np.random.Generator, sides: int = 6) -> int:
    """One die, 1..sides."""
    return int(rng.integers(1, sides + 1))


def roll_sum(rng: np.random.Generator, count: int = 2, sides: int = 6) -> int:
    """Sum of ``count`` dice (e.g. 2d6)."""
    return int(rng.integers(1, sides + 1, size=count).sum())


def contest(
    rng: np.random.Generator,
    bonus_a: int,
    bonus_b: int,
    count: int = 2,
    sides: int = 6,
    max_rerolls: int = 1000,
) -> tuple[int, list[tuple[int, int]]]:
    """Opposed roll: each side rolls ``count``d``sides`` plus its bonus; ties
    are rerolled. Returns (winner 0 for a / 1 for b, list of (total_a, total_b))."""
    return contest_with(lambda: roll(rng, sides), bonus_a, bonus_b, count, max_rerolls)


def contest_with(
    die, bonus_a: int, bonus_b: int, count: int = 2, max_rerolls: int = 1000
) -> tuple[int, list[tuple[int, int]]]:
    """Opposed roll like :func:`contest`, but each die comes from ``die()``
    (a zero-argument callable returning one result), so a game can feed
    scripted dice in tests. Side a rolls all its dice first, then side b."""
    history = []
    for _ in range(max_rerolls):
        a = bonus_a
        for _ in range(count):
            a += die()
        b = bonus_b
        for _ in range(count):
            b += die()
        history.append((a, b))
        if a != b:
            return (0 if a > b else 1), history
    raise RuntimeError("contest kept tying")  # pragma: no cover - probability ~0


def check_die_script(value: Any, key: str, low: int, high: int, game_name: str) -> list[int] | None:
    """Validate a scripted-dice config value (a test hook): None, or a list
    of integer results ``low``..``high``. Returns it as a list of Python ints.

    Games name their key differently (``die_override``, ``dice_override``),
    and the keys stay as users know them; the check and its words are one."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not all(
        (face := integer_index(result)) is not None and low <= face <= high for result in value
    ):
        raise ValueError(
            f"{game_name}: {key} must be None or a list of integers {low}..{high}, got {value!r}"
        )
    return [int(result) for result in value]


def scripted_or_rolled(
    script: Sequence[int] | None, used: int, roll_die: Callable[[], int]
) -> tuple[int, int]:
    """The next die result and the new count of scripted results used.

    While ``script`` (from a scripted-dice config) has results left, they
    come first, in order; after that every result is ``roll_die()``, so a
    test can pin the opening dice and the game then plays on normally."""
    if script and used < len(script):
        return int(script[used]), used + 1
    return roll_die(), used
