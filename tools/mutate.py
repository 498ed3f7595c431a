"""Mutation testing for one module: does a test fail when a rule is broken?

``python -m tools.mutate envs/amoeba/rules.py tests/amoeba`` makes one small
change at a time in the module (a comparison flipped, a constant off by one,
``and`` for ``or``, a condition negated, ``+`` for ``-``, ``True`` for
``False``), runs the tests against it, and reports the mutants no test
killed, so each can be read and either guarded by a new test or judged
equivalent (a change that cannot alter behaviour).

It is fast enough to run over a whole rules module because nothing is
reinstalled or re-imported per mutant: the parent imports the module and
the tests once, a forked child swaps the mutated function's code object in
place (``function.__code__``, so every reference to it sees the change),
runs pytest with ``-x`` and exits with pytest's status. Mutants on lines the
tests never execute (traced once, unmutated) are reported as not covered
without a run; a child that runs past ``--timeout`` counts as killed (the
mutant made the game loop).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import functools
import importlib
import inspect
import json
import os
import signal
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

COMPARE_SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
BOOLOP_SWAPS = {ast.And: ast.Or, ast.Or: ast.And}


@dataclass
class Mutant:
    """One change: where, what, and (once run) what became of it."""

    index: int
    line: int
    column: int
    change: str
    source_line: str
    status: str = "pending"  # killed | survived | not covered | timeout | unpatchable


def _is_docstring(node: ast.AST, parents: dict) -> bool:
    parent = parents.get(node)
    return isinstance(parent, ast.Expr) and isinstance(node, ast.Constant) and isinstance(node.value, str)


def mutation_sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, kind, description) for every mutable spot inside a function or lambda."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def inside_function(node: ast.AST) -> bool:
        """In the body of a function or lambda (not in its defaults, decorators
        or annotations: those run when the function is defined)."""
        while node in parents:
            parent = parents[node]
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in parent.body:
                return True
            if isinstance(parent, ast.Lambda) and node is parent.body:
                return True
            node = parent
        return False

    for node in ast.walk(tree):
        if not inside_function(node) or _is_docstring(node, parents):
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    yield node, f"compare:{i}", f"{type(op).__name__} -> {COMPARE_SWAPS[type(op)].__name__}"
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            yield node, "binop", f"{type(node.op).__name__} -> {BINOP_SWAPS[type(node.op)].__name__}"
        elif isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub):
            yield node, "augassign", f"{type(node.op).__name__}= -> {BINOP_SWAPS[type(node.op)].__name__}="
        elif isinstance(node, ast.BoolOp):
            yield node, "boolop", f"{type(node.op).__name__} -> {BOOLOP_SWAPS[type(node.op)].__name__}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop_not", "not x -> x"
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            yield node, "negate", "condition -> not condition"
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, "bool", f"{node.value} -> {not node.value}"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "int", f"{node.value} -> {node.value + 1}"


def apply_mutation(node: ast.AST, kind: str, parents: dict) -> None:
    """Change ``node`` in place (positions kept, so line numbers stay right)."""
    if kind.startswith("compare:"):
        i = int(kind.split(":")[1])
        node.ops[i] = COMPARE_SWAPS[type(node.ops[i])]()
    elif kind in ("binop", "augassign"):
        node.op = BINOP_SWAPS[type(node.op)]()
    elif kind == "boolop":
        node.op = BOOLOP_SWAPS[type(node.op)]()
    elif kind == "drop_not":
        parent = parents[node]
        for field, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, field, node.operand)
            elif isinstance(value, list):
                setattr(parent, field, [node.operand if item is node else item for item in value])
    elif kind == "negate":
        node.test = ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=node.test), node.test)
    elif kind == "bool":
        node.value = not node.value
    elif kind == "int":
        node.value += 1
    ast.fix_missing_locations(node)


def code_key(code: types.CodeType) -> tuple:
    """Identifies a function's code across two compilations of one file."""
    first = next((p for p in code.co_positions() if p[0] is not None), (code.co_firstlineno, 0, 0, 0))
    return (code.co_name, code.co_firstlineno, first[0], first[2])


def nested_codes(code: types.CodeType) -> Iterator[types.CodeType]:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from nested_codes(const)


def live_functions(module: types.ModuleType, filename: str) -> dict[tuple, list[types.FunctionType]]:
    """Every function object of ``module`` defined in ``filename`` reachable
    from its globals: functions, methods, properties, lambdas in tables."""
    found: dict[tuple, list[types.FunctionType]] = {}
    seen: set[int] = set()

    def visit(obj, depth: int) -> None:
        if id(obj) in seen or depth > 5:
            return
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType):
            if obj.__code__.co_filename == filename:
                found.setdefault(code_key(obj.__code__), []).append(obj)
            return
        if isinstance(obj, functools._lru_cache_wrapper):  # @cache / @lru_cache: the function inside
            visit(obj.__wrapped__, depth + 1)
        elif isinstance(obj, (staticmethod, classmethod)):
            visit(obj.__func__, depth + 1)
        elif isinstance(obj, property):
            for accessor in (obj.fget, obj.fset, obj.fdel):
                if accessor is not None:
                    visit(accessor, depth + 1)
        elif isinstance(obj, dict):
            for value in list(obj.values()):
                visit(value, depth + 1)
        elif isinstance(obj, (list, tuple, set, frozenset)):
            for value in list(obj):
                visit(value, depth + 1)
        elif isinstance(obj, type) and obj.__module__ == module.__name__:
            for value in list(vars(obj).values()):
                visit(value, depth + 1)
        elif type(obj).__module__ == module.__name__:
            slots = [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ())]
            values = [getattr(obj, name, None) for name in slots] + list(
                getattr(obj, "__dict__", {}).values()
            )
            for value in values:
                visit(value, depth + 1)

    visit(vars(module), 0)
    return found


def changed_codes(
    original: types.CodeType, mutated: types.CodeType
) -> list[tuple[types.CodeType, types.CodeType]]:
    """(original, mutated) for every function code object that the mutation
    changed, outermost first and then the changed ones nested in it: patching
    an outer function changes what it builds from now on, and patching the
    nested ones reaches the closures it built already (a factory's functions
    kept in a table at import). The two trees are walked side by side: a
    mutation adds or removes no code object, and a lookup by name and line
    would confuse two comprehensions nested on one line."""
    changed: list[tuple[types.CodeType, types.CodeType]] = []

    def inner(code: types.CodeType) -> list[types.CodeType]:
        return [const for const in code.co_consts if isinstance(const, types.CodeType)]

    def visit(before: types.CodeType, after: types.CodeType) -> None:
        olds, news = inner(before), inner(after)
        if [code_key(c) for c in olds] != [code_key(c) for c in news]:
            changed.append((before, after))
            return
        for old, new in zip(olds, news):
            if not new.co_flags & inspect.CO_NEWLOCALS:  # a class body: look at its methods
                visit(old, new)
            elif old.co_code != new.co_code or old.co_consts != new.co_consts:
                changed.append((old, new))
                visit(old, new)

    visit(original, mutated)
    return changed


QUIET_PYTEST = ("-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--no-header")


def _silence() -> None:
    """Send a child's output to /dev/null (a mutant's failures are expected)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child exits right after


def in_child(work, timeout: float) -> int | None:
    """Run ``work()`` in a forked child; its exit status, or None on timeout."""
    pid = os.fork()
    if pid == 0:
        try:
            status = work()
        except BaseException:  # noqa: BLE001 - any crash of the mutant is a kill
            status = 99
        os._exit(status)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.02)


class CoverageRecorder:
    """A pytest plugin that records, per test, the lines of one file it runs
    and how long it takes (so a mutant runs only the tests that reach it,
    fastest first). coverage.py's C tracer does the recording: a Python
    trace function would slow the whole suite several times over."""

    def __init__(self, filename: str) -> None:
        import coverage

        self.filename = filename
        self.coverage = coverage.Coverage(include=[filename], data_file=None, branch=False)
        self.seconds: dict[str, float] = {}

    def pytest_sessionstart(self, session) -> None:
        self.coverage.start()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.coverage.switch_context(item.nodeid)
        start = time.perf_counter()
        yield
        self.seconds[item.nodeid] = time.perf_counter() - start
        self.coverage.switch_context("")

    def lines_by_test(self) -> dict[str, set[int]]:
        self.coverage.stop()
        data = self.coverage.get_data()
        found: dict[str, set[int]] = {}
        for line, contexts in data.contexts_by_lineno(self.filename).items():
            for context in contexts:
                if context:
                    found.setdefault(context, set()).add(line)
        return found


def coverage_by_test(filename: str, test_args: list[str], timeout: float) -> tuple[dict[str, set[int]], dict]:
    """Per test id, the lines of ``filename`` the unmutated test executes, and
    each test's seconds (traced once, in a child). The child hands them back
    in a file: a large suite's table outgrows a pipe's buffer, and a child
    blocked on a full pipe would never exit."""
    handle, path = tempfile.mkstemp(suffix=".json")
    os.close(handle)

    def work() -> int:
        recorder = CoverageRecorder(filename)
        _silence()
        status = int(pytest.main([*test_args, *QUIET_PYTEST], plugins=[recorder]))
        lines = {test: sorted(hit) for test, hit in recorder.lines_by_test().items()}
        Path(path).write_text(json.dumps({"lines": lines, "seconds": recorder.seconds}))
        return status

    try:
        status = in_child(work, timeout * 50)
        data = json.loads(Path(path).read_text() or "{}")
    finally:
        os.unlink(path)
    if status != 0:
        raise SystemExit(f"the tests fail (status {status}) before any mutation; fix them first")
    return {k: set(v) for k, v in data["lines"].items()}, data["seconds"]


def mutants_of(source: str) -> list[tuple[Mutant, ast.Module]]:
    """Every mutant of ``source``, each with its mutated tree."""
    lines = source.splitlines()
    base = ast.parse(source)
    sites = list(mutation_sites(base))
    found = []
    for index, (node, kind, change) in enumerate(sites):
        tree = copy.deepcopy(base)
        twin = list(mutation_sites(tree))[index][0]
        parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        apply_mutation(twin, kind, parents)
        mutant = Mutant(index, node.lineno, node.col_offset, change, lines[node.lineno - 1].strip())
        found.append((mutant, tree))
    return found


def module_name(path: Path) -> str:
    """``envs/amoeba/rules.py`` -> ``meeplezoo.envs.amoeba.rules`` (the package maps
    the top-level folders under ``meeplezoo``)."""
    parts = list(path.with_suffix("").parts)
    return ".".join(["meeplezoo", *parts]) if parts[0] != "meeplezoo" else ".".join(parts)


def clear_caches(module: types.ModuleType) -> None:
    """Empty the module's ``functools`` caches (geometry built once per
    configuration): what they kept was computed by the unmutated code."""
    for value in vars(module).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


class MutantRunner:
    """A pytest plugin that takes over the session's test loop: the tests are
    collected once, and each mutant's forked child runs only the collected
    items that reach its line, fastest first, until one fails (no pytest
    start-up or collection per mutant)."""

    def __init__(self, path: Path, coverage: tuple[dict, dict], timeout: float, lines, progress) -> None:
        self.path, self.timeout, self.lines, self.progress = path, timeout, lines, progress
        self.lines_by_test, self.seconds = coverage
        self.results: list[Mutant] = []

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session) -> bool:
        items = {item.nodeid: item for item in session.items}
        module = self.module = importlib.import_module(module_name(self.path))
        filename = module.__file__
        source = Path(filename).read_text(encoding="utf-8")
        original = compile(source, filename, "exec")
        live = live_functions(module, filename)
        candidates = [(m, t) for m, t in mutants_of(source) if self.lines is None or m.line in self.lines]
        for number, (mutant, tree) in enumerate(candidates, 1):
            reaching = [t for t, hit in self.lines_by_test.items() if mutant.line in hit and t in items]
            reaching.sort(key=self.seconds.get)
            mutant.status = self._run(mutant, tree, original, live, [items[t] for t in reaching])
            self.progress(
                f"[{number}/{len(candidates)}] line {mutant.line}: {mutant.change}: {mutant.status}"
            )
            self.results.append(mutant)
        return True

    def _run(self, mutant: Mutant, tree: ast.Module, original, live: dict, reaching: list) -> str:
        if not reaching:
            return "not covered"
        changed = changed_codes(original, compile(tree, original.co_filename, "exec"))
        targets = [(function, new) for old, new in changed for function in live.get(code_key(old), ())]
        if not targets or any(f.__code__.co_freevars != c.co_freevars for f, c in targets):
            return "unpatchable"

        def work() -> int:
            from _pytest.runner import runtestprotocol

            _silence()
            for function, code in targets:
                function.__code__ = code
            clear_caches(self.module)
            for item in reaching:
                if any(report.failed for report in runtestprotocol(item, nextitem=None, log=False)):
                    return 1
            return 0

        status = in_child(work, self.timeout)
        return "timeout" if status is None else ("survived" if status == 0 else "killed")


def mutate(path: Path, test_args: list[str], timeout: float, lines: set[int] | None = None, progress=None):
    """Run every mutant of ``path`` against the tests; the mutants with their
    status. ``progress`` gets a line per mutant (default: printed, although
    pytest's own output is silenced)."""
    if progress is None:
        out = sys.stdout
        progress = lambda text: print(text, file=out, flush=True)  # noqa: E731
    module = importlib.import_module(module_name(path))
    coverage = coverage_by_test(module.__file__, test_args, timeout)
    runner = MutantRunner(path, coverage, timeout, lines, progress)
    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
        pytest.main([*test_args, *QUIET_PYTEST], plugins=[runner])
    return runner.results


def summary(mutants: list[Mutant]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for mutant in mutants:
        counts[mutant.status] = counts.get(mutant.status, 0) + 1
    return counts


def kill_rate(mutants: list[Mutant], equivalent: set[int] = frozenset()) -> float:
    """Killed (timeouts included) over the mutants that count: every mutant
    except the ones judged equivalent and those that could not be patched."""
    counted = [m for m in mutants if m.index not in equivalent and m.status != "unpatchable"]
    killed = [m for m in counted if m.status in ("killed", "timeout")]
    return len(killed) / len(counted) if counted else 1.0


def parse_lines(text: str | None) -> set[int] | None:
    if not text:
        return None
    lines: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        lines.update(range(int(low), int(high or low) + 1))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", type=Path, help="the file to mutate, e.g. envs/amoeba/rules.py")
    parser.add_argument("tests", nargs="+", help="pytest arguments that select the tests, e.g. tests/amoeba")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds before a mutant's run counts as a hang"
    )
    parser.add_argument("--lines", help="only mutate these lines, e.g. 120-180,200")
    parser.add_argument("--json", type=Path, help="write every mutant and its status here")
    parser.add_argument("--equivalent", type=Path, help="JSON list of mutant indices judged equivalent")
    parser.add_argument("-k", dest="keyword", help="pytest's -k: only the tests whose names match")
    args = parser.parse_args(argv)
    test_args = [*args.tests, *(["-k", args.keyword] if args.keyword else [])]
    mutants = mutate(args.module, test_args, args.timeout, parse_lines(args.lines))
    equivalent = set(json.loads(args.equivalent.read_text())) if args.equivalent else set()
    if args.json:
        args.json.write_text(json.dumps([asdict(m) for m in mutants], indent=1))
    print("\nsurvivors:")
    for mutant in mutants:
        if mutant.status in ("survived", "not covered") and mutant.index not in equivalent:
            print(
                f"  #{mutant.index} line {mutant.line}: {mutant.change}: {mutant.status}: {mutant.source_line}"
            )
    print(f"\n{args.module}: {summary(mutants)}; kill rate {kill_rate(mutants, equivalent):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
