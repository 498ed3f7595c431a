"""Benchmark record of an ``--algo az`` run: learning curve and head-to-head.

For a run folder: each network checkpoint (``checkpoints/net_<G>_games.pt2``)
against ``mcts:sims=200`` (win rate and openskill rating over the training
CPU minutes the checkpoint records), then the final network against
``mcts:sims=200`` over more games, and a table of the final network,
``mcts:sims=200`` and ``random``. Writes ``az_<game>.json`` and ``.md`` to
``--results`` with the command that made them.

    python -m meeplezoo.benchmarks.az_results gem_mountain --run runs/gem_mountain_az --final-games 100
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from meeplezoo import envs
from meeplezoo.agents.arena import tournament
from meeplezoo.agents.arena_report import wilson_interval
from meeplezoo.agents.az import DEFAULT_SIMS

MCTS = "mcts:sims=200"
_CHECKPOINT = re.compile(r"^net_(\d+)_games\.pt2$")


def checkpoints(run: Path) -> list[tuple[int, Path]]:
    found = [
        (int(m.group(1)), p) for p in (run / "checkpoints").glob("*.pt2") if (m := _CHECKPOINT.match(p.name))
    ]
    return sorted(found)


def head_to_head(game, spec: str, opponent: str, games: int, seed: int, workers: int) -> dict:
    """``spec`` in one seat, ``opponent`` in the others, seats rotating."""
    n = game.num_players
    result = tournament(
        game, [spec] + [opponent] * (n - 1), games, players=n, seed=seed, workers=workers, progress=False
    )
    return {**result.first_against_rest(), "agent": spec, "opponent": opponent}


def table(game, specs: list[str], games: int, seed: int, workers: int) -> list[dict]:
    result = tournament(
        game, specs, games, players=game.num_players, seed=seed, workers=workers, progress=False
    )
    return result.agent_rows()


def az_spec(path: Path, sims: int | None) -> str:
    """The agent of a network file: its own search settings unless ``sims`` is given."""
    return f"az:path={path}" + (f",sims={sims}" if sims else "")


def network_meta(path: Path) -> dict:
    from meeplezoo.agents.az import load_network

    return load_network(path).meta


def run_benchmark(args) -> dict:
    run = Path(args.run)
    saved = json.loads((run / "run.json").read_text())
    game = envs.game_class(saved["game"])(**saved["game_config"])
    points = checkpoints(run)
    if args.curve_points and len(points) > args.curve_points:  # evenly spaced, the last one kept
        step = (len(points) - 1) / (args.curve_points - 1)
        points = [points[round(i * step)] for i in range(args.curve_points)]
    curve = []
    for games_played, path in points if args.curve_games else []:
        meta = network_meta(path)["trained"]
        row = head_to_head(game, az_spec(path, args.sims), MCTS, args.curve_games, args.seed, args.workers)
        row.update({"selfplay_games": games_played, "cpu_minutes": meta.get("cpu_seconds", 0.0) / 60})
        curve.append(row)
        print(json.dumps(row), flush=True)
    final_path = Path(args.network) if args.network else points[-1][1]
    final_spec = az_spec(final_path, args.sims)
    final = None
    if args.final_games:
        final = head_to_head(game, final_spec, MCTS, args.final_games, args.seed + 1, args.workers)
        print(json.dumps(final), flush=True)
    rows = (
        table(game, [final_spec, MCTS, "random"], args.table_games, args.seed + 2, args.workers)
        if args.table_games
        else []
    )
    return {
        "game": game.info.name,
        "players": game.num_players,
        "run": saved,
        "network": str(final_path),
        "trained": network_meta(final_path)["trained"],
        "curve": curve,
        "final": final,
        "table": rows,
    }


def merge_rows(rows: list[dict]) -> dict:
    """One head-to-head row from several runs of the same pairing (other seeds):
    games, wins and draws add up; decision times are weighted by games; the
    ratings are those of the largest run (openskill ratings do not add)."""
    games = sum(r["games"] for r in rows)
    wins = sum(r["wins"] for r in rows)
    merged = dict(max(rows, key=lambda r: r["games"]))
    merged.update({"games": games, "wins": wins, "draws": sum(r["draws"] for r in rows)})
    merged.update({"win_rate": wins / games, "win_ci95": list(wilson_interval(wins, games))})
    for key in ("ms_per_decision", "opponent_ms_per_decision"):
        merged[key] = sum(r[key] * r["games"] for r in rows) / games
    return merged


def merge_reports(reports: list[dict]) -> dict:
    """Reports of one game made in pieces (each command under ten minutes):
    the curve from the pieces that have one, the table from the one piece that
    has it, the head-to-head rows of the same pairing added up."""
    # the network and its training figures are those of the final head-to-head,
    # whichever order the pieces come in (a curve-only piece names its own last checkpoint)
    base = dict(next((report for report in reports if report.get("final")), reports[0]))
    if "rows" in base:  # PPO reports
        pairs: dict[tuple, list] = {}
        for report in reports:
            for row in report["rows"]:
                pairs.setdefault((row["agent"], row["opponent"]), []).append(row)
        base["rows"] = [merge_rows(rows) for rows in pairs.values()]
        return base
    base["curve"] = sorted(
        (row for report in reports for row in report.get("curve", [])), key=lambda r: r["selfplay_games"]
    )
    tables = [report["table"] for report in reports if report.get("table")]
    if len(tables) > 1:
        raise ValueError(
            f"{len(tables)} of the pieces carry a table with mcts:sims=200 and random; openskill "
            "ratings of separate runs do not add up, so merge at most one table piece"
        )
    base["table"] = tables[0] if tables else []
    finals = [report["final"] for report in reports if report.get("final")]
    base["final"] = merge_rows(finals) if finals else None
    return base


def markdown(report: dict, command: str) -> str:
    f = report["final"]
    t = report["trained"]
    lines = [
        f"# az on {report['game']} ({report['players']} players)",
        "",
        f"Command: `{command}`",
        "",
        f"Network: {t.get('games', 0)} self-play games, {t.get('positions', 0)} positions, "
        f"{t.get('learner_steps', 0)} learner steps, {t.get('cpu_seconds', 0.0) / 60:.1f} CPU minutes "
        "(self-play workers' search time plus the learner's).",
        "",
        "## Learning curve against mcts:sims=200",
        "",
    ]
    if report["curve"]:
        lines += [
            "| self-play games | CPU minutes | games | az wins | win rate (95% CI) | az rating | mcts rating |",
            "|---:|---:|---:|---:|---|---:|---:|",
        ]
    else:
        lines.append("Not measured in this run.")
    for r in report["curve"]:
        lo, hi = r["win_ci95"]
        lines.append(
            f"| {r['selfplay_games']} | {r['cpu_minutes']:.1f} | {r['games']} | {r['wins']} | "
            f"{r['win_rate']:.0%} ({lo:.0%}-{hi:.0%}) | {r['rating']:.2f} | {r['opponent_rating']:.2f} |"
        )
    if f is not None:
        lo, hi = f["win_ci95"]
        lines += [
            "",
            "## Final head-to-head",
            "",
            f"`{f['agent']}` against `{f['opponent']}`: {f['wins']} wins, {f['draws']} draws in {f['games']} games, "
            f"win rate {f['win_rate']:.0%} (95% CI {lo:.0%}-{hi:.0%}); decision time {f['ms_per_decision']:.0f} ms "
            f"against {f['opponent_ms_per_decision']:.0f} ms.",
        ]
    if report["table"]:
        games = report["table"][0]["games"]
        lines += [
            "",
            f"## Table with {MCTS} and random ({games} games, openskill ordinal)",
            "",
            "| agent | rating | win rate | ms/decision |",
            "|---|---:|---:|---:|",
        ]
        for row in report["table"]:
            lines.append(
                f"| {row['agent']} | {row['ordinal']:.2f} | {row['win_rate']:.0%} | {row['decision_ms']:.0f} |"
            )
    return "\n".join(lines) + "\n"


def policy_report(name: str, ppo: str, games: int, sims: int, seed: int, workers: int, which="both") -> dict:
    """How much search adds to a PPO checkpoint: the policy alone (sampled,
    as trained and evaluated) and ``az:policy=`` over it, each against
    ``mcts:sims=200`` on the same seeds."""
    game = envs.make_game(name)
    specs = {"policy": f"policy:path={ppo},deterministic=false", "search": f"az:policy={ppo},sims={sims}"}
    chosen = list(specs) if which == "both" else [which]
    rows = [head_to_head(game, specs[k], MCTS, games, seed, workers) for k in chosen]
    for row in rows:
        print(json.dumps(row), flush=True)
    return {"game": game.info.name, "players": game.num_players, "checkpoint": ppo, "rows": rows}


def policy_markdown(report: dict, command: str) -> str:
    lines = [
        f"# Search over a PPO checkpoint on {report['game']} ({report['players']} players)",
        "",
        f"Command: `{command}`",
        "",
        "| agent | opponent | games | wins | win rate (95% CI) | ms/decision | opponent ms/decision |",
        "|---|---|---:|---:|---|---:|---:|",
    ]
    for r in report["rows"]:
        lo, hi = r["win_ci95"]
        lines.append(
            f"| `{r['agent']}` | {r['opponent']} | {r['games']} | {r['wins']} | {r['win_rate']:.0%} "
            f"({lo:.0%}-{hi:.0%}) | {r['ms_per_decision']:.0f} | {r['opponent_ms_per_decision']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="the run's game (checked against the run)")
    parser.add_argument("--run", help="the run folder of meeplezoo train --algo az")
    parser.add_argument("--network", help="the network to report (default: the run's newest checkpoint)")
    parser.add_argument(
        "--sims", type=int, default=None, help="simulations per decision (default: the network file's own)"
    )
    parser.add_argument("--curve-games", type=int, default=10)
    parser.add_argument("--curve-points", type=int, default=4)
    parser.add_argument("--final-games", type=int, default=40)
    parser.add_argument("--table-games", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", default="benchmarks/results")
    parser.add_argument(
        "--ppo", metavar="ZIP", help="instead: the PPO checkpoint alone and under az:policy= search"
    )
    parser.add_argument("--ppo-agents", choices=("both", "policy", "search"), default="both")
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="instead: add up reports of this game made in pieces, and write the tables from them",
    )
    return parser


def _stem(prefix: str, report: dict) -> str:
    """The results file name of ``report``: its prefix and game, and the
    table size when it is not the game's default."""
    stem = prefix + envs.strip_version(report["game"])
    if report["players"] != envs.game_class(report["game"]).info.default_players:
        stem += f"_{report['players']}p"
    return stem


def _write(folder: Path, stem: str, report: dict, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps(report, indent=2))
    (folder / f"{stem}.md").write_text(text)


def _merged(args, parser: argparse.ArgumentParser, folder: Path) -> None:
    """``--merge``: add up the reports made in pieces and write their tables."""
    reports = [json.loads(Path(p).read_text()) for p in args.merge]
    try:
        report = merge_reports(reports)
    except ValueError as error:
        parser.error(str(error))
    report["commands"] = [r.get("command", "") for r in reports]
    policy = "rows" in report
    text = (policy_markdown if policy else markdown)(report, "; ".join(report["commands"]))
    _write(folder, _stem("az_policy_" if policy else "az_", report), report, text)


def _ppo(args, folder: Path, command: str) -> None:
    """``--ppo``: the PPO checkpoint alone and under az:policy= search."""
    report = policy_report(
        args.game,
        args.ppo,
        args.final_games,
        args.sims or DEFAULT_SIMS,
        args.seed,
        args.workers,
        args.ppo_agents,
    )
    report["command"] = command
    _write(
        folder, f"az_policy_{envs.strip_version(report['game'])}", report, policy_markdown(report, command)
    )


def _trained_run(args, folder: Path, command: str) -> None:
    """``--run``: the run's network against the reference bots."""
    trained = json.loads((Path(args.run) / "run.json").read_text())["game"]
    if envs.resolve(args.game) != trained:
        raise SystemExit(f"{args.run} is a run of {trained}, not {args.game}")
    report = run_benchmark(args)
    report["command"] = command
    _write(folder, _stem("az_", report), report, markdown(report, command))


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    words = sys.argv[1:] if argv is None else list(argv)
    command = "python -m meeplezoo.benchmarks.az_results " + " ".join(words)
    folder = Path(args.results)
    if args.merge:
        _merged(args, parser, folder)
    elif args.ppo:
        _ppo(args, folder, command)
    elif not args.run:
        parser.error("--run is needed (or --ppo)")
    else:
        _trained_run(args, folder, command)
    return 0


if __name__ == "__main__":
    from meeplezoo.cli import sigterm_as_interrupt

    with sigterm_as_interrupt():  # a killed report stops its arena workers
        raise SystemExit(main())
