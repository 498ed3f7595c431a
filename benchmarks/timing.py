"""Repeat-and-summarise helpers shared by every measurement.

A workload ``run(n)`` does ``n`` units of work from the same seeds each time,
so repeats differ only by noise. Warm-up runs are calibration and are never
reported.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Settings:
    """How long to measure. ``quick`` keeps the whole run under a minute."""

    repeats: int = 5
    repeat_seconds: float = 0.6  # one repeat of a step loop
    warmup_seconds: float = 0.3
    call_seconds: float = 0.12  # one repeat of a per-call cost (observe, clone...)
    positions: int = 48  # positions sampled for the per-call costs
    seed: int = 0

    @classmethod
    def quick(cls, seed: int = 0) -> "Settings":
        return cls(
            repeats=5, repeat_seconds=0.04, warmup_seconds=0.02, call_seconds=0.008,
            positions=12, seed=seed,
        )


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def calibrate(run: Callable[[int], object], seconds: float, start: int = 1) -> float:
    """Units per second of ``run``, doubling the work until it lasts ``seconds``
    (this is the warm-up; its time is not reported)."""
    n = start
    while True:
        t0 = time.perf_counter()
        run(n)
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds or n >= 1 << 26:
            return n / max(elapsed, 1e-9)
        n *= 2 if elapsed < seconds / 8 else max(2, int(seconds / max(elapsed, 1e-9)) + 1)


def rates(
    run: Callable[[int], object], settings: Settings, seconds: float | None = None
) -> tuple[list[float], int]:
    """Units per second over ``settings.repeats`` runs of the same size, and
    that size (chosen from the warm-up so one run lasts ``seconds``)."""
    seconds = settings.repeat_seconds if seconds is None else seconds
    rate = calibrate(run, min(settings.warmup_seconds, seconds))
    n = max(1, int(rate * seconds))
    out = []
    for _ in range(settings.repeats):
        t0 = time.perf_counter()
        run(n)
        out.append(n / max(time.perf_counter() - t0, 1e-9))
    return out, n


def seconds_per_call(op: Callable, items: list, settings: Settings) -> list[float]:
    """Seconds per ``op(item)`` call, one value per repeat, over all ``items``."""
    if not items:
        return []

    def run(loops: int) -> None:
        for _ in range(loops):
            for item in items:
                op(item)

    per_second, _ = rates(run, settings, settings.call_seconds)
    return [1.0 / (r * len(items)) for r in per_second]
