"""The shape the package's code keeps: short functions, few branches, modules
a reader can hold, settings and state fields declared once (that rules
modules never import their observers is checked in test_packaging.py)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from meeplezoo import envs

ROOT = Path(__file__).resolve().parents[1]
# every folder of the package (pyproject's [tool.setuptools.package-dir])
PACKAGE_FOLDERS = ("meeplezoo", "envs", "agents", "training", "benchmarks")
LONGEST_FUNCTION = 60  # lines, docstring included: a function is shorter
LONGEST_MODULE = 800  # lines
MAX_COMPLEXITY = 12  # ruff's C901 (McCabe), set in pyproject.toml

# The one list of exceptions to the caps above: "path: function" (or "path"
# for a module) -> why. Empty it as the reasons go away.
EXCEPTIONS: dict[str, str] = {}


def package_modules() -> list[Path]:
    return sorted(path for folder in PACKAGE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def _label(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def functions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


@pytest.mark.parametrize("path", package_modules(), ids=_label)
def test_every_function_of_the_package_is_short(path):
    long = [
        f"{name} (line {line}): {size} lines"
        for name, line, size in functions(path)
        if size >= LONGEST_FUNCTION and f"{_label(path)}: {name}" not in EXCEPTIONS
    ]
    assert not long, f"{_label(path)}: split these into named steps: {long}"


@pytest.mark.parametrize("path", package_modules(), ids=_label)
def test_every_module_of_the_package_is_under_the_line_cap(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LONGEST_MODULE or _label(path) in EXCEPTIONS, (
        f"{_label(path)}: {lines} lines; split it into modules of one job each"
    )


def test_the_folders_checked_are_the_packages_folders():
    tomllib = pytest.importorskip("tomllib")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    with_code = {
        folder
        for folder in setuptools["package-dir"].values()
        if any(path.name != "__init__.py" for path in (ROOT / folder).rglob("*.py"))
    }
    assert with_code == set(PACKAGE_FOLDERS)


def test_ruff_checks_the_complexity_of_the_whole_package():
    """pyproject selects C901 at MAX_COMPLEXITY, ignores it nowhere in the
    package, and ruff finds nothing beyond the listed exceptions."""
    tomllib = pytest.importorskip("tomllib")
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert "C901" in lint["select"] and lint["mccabe"]["max-complexity"] == MAX_COMPLEXITY
    ignored = [
        pattern
        for pattern, codes in lint.get("per-file-ignores", {}).items()
        if "C901" in codes and pattern.split("/")[0] in PACKAGE_FOLDERS
    ]
    assert not ignored, f"complexity ignored in the package: {ignored}; list exceptions in EXCEPTIONS"
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "concise", "--quiet",
         *PACKAGE_FOLDERS],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout.splitlines()  # fmt: skip
    unlisted = [line for line in found if not any(_named(line, key) for key in EXCEPTIONS)]
    assert not unlisted, "split these into named steps:\n" + "\n".join(unlisted)


def _named(finding: str, exception: str) -> bool:
    """Whether a ruff line (``path:line:col: C901 `name` is too complex``) is ``path: name``."""
    path, _, name = exception.partition(": ")
    return finding.startswith(path + ":") and f"`{name}`" in finding


@pytest.mark.parametrize("name", envs.names())
def test_every_game_declares_its_options_and_its_state_fields(name):
    game = envs.make_game(name)
    assert game.options and set(game.options) == set(game.defaults)
    state = game.new_initial_state(seed=0)
    assert type(state).fields, f"{name}: declare the state's fields (meeplezoo.envs.core.fields)"


# the one-letter parameter names a game's modules keep: coordinates (axial
# q, r; row r and column c; pixel x, y), which are the words for them
ONE_LETTER_PARAMETERS = frozenset("qrcxy")


def _game_folders() -> list[Path]:
    """Every game package under envs/ (envs/core is the games' shared maths,
    where ``hex_distance(a, b)`` or ``_mul128(a, b)`` name operands)."""
    return sorted(path.parent for path in (ROOT / "envs").glob("*/__init__.py") if path.parent.name != "core")


def _one_letter_parameters(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            named = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
            for argument in [*named, arguments.vararg, arguments.kwarg]:
                name = "" if argument is None else argument.arg
                if len(name) == 1 and name not in ONE_LETTER_PARAMETERS:
                    found.append(f"{_label(path)}:{argument.lineno}: {name}")
    return found


def test_no_game_module_names_a_parameter_with_one_letter():
    """A parameter says what it holds (``state``, ``cell``, ``hex_index``,
    ``seat``): a reader of a rule should not have to look up what ``s``,
    ``t`` or ``o`` stood for. Only coordinates keep their letter."""
    folders = _game_folders()
    assert folders, "no game package found under envs/"
    modules = [path for folder in folders for path in sorted(folder.rglob("*.py"))]
    found = [line for path in modules for line in _one_letter_parameters(path)]
    assert not found, "name these parameters by what they hold:\n" + "\n".join(found)
