"""``meeplezoo train``: self-play MaskablePPO on one game, then a head-to-head table."""

from __future__ import annotations

import argparse

from meeplezoo.cli import add_config_option, user_input
from meeplezoo.envs.core.errors import UsageError

HELP = (
    "train an agent by self-play (MaskablePPO, RLlib PPO on Ray, or AlphaZero-style expert iteration), "
    "then play it against random and MCTS"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="game name, e.g. gem_mountain (optional with --resume)")
    parser.add_argument("--players", type=int, help="number of players (default: the game's default)")
    parser.add_argument(
        "--timesteps", type=int, default=20_000, help="learner steps to train (more, with --resume)"
    )
    parser.add_argument("--envs", type=int, default=1, help="parallel envs (worker processes when > 1)")
    add_config_option(
        parser, "game settings and training settings (see training/configs), e.g. ent_coef=0.02"
    )
    parser.add_argument("--out", help="run folder (default runs/<game>; with --resume, that run's folder)")
    parser.add_argument(
        "--resume",
        metavar="DIR",
        help="continue the run in DIR from its newest checkpoint (it keeps its game and seed)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start afresh in an --out folder that holds a run, removing what that run wrote",
    )
    parser.add_argument("--eval-every", type=int, help="evaluate every N learner steps (az: self-play games)")
    parser.add_argument(
        "--eval-games",
        type=int,
        help="games against random per evaluation (az: against mcts:sims=200 and the previous best)",
    )
    parser.add_argument("--seed", type=int, help="the run's seed (default 0; a resumed run keeps its own)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--algo",
        choices=("ppo", "az"),
        default="ppo",
        help="ppo: MaskablePPO self-play (default); az: expert iteration with PUCT search (AlphaZero-style)",
    )
    parser.add_argument(
        "--backend",
        choices=("sb3", "rllib", "local", "ray"),
        help="ppo: sb3 (MaskablePPO in this process, default) or rllib (PPO on Ray RLlib); "
        "az: local (self-play in worker processes, default) or ray (self-play as Ray tasks)",
    )
    parser.add_argument(
        "--games", type=int, default=64, help="az: self-play games to play (more, with --resume)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="az: self-play worker processes or Ray tasks (0: this process)"
    )
    parser.add_argument(
        "--address",
        help="rllib, ray: Ray cluster to join ('auto' or ray://host:port); default: start a local Ray instance",
    )
    parser.add_argument(
        "--num-env-runners", type=int, default=1, help="rllib: env-runner actors sampling games"
    )


def run(args: argparse.Namespace) -> int:
    """A mistake in what the command was given (checked before anything is
    written) is one line; an error once training runs is a bug, with its traceback."""
    from rich.console import Console

    if args.envs < 1:
        raise UsageError("--envs must be at least 1")
    if args.timesteps < 1:
        raise UsageError("--timesteps must be at least 1")
    console = Console()
    if not console.is_terminal:  # piped or logged: don't squeeze the tables to 80 columns
        console = Console(width=150)
    if args.algo == "az":
        return run_az(args, console)
    if args.backend in ("local", "ray"):
        raise UsageError(f"--backend {args.backend} is for --algo az; PPO runs on sb3 or rllib")
    if args.backend == "rllib":
        return run_rllib(args, console)
    return run_ppo(args, console)


def run_ppo(args: argparse.Namespace, console) -> int:
    """MaskablePPO self-play, then the closing head-to-head table."""
    from meeplezoo.cli import parse_config
    from meeplezoo.training.train import ppo_run

    with user_input():
        run = ppo_run(
            game=args.game,
            players=args.players,
            n_envs=args.envs,
            config=parse_config(args.config),
            out=args.out,
            resume=args.resume,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            seed=args.seed,
            overwrite=args.overwrite,
        )
        run.open_folder()
    summary = run.execute(args.timesteps, progress=not args.no_progress, console=console)
    s = summary["stats"]
    console.print(
        f"trained {s['timesteps_this_run']} steps (total {s['timesteps_total']}) in {s['learn_seconds']:.0f}s "
        f"({s['eval_seconds']:.0f}s of it evaluating): {s['steps_per_second']:.0f} steps/s, "
        f"{s['env_share']:.0%} of the training time in the env; "
        f"run folder {summary['out']}"
    )
    return 0


def run_rllib(args: argparse.Namespace, console) -> int:
    """The same command on Ray RLlib: train, checkpoint, then the closing
    head-to-head table of the trained module against random and MCTS."""
    from pathlib import Path

    from meeplezoo.cli import parse_config
    from meeplezoo.training.rllib import (
        RLlibSettings,
        evaluate_rllib,
        prepare_new_run,
        resumed_settings,
        train_rllib,
    )

    if args.num_env_runners < 0:
        raise UsageError("--num-env-runners must be at least 0")
    with user_input():
        if args.resume:
            out = args.resume  # the run's own folder: its checkpoint goes on there
            settings = resumed_settings(args.resume, args.num_env_runners, args.seed)
        else:
            if not args.game:
                raise UsageError("name a game (or --resume a run folder)")
            settings = RLlibSettings.from_overrides(
                args.game, args.players, parse_config(args.config), args.seed, args.num_env_runners
            )
            out = args.out or f"runs/{settings.game}_rllib"
            prepare_new_run(Path(out), args.overwrite)
    summary = train_rllib(
        settings,
        args.timesteps,
        out,
        resume=bool(args.resume),
        address=args.address,
        progress=not args.no_progress,
        log=console.print,
    )
    result = evaluate_rllib(out, settings, games=args.eval_games or 40, seed=settings.seed)
    result.print(console)
    console.print(f"rllib: {summary['env_steps']} env steps in total; run folder {out}")
    return 0


def run_az(args: argparse.Namespace, console) -> int:
    """Expert iteration: self-play with the search, learner, checkpoints and
    evaluation against MCTS (``meeplezoo.training.az``)."""
    from meeplezoo.cli import parse_config
    from meeplezoo.training.az.train import az_run

    backend = args.backend or "local"
    if backend not in ("local", "ray"):
        raise UsageError(f"--algo az runs self-play on --backend local or ray, not {backend}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 0:
        raise UsageError("--workers must be at least 0")
    with user_input():
        config = parse_config(args.config)
        if args.eval_games is not None:
            config["eval_games"] = args.eval_games
        if args.eval_every is not None:
            config["eval_every"] = args.eval_every
        run = az_run(args.game, args.players, config, args.out, args.resume, args.seed, args.overwrite)
        run.open_folder()
    log = console.print
    run.execute(args.games, args.workers, backend, args.address, not args.no_progress, log)
    return 0
