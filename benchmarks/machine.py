"""Where a benchmark ran: cores, CPU, Python and package versions."""

from __future__ import annotations

import os
import platform
from importlib import metadata

PACKAGES = ("meeplezoo", "numpy", "gymnasium", "pettingzoo", "rlcard", "chess")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "source checkout" if package == "meeplezoo" else "not installed"


def describe() -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(terse=True),
        "packages": {p: _version(p) for p in PACKAGES},
    }
