"""``meeplezoo bench``: time every game's step loop beside its peers."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import meeplezoo
from meeplezoo.cli import add_config_option, user_input
from meeplezoo.envs.core.errors import UsageError

HELP = "time each game's step loop beside PettingZoo classic peers and an API floor"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games",
        nargs="+",
        metavar="NAME",
        help="games, peers (e.g. chess_v6) or 'floor' to time; default: all. "
        "connect_four_v3 and the floor are always added for the ratios",
    )
    parser.add_argument("--quick", action="store_true", help="short repeats: under a minute, for smoke tests")
    parser.add_argument("--repeats", type=int, default=None, help="timed repeats per figure (at least 5)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per repeat of a step loop")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="cpu: this process's CPU time (steady on a busy machine); wall: elapsed time",
    )
    parser.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    parser.add_argument(
        "--profile",
        metavar="GAME",
        help="instead of timing, profile GAME's AEC and rules loops and print the hot spots",
    )
    parser.add_argument(
        "--engine",
        action="store_true",
        help="instead, time the compiled engine beside the Python rules: kernel rules, make_vec at "
        "batch 1 to 4096, the AEC loop on both backends, clone, determinize, start-up, and Pgx if installed",
    )
    add_config_option(parser, "game settings for --profile")


def _command(args: argparse.Namespace) -> str:
    parts = ["meeplezoo bench"]
    if args.games:
        parts.append("--games " + " ".join(args.games))
    if args.quick:
        parts.append("--quick")
    if args.repeats is not None:
        parts.append(f"--repeats {args.repeats}")
    if args.seconds is not None:
        parts.append(f"--seconds {args.seconds}")
    if args.seed:
        parts.append(f"--seed {args.seed}")
    if args.clock != "cpu":
        parts.append(f"--clock {args.clock}")
    if args.json:
        parts.append(f"--json {args.json}")
    if args.markdown:
        parts.append(f"--markdown {args.markdown}")
    return " ".join(parts)


def check_report_path(option: str, path: str | None) -> None:
    """Refuse a report path that cannot be written before anything is
    timed: a folder, or a place under an existing file."""
    if not path:
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder, give a file name")
    existing = next((p for p in target.parents if p.exists()), Path("."))
    if not existing.is_dir():
        raise UsageError(f"{option} {path}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK):
        raise UsageError(f"{option} {path}: {existing} is not writable")


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from rich.console import Console
    from rich.markup import escape

    from meeplezoo.benchmarks import report, suite
    from meeplezoo.benchmarks.subjects import select_subjects
    from meeplezoo.benchmarks.timing import Settings

    if args.profile:
        from meeplezoo.benchmarks.profile_game import profile
        from meeplezoo.cli import parse_config

        with user_input():
            config = parse_config(args.config)
            meeplezoo.make_game(args.profile, **config)  # a misspelt game or setting is the person's mistake
        print(profile(args.profile, config, seed=args.seed))
        return 0
    check_report_path("--json", args.json)
    check_report_path("--markdown", args.markdown)
    if args.engine:
        from meeplezoo.benchmarks import compiled_engine

        options = ["--seconds", str(args.seconds or 1.0)] + (["--no-startup"] if args.quick else [])
        options += ["--json", args.json] if args.json else []
        return compiled_engine.main(options + (["--markdown", args.markdown] if args.markdown else []))
    settings = (
        Settings.quick(args.seed, args.clock) if args.quick else Settings(seed=args.seed, clock=args.clock)
    )
    if args.repeats is not None:
        if args.repeats < 5:
            raise UsageError("--repeats must be at least 5 (median and spread need them)")
        settings = dataclasses.replace(settings, repeats=args.repeats)
    if args.seconds is not None:
        settings = dataclasses.replace(settings, repeat_seconds=args.seconds)
    with user_input():
        subjects, skipped = select_subjects(args.games)
    console = Console(stderr=True)
    for name, why in skipped.items():
        console.print(f"[yellow]skipping peer {name}: {escape(why)}[/]")
    with console.status("measuring") as status:
        result = suite.run(
            subjects,
            settings,
            skipped,
            _command(args),
            on_progress=status.update,
        )
    report.print_table(result, Console(width=max(Console().width, 100)), with_targets=not args.quick)
    report.save(result, args.json, args.markdown)
    return 0


if __name__ == "__main__":  # pragma: no cover
    from meeplezoo.cli import main

    sys.exit(main(["bench", *sys.argv[1:]]))
