"""Before xdist starts its workers, compile the games' kernels into numba's
disk cache, one game per core (``envs/core/compiled/warm.py``). Without it
every worker compiles every kernel it meets, the same work once per worker;
with it the workers load the cache. ``MEEPLEZOO_WARM=0`` skips it."""

from __future__ import annotations

import os
import time

import pytest


def _is_xdist_controller(config: pytest.Config) -> bool:
    workers = getattr(config.option, "numprocesses", None)
    return bool(workers) and not hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if (
        os.environ.get("MEEPLEZOO_WARM") == "0"
        or config.option.collectonly
        or not _is_xdist_controller(config)
    ):
        return
    from meeplezoo.envs.core.compiled.warm import warm

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    start = time.perf_counter()
    try:
        seconds = warm()
    except Exception as error:  # noqa: BLE001 - the tests themselves will show the failure in full
        line = f"kernel warm-up failed ({type(error).__name__}: {error}); the workers compile on first use"
    else:
        games = ", ".join(f"{name} {taken:.0f} s" for name, taken in seconds.items())
        line = f"kernels compiled or loaded in {time.perf_counter() - start:.0f} s ({games})"
    if reporter is not None:
        reporter.write_line(line)
