"""The compiled-engine benchmark measures each row and writes its table."""

from __future__ import annotations

from meeplezoo.benchmarks import compiled_engine


def test_rows_measure_and_the_table_names_them():
    result = {
        "threads": 1,
        "game": compiled_engine.GAME,
        "rules": {"compiled": compiled_engine.kernel_rules_rate(0.01, 1), "python": 1000.0},
        "make_vec": {b: compiled_engine.vec_rate(b, 0.01, 1) for b in (1, 64)},
        "aec": {
            "compiled": compiled_engine.aec_rate(compiled_engine.GAME, 0.01, 1),
            "python": 1.0,
            "connect_four_v3": 1.0,
        },  # fmt: skip
        "per_call_us": {
            f"{what} {backend}": compiled_engine.per_call_us(backend, what, 1)
            for what in ("clone", "determinize")
            for backend in ("compiled", "python")
        },
        "pgx": "pgx is not installed",
        "date": "today",
        "machine": {"cpu": "test", "usable_cores": 1},
        "repeats": 1,
    }
    assert all(rate > 0 for rate in result["make_vec"].values())
    text = compiled_engine.markdown(result, "python -m meeplezoo.benchmarks.compiled_engine")
    assert "| rules steps/s" in text and "| 64 |" in text and "Skipped: pgx is not installed" in text
