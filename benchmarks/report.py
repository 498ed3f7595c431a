"""Turn step-loop measurements into ratios, a rich table, Markdown and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeplezoo.benchmarks.subjects import BASELINE, FLOOR
from meeplezoo.benchmarks.timing import summary

AEC_TARGET_VS_BASELINE = 2.0
RULES_TARGETS = {"gem_mountain_v0": 100_000, "amethyst_amber_v0": 100_000}

METHOD = """\
Every figure is random legal play (uniform over the action mask, `random.Random(seed)`), games
started from seeds `seed, seed+1, ...`, all subjects in one process. The pick
(`mask.nonzero()[0]`, `randrange`: about 1.5 us) is inside every loop's time.
- **AEC steps/s**: agent steps (calls of `step` with an action) per second of the loop a user
  writes: `reset(seed)`, `agent_iter()`, `last()`, pick from `observation["action_mask"]`,
  `step(a)`; resets and the closing `step(None)` calls are inside the timed time.
- **rules steps/s**: `legal_action_mask()` then `apply(a)` on the rules state, no observation
  (meeplezoo games only; the peers have no separate rules layer).
- **observe**: one AEC `observe` (observation + mask dict) at the decision points of random
  play, timed call by call on the wall clock, slowest 1% dropped (preemptions).
  **obs / mask / clone**: the rules `observation(player)`, `legal_action_mask()` and `clone()`
  over {positions} positions sampled evenly from 4 random games; obs and mask are timed call by
  call on a fresh clone of the position (so that a state's own caches do not make them look
  free), slowest 1% dropped. **reset**: one `env.reset(seed)`.
- **memory**: bytes one more env holds after `reset` (tracemalloc; imports and caches shared
  by every instance excluded); **obs bytes**: `nbytes` of one observation array.
- Clock: `{clock}` (`cpu` is this process's CPU time, which other programs on a busy machine
  barely disturb; `wall` is elapsed time; on an idle machine they agree).
- Each workload first runs as a warm-up that is not reported and that sizes the work so one
  repeat lasts about {repeat_seconds} s (loops) or {call_seconds} s (costs). Then the same work (same
  seeds) is repeated {repeats} times, interleaved: repeat 1 of every subject, then repeat 2, ...
  Tables give medians; the JSON has min, max and every repeat. Ratios are the median over repeats
  of (subject / reference) in the same repeat: `x c4` against `connect_four_v3`, `x floor`
  against the trivial env (`benchmarks/floor_env.py`) that costs only what the PettingZoo API
  itself costs.
- Single process, single thread; figures depend on the machine (see above)."""


def add_ratios(results: list[dict[str, Any]]) -> None:
    """Each subject's AEC steps/s over connect_four_v3's and over the floor's:
    the median of the ratios of the same repeat (timed side by side)."""
    by_name = {r["name"]: r for r in results if r["kind"] != "game" and "aec" in r}
    for key, ref in (("vs_baseline", BASELINE), ("vs_floor", FLOOR)):
        base = by_name.get(ref, {}).get("aec")
        for r in results:
            if "aec" in r:
                r[key] = (
                    None if not base else summary([a / b for a, b in zip(r["aec"]["values"], base["values"])])
                )


def targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The project's throughput targets, each marked met or missed."""
    out = []
    for r in results:
        if r["kind"] != "game" or "aec" not in r:
            continue
        if r.get("vs_baseline") is not None:
            ratio = r["vs_baseline"]["median"]
            out.append(
                {
                    "subject": r["label"],
                    "target": f"AEC >= {AEC_TARGET_VS_BASELINE:g}x {BASELINE}",
                    "value": f"{ratio:.2f}x",
                    "met": ratio >= AEC_TARGET_VS_BASELINE,
                }
            )
        goal = RULES_TARGETS.get(r["name"])
        if goal and r.get("rules"):
            out.append(
                {
                    "subject": r["label"],
                    "target": f"rules >= {goal:,} steps/s",
                    "value": f"{r['rules']['median']:,.0f}",
                    "met": r["rules"]["median"] >= goal,
                }
            )
    return out


def _rate(x: dict | None) -> str:
    return "-" if not x else f"{x['median']:,.0f}"


def _us(costs: dict, key: str) -> str:
    x = costs.get(key)
    return "-" if not x else f"{x['median'] * 1e6:.1f}"


def _ratio(x: dict | None) -> str:
    return "-" if x is None else f"{x['median']:.2f}"


COLUMNS = [
    "subject",
    "AEC steps/s",
    "x c4",
    "x floor",
    "rules steps/s",
    "observe us",
    "obs us",
    "mask us",
    "reset us",
    "clone us",
    "env KiB",
    "obs bytes",
]


def rows(results: list[dict[str, Any]]) -> list[list[str]]:
    out = []
    for r in results:
        if "error" in r:
            out.append([r["label"], f"error: {r['error']}"] + [""] * (len(COLUMNS) - 2))
            continue
        c = r["costs_s"]
        out.append(
            [
                r["label"],
                _rate(r["aec"]),
                _ratio(r.get("vs_baseline")),
                _ratio(r.get("vs_floor")),
                _rate(r.get("rules")),
                _us(c, "observe"),
                _us(c, "observation"),
                _us(c, "mask"),
                _us(c, "reset"),
                _us(c, "clone"),
                f"{r['memory_bytes'] / 1024:.1f}",
                str(r["observation_bytes"]),
            ]
        )
    return out


def configs(results: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(label, config) for each subject not run with its defaults."""
    return [
        (r["label"], " ".join(f"{k}={v}" for k, v in sorted(r["config"].items())))
        for r in results
        if r["config"]
    ]


TERMINAL_COLUMNS = ("subject", "AEC steps/s", "x c4", "rules steps/s", "obs us", "mask us", "clone us")
TARGETS_NOTE = (
    "The project's targets: the AEC loop at least 2x connect_four_v3's, the rules layer at least "
    "100,000 steps/s (every column and the targets are in --markdown / --json)."
)


def print_table(report: dict[str, Any], console=None, with_targets: bool = True) -> None:
    """The table a terminal shows: the columns that fit 100 characters (the
    Markdown and JSON reports keep them all), then each target met or missed."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title="Step-loop throughput (medians)")
    keep = [COLUMNS.index(name) for name in TERMINAL_COLUMNS]
    for i in keep:
        table.add_column(COLUMNS[i], justify="left" if i == 0 else "right", no_wrap=True)
    for row in rows(report["results"]):
        table.add_row(*(row[i] for i in keep))
    console.print(table)
    for label, config in configs(report["results"]):
        console.print(f"{label}: {config}")
    if with_targets:
        console.print(TARGETS_NOTE)
        for t in report["targets"]:
            mark = "[green]met[/]" if t["met"] else "[red]missed[/]"
            console.print(f"  {t['subject']}: {t['target']}: {t['value']} {mark}")
    for name, why in report["skipped"].items():
        console.print(f"[yellow]skipped {name}: {why}[/]")


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    s = report["settings"]
    lines = [
        "# Step-loop throughput",
        "",
        f"Made by `{report['command']}` on {report['date']}.",
        "",
        f"Machine: {m['cpu']}, {m['usable_cores']} usable of {m['cores']} cores, "
        f"{m['implementation']} {m['python']} on {m['platform']}.  ",
        "Packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()) + ".  ",
        f"Settings: seed {s['seed']}, {s['repeats']} repeats of {s['repeat_seconds']} s per loop, "
        f"warm-up {s['warmup_seconds']} s, {s['call_seconds']} s per cost repeat, "
        f"{s['positions']} sampled positions, clock {s['clock']}.",
        "",
        "## Results (medians; min and max in the JSON)",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(COLUMNS) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows(report["results"])]
    lines += ["", "Configurations (default unless listed):", ""]
    lines += [f"- {label}: `{config}`" for label, config in configs(report["results"])]
    if report["targets"]:
        lines += ["", "## Targets", ""]
        lines += [
            f"- {t['subject']}: {t['target']}: {t['value']}, **{'met' if t['met'] else 'missed'}**"
            for t in report["targets"]
        ]
    if report["skipped"]:
        lines += ["", "## Skipped", ""] + [f"- {k}: {v}" for k, v in report["skipped"].items()]
    lines += ["", "## Method", "", METHOD.format(**s), ""]
    return "\n".join(lines)


def save(report: dict[str, Any], json_path: str | None = None, md_path: str | None = None) -> None:
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(report, indent=1) + "\n")
    if md_path:
        Path(md_path).parent.mkdir(parents=True, exist_ok=True)
        Path(md_path).write_text(markdown(report))
