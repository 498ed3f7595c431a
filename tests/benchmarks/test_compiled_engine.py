"""The compiled-engine benchmark measures each row and writes its tables."""

from __future__ import annotations

import numpy as np

import meeplezoo
from meeplezoo.benchmarks import compiled_engine
from meeplezoo.benchmarks.observation_floor import ObservationWrites

GAME = "gem_mountain_v0"


def test_rows_measure_and_the_tables_name_them():
    per_call = {
        f"{what} {backend}": compiled_engine.per_call_us(GAME, backend, what, 1)
        for what in ("clone", "determinize")
        for backend in ("compiled", "python")
    }
    game = {
        "rules": {"compiled": compiled_engine.kernel_rules_rate(GAME, 0.01, 1), "python": 1000.0},
        "make_vec": {b: compiled_engine.vec_rate(GAME, b, 0.01, 1) for b in (1, 64)} | {1024: 5.0, 4096: 6.0},
        "aec": {"compiled": compiled_engine.aec_rate(GAME, 0.01, 1), "python": 1.0},
        "per_call_us": per_call,
        "make_vec_floor": {1024: 10.0},
        "step_bytes": compiled_engine.step_bytes(meeplezoo.make_game(GAME)),
    }
    result = {
        "threads": 1,
        "games": {GAME: game},
        "connect_four_v3": 1.0,
        "pgx": "pgx is not installed",
        "date": "today",
        "machine": {"cpu": "test", "usable_cores": 1},
        "repeats": 1,
    }
    assert all(rate > 0 for rate in game["make_vec"].values()) and game["rules"]["compiled"] > 0
    text = compiled_engine.markdown(result, "python -m meeplezoo.benchmarks.compiled_engine")
    assert f"| {GAME} |" in text and "batch 4096" in text and "Skipped: pgx is not installed" in text
    assert "(5.0x)" in text  # make_vec 1024 against the Python AEC loop
    assert "| 10 (50%) | 4,388 |" in text  # make_vec 1024 against its writes alone; 4,307 + 81 bytes


def test_the_floor_writes_the_captured_observations_and_masks_in_turn():
    vec = meeplezoo.make_vec(GAME, 8)
    first = vec.reset(3)
    steps = [(first.observation.copy(), first.legal_action_mask.copy())]
    second = vec.step([np.flatnonzero(mask)[0] for mask in first.legal_action_mask])
    steps.append((second.observation.copy(), second.legal_action_mask.copy()))
    for listed in (False, True):
        writes = ObservationWrites([obs for obs, _ in steps], [mask for _, mask in steps], listed)
        for turn in (1, 0, 1):
            assert writes() == 8
            assert np.array_equal(writes.observations, steps[turn][0].reshape(8, -1))
            assert np.array_equal(writes.masks, steps[turn][1])
    assert compiled_engine.vec_floor_rate(GAME, 4, 0.01, 1) > 0
