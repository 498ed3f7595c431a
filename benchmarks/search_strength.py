"""Strength per unit of time: the compiled ``mcts`` against the reference.

Two matches on one game (2 players, seats rotated, seeded like any arena
tournament), the compiled search first in each:

- *equal simulations*: ``mcts:sims=N`` in the kernel against
  ``mcts:sims=N,backend=python``. The two are one algorithm with different
  random streams, so the compiled one should score 50% within the 95%
  interval.
- *equal time*: the compiled search gets as many simulations as fit in the
  reference's decision time (measured on the same positions first, both on
  one core), against the same reference.

A game's score counts a win 1 and a draw 1/2; the interval is Wilson's on
the score. The decision times in the tables are those the match measured.

    python -m meeplezoo.benchmarks.search_strength --games 200 \\
        --json benchmarks/results/search_strength.json --markdown benchmarks/results/search_strength.md

``--matches equal-sims`` or ``equal-time`` runs one; a later run adds its
match to the report already in ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from meeplezoo import envs
from meeplezoo.agents.arena import derive_seed, tournament
from meeplezoo.agents.arena_report import wilson_interval
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.registry import make_agent
from meeplezoo.benchmarks.search_speed import positions
from meeplezoo.envs.core.compiled.state import CompiledState

MATCHES = ("equal-sims", "equal-time")


def decision_seconds(spec: str, states: list, seed: int = 0) -> float:
    """Mean CPU seconds per decision of ``spec`` on ``states`` (compiled positions)."""
    agent = make_agent(spec, seed=seed)
    agent.act(
        _observation(states[0]), SeatView(states[0], states[0].current_player)
    )  # warm-up: loads the code
    start = time.process_time()
    for state in states:
        agent.act(_observation(state), SeatView(state, state.current_player))
    return (time.process_time() - start) / len(states)


def _observation(state) -> dict:
    seat = state.current_player
    return {"observation": state.observation(seat), "action_mask": state.legal_action_mask().astype(np.int8)}


def equal_time_sims(game, sims: int, count: int, seed: int, rounds: int = 3) -> tuple[int, float, float]:
    """Simulations of the compiled ``mcts`` that take the reference
    ``mcts:sims=sims``'s decision time on the same positions (scaled and
    measured again ``rounds`` times: the cost per simulation grows with the
    tree). Returns (simulations, reference s, compiled s per decision)."""
    states = [CompiledState.of(s) for s in positions(game, count, seed)]
    target = decision_seconds(f"mcts:sims={sims},backend=python", states)
    compiled_sims, spent = sims, decision_seconds(f"mcts:sims={sims},backend=compiled", states)
    for _ in range(rounds):
        compiled_sims = max(1, round(compiled_sims * target / spent))
        spent = decision_seconds(f"mcts:sims={compiled_sims},backend=compiled", states)
    return compiled_sims, target, spent


def play(name: str, compiled_sims: int, reference_sims: int, args, on_batch) -> dict:
    """One match, the compiled search first, in batches of ``args.batch``
    games (each a seeded tournament of its own, seats rotated within it);
    ``on_batch(row)`` gets the record so far after each batch."""
    specs = [f"mcts:sims={compiled_sims},backend=compiled", f"mcts:sims={reference_sims},backend=python"]
    started = time.perf_counter()
    totals = np.zeros(7)  # games, wins, draws, then seconds and decisions of each side
    for batch, first in enumerate(range(0, args.games, args.batch)):
        size = min(args.batch, args.games - first)

        def progress(done: int, total: int, first=first) -> None:
            elapsed = time.perf_counter() - started
            print(f"{name}: {first + done}/{args.games} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

        seed = derive_seed(args.seed, 3, batch)
        result = tournament(
            name, specs, games=size, players=2, seed=seed, workers=args.workers, progress=progress, save=False
        )
        record = result.first_against_rest()
        totals += [
            record["games"],
            record["wins"],
            record["draws"],
            *result.decision_time[:2],
            *result.decisions[:2],
        ]
        row = _row(totals, specs, compiled_sims, reference_sims, time.perf_counter() - started)
        on_batch(row)
    return row


def _row(totals, specs, compiled_sims: int, reference_sims: int, seconds: float) -> dict:
    games, wins, draws, compiled_s, reference_s, compiled_n, reference_n = (float(x) for x in totals)
    low, high = wilson_interval(float(wins + 0.5 * draws), int(games))
    return {
        "agent": specs[0],
        "opponent": specs[1],
        "compiled_sims": compiled_sims,
        "reference_sims": reference_sims,
        "games": int(games),
        "wins": int(wins),
        "draws": int(draws),
        "score_rate": (wins + 0.5 * draws) / games,
        "score_ci95": [low, high],
        "level": bool(low <= 0.5 <= high),
        "ms_per_decision": 1000 * compiled_s / max(compiled_n, 1),
        "opponent_ms_per_decision": 1000 * reference_s / max(reference_n, 1),
        "seconds": seconds,
    }


def markdown(report: dict) -> str:
    lines = [
        f"# Search strength: compiled mcts against the reference, {report['game']}",
        "",
        "Score of the compiled search (win 1, draw 1/2) over 2-player games with seats rotated;",
        "95% Wilson interval. Decision times are the wall-clock means the matches measured.",
        "",
        "| match | compiled sims | reference sims | games | wins | draws | score | 95% interval | "
        "compiled ms/decision | reference ms/decision |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for match, row in report["matches"].items():
        low, high = row["score_ci95"]
        lines.append(
            f"| {match} | {row['compiled_sims']} | {row['reference_sims']} | {row['games']} | {row['wins']} | "
            f"{row['draws']} | {row['score_rate']:.1%} | {low:.1%}-{high:.1%} | {row['ms_per_decision']:.1f} | "
            f"{row['opponent_ms_per_decision']:.1f} |"
        )
    lines += ["", "Commands:", ""] + [
        f"- {match}: `{row['command']}`" for match, row in report["matches"].items()
    ]
    if "calibration" in report:
        cal = report["calibration"]
        lines += [
            "",
            f"Equal time: on {cal['positions']} positions the reference took {1000 * cal['reference_s']:.1f} ms "
            f"(CPU) per decision at {cal['reference_sims']} simulations; the compiled search "
            f"{1000 * cal['compiled_s']:.1f} ms at {cal['compiled_sims']}.",
        ]
    return "\n".join(lines) + "\n"


def run(args, command: str) -> dict:
    """The chosen matches, merged into the report in ``--json`` (each match
    keeps its own command) after every batch: runs of the two matches may
    go side by side."""
    game = envs.make_game(args.game)
    report = _existing(args.json, game.info.name)
    for match in args.matches:
        if match == "equal-sims":
            sims = args.sims
        else:
            sims, reference_s, compiled_s = equal_time_sims(game, args.sims, args.positions, args.seed)
            report["calibration"] = {
                "positions": args.positions,
                "reference_sims": args.sims,
                "reference_s": reference_s,
                "compiled_sims": sims,
                "compiled_s": compiled_s,
            }
            print(json.dumps(report["calibration"]), file=sys.stderr, flush=True)

        def on_batch(row: dict, match=match) -> None:
            report["matches"][match] = {**row, "command": command}
            latest = _existing(args.json, game.info.name)  # another run may have added its match meanwhile
            latest["matches"][match] = report["matches"][match]
            if match == "equal-time":
                latest["calibration"] = report["calibration"]
            write(latest, args)

        print(json.dumps(play(game.info.name, sims, args.sims, args, on_batch)), flush=True)
    return report


def _existing(path: str | None, game: str) -> dict:
    """The report in ``path`` if it is one of ``game``, else an empty one."""
    try:
        with open(path) as fh:
            report = json.load(fh)
    except (TypeError, OSError, ValueError):
        report = {}
    if report.get("game") != game:
        report = {"game": game, "matches": {}}
    return report


def write(report: dict, args) -> None:
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(markdown(report))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gem_mountain_v0", help="a game with a compiled kernel")
    parser.add_argument("--matches", nargs="+", choices=MATCHES, default=list(MATCHES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sims", type=int, default=200, help="the reference's simulations per decision")
    parser.add_argument("--positions", type=int, default=20, help="positions timed for the equal-time match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--batch", type=int, default=50, help="games per seeded batch (results written after each)"
    )
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    words = sys.argv[1:] if argv is None else list(argv)
    run(args, ("python -m meeplezoo.benchmarks.search_strength " + " ".join(words)).strip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
