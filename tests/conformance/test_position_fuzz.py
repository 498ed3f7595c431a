"""Mutated positions either are refused with a clear error (the env left as
it was) or play to their end with every invariant holding
(``position_fuzz.py`` says how mutants are made)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.position_fuzz import Tally, fuzz, real_positions, try_one

# Games whose loaders check every entry and rule of a position. A game joins
# when the fuzz below finds nothing for it.
CHECKED_GAMES = {
    "high_card_v0",
    "amethyst_amber_v0",
    "amoeba_v0",
    "gem_mountain_v0",
    "gold_rush_gangs_v0",
    "princes_of_amber_v1",
}
CHECKED = [case for case in CASES if case.name in CHECKED_GAMES]
CHECKED_IDS = [case_id for case, case_id in zip(CASES, CASE_IDS, strict=True) if case.name in CHECKED_GAMES]


@pytest.mark.parametrize("case", CHECKED, ids=CHECKED_IDS)
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 5))
def test_a_mutated_position_is_refused_cleanly_or_plays_to_its_end(case, seed, which):
    tally = Tally()
    try_one(case, real_positions(case)[which], np.random.default_rng(seed), tally)
    assert tally.findings == []


@pytest.mark.slow
@pytest.mark.parametrize("case", CHECKED, ids=CHECKED_IDS)
def test_many_mutated_positions(case):
    tally = fuzz(case, count=2000, seed=7)
    assert tally.findings == [], "\n".join(tally.findings[:20])
