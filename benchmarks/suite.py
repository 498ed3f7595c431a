"""One benchmark run: measure every subject in turn and assemble the report."""

from __future__ import annotations

import dataclasses
import datetime
import gc
from typing import Any, Callable

from benchmarks import machine, report
from benchmarks.step_loop import measure
from benchmarks.subjects import Subject
from benchmarks.timing import Settings


def run(
    subjects: list[Subject],
    settings: Settings,
    skipped: dict[str, str] | None = None,
    command: str = "",
    on_subject: Callable[[Subject], None] | None = None,
) -> dict[str, Any]:
    """Measure ``subjects`` in order; a subject that raises is reported with
    its error instead of stopping the run."""
    results = []
    for subject in subjects:
        if on_subject:
            on_subject(subject)
        gc.collect()
        try:
            results.append(measure(subject, settings))
        except Exception as exc:  # a broken game must not hide the others' figures
            results.append({"name": subject.name, "label": subject.label, "kind": subject.kind,
                            "config": subject.config, "error": f"{type(exc).__name__}: {exc}"})
    report.add_ratios(results)
    return {
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine.describe(),
        "settings": dataclasses.asdict(settings),
        "results": results,
        "targets": report.targets(results),
        "skipped": dict(skipped or {}),
    }
