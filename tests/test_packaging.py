"""The installed surface: one import package, a pure rules layer, every
subpackage listed for the wheel.

Tests run from the repository root, where the folders ``envs/``, ``agents/``...
are importable by accident; the checks here run in subprocesses started in
an empty folder, as a user's script would be.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from meeplezoo import envs

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("meeplezoo", "envs", "agents", "training", "benchmarks")
OLD_TOP_LEVEL = {"envs", "agents", "training", "benchmarks"}


def _run(code: str, tmp_path: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _sources():
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_module_imports_an_old_top_level_name():
    offenders = []
    for path in [*_sources(), *sorted((ROOT / "tests").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            offenders += [
                f"{path.relative_to(ROOT)}:{node.lineno} {name}"
                for name in names
                if name.split(".")[0] in OLD_TOP_LEVEL
            ]
    assert offenders == []


def test_every_package_folder_is_listed_for_the_wheel():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = config["package-dir"]
    found = set()
    for package, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *parts)))
    assert found <= listed, f"missing from [tool.setuptools] packages: {sorted(found - listed)}"
    assert "meeplezoo.rules_pages" in listed
    assert folders["meeplezoo.rules_pages"] == "seeds"


@pytest.mark.parametrize("name", envs.names())
def test_rules_module_imports_neither_pettingzoo_nor_gymnasium(name, tmp_path):
    game = name.rsplit("_v", 1)[0]
    out = _run(
        "import json, sys\n"
        f"import meeplezoo.envs.{game}.rules\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('pettingzoo', 'gymnasium'))))",
        tmp_path,
    )
    assert json.loads(out) == []


def test_import_meeplezoo_registers_games_and_no_old_top_level_package(tmp_path):
    out = _run(
        "import json, sys\n"
        "import meeplezoo, pettingzoo\n"
        "env = pettingzoo.make('aec', 'meeplezoo/gem_mountain_v0')\n"
        "env.reset(seed=1)\n"
        "from meeplezoo.envs import princes_of_amber_v1\n"
        "princes_of_amber_v1.env().reset(seed=2)\n"
        "import meeplezoo.cli\n"
        "print(json.dumps({'agents': list(env.possible_agents),"
        " 'old': sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('envs', 'agents', 'training', 'benchmarks'))}))",
        tmp_path,
    )
    report = json.loads(out)
    assert report == {"agents": ["player_0", "player_1"], "old": []}


def test_pettingzoo_imported_first_still_finds_the_games(tmp_path):
    out = _run(
        "import pettingzoo, meeplezoo\n"
        "print(pettingzoo.make('aec', 'meeplezoo/amoeba_v0', num_players=3).possible_agents)",
        tmp_path,
    )
    assert "player_2" in out


def test_rules_pages_ship_inside_the_package():
    from importlib.resources import files

    pages = files("meeplezoo.rules_pages")
    for name in envs.names():
        page = pages / f"{name.rsplit('_v', 1)[0]}.md"
        assert page.is_file(), page
        assert page.read_text(encoding="utf-8").startswith("#")


@pytest.mark.parametrize("name", envs.names())
def test_game_info_version_matches_the_entry_module_name(name):
    info = envs.game_class(name).info
    assert info.name == name
    assert name == f"{envs.strip_version(name)}_v{info.version}"


@pytest.mark.parametrize("retired", sorted(envs.RETIRED))
def test_a_retired_version_is_refused_naming_its_successor(retired):
    successor, _ = envs.RETIRED[retired]
    assert successor in envs.names() and retired not in envs.names()
    for build in (envs.make, envs.make_game, envs.game_class):
        with pytest.raises(ValueError, match=f"{retired} was replaced by {successor}"):
            build(retired)
    assert envs.resolve(envs.strip_version(retired)) == successor


@pytest.mark.parametrize("name", envs.names())
def test_rules_module_does_not_import_its_observer(name):
    """The observer reads the state, never the reverse: observe.py is wired
    to the Game by the game package, not imported by rules.py."""
    import ast

    game = envs.strip_version(name)
    tree = ast.parse((ROOT / "envs" / game / "rules.py").read_text())
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)] + [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    assert not [m for m in imported if m.endswith(".observe")]
