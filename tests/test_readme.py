"""Every command and code example of the README runs, on tiny budgets.

The README's shell commands (its ```bash blocks and the command-line block)
and its ```python blocks are extracted and run in a temporary working
directory, each block's commands in order (the replay command reads what the
arena command above it wrote). The examples are the ones a newcomer copies,
so they must work as written; only their budgets are shrunk here, by the
rewrites in ``shrink`` (the product has no test mode), and the installing
steps of the Quickstart are left out because this environment has the
project installed already.

Nothing of the README goes untested without a named reason: a command is
either run or listed in ``NOT_RUN`` with why.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

# Steps of the Quickstart that install the project: this environment already has it.
INSTALL_STEPS = ("python3 -m venv ", ". .venv/bin/activate", "source .venv/bin/activate", "pip install ")

# Commands that cannot run here, with the reason (matched as a prefix or a word of the command).
NOT_RUN = {
    "ray start": "starts a Ray cluster node, which needs machines to join",
    "--address": "joins an existing Ray cluster",
}

# A README command that waits for a person gets these answers on stdin: the first legal move, every turn.
HUMAN_ANSWERS = "0\n" * 20_000

# Commands that need Ray: local Ray instances are started, so they are marked `ray`.
RAY_MARKERS = ("--backend rllib", "--backend ray")

TIMEOUT = 300  # seconds for one command

# Commands that start a server and run until stopped: each is started on a free
# local port, must answer its front page, and is then stopped.
SERVER_COMMANDS = ("meeplezoo serve",)
SERVER_START_SECONDS = 60


@dataclass(frozen=True)
class Command:
    text: str  # as written in the README
    line: int  # line of README.md where it is written
    block: str  # the section it belongs to

    @property
    def needs_ray(self) -> bool:
        return any(marker in self.text for marker in RAY_MARKERS)


def _blocks(text: str):
    """(language, body, first body line number, section heading) of each fenced block."""
    section = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            start = i + 1
            end = start
            while not lines[end].startswith("```"):
                end += 1
            yield fence.group(1), lines[start:end], start + 1, section
            i = end
        i += 1


def _is_command_line_block(language: str, section: str) -> bool:
    return language == "" and section == "Command line"


def readme_commands() -> list[Command]:
    """Every shell command of the README, in order: ```bash lines, and the
    command column of the command-line block (its description column is
    separated by two or more spaces)."""
    commands = []
    for language, body, first, section in _blocks(README.read_text()):
        if language == "bash":
            for offset, line in enumerate(body):
                if line.strip() and not line.lstrip().startswith("#"):
                    commands.append(Command(line.strip(), first + offset, section))
        elif _is_command_line_block(language, section):
            for offset, line in enumerate(body):
                command = re.split(r"\s{2,}", line.strip())[0]
                if command:
                    commands.append(Command(command, first + offset, section))
    return commands


def readme_python_blocks() -> list[tuple[int, str, str]]:
    """(line, section, code) of every ```python block."""
    return [
        (first, section, "\n".join(body))
        for language, body, first, section in _blocks(README.read_text())
        if language == "python"
    ]


def not_run_reason(command: str) -> str | None:
    for pattern, reason in NOT_RUN.items():
        if command.startswith(pattern) or pattern in command.split():
            return reason
    return None


def without_install_steps(command: str) -> str:
    """The Quickstart's one-liners minus venv creation, activation and pip."""
    steps = [step.strip() for step in command.split("&&")]
    return " && ".join(step for step in steps if not step.startswith(INSTALL_STEPS))


# Training settings that shrink an SB3 run to seconds: short rollouts, one epoch, a small net,
# no periodic evaluation and two closing games.
TINY_SB3 = "n_steps=64 batch_size=32 n_epochs=1 eval_every=0 final_games=2 final_workers=1 eval_mcts_spec=mcts:sims=2"
TINY_RLLIB = "train_batch_size=200 minibatch_size=100 num_epochs=1"
TINY_AZ = (
    "sims=2 eval_sims=2 games_per_round=2 concurrent_games=2 eval_games=2 eval_every=0 "
    "hidden=16 channels=4 batch_size=16 max_moves=30 eval_mcts_spec=mcts:sims=2"
)


def shrink(command: str) -> str:
    """The README command on a tiny budget: fewer steps, games, simulations
    and repeats; the rest as written."""
    command = re.sub(r"--timesteps \d+", "--timesteps 128", command)
    command = re.sub(r"--games (\d+)", "--games 2", command)
    command = re.sub(r"sims=\d+", "sims=4", command)
    if command.startswith("meeplezoo train"):
        if "--backend rllib" in command:
            command += f" --eval-games 2 --config {TINY_RLLIB}"
        elif "--algo az" in command:
            command += f" --config {TINY_AZ}"
        else:
            command += f" --config {TINY_SB3}"
    if command.startswith("python -m meeplezoo.training.benchmark") and "--summary" not in command:
        command += f" --games 2 --eval-every 0 --config {TINY_SB3}"
    if command.startswith("meeplezoo bench"):
        command += " --games floor --seconds 0.005"
    if command.startswith("python -m pytest"):
        # the suite holds this test: run one quick file of it with the README's options instead
        command += f" {shlex.quote(str(ROOT / 'tests' / 'test_packaging.py'))} -k rules_pages"
    return command


def _environment() -> dict[str, str]:
    """This interpreter's environment first on PATH, as after activating it."""
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""), "COLUMNS": "120"}


def run_shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    stdin = HUMAN_ANSWERS if command.startswith("meeplezoo play") else ""
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_environment(),
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_server(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """Start a server command on a free port, fetch its front page, stop it.
    Exit status 0 means the page answered with HTML."""
    port = _free_port()
    command = command.split(" #", 1)[0]  # a trailing shell comment would swallow the port
    command = re.sub(r"--port \d+", "", command) + f" --port {port}"
    server = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    page, deadline = "", time.monotonic() + SERVER_START_SECONDS
    try:
        while time.monotonic() < deadline and server.poll() is None and not page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode()
            except OSError:
                time.sleep(0.3)
    finally:
        server.terminate()
        stdout, stderr = server.communicate(timeout=30)
    status = 0 if "<html" in page.lower() else 1
    return subprocess.CompletedProcess(command, status, stdout, stderr + ("" if status == 0 else "\nno page"))


def command_groups() -> list:
    """One test per README section and Ray-or-not: the commands of a group
    run in order in one folder."""
    groups: dict[tuple[str, bool], list[Command]] = {}
    for command in readme_commands():
        if not_run_reason(command.text):
            continue  # reported by test_readme_command_not_run
        groups.setdefault((command.block, command.needs_ray), []).append(command)
    params = []
    for (block, needs_ray), commands in groups.items():
        marks = [pytest.mark.ray] if needs_ray else []
        label = re.sub(r"\W+", "_", block.lower()).strip("_") + ("_ray" if needs_ray else "")
        params.append(pytest.param(commands, id=label, marks=marks))
    return params


@pytest.mark.parametrize("commands", command_groups())
def test_readme_commands_run(commands, tmp_path):
    for command in commands:
        runnable = shrink(without_install_steps(command.text))
        run = run_server if runnable.startswith(SERVER_COMMANDS) else run_shell
        result = run(runnable, tmp_path)
        assert result.returncode == 0, (
            f"README.md:{command.line} `{command.text}` (run as `{runnable}`) exited {result.returncode}\n"
            f"stdout tail:\n{result.stdout[-2000:]}\nstderr tail:\n{result.stderr[-3000:]}"
        )


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, id=f"line_{c.line}") for c in readme_commands() if not_run_reason(c.text)],
)
def test_readme_command_not_run(command):
    pytest.skip(f"README.md:{command.line} `{command.text}`: {not_run_reason(command.text)}")


@pytest.mark.parametrize(
    "line, code", [pytest.param(line, code, id=f"line_{line}") for line, _s, code in readme_python_blocks()]
)
def test_readme_python_runs(line, code, tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, f"README.md:{line} python block failed:\n{result.stderr[-3000:]}"


def test_every_readme_command_is_run_or_has_a_reason():
    commands = readme_commands()
    texts = [c.text for c in commands]
    assert any("meeplezoo train" in t and "pip install" in t for t in texts), "Quickstart not found"
    assert any(t.startswith("meeplezoo replay") for t in texts)
    assert len(readme_python_blocks()) >= 3
    for command in commands:
        runnable = shrink(without_install_steps(command.text))
        assert runnable.strip() or not_run_reason(command.text), f"README.md:{command.line} runs nothing"
    for pattern in NOT_RUN:  # the list names only what the README has
        assert any(not_run_reason(t) and pattern in t for t in texts), f"NOT_RUN entry {pattern!r} is stale"


def test_quickstart_is_two_commands_for_a_fresh_machine():
    quickstart = [c.text for c in readme_commands() if c.block == "Quickstart"]
    assert len(quickstart) == 2
    assert all(
        c.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install") for c in quickstart
    )
    assert "meeplezoo train" in quickstart[0] and "python -m pytest" in quickstart[1]


def test_replay_example_reads_a_file_the_arena_example_writes():
    texts = [c.text for c in readme_commands()]
    for i, text in enumerate(texts):
        if text.startswith("meeplezoo replay "):
            path = text.split()[2]
            folder = path.split("/replays/")[0]
            writers = [t for t in texts[:i] if "meeplezoo arena" in t and f"--out {folder}" in t]
            assert writers and "--replays" in writers[-1], f"nothing above writes {path}"
            assert re.search(r"game_\d{5}\.json$", path), f"{path} is not an arena replay name"


def test_games_table_matches_the_registry():
    from meeplezoo.envs.list_cli import game_rows, markdown_table

    text = README.read_text()
    table = text.split("<!-- games-table -->\n", 1)[1].split("\n<!-- /games-table -->", 1)[0]
    assert table == markdown_table(game_rows()), "regenerate it with: meeplezoo list --markdown"
