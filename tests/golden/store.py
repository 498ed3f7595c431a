"""Golden trace files: ``traces/<env name>.json``, one per env, holding a
trace per config, every step on one line so a diff shows which steps moved.

A step line reads ``agent action | observation per seat | action mask |
rewards | accumulated rewards | ends``; the end line has no action.
"""

from __future__ import annotations

import json
from pathlib import Path

TRACES = Path(__file__).parent / "traces"
FORMAT = 1
COLUMNS = "agent action | observation per seat | action mask | rewards | accumulated rewards | ends"
ENDS = ". playing, t terminated, u truncated, - stepped out"


def view_line(view: dict) -> str:
    return " | ".join(
        [
            " ".join(view["obs"]),
            view["mask"],
            " ".join(view["rewards"]),
            " ".join(view["cumulative"]),
            view["ends"],
        ]
    )


def step_line(step: dict) -> str:
    head = step["agent"] if "action" not in step else f"{step['agent']} {step['action']}"
    return f"{head} | {view_line(step)}"


def parse_line(line: str) -> dict:
    """Inverse of ``step_line``."""
    head, obs, mask, rewards, cumulative, ends = line.split(" | ")
    agent, *action = head.split()
    step = {"agent": agent}
    if action:
        step["action"] = None if action[0] == "None" else int(action[0])
    step |= {
        "obs": obs.split(),
        "mask": mask,
        "rewards": rewards.split(),
        "cumulative": cumulative.split(),
        "ends": ends,
    }
    return step


def dumps(env_name: str, traces: list[dict]) -> str:
    """The file text: one field per line, one step per line."""
    blocks = []
    for trace in traces:
        fields = [
            f'   "config": {json.dumps(trace["config"], sort_keys=True)}',
            f'   "seed": {trace["seed"]}',
            f'   "cap": {trace["cap"]}',
            f'   "capped": {json.dumps(trace["capped"])}',
            f'   "final_state": "{trace["final_state"]}"',
            f'   "end": {json.dumps(step_line(trace["end"]))}',
        ]
        steps = ",\n".join("    " + json.dumps(step_line(step)) for step in trace["steps"])
        fields.append('   "steps": [\n' + steps + "\n   ]" if steps else '   "steps": []')
        blocks.append("  {\n" + ",\n".join(fields) + "\n  }")
    return (
        "{\n"
        f' "format": {FORMAT},\n'
        f' "env": {json.dumps(env_name)},\n'
        f' "columns": {json.dumps(COLUMNS)},\n'
        f' "ends": {json.dumps(ENDS)},\n'
        ' "traces": [\n' + ",\n".join(blocks) + "\n ]\n}\n"
    )


def write(env_name: str, traces: list[dict]) -> Path:
    path = TRACES / f"{env_name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(env_name, traces))
    return path


def load(path: Path) -> dict:
    """A trace file with its step lines parsed back into dicts."""
    data = json.loads(path.read_text())
    for trace in data["traces"]:
        trace["end"] = parse_line(trace["end"])
        trace["steps"] = [parse_line(line) for line in trace["steps"]]
    return data


def load_all() -> dict[str, dict]:
    """Every trace file, by file name without ``.json``."""
    return {path.stem: load(path) for path in sorted(TRACES.glob("*.json"))}
