"""Record the golden traces: ``python -m tests.golden.record [--game NAME]``.

Run it after a deliberate behaviour change, then read the diff: a step line
that moved is a change agents will notice, and the env's version goes up (a
moved ``final_state`` alone is a new position format); see CONTRIBUTING.md.
"""

from __future__ import annotations

import argparse

from meeplezoo.envs import strip_version
from tests.conformance.cases import CASES
from tests.golden.store import TRACES, write
from tests.golden.trace import record

unversioned = strip_version


def env_names() -> list[str]:
    return sorted({case.name for case in CASES})


def pick(game: str | None) -> list[str]:
    """The env names to record: all, or the one ``game`` names (with or
    without its ``_vN``)."""
    if game is None:
        return env_names()
    found = [n for n in env_names() if game in (n, unversioned(n))]
    if not found:
        raise SystemExit(f"unknown game {game!r}; known: {', '.join(env_names())}")
    return found


def record_env(name: str) -> None:
    traces = [record(case) for case in CASES if case.name == name]
    path = write(name, traces)
    capped = sum(t["capped"] for t in traces)
    print(f"{path.name}: {len(traces)} traces, {sum(len(t['steps']) for t in traces)} steps, {capped} capped")
    for old in TRACES.glob(f"{unversioned(name)}_v*.json"):
        if old.stem != name and unversioned(old.stem) == unversioned(name):
            old.unlink()
            print(f"{old.name}: removed (superseded by {name})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="record only this game (default: every game)")
    args = parser.parse_args(argv)
    for name in pick(args.game):
        record_env(name)
    if args.game is None:
        for path in TRACES.glob("*.json"):
            if path.stem not in env_names():
                path.unlink()
                print(f"{path.name}: removed (no such env any more)")


if __name__ == "__main__":
    main()
