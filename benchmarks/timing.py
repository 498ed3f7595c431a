"""Clocks, warm-up sizing and summaries shared by every measurement.

A workload does a fixed amount of work from the same seeds each time it runs,
so repeats differ only by noise. Warm-up runs size the work and are never
reported. The default clock is this process's CPU time, which other programs
on a loaded machine barely disturb; ``wall`` is there for an idle machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


@dataclass(frozen=True)
class Settings:
    """How long to measure. ``quick`` keeps the whole run under a minute."""

    repeats: int = 5
    repeat_seconds: float = 0.5  # one repeat of a step loop
    warmup_seconds: float = 0.2
    call_seconds: float = 0.1  # one repeat of a per-call cost (observe, clone...)
    positions: int = 48  # positions sampled for the per-call costs
    seed: int = 0
    clock: str = "cpu"

    @classmethod
    def quick(cls, seed: int = 0, clock: str = "cpu") -> Settings:
        return cls(
            repeats=5,
            repeat_seconds=0.03,
            warmup_seconds=0.015,
            call_seconds=0.008,
            positions=12,
            seed=seed,
            clock=clock,
        )


def summary(values: list[float]) -> dict:
    """Median, min, max, and every repeat's value (in run order)."""
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "values": list(values),
    }


def size_for(run: Callable[[int], object], seconds: float, warmup: float, clock: Callable[[], float]) -> int:
    """How many units of ``run`` last about ``seconds``; the runs made to find
    out are the warm-up (doubling the work until one lasts ``warmup``). One
    untimed unit goes first: a compiled backend loads its code on first use,
    and sizing on that call would time a handful of steps."""
    run(1)
    n = 1
    while True:
        t0 = clock()
        run(n)
        elapsed = clock() - t0
        if elapsed >= warmup or n >= 1 << 26:
            return max(1, int(n / max(elapsed, 1e-9) * seconds))
        n *= 2 if elapsed < warmup / 8 else max(2, int(warmup / max(elapsed, 1e-9)) + 1)


class Workload:
    """``run(n)`` sized once, then timed once per repeat.

    ``per="second"`` gives units per second (steps/s); ``per="call"`` gives
    seconds per unit; ``per="self"`` takes the value ``run`` returns (for
    costs that must be timed call by call).
    """

    def __init__(
        self,
        run: Callable[[int], object],
        per: str,
        seconds: float,
        settings: Settings,
        units: int | None = None,
    ) -> None:
        self.run, self.per = run, per
        self.clock = CLOCKS[settings.clock]
        self.units = units or size_for(run, seconds, min(settings.warmup_seconds, seconds), self.clock)
        self.values: list[float] = []
        self.last_result: object = None  # what ``run`` returned in the last repeat

    def repeat(self) -> None:
        t0 = self.clock()
        result = self.last_result = self.run(self.units)
        elapsed = max(self.clock() - t0, 1e-9)
        if self.per == "second":
            self.values.append(self.units / elapsed)
        elif self.per == "call":
            self.values.append(elapsed / self.units)
        else:
            self.values.append(float(result))

    def summary(self) -> dict:
        return {**summary(self.values), "units_per_repeat": self.units}


def calls_over(op: Callable, items: list) -> Callable[[int], None]:
    """A workload of ``n`` calls of ``op``, cycling through ``items``."""
    count = len(items)

    def run(n: int) -> None:
        for i in range(n):
            op(items[i % count])

    return run
