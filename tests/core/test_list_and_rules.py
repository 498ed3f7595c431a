"""``meeplezoo list`` never cuts a game name; ``meeplezoo rules`` prints the
rules pages shipped in the package."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from meeplezoo import envs
from meeplezoo.cli import main
from meeplezoo.envs.list_cli import game_rows, print_table, short_name
from tests.cli_helpers import assert_one_error_line


def _rendered(width: int) -> str:
    console = Console(file=io.StringIO(), width=width)
    print_table(game_rows(), console)
    return console.file.getvalue()


@pytest.mark.parametrize("width", [24, 40, 60, 80, 100, 160])
def test_list_never_cuts_a_game_name(width):
    text = _rendered(width)
    lines = text.splitlines()
    for name in envs.names():
        assert any(name in line for line in lines), f"{name} cut at width {width}:\n{text}"
    assert "…" not in text
    assert max(len(line) for line in lines) <= max(width, max(map(len, envs.names())))


def test_list_drops_columns_before_it_wraps_names_and_keeps_all_when_wide():
    assert "observation" in _rendered(80) and "title" not in _rendered(80)
    assert all(
        h in _rendered(120) for h in ("title", "players", "hidden", "chance", "actions", "observation")
    )


def test_list_points_to_the_rules_command(capsys):
    assert main(["list"]) == 0
    assert "meeplezoo rules GAME" in capsys.readouterr().out
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["rules_command"] for r in rows} == {f"meeplezoo rules {short_name(n)}" for n in envs.names()}


@pytest.mark.parametrize("name", envs.names())
def test_rules_prints_the_packaged_page(name, capsys):
    from importlib.resources import files

    assert main(["rules", short_name(name)]) == 0
    page = (files("meeplezoo.rules_pages") / f"{short_name(name)}.md").read_text(encoding="utf-8")
    assert capsys.readouterr().out == page
    assert name in page or envs.game_class(name).info.title in page


def test_rules_of_an_unknown_game_is_one_line(capsys):
    assert main(["rules", "chess"]) == 2
    assert_one_error_line(capsys.readouterr().err, "chess")


@pytest.mark.parametrize("name", envs.names())
def test_env_docstring_names_the_rules_command(name):
    import importlib

    doc = importlib.import_module(f"meeplezoo.envs.{name}").__doc__
    assert f"seeds/{short_name(name)}.md" in doc
    assert f"meeplezoo rules {short_name(name)}" in " ".join(doc.split())


def test_list_says_which_games_run_compiled_by_default():
    rows = {row["game"]: row["backend"] for row in game_rows()}
    for name in envs.names():
        expected = "compiled" if getattr(envs.game_class(name), "kernel", None) else "python"
        assert rows[name] == expected
