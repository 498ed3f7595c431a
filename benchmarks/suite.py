"""One benchmark run: measure every subject in turn and assemble the report."""

from __future__ import annotations

import dataclasses
import datetime
import gc
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeplezoo.benchmarks import machine, report
from meeplezoo.benchmarks.step_loop import SubjectBench
from meeplezoo.benchmarks.subjects import Subject
from meeplezoo.benchmarks.timing import Settings

_ROOT = str(Path(__file__).resolve().parent.parent) + os.sep


def _error(subject: Subject, exc: Exception) -> dict[str, Any]:
    """The subject with its error (paths shown relative to the project)."""
    text = f"{type(exc).__name__}: {exc}".replace(_ROOT, "")
    return {
        "name": subject.name,
        "label": subject.label,
        "kind": subject.kind,
        "config": subject.config,
        "error": text,
    }


def run(
    subjects: list[Subject],
    settings: Settings,
    skipped: dict[str, str] | None = None,
    command: str = "",
    on_progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure ``subjects``: warm up and size each one, then time repeat 1 of
    every subject, repeat 2 of every subject, and so on. A subject that raises
    is reported with its error instead of stopping the run."""
    say = on_progress or (lambda text: None)
    benches: list[SubjectBench | dict] = []
    for subject in subjects:
        say(f"warming up {subject.label}")
        gc.collect()
        try:
            benches.append(SubjectBench(subject, settings))
        except Exception as exc:  # a broken game must not hide the others' figures
            benches.append(_error(subject, exc))
    for r in range(settings.repeats):
        for i, bench in enumerate(benches):
            if isinstance(bench, SubjectBench):
                say(f"repeat {r + 1}/{settings.repeats}: {bench.subject.label}")
                try:
                    bench.repeat()
                except Exception as exc:
                    benches[i] = _error(bench.subject, exc)
    results = [b.result() if isinstance(b, SubjectBench) else b for b in benches]
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
