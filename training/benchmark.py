"""Training benchmark: train one game for a stated budget, then measure the
trained agent against random; writes ``benchmarks/results/training_<game>.md``
and a JSON twin.

    python -m meeplezoo.training.benchmark gem_mountain --timesteps 100000 --envs 1
    python -m meeplezoo.training.benchmark --summary     # one table from every training_<game>.json

The budget is a step count; the wall and CPU time it took on this machine
are recorded next to it, with the throughput of ``learn()`` and the share of
it spent inside the env (rules, observations and the opponents' moves).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

from meeplezoo import envs
from meeplezoo.cli import MISTAKES, CommandParser, add_config_option, fail
from meeplezoo.training import configs
from meeplezoo.training.evaluate import versus
from meeplezoo.training.league import load_policy
from meeplezoo.training.train import train


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def reproducible_command(argv: list[str]) -> str:
    """The command line as recorded: where the files went (``--out``,
    ``--results``) does not change the result and stays out of it."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--out", "--results"):
            skip = True
            continue
        if arg.startswith(("--out=", "--results=")):
            continue
        kept.append(arg)
    return " ".join(["python -m meeplezoo.training.benchmark", *kept])


def run(args: argparse.Namespace) -> dict:
    name = envs.resolve(args.game)
    base = envs.strip_version(name)
    out = Path(args.out or f"runs/benchmark_{base}")
    from meeplezoo.cli import parse_config

    config = {
        "final_games": 0,
        "eval_every": args.eval_every,
        "eval_games": 40,
        "eval_mcts_games": 0,
        **parse_config(args.config),
    }
    wall0, cpu0 = time.perf_counter(), cpu_seconds()
    summary = train(
        name,
        players=args.players,
        timesteps=args.timesteps,
        n_envs=args.envs,
        config=config,
        out=out,
        seed=args.seed,
        progress=False,
        final_eval=False,
        overwrite=True,  # a benchmark's folder is scratch: an earlier run's best model must not count
    )
    train_wall, train_cpu = time.perf_counter() - wall0, cpu_seconds() - cpu0
    rules = envs.make_game(name, **summary["run"]["game_config"])
    models = {"final": summary["final_model"]}
    if (out / "best_model.zip").exists():
        models["best by evaluation"] = str(out / "best_model.zip")
    evaluations = {}
    for label, path in models.items():
        policy = load_policy(path)
        # the policy as trained (sampling) is the headline; the final model's argmax is shown beside it
        for greedy in (False, True) if label == "final" else (False,):
            evaluations[f"{label}, {'greedy' if greedy else 'sampled'}"] = versus(
                rules, policy, "random", args.games, seed=args.seed + 10_000, deterministic=greedy
            )
    record = {
        "game": name,
        "players": rules.num_players,
        "game_config": summary["run"]["game_config"],
        "command": reproducible_command(getattr(args, "argv", sys.argv[1:])),
        "timesteps": summary["stats"]["timesteps_total"],
        "train_wall_seconds": train_wall,
        "train_cpu_seconds": train_cpu,
        "stats": summary["stats"],
        "run_overrides": summary["run"]["overrides"],
        "evaluations": evaluations,
        "hyperparams": configs.hyperparams(name, summary["run"]["overrides"]),
        "cpus": os.cpu_count(),
        "load_average_at_end": os.getloadavg(),
        "python": platform.python_version(),
    }
    write_report(record, Path(args.results))
    return record


def write_report(record: dict, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    base = envs.strip_version(record["game"])
    (folder / f"training_{base}.json").write_text(json.dumps(record, indent=2))
    s = record["stats"]
    n = record["players"]
    lines = [
        f"# Self-play training: {record['game']}, {n} players",
        "",
        f"Command: `{record['command']}`",
        "",
        f"Budget: {record['timesteps']} learner steps of MaskablePPO self-play "
        f"({record['train_wall_seconds'] / 60:.1f} min wall, {record['train_cpu_seconds'] / 60:.1f} min CPU "
        f"on {record['cpus']} cores; load average at the end {record['load_average_at_end'][0]:.1f}).",
        "",
        f"Throughput of `learn()`: {s['steps_per_second']:.0f} env steps/s with {s['n_envs']} env(s), "
        f"{s['env_share']:.0%} of that time inside the env (rules, observations, opponents' moves), "
        f"the rest in the policy's forward passes and PPO updates (periodic evaluation excluded: "
        f"{s['eval_seconds']:.0f} s). Per CPU second the whole run made "
        f"{record['timesteps'] / max(record['train_cpu_seconds'], 1e-9):.0f} steps.",
        "",
        f"Game settings: `{json.dumps(record.get('game_config', {}))}` (the rest default). "
        f"Training settings: the game's row of `training/configs` plus `{json.dumps(record.get('run_overrides', {}))}`"
        f"; in effect: {describe_settings(record.get('hyperparams', {}))}.",
        "",
        f"Against `random` (the trained agent in one seat, sampling its policy or taking its most likely "
        f"action, {n - 1} random seat(s), seats rotating; chance level of a win {1 / n:.0%}):",
        "",
        "| model | games | wins | draws | losses | win rate | score, 95% CI | mean return |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, r in record["evaluations"].items():
        lo, hi = r["score_ci95"]
        lines.append(
            f"| {label} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | {r['win_rate']:.0%} "
            f"| {r['score_rate']:.0%} [{lo:.0%}, {hi:.0%}] | {r['mean_return']:+.2f} |"
        )
    lines.append("")
    (folder / f"training_{base}.md").write_text("\n".join(lines))


def describe_settings(h: dict) -> str:
    if not h:
        return "unknown"
    arch = h.get("net_arch")
    return (
        f"policy `{h.get('features', 'mlp')}` (net_arch {json.dumps(arch)}), gamma {h.get('gamma')}, "
        f"GAE lambda {h.get('gae_lambda')}, {h.get('n_epochs')} epochs of batch {h.get('batch_size')} per "
        f"{h.get('n_steps')} steps, reward shaping {h.get('reward_shaping', 0.0)}, forced moves played inside "
        f"the env: {'yes' if h.get('skip_forced') else 'no'}"
    )


def final_evaluations(record: dict) -> tuple[dict, dict | None]:
    """The final model's sampled evaluation (the headline) and its greedy one."""
    evaluations = record["evaluations"]
    sampled = (
        evaluations.get("final, sampled") or evaluations.get("final") or next(iter(evaluations.values()))
    )
    return sampled, evaluations.get("final, greedy")


def write_summary(folder: Path) -> Path:
    """``training.md``: one row per ``training_<game>.json`` in ``folder``."""
    rows = []
    for path in sorted(folder.glob("training_*.json")):
        record = json.loads(path.read_text())
        if "evaluations" not in record:
            continue  # another benchmark's file (training_backends.json)
        r, greedy = final_evaluations(record)
        greedy_text = f"{greedy['win_rate']:.0%}" if greedy else "-"
        s = record["stats"]
        lo, hi = r["win_ci95"] if "win_ci95" in r else (None, None)
        base = envs.strip_version(record["game"])
        settings = {
            **record.get("game_config", {}),
            **{
                k: v
                for k, v in record.get("run_overrides", {}).items()
                if k not in ("final_games", "eval_every", "eval_games", "eval_mcts_games")
            },
        }
        steps_per_cpu_second = record["timesteps"] / max(record["train_cpu_seconds"], 1e-9)
        rows.append(
            f"| [{base}](training_{base}.md) | {record['players']} | {record['timesteps']:,} "
            f"| {record['train_cpu_seconds'] / 60:.1f} | {steps_per_cpu_second:.0f} "
            f"| {s['steps_per_second']:.0f} | {s['env_share']:.0%} "
            f"| {r['wins']}/{r['games']} = **{r['win_rate']:.0%}**"
            + (f" [{lo:.0%}, {hi:.0%}]" if lo is not None else "")
            + f" | {r['draws']} | {greedy_text} | {1 / record['players']:.0%} "
            f"| {', '.join(f'`{k}={v}`' for k, v in settings.items()) or 'none'} |"
        )
    lines = [
        "# Self-play training against `random`",
        "",
        "Each row: MaskablePPO self-play for the stated learner steps on this machine, then the final model",
        "(sampling its policy) in one seat against `random` in the others, seats rotating. Reproduce a row",
        "with the command in its file; `python -m meeplezoo.training.benchmark --summary` rebuilds this table.",
        "CPU minutes are the training run's user + system time, periodic evaluation included; `learn()`'s",
        "steps per wall-clock second depend on what else the machine ran (the load is in each file).",
        "Each game's hyper-parameters are its row of `training/configs`; the last column lists anything",
        "set on the command line besides.",
        "",
        "| game | players | learner steps | CPU min | steps per CPU s | steps/s of `learn()` | time in env "
        "| wins vs random, sampled [95% CI] | draws | wins, greedy | chance | settings beyond the game's row |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|",
        *rows,
        "",
    ]
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "training.md"
    out.write_text("\n".join(lines))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m meeplezoo.training.benchmark", description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--summary", action="store_true", help="only rebuild training.md from the JSON files")
    parser.add_argument("--players", type=int)
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--envs", type=int, default=1)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200, help="evaluation games against random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="run folder (default runs/benchmark_<game>)")
    parser.add_argument("--results", default="benchmarks/results")
    add_config_option(parser, "training settings")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.summary:
        print(f"wrote {write_summary(Path(args.results))}")
        return 0
    if not args.game:
        parser.error("name a game (or --summary)")
    try:
        record = run(args)
    except MISTAKES as exc:
        return fail(parser.prog, exc)
    for label, r in record["evaluations"].items():
        print(f"{record['game']} {label}: win rate {r['win_rate']:.0%} vs random over {r['games']} games")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
