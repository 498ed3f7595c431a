"""The README is the front door: short, and every command and example in it runs.

Its ```bash commands run grouped by section, each group in order in one
temporary folder, and its ```python blocks as scripts, on tiny budgets
(``tests/docs/extract.py``, the extractor the site's pages use too). The
installing steps of the Quickstart are left out because this environment has
the project installed already. A command that a page of the site runs too,
budget aside (the Quickstart's, which Getting started runs before its "What
next"), is left to that page's test (``tests/docs/test_pages.py``) rather
than run twice.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.extract import (
    ROOT,
    commands,
    first_runs,
    not_run_reason,
    python_blocks,
    run_commands,
    run_python,
    runnable,
    shrink,
    without_install_steps,
)

README = ROOT / "README.md"
MAX_LINES = 200
SITE_RUNS = first_runs(sorted((ROOT / "docs").rglob("*.md")))  # what the site's page tests run


def command_groups() -> list:
    """One test per README section: its commands run in order in one folder."""
    groups: dict[str, list] = {}
    for command in commands(README):
        if not not_run_reason(command.text) and runnable(command) not in SITE_RUNS:
            groups.setdefault(command.block, []).append(command)
    return [
        pytest.param(group, id=re.sub(r"\W+", "_", block.lower()).strip("_"), marks=_marks(group))
        for block, group in groups.items()
    ]


def _marks(group) -> list:
    return [pytest.mark.ray] if any(command.needs_ray for command in group) else []


@pytest.mark.parametrize("group", command_groups())
def test_readme_commands_run(group, tmp_path):
    run_commands(group, tmp_path)


@pytest.mark.parametrize("block", [pytest.param(b, id=f"line_{b.line}") for b in python_blocks(README)])
def test_readme_python_runs(block, tmp_path):
    run_python(block, tmp_path)


def test_the_quickstart_runs_on_the_getting_started_page():
    for command in commands(README):
        if command.block == "Quickstart" and runnable(command).strip():
            page = SITE_RUNS[runnable(command)]
            assert page.text == command.text, f"{command.where} differs from {page.where}"
            assert page.path.name == "getting-started.md"


def test_every_readme_command_runs_something():
    for command in commands(README):
        runnable = shrink(without_install_steps(command.text))
        assert runnable.strip() or not_run_reason(command.text), f"{command.where} runs nothing"


def test_quickstart_is_two_commands_for_a_fresh_machine():
    quickstart = [c.text for c in commands(README) if c.block == "Quickstart"]
    assert len(quickstart) == 2
    assert all(
        c.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install") for c in quickstart
    )
    assert "meeplezoo train" in quickstart[0] and "python -m pytest" in quickstart[1]


def test_readme_is_a_front_door_of_at_most_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; details belong on the site (docs/)"
    assert len(python_blocks(README)) >= 1


def test_readme_links_and_pictures_point_at_files_that_exist():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path = ROOT / target.split("#", 1)[0]
        assert path.exists(), f"README.md links to {target}, which does not exist"


def test_games_table_matches_the_registry():
    from meeplezoo.envs.list_cli import game_rows, markdown_table

    text = README.read_text()
    table = text.split("<!-- games-table -->\n", 1)[1].split("\n<!-- /games-table -->", 1)[0]
    assert table == markdown_table(game_rows()), "regenerate it with: meeplezoo list --markdown"
