"""The mutation tool finds, runs and judges mutants of a small module."""

from __future__ import annotations

import json
from pathlib import Path

from tools.mutate import changed_codes, kill_rate, module_name, mutants_of, mutate

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


def test_a_coverage_table_larger_than_a_pipe_buffer_comes_back(tmp_path):
    """The child that traces the unmodified tests hands back a table that, for
    a real suite, is far larger than the 64 KiB a pipe holds: it must not
    block the child (the run would hang before its first mutant)."""
    from tools.mutate import coverage_by_test

    many = tmp_path / "test_many.py"
    many.write_text(
        "import pytest\n"
        "from tests.tools.sample_rules import capped\n\n"
        "@pytest.mark.parametrize('value', range(1500))\n"
        "def test_capped_keeps_small_values_within_the_limit_for_every_value(value):\n"
        "    assert capped(value % 3) == value % 3\n"
    )
    lines, seconds = coverage_by_test(str(Path(SAMPLE).resolve()), [str(many)], timeout=60)
    assert len(lines) == 1500 and len(seconds) == 1500
    assert len(json.dumps({test: sorted(hit) for test, hit in lines.items()})) > 64 * 1024


def test_a_mutant_beside_two_comprehensions_nested_on_one_line_is_patchable():
    """Only the mutated function counts as changed, not a nested comprehension
    that shares its name and first line with the one around it."""
    source = "def grid():\n    return [[0 for _ in range(2)] for _ in range(3)]\n\n\ndef limit(x):\n    return x < 3\n"
    original = compile(source, "sample.py", "exec")
    for mutant, tree in mutants_of(source):
        changed = changed_codes(original, compile(tree, "sample.py", "exec"))
        assert changed[0][1].co_name == ("limit" if mutant.line == 6 else "grid")


def test_closures_a_factory_built_at_import_are_patched_too():
    """A table of functions made by a factory at import: patching the factory
    alone would leave the table's closures as they were, and every mutant
    inside them would survive without ever running."""
    import types

    from tools.mutate import code_key, live_functions

    source = (
        "def factory(k):\n    def step(x):\n        return x + k\n\n    return step\n\n\n"
        "TABLE = (factory(1), factory(2))\n"
    )
    module = types.ModuleType("factory_sample")
    original = compile(source, "factory_sample.py", "exec")
    exec(original, module.__dict__)
    live = live_functions(module, "factory_sample.py")
    (mutant, tree), *_ = [(m, t) for m, t in mutants_of(source) if m.line == 3]
    for old, new in changed_codes(original, compile(tree, "factory_sample.py", "exec")):
        for function in live.get(code_key(old), ()):
            function.__code__ = new
    assert mutant.change == "Add -> Sub"
    assert [step(5) for step in module.TABLE] == [4, 3]


def test_a_cached_function_is_patched_and_its_cache_emptied():
    """Geometry built once per configuration (``functools.cache``): the mutant
    must reach the cached function and the values it computed before."""
    import types

    from tools.mutate import clear_caches, code_key, live_functions

    source = "import functools\n\n\n@functools.cache\ndef doubled(x):\n    return x + x\n"
    module = types.ModuleType("cached_sample")
    original = compile(source, "cached_sample.py", "exec")
    exec(original, module.__dict__)
    assert module.doubled(2) == 4
    (_mutant, tree), *_ = [(m, t) for m, t in mutants_of(source) if m.line == 6]
    for old, new in changed_codes(original, compile(tree, "cached_sample.py", "exec")):
        for function in live_functions(module, "cached_sample.py").get(code_key(old), ()):
            function.__code__ = new
    clear_caches(module)
    assert module.doubled(2) == 0
