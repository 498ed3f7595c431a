"""Every code block of the site's pages runs, on tiny budgets.

Each page's ```bash commands run in order in one temporary folder (a
command reads what the one above it wrote); a page with a command that
starts Ray is marked `ray`. Each ```python block runs as a script,
its budget constants shrunk. Nothing runs twice: a command that an earlier
page runs, budget aside, is left to that page (``first_runs``), and a block
that repeats one of the README's word for word is run by
``tests/test_readme.py``. Starting a local Ray costs the most, so the
default run starts it for one page's commands, :data:`RAY_PAGE`'s; every
other command group or block that starts Ray is also marked `slow`.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.extract import (
    NOT_RUN,
    ROOT,
    blocks,
    commands,
    first_runs,
    not_run_reason,
    python_blocks,
    run_commands,
    run_python,
    runnable,
)

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
LANGUAGES = {"bash", "python", "py", "text"}  # run, run, shown (a template), shown
README_CODE = {block.body for block in python_blocks(ROOT / "README.md")}
RAY_PAGE = DOCS / "libraries" / "rllib.md"  # its commands are the default run's one local Ray
FIRST_RUNS = first_runs(PAGES)


def _label(path) -> str:
    return re.sub(r"\W+", "_", str(path.relative_to(DOCS).with_suffix(""))).strip("_")


def _ray_marks(page) -> list:
    return [pytest.mark.ray] + ([] if page == RAY_PAGE else [pytest.mark.slow])


def page_group(page) -> list:
    """The page's commands that run here: not those that cannot, nor those an earlier page runs."""
    return [
        command
        for command in commands(page)
        if not not_run_reason(command.text) and FIRST_RUNS.get(runnable(command), command) == command
    ]


def command_groups() -> list:
    """One group per page; a page with a command that starts Ray is marked `ray` as a whole
    (its later commands use what that one trained)."""
    params = []
    for page in PAGES:
        group = page_group(page)
        if group:
            marks = _ray_marks(page) if any(c.needs_ray for c in group) else []
            params.append(pytest.param(group, id=_label(page), marks=marks))
    return params


def script_params() -> list:
    params = []
    for page in PAGES:
        for block in python_blocks(page):
            if block.body in README_CODE:
                continue
            starts_ray = re.search(r"^import ray$", block.body, re.MULTILINE)
            marks = [pytest.mark.ray, pytest.mark.slow] if starts_ray else []
            params.append(pytest.param(block, id=f"{_label(page)}_line_{block.line}", marks=marks))
    return params


@pytest.mark.parametrize("group", command_groups())
def test_page_commands_run(group, tmp_path):
    run_commands(group, tmp_path)


@pytest.mark.parametrize("block", script_params())
def test_page_python_runs(block, tmp_path):
    run_python(block, tmp_path)


def test_every_block_is_run_or_marked_as_shown():
    for page in PAGES:
        for block in blocks(page):
            where = f"{block.path.relative_to(ROOT)}:{block.line}"
            assert block.language in LANGUAGES, (
                f"{where}: a block's language must be one of {sorted(LANGUAGES)}"
            )


def test_every_command_not_run_is_named_with_a_reason():
    everything = [c.text for page in [*PAGES, ROOT / "README.md"] for c in commands(page)]
    skipped = [text for text in everything if not_run_reason(text)]
    assert all(not text.startswith("meeplezoo train") or "--address" in text for text in skipped)
    for pattern in NOT_RUN:  # the list names only what the pages have
        assert any(pattern in text for text in skipped), f"NOT_RUN entry {pattern!r} is stale"


def test_replay_commands_read_what_an_arena_command_above_them_wrote():
    for page in PAGES:
        texts = [c.text for c in commands(page)]
        for index, text in enumerate(texts):
            match = re.match(r"meeplezoo (replay|view) (\S+)", text)
            if not match:
                continue
            folder = match.group(2).split("/replays/")[0]
            writers = [t for t in texts[:index] if "meeplezoo arena" in t and f"--out {folder}" in t]
            assert writers and "--replays" in writers[-1], (
                f"{page.name}: nothing above writes {match.group(2)}"
            )


def test_a_command_left_to_another_page_is_run_there():
    for page in PAGES:
        for command in commands(page):
            if not_run_reason(command.text) or not runnable(command).strip():
                continue
            first = FIRST_RUNS[runnable(command)]
            assert first in page_group(first.path), f"{command.where} is run by no page"
            assert first == command or command not in page_group(page), f"{command.where} runs twice"
