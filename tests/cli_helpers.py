"""Checks shared by the command-line tests: a mistake is one line on stderr
naming the bad value, exit status 2, and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def assert_one_error_line(err: str, *named: str) -> str:
    """``err`` is exactly one line and mentions every string in ``named``;
    returns that line."""
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one error line, got {len(lines)}:\n{err}"
    assert "Traceback" not in err
    for value in named:
        assert value in lines[0], f"{value!r} not named in {lines[0]!r}"
    return lines[0]


def console_script() -> str:
    """The installed ``meeplezoo`` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("meeplezoo")
    return str(script) if script.exists() else "meeplezoo"


def run_command(
    args: list[str], cwd: Path, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess:
    """``meeplezoo ARGS`` as a person runs it, in ``cwd``."""
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [console_script(), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
