"""Every game and test config replays its golden trace exactly.

A failure names the first step where the env shows something else. If the
change is deliberate, re-record (``python -m tests.golden.record --game
NAME``), bump the env's version when agents see or get something different,
and add a line to CHANGELOG.md (see CONTRIBUTING.md).
"""

from __future__ import annotations

import pytest

from meeplezoo import envs
from tests.conformance.cases import CASE_IDS, CASES
from tests.golden.replay import first_difference
from tests.golden.store import FORMAT, load_all

TRACE_FILES = load_all()
RECORD = "python -m tests.golden.record --game {}"


def trace_for(case):
    data = TRACE_FILES.get(case.name)
    for trace in data["traces"] if data else []:
        if trace["config"] == case.config:
            return trace
    return None


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_replay_matches_golden_trace(case):
    trace = trace_for(case)
    assert trace is not None, (
        f"{case.name} {case.config}: no golden trace; record it with {RECORD.format(case.name)}"
    )
    difference = first_difference(case, trace)
    assert difference is None, (
        f"{case.name} {case.config} (seed {trace['seed']}) differs from its golden trace at {difference}. "
        f"If that is deliberate: {RECORD.format(case.name)}, and bump the version when agents see "
        "or get something different (CONTRIBUTING.md)"
    )


COMPILED_CASES = [
    c for c in CASES if c.env_factory is None and getattr(envs.game_class(c.name), "kernel", None)
]


@pytest.mark.parametrize("case", COMPILED_CASES, ids=[c.id for c in COMPILED_CASES])
def test_reference_backend_matches_golden_trace_too(case):
    """Games with a compiled kernel run it by default (the test above); the
    Python reference must replay the same trace."""
    trace = trace_for(case)
    assert trace is not None
    difference = first_difference(case, trace, backend="python")
    assert difference is None, f"{case.name} {case.config} on backend='python' differs at {difference}"


def test_every_trace_names_a_current_env_and_config():
    configs = {}
    for case in CASES:
        configs.setdefault(case.name, []).append(case.config)
    stale = []
    for stem, data in TRACE_FILES.items():
        if data["format"] != FORMAT or data["env"] != stem:
            stale.append(f"{stem}.json: format {data['format']}, env {data['env']!r}")
        elif stem not in configs:
            stale.append(f"{stem}.json: no env {stem} any more (delete the file or re-record)")
        else:
            seen = [trace["config"] for trace in data["traces"]]
            stale += [
                f"{stem}.json: config {c} is no longer a test config" for c in seen if c not in configs[stem]
            ]
            stale += [f"{stem}.json: config {c} recorded twice" for i, c in enumerate(seen) if c in seen[:i]]
    assert not stale, "stale golden traces (python -m tests.golden.record):\n" + "\n".join(stale)
