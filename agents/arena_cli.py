"""``meeplezoo arena``: bots play each other on a game and get rated."""

from __future__ import annotations

from meeplezoo.cli import add_agents_option, add_config_option, add_game_argument, user_input
from meeplezoo.envs.core.errors import UsageError

HELP = "play bots against each other and rate them (openskill)"


def add_arguments(parser) -> None:
    add_game_argument(parser)
    add_agents_option(parser, "bots, e.g. random mcts:sims=200 ismcts:sims=100,c=1.4 policy:path=best.zip")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="table size (default: all bots at one table if the game allows, else its default)",
    )
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    add_config_option(parser, "game settings, e.g. num_players=3")
    parser.add_argument("--out", default=None, help="folder for summary.json, CSVs and report.png")
    parser.add_argument(
        "--replays",
        nargs="?",
        const="json",
        choices=("json", "html"),
        default=None,
        help="also save every game as a replay in OUT/replays; 'html' adds a page to watch beside each",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's processes (default); ray: Ray tasks, same results",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --backend ray: cluster to join ('auto' or ray://host:port); default: local Ray",
    )


def run(args) -> int:
    """Play and print the tables, then write the report: the folder is
    checked before the first game, and should writing still fail the
    results are on the screen already (the error follows them)."""
    from meeplezoo.agents.arena import tournament
    from meeplezoo.cli import parse_config

    if args.replays and not args.out:
        raise UsageError("--replays needs --out")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    with user_input():  # the game, the bots, the settings and the folder are checked before play
        result = tournament(
            args.game,
            args.agents,
            games=args.games,
            players=args.players,
            seed=args.seed,
            workers=args.workers,
            config=parse_config(args.config),
            out=args.out,
            progress=not args.no_progress,
            record=bool(args.replays),
            backend=args.backend,
            address=args.address,
            save=False,
        )
    result.print()
    if args.out:
        with user_input():
            result.save(args.out)  # the replays too, which the pages below are made from
        print(f"report written to {args.out}")
    if args.replays == "html":
        from meeplezoo.agents.web.viewer_page import write_replay_pages

        pages = write_replay_pages(f"{args.out}/replays/game_{m.index:05d}.json" for m in result.matches)
        print(f"{len(pages)} replay pages written beside the replays")
    return 0
