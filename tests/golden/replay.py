"""Replay a golden trace's actions and name the first step that differs."""

from __future__ import annotations

from tests.conformance.cases import Case
from tests.golden.trace import digest_json, view


def differences(recorded: dict, now: dict, seats: list[str]) -> list[str]:
    """What differs between two views, in words (empty when they agree)."""
    found = []
    if recorded["agent"] != now["agent"]:
        found.append(f"agent to move (recorded {recorded['agent']}, now {now['agent']})")
    for seat, old, new in zip(seats, recorded["obs"], now["obs"]):
        if old != new:
            found.append(f"observation of {seat}")
    if recorded["mask"] != now["mask"]:
        found.append("action mask")
    for key in ("rewards", "cumulative"):
        if recorded[key] != now[key]:
            found.append(f"{key} (recorded {recorded[key]}, now {now[key]})")
    if recorded["ends"] != now["ends"]:
        found.append(
            f"terminations/truncations (recorded {recorded['ends']!r}, now {now['ends']!r};"
            " . playing, t terminated, u truncated, - stepped out)"
        )
    return found


def first_difference(case: Case, trace: dict, **env_options) -> str | None:
    """Replay ``trace``'s actions on ``case``'s env (made with ``env_options``,
    e.g. a backend); None when every step and the end agree, else where and
    what first differs."""
    env = case.make_env(**env_options)
    env.reset(seed=trace["seed"])
    seats = env.possible_agents
    for i, step in enumerate(trace["steps"]):
        if not env.agents:
            return f"step {i}: the game is already over; the trace has {len(trace['steps'])} steps"
        found = differences(step, view(env), seats)
        if found:
            return f"step {i} ({step['agent']} to move): " + "; ".join(found)
        env.step(step["action"])
    found = differences(trace["end"], view(env), seats)
    if found:
        return f"the end (after {len(trace['steps'])} steps): " + "; ".join(found)
    if trace["final_state"] != digest_json(env.get_state()):
        return "the final get_state() (the rules position; every observation agreed)"
    return None
