"""``meeplezoo train``: self-play MaskablePPO on one game, then a head-to-head table."""

from __future__ import annotations

import argparse

from meeplezoo.cli import add_config_option

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
    parser.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its newest checkpoint")
    parser.add_argument("--eval-every", type=int, help="evaluate every N learner steps (az: self-play games)")
    parser.add_argument(
        "--eval-games",
        type=int,
        help="games against random per evaluation (az: against mcts:sims=200 and the previous best)",
    )
    parser.add_argument("--seed", type=int, default=0)
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
    from rich.console import Console

    from meeplezoo.cli import parse_config
    from meeplezoo.training.train import train

    if args.envs < 1:
        raise ValueError("--envs must be at least 1")
    if args.timesteps < 1:
        raise ValueError("--timesteps must be at least 1")
    console = Console()
    if not console.is_terminal:  # piped or logged: don't squeeze the tables to 80 columns
        console = Console(width=150)
    if args.algo == "az":
        return run_az(args, console)
    if args.backend in ("local", "ray"):
        raise ValueError(f"--backend {args.backend} is for --algo az; PPO runs on sb3 or rllib")
    if args.backend == "rllib":
        return run_rllib(args, console)
    summary = train(
        game=args.game,
        players=args.players,
        timesteps=args.timesteps,
        n_envs=args.envs,
        config=parse_config(args.config),
        out=args.out,
        resume=args.resume,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        seed=args.seed,
        progress=not args.no_progress,
        console=console,
    )
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
    from meeplezoo.cli import parse_config
    from meeplezoo.training.rllib import RLlibSettings, evaluate_rllib, train_rllib

    if args.num_env_runners < 0:
        raise ValueError("--num-env-runners must be at least 0")
    out = args.resume or args.out
    if args.resume:
        from pathlib import Path

        from meeplezoo.training.train import load_run_file

        saved = load_run_file(Path(args.resume) / "rllib_run.json", ("settings",))["settings"]
        settings = RLlibSettings(
            **{**saved, "hidden": tuple(saved["hidden"]), "num_env_runners": args.num_env_runners}
        )
    else:
        if not args.game:
            raise ValueError("name a game (or --resume a run folder)")
        settings = RLlibSettings.from_overrides(
            args.game, args.players, parse_config(args.config), args.seed, args.num_env_runners
        )
        out = out or f"runs/{settings.game}_rllib"
    summary = train_rllib(
        settings,
        args.timesteps,
        out,
        resume=bool(args.resume),
        address=args.address,
        progress=not args.no_progress,
        log=console.print,
    )
    result = evaluate_rllib(out, settings, games=args.eval_games or 40, seed=args.seed)
    result.print(console)
    console.print(f"rllib: {summary['env_steps']} env steps in total; run folder {out}")
    return 0


def run_az(args: argparse.Namespace, console) -> int:
    """Expert iteration: self-play with the search, learner, checkpoints and
    evaluation against MCTS (``meeplezoo.training.az``)."""
    from meeplezoo.cli import parse_config
    from meeplezoo.training.az.train import train_az

    backend = args.backend or "local"
    if backend not in ("local", "ray"):
        raise ValueError(f"--algo az runs self-play on --backend local or ray, not {backend}")
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.workers < 0:
        raise ValueError("--workers must be at least 0")
    config = parse_config(args.config)
    if args.eval_games is not None:
        config["eval_games"] = args.eval_games
    if args.eval_every is not None:
        config["eval_every"] = args.eval_every
    train_az(
        game=args.game,
        players=args.players,
        games=args.games,
        config=config,
        out=args.out,
        resume=args.resume,
        workers=args.workers,
        backend=backend,
        address=args.address,
        seed=args.seed,
        progress=not args.no_progress,
        log=console.print,
    )
    return 0
