"""The shape the rules code keeps: short functions, settings and state fields
declared once (that rules modules never import their observers is checked in
test_packaging.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from meeplezoo import envs

ENVS = Path(envs.__file__).resolve().parent
LONGEST_FUNCTION = 60  # lines, docstring included


def functions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


@pytest.mark.parametrize("path", sorted(ENVS.rglob("*.py")), ids=lambda p: str(p.relative_to(ENVS)))
def test_every_function_of_the_games_and_the_core_is_short(path):
    long = [
        f"{name} (line {line}): {size} lines"
        for name, line, size in functions(path)
        if size >= LONGEST_FUNCTION
    ]
    assert not long, f"{path.name}: split these into named steps: {long}"


@pytest.mark.parametrize("name", envs.names())
def test_every_game_declares_its_options_and_its_state_fields(name):
    game = envs.make_game(name)
    assert game.options and set(game.options) == set(game.defaults)
    state = game.new_initial_state(seed=0)
    assert type(state).fields, f"{name}: declare the state's fields (meeplezoo.envs.core.fields)"
