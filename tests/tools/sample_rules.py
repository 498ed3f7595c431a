"""A tiny module for the mutation tool's own tests (not a game)."""

from __future__ import annotations

LIMIT = 3


def capped(value: int) -> int:
    """``value``, but never above LIMIT."""
    return value if value < LIMIT else LIMIT


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def bump(self, by: int = 1) -> None:
        self.count += by


BONUS = {"double": lambda x: x * 2}
