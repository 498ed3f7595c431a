"""The one extractor of runnable examples, for the README and the site's pages.

A Markdown file's fenced blocks are read with their line and section;
```` ```bash ```` lines are shell commands, ```` ```python ```` blocks are
scripts; ``text`` blocks are shown, and ``py`` blocks are templates that
cannot run alone (a new game's entry module), highlighted as Python.
Commands run on tiny budgets, shrunk by :func:`shrink` (the product has no
test mode), in a temporary folder, in order, so a command reads what the one
above it wrote. Nothing goes untested without a named reason: a command is
either run or listed in :data:`NOT_RUN` with why.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Steps of an install line that build the environment: this one has the project installed already.
INSTALL_STEPS = ("python3 -m venv ", ". .venv/bin/activate", "source .venv/bin/activate", "pip install ")

# Commands that cannot run here, with the reason (matched as a prefix or a word of the command).
NOT_RUN = {
    "ray start": "starts a Ray cluster node, which needs machines to join",
    "--address": "joins an existing Ray cluster",
}

# A command that waits for a person gets these answers on stdin: the first legal move, every turn.
HUMAN_ANSWERS = "0\n" * 20_000

# Commands that need Ray: local Ray instances are started, so they are marked `ray`.
RAY_MARKERS = ("--backend rllib", "--backend ray")

TIMEOUT = 300  # seconds for one command or script

# Commands that start a server and run until stopped: each is started on a free
# local port, must answer its front page, and is then stopped.
SERVER_COMMANDS = ("meeplezoo serve",)
SERVER_START_SECONDS = 60


@dataclass(frozen=True)
class Block:
    language: str
    body: str
    line: int  # first line of the body in its file
    section: str  # the heading above it
    path: Path


@dataclass(frozen=True)
class Command:
    text: str  # as written
    line: int
    block: str  # the section it belongs to
    path: Path

    @property
    def needs_ray(self) -> bool:
        return any(marker in self.text for marker in RAY_MARKERS)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, indented ones (inside lists) dedented."""
    found, section = [], ""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = re.match(r"^(\s*)```(\w*)", line)
        if fence:
            end = index + 1
            while not lines[end].strip().startswith("```"):
                end += 1
            body = textwrap.dedent("\n".join(lines[index + 1 : end]))
            found.append(Block(fence.group(2), body, index + 2, section, path))
            index = end
        index += 1
    return found


def commands(path: Path, command_sections: tuple[str, ...] = ()) -> list[Command]:
    """Every shell command, in order: ```bash lines, and the command column
    of unlabelled blocks under the named sections (a command-line summary,
    its description column set off by two or more spaces)."""
    found = []
    for block in blocks(path):
        if block.language == "bash":
            for offset, line in enumerate(block.body.splitlines()):
                if line.strip() and not line.lstrip().startswith("#"):
                    found.append(Command(line.strip(), block.line + offset, block.section, path))
        elif block.language == "" and block.section in command_sections:
            for offset, line in enumerate(block.body.splitlines()):
                command = re.split(r"\s{2,}", line.strip())[0]
                if command:
                    found.append(Command(command, block.line + offset, block.section, path))
    return found


def python_blocks(path: Path) -> list[Block]:
    return [block for block in blocks(path) if block.language == "python"]


def not_run_reason(command: str) -> str | None:
    for pattern, reason in NOT_RUN.items():
        if command.startswith(pattern) or pattern in command.split():
            return reason
    return None


def runnable(command: Command) -> str:
    """What the tests run for a command: no install steps, a tiny budget."""
    return shrink(without_install_steps(command.text))


def first_runs(pages: list[Path]) -> dict[str, Command]:
    """Each runnable command, by what runs, with the first page (in the order given) that runs it:
    a page that repeats it, budget aside, leaves it to that one instead of running it twice."""
    first: dict[str, Command] = {}
    for page in pages:
        for command in commands(page):
            if not not_run_reason(command.text) and runnable(command).strip():
                first.setdefault(runnable(command), command)
    return first


def without_install_steps(command: str) -> str:
    """An install one-liner minus venv creation, activation and pip."""
    steps = [step.strip() for step in command.split("&&")]
    return " && ".join(step for step in steps if not step.startswith(INSTALL_STEPS))


# Training settings that shrink an SB3 run to seconds: short rollouts, one epoch, one evaluation
# of two games (so best_model.zip exists, as after a real run) and two closing games.
TINY_SB3 = (
    "n_steps=64 batch_size=32 n_epochs=1 eval_every=128 eval_games=2 eval_mcts_games=0 "
    "final_games=2 final_workers=1 eval_mcts_spec=mcts:sims=2"
)
TINY_RLLIB = "train_batch_size=200 minibatch_size=100 num_epochs=1"
TINY_AZ = (
    "sims=2 eval_sims=2 games_per_round=2 concurrent_games=2 eval_games=2 eval_every=0 "
    "hidden=16 channels=4 batch_size=16 max_moves=30 eval_mcts_spec=mcts:sims=2"
)


# Each game's turn limit on a tiny budget: its games end within a few dozen moves, so a closing table,
# a replay and its page (every move drawn) take seconds. The observation and action spaces are unchanged.
TINY_GAME_LENGTH = {
    "amethyst_amber": "max_main_turns=6",
    "amoeba": "max_turns=6",
    "gold_rush_gangs": "max_rounds=3",
    "princes_of_amber": "max_turns=4",
}
GAME_COMMANDS = re.compile(r"^meeplezoo (arena|play|train) (\w+)")


def _shrink_game_length(command: str) -> str:
    """Commands that name a game play it with a short turn limit (a resumed run keeps its own)."""
    named = GAME_COMMANDS.match(command)
    game = named and re.sub(r"_v\d+$", "", named.group(2))
    if game in TINY_GAME_LENGTH and "--algo az" not in command:
        command += f" --config {TINY_GAME_LENGTH[game]}"
    return command


def _shrink_training(command: str) -> str:
    if "--backend rllib" in command:
        return command + f" --eval-games 2 --config {TINY_RLLIB}"
    if "--algo az" in command:
        return command + f" --config {TINY_AZ}"
    return command + f" --config {TINY_SB3}"


def shrink(command: str) -> str:
    """The command on a tiny budget: fewer steps, games, simulations, repeats and env-runner actors,
    shorter games; the rest as written."""
    command = re.sub(r"--timesteps \d+", "--timesteps 128", command)
    command = re.sub(r"--games (\d+)", "--games 2", command)
    command = re.sub(r"sims=\d+", "sims=4", command)
    # each remote env runner is one more Ray actor with its own imports: RLlib samples in its driver
    command = re.sub(r"--num-env-runners \d+", "--num-env-runners 0", command)
    command = _shrink_game_length(command)
    if command.startswith("meeplezoo train"):
        command = _shrink_training(command)
    if command.startswith("python -m meeplezoo.training.benchmark") and "--summary" not in command:
        command += f" --games 2 --eval-every 0 --config {TINY_SB3}"
    if command.startswith("meeplezoo bench"):
        command += " --games floor --seconds 0.005"
    if command.startswith("python -m pytest"):
        # the suite holds this test: run one quick file of it with the same options instead, without
        # the kernels' warm-up (tests/conftest.py), which that file does not need
        command = "MEEPLEZOO_WARM=0 " + command
        command += f" {shlex.quote(str(ROOT / 'tests' / 'test_packaging.py'))} -k rules_pages"
    return command


# An example script's budget constants, on a tiny budget (a line `NAME = value` at the left margin).
TINY_CONSTANTS = {
    "TOTAL_STEPS": "128",
    "ROLLOUT_STEPS": "64",
    "EVAL_GAMES": "2",
    "ITERATIONS": "1",
    "NUM_ENVS": "2",
    "EPOCHS": "1",
    "STEPS_PER_EPOCH": "64",
    "GAMES": "2",
}


def shrink_python(code: str) -> str:
    """The script with its budget constants made tiny; the rest as written."""
    for name, value in TINY_CONSTANTS.items():
        code = re.sub(rf"^{name} = [^#\n]*", f"{name} = {value}  ", code, flags=re.MULTILINE)
    return code


def environment() -> dict[str, str]:
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
        env=environment(),
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
        env=environment(),
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


def run_commands(group: list[Command], folder: Path) -> None:
    """Run a group's commands in order in one folder; fail naming the first that fails."""
    for command in group:
        line = runnable(command)
        if not line.strip():
            continue
        run = run_server if line.startswith(SERVER_COMMANDS) else run_shell
        result = run(line, folder)
        assert result.returncode == 0, (
            f"{command.where} `{command.text}` (run as `{line}`) exited {result.returncode}\n"
            f"stdout tail:\n{result.stdout[-2000:]}\nstderr tail:\n{result.stderr[-3000:]}"
        )


def run_python(block: Block, folder: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", shrink_python(block.body)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment(),
    )
    where = f"{block.path.relative_to(ROOT)}:{block.line}"
    assert result.returncode == 0, f"{where} python block failed:\n{result.stderr[-3000:]}"
