"""The compiled-engine benchmark measures each row and writes its tables."""

from __future__ import annotations

from meeplezoo.benchmarks import compiled_engine

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
