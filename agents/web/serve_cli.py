"""``meeplezoo serve GAME --agents human SPEC...``: play against bots in the browser.

Exactly one seat is ``human``: the person at the browser. Needs the ``web``
extra (Starlette and uvicorn).
"""

from __future__ import annotations

import ipaddress
import socket

from meeplezoo.cli import add_agents_option, add_config_option, add_game_argument, user_input
from meeplezoo.envs.core.errors import UsageError

HELP = "play a game against bots in the browser (a local web table)"
INSTALL = "pip install 'meeplezoo[web]'"


def add_arguments(parser) -> None:
    add_game_argument(parser)
    add_agents_option(
        parser, "one per seat in seat order, exactly one 'human' (you), e.g. human mcts:sims=200"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="number of players (default: one per agent)"
    )
    add_config_option(parser, "game settings, e.g. num_players=3")
    parser.add_argument(
        "--seed", type=int, default=None, help="seed for the games and bots (default: random)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--replays", default="replays", metavar="DIR", help="folder for finished games (default ./replays)"
    )


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_port(host: str, port: int) -> None:
    """Fail with one line before starting if the address cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def settings_from_args(args):
    """The table settings, checked (a bad game, config or agent raises ValueError)."""
    import numpy as np

    from meeplezoo import envs
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.agents.web.tables import TableSettings
    from meeplezoo.cli import parse_config

    config = parse_config(args.config)
    name = envs.resolve(args.game)
    if args.players is not None:
        config["num_players"] = args.players
    elif "num_players" in envs.game_class(name).defaults and "num_players" not in config:
        config["num_players"] = len(args.agents)
    for spec in args.agents:
        make_agent(spec)  # a bad spec fails here, before the server starts
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    return TableSettings(
        game=name, agents=list(args.agents), config=config, seed=seed, replay_dir=args.replays
    )


def run(args) -> int:
    try:
        import uvicorn

        from meeplezoo.agents.web.server import create_app
    except ImportError as exc:
        raise UsageError(f"the web table needs {exc.name or 'the web extra'}: {INSTALL}") from None
    with user_input():
        settings = settings_from_args(args)
    try:
        settings.replay_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot use {settings.replay_dir} for replays: {exc.strerror or exc}") from None
    _check_port(args.host, args.port)
    hosts = ["127.0.0.1", "localhost", "::1", "[::1]", args.host] if _is_loopback(args.host) else None
    app = create_app(settings, allowed_hosts=hosts)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"meeplezoo table: {settings.game}, {' '.join(settings.agents)}, seed {settings.seed}")
    print(
        f"open http://{shown}:{args.port}/ in a browser (Ctrl+C stops); finished games go to {settings.replay_dir}/"
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
