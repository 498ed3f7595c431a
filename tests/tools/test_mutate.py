"""The mutation tool finds, runs and judges mutants of a small module."""

from __future__ import annotations

from pathlib import Path

from tools.mutate import kill_rate, module_name, mutants_of, mutate

SAMPLE = Path("tests/tools/sample_rules.py")
TESTS = ["tests/tools/sample_tests.py"]


def test_module_names_follow_the_package_layout():
    assert module_name(Path("envs/amoeba/rules.py")) == "meeplezoo.envs.amoeba.rules"
    assert module_name(Path("tests/tools/sample_rules.py")) == "meeplezoo.tests.tools.sample_rules"


def test_mutants_cover_functions_methods_and_table_lambdas_only():
    changes = {(m.line, m.change) for m, _tree in mutants_of(SAMPLE.read_text())}
    assert (10, "Lt -> LtE") in changes  # a comparison in a function
    assert (18, "Add= -> Sub=") in changes  # an augmented assignment in a method
    assert (21, "Mult -> FloorDiv") in changes  # a lambda in a module-level table
    assert all(line != 5 for line, _ in changes)  # LIMIT = 3 is module level: left alone


def test_every_mutant_but_the_equivalent_one_is_killed(monkeypatch):
    monkeypatch.setattr("tools.mutate.module_name", lambda path: "tests.tools.sample_rules")
    mutants = mutate(SAMPLE, TESTS, timeout=30, progress=lambda line: None)
    survivors = [(m.line, m.change) for m in mutants if m.status == "survived"]
    assert survivors == [(10, "Lt -> LtE")]
    assert all(m.status in ("killed", "survived") for m in mutants)
    equivalent = {m.index for m in mutants if m.status == "survived"}
    assert kill_rate(mutants, equivalent) == 1.0 and kill_rate(mutants) < 1.0
