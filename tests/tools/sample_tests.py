"""Tests of tests/tools/sample_rules.py, run by the mutation tool's test: they
kill every mutant but one (``value < LIMIT`` -> ``value <= LIMIT`` is
equivalent: at LIMIT both branches give LIMIT)."""

from tests.tools.sample_rules import BONUS, Counter, capped


def test_capped():
    assert capped(1) == 1 and capped(5) == 3 and capped(2) == 2


def test_counter():
    counter = Counter()
    counter.bump()
    counter.bump(2)
    assert counter.count == 3


def test_bonus():
    assert BONUS["double"](3) == 6
