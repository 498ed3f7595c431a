"""An az decision with the network's numpy forward against torch's, same run.

A loaded network answers small batches in numpy
(:mod:`meeplezoo.agents.numpy_network`) and larger ones in torch. This
benchmark decides the same positions with each game's shipped baseline (the
two-player one, or the ``--players`` one) twice per round, once with the
numpy forward and once with torch's alone, for several rounds in turn (so a
machine whose speed drifts treats both alike), and keeps each side's best
round: CPU milliseconds per decision.

    python -m meeplezoo.benchmarks.network_forward --batches 1 8 --markdown FILE
"""

from __future__ import annotations

import argparse
import json
import sys

from meeplezoo import envs
from meeplezoo.benchmarks.decisions import decide
from meeplezoo.benchmarks.search_speed import positions

GAMES = ["amethyst_amber_v0", "amoeba_v0", "gem_mountain_v0", "gold_rush_gangs_v0"]


def measure(name: str, players: int, sims: int, batch: int, count: int, seed: int, rounds: int) -> dict:
    from meeplezoo.agents.az import AZAgent

    game = envs.make_game(name, **({"num_players": players} if players != 2 else {}))
    states = positions(game, count, seed)
    baseline = name if players == 2 else f"{envs.strip_version(name)}_{players}p"
    agent = AZAgent(seed=0, baseline=baseline, sims=sims, search_batch=batch)
    evaluator = agent.evaluator(game)
    numpy_network = evaluator.numpy_network
    best = {"torch": float("inf"), "numpy": float("inf")}
    try:
        for _ in range(rounds):
            for side in best:
                evaluator.numpy_network = numpy_network if side == "numpy" else None
                best[side] = min(best[side], 1000 * decide(agent, states) / len(states))
    finally:
        evaluator.numpy_network = numpy_network
    return {
        "game": game.info.name,
        "players": players,
        "sims": sims,
        "batch": batch,
        "positions": len(states),
        "torch_ms_per_decision": best["torch"],
        "numpy_ms_per_decision": best["numpy"],
        "speedup": best["torch"] / best["numpy"],
    }


def markdown(rows: list[dict], command: str) -> str:
    lines = [
        "| game | players | simulations | leaves a batch | torch ms/decision | numpy ms/decision | speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['players']} | {r['sims']} | {r['batch']} | {r['torch_ms_per_decision']:.1f} | "
            f"{r['numpy_ms_per_decision']:.1f} | {r['speedup']:.2f}x |"
        )
    head = [
        "# An az decision: the network's numpy forward against torch's",
        "",
        "CPU milliseconds per decision of each shipped baseline on the same positions, the best of",
        "alternating rounds (`benchmarks/network_forward.py`).",
        "",
        f"Command: `{command}`",
        "",
    ]
    return "\n".join(head + lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=GAMES, help="games with a shipped baseline")
    parser.add_argument("--players", type=int, default=2, help="table size (its baseline must be shipped)")
    parser.add_argument("--sims", type=int, default=160, help="az simulations per decision")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8], help="leaves evaluated together")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    for value, what in ((args.sims, "--sims"), (args.positions, "--positions"), (args.rounds, "--rounds")):
        if value < 1:
            parser.error(f"{what} must be at least 1, got {value}")
    if any(batch < 1 for batch in args.batches):
        parser.error(f"--batches must be at least 1, got {args.batches}")
    names = [envs.resolve(g) for g in args.games]
    rows = []
    for name in names:
        for batch in args.batches:
            row = measure(name, args.players, args.sims, batch, args.positions, args.seed, args.rounds)
            rows.append(row)
            print(json.dumps(row), flush=True)
    words = sys.argv[1:] if argv is None else list(argv)
    command = ("python -m meeplezoo.benchmarks.network_forward " + " ".join(words)).strip()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"command": command, "rows": rows}, fh, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(markdown(rows, command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
