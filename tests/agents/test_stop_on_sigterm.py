"""A command killed with SIGTERM stops its worker processes with it.

Python's default SIGTERM ends the parent without cleanup, and a process
pool's workers then play on unwatched; the CLI turns SIGTERM into an
exception so the arena's pool and the trainer's self-play workers are
terminated, and the command exits 143 (128 + SIGTERM)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli_helpers import console_script

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _parent_and_state(pid: int) -> tuple[int, str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
    return int(fields[1]), fields[0]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = _parent_and_state(int(entry.name))
            if info is not None and info[0] == pid:
                found.append(int(entry.name))
    return found


# A worker interrupted while it is still being spawned prints multiprocessing's
# own traceback; its start-up (imports, the compiled kernels from the cache)
# takes a few seconds on a busy machine.
STARTUP_SECONDS = 10


def _running(pid: int) -> bool:
    info = _parent_and_state(pid)
    return info is not None and info[1] != "Z"


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.mark.parametrize(
    "args",
    [
        # 400 games of 2,000-simulation searches: many minutes, even with the compiled search
        [
            "arena",
            "amoeba",
            "--agents",
            "mcts:sims=2000",
            "mcts:sims=2000",
            "--games",
            "400",
            "--workers",
            "2",
        ],
        # a round of 64 games, 32 per worker: minutes of play, so waiting for it would show
        [
            "train",
            "amoeba",
            "--algo",
            "az",
            "--games",
            "64",
            "--workers",
            "2",
            "--out",
            "run",
            "--config",
            "games_per_round=64",
            "concurrent_games=32",
            "sims=64",
            "eval_games=0",
        ],
    ],
    ids=["arena", "train-az"],
)
def test_sigterm_ends_the_command_and_its_workers(args, tmp_path):
    proc = subprocess.Popen(
        [console_script(), *args, "--no-progress"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) >= 2, 120), "the workers never started"
        workers = _children(proc.pid)
        time.sleep(STARTUP_SECONDS)  # the workers are past their start-up, playing their first games
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        returncode = proc.wait(timeout=60)  # not after the games: they take minutes
        stderr = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr
    assert _wait_for(lambda: not any(_running(pid) for pid in workers), 20), [
        pid for pid in workers if _running(pid)
    ]


def test_sigterm_inside_the_guard_raises_and_the_old_handler_comes_back():
    from meeplezoo.cli import Terminated, sigterm_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated):
        with sigterm_as_interrupt():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises before this ends
    assert signal.getsignal(signal.SIGTERM) is before
