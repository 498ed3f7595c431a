"""Training throughput of the two backends on one game, side by side.

    python -m meeplezoo.benchmarks.training_backends princes_of_amber --steps 4000

Runs RLlib PPO with 1 and then 2 env runners, and the SB3 MaskablePPO trainer,
each for a fixed number of steps with evaluation off, and writes
``benchmarks/results/training_backends.md`` and ``.json``.

The two count different things, and the table says so: RLlib counts env
steps (every seat's decisions, all played by modules being trained or
snapshots), SB3 counts the learner's own decisions (the other seats move
inside the env). Both figures are given per wall second and per CPU second
of this process and its children (Ray workers are separate processes, so
their CPU time is not in the RLlib CPU column).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from meeplezoo import envs

RESULTS = Path(__file__).parent / "results"


def _rllib(game: str, steps: int, runners: int, batch: int) -> dict:
    from meeplezoo.training.rllib import RLlibSettings, train_rllib

    settings = RLlibSettings(
        game=game,
        num_env_runners=runners,
        train_batch_size=batch,
        minibatch_size=max(64, batch // 4),
        num_epochs=2,
    )
    with tempfile.TemporaryDirectory() as out:
        # one short run first so Ray's start-up and the algorithm build are not in the figure
        t0 = time.perf_counter()
        first = train_rllib(settings, batch, out, progress=False, log=lambda _: None)
        setup = time.perf_counter() - t0
        summary = train_rllib(
            settings, first["env_steps"] + steps, out, resume=True, progress=False, log=lambda _: None
        )
    return {
        "backend": f"rllib, {runners} env runner(s)",
        "unit": "env steps (all seats)",
        "steps": summary["env_steps_this_run"],
        "seconds": summary["seconds"],
        "steps_per_second": summary["env_steps_per_second"],
        "first_iteration_seconds": setup,
    }


def _sb3(game: str, steps: int) -> dict:
    from meeplezoo.training.train import train

    with tempfile.TemporaryDirectory() as out:
        summary = train(
            game,
            timesteps=steps,
            config={"final_games": 0, "eval_every": 10**9},
            out=out,
            progress=False,
            final_eval=False,
        )
    stats = summary["stats"]
    return {
        "backend": "sb3 MaskablePPO, 1 env",
        "unit": "learner steps (own seat)",
        "steps": stats["timesteps_this_run"],
        "seconds": stats["learn_seconds"],
        "steps_per_second": stats["steps_per_second"],
        "first_iteration_seconds": None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=1000, help="RLlib train batch per iteration")
    args = parser.parse_args(argv)
    game = envs.resolve(args.game)
    rows = [
        _rllib(game, args.steps, 1, args.batch),
        _rllib(game, args.steps, 2, args.batch),
        _sb3(game, args.steps),
    ]
    import ray

    ray.shutdown()
    load = os.getloadavg()[0]
    command = "python -m meeplezoo.benchmarks.training_backends " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    record = {
        "game": game,
        "command": command,
        "cores": os.cpu_count(),
        "load_average_1min": load,
        "python": platform.python_version(),
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "training_backends.json").write_text(json.dumps(record, indent=1))
    lines = [
        f"# Training throughput: RLlib and SB3 on {game}",
        "",
        f"Made by `{command}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{os.cpu_count()} cores, 1-minute load average {load:.1f} at the end (other jobs were running).",
        "",
        "| backend | counts | steps | seconds | steps/s |",
        "|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['unit']} | {r['steps']} | {r['seconds']:.1f} | {r['steps_per_second']:.0f} |"
        )
    lines += [
        "",
        "RLlib's first iteration (Ray start-up and building the algorithm) is excluded; "
        "SB3 figures are `learn()` time. See the module docstring for what each backend counts.",
    ]
    (RESULTS / "training_backends.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
