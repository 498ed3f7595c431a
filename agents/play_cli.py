"""``meeplezoo play``: a person plays a game in the terminal against bots,
or several people share the keyboard (hot-seat)."""

from __future__ import annotations

import sys

from meeplezoo import envs
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.human import HumanAgent, PlayerQuit
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.cli import add_config_option, add_game_argument, user_input
from meeplezoo.envs.core.errors import UsageError

HELP = "play a game in the terminal against bots or hot-seat"


def add_arguments(parser) -> None:
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=None, help="number of players")
    add_config_option(parser, "game settings, e.g. map_rows=8")
    parser.add_argument("--seat", type=int, default=0, help="your seat (0 moves first)")
    parser.add_argument("--hotseat", action="store_true", help="every seat is a person at this keyboard")
    parser.add_argument(
        "--opponent",
        default="random",
        help="bot for the other seats (default: random, uniformly random legal moves), e.g. mcts:sims=100",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the game and the bots")


def make_bot(spec: str, seed: int | None):
    if spec == "random":
        return RandomAgent(seed=seed)
    from meeplezoo.agents import registry  # search and policy bots

    return registry.make_agent(spec, seed=seed)


def build_seats(args, num_players: int, input_fn=input, output_fn=print) -> list:
    if not 0 <= args.seat < num_players:
        raise UsageError(f"--seat must be between 0 and {num_players - 1}")
    seats = []
    for seat in range(num_players):
        if args.hotseat or seat == args.seat:
            seats.append(HumanAgent(input_fn=input_fn, output_fn=output_fn))
        else:
            seats.append(make_bot(args.opponent, None if args.seed is None else args.seed + seat))
    return seats


def play(args, input_fn=input, output_fn=print) -> dict[str, float]:
    """Run one game; returns each agent's final reward."""
    from meeplezoo.cli import parse_config

    with user_input():
        config = parse_config(args.config)
        if args.players is not None:
            config["num_players"] = args.players
        env = envs.make(args.game, **config)
        env.reset(seed=args.seed)
        seats = build_seats(args, env.game.num_players, input_fn, output_fn)
    for seat, agent in enumerate(seats):
        agent.reset(None if args.seed is None else args.seed + seat)
    totals = {a: 0.0 for a in env.possible_agents}
    for name in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[name] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_name_mapping[name]
        agent = seats[seat]
        view = SeatView(env.game_state, seat) if agent.needs_view else None
        action = agent.act(obs, view)
        if not isinstance(agent, HumanAgent):
            output_fn(f"{name} ({agent.describe()}): {env.game_state.action_to_string(action)}")
        env.step(action)
    viewer = None if args.hotseat else args.seat
    output_fn(env.game_state.render_ansi(viewer))
    outcome = "truncated at the turn limit" if any(env.truncations.values()) else "game over"
    output_fn(f"{outcome}. Rewards: " + ", ".join(f"{a} {r:+.2f}" for a, r in totals.items()))
    return totals


def run(args) -> int:
    try:
        play(args)
    except PlayerQuit:
        print("you left the game.", file=sys.stderr)
        return 0
    except KeyboardInterrupt:
        print("\nstopped.", file=sys.stderr)
        return 130
    return 0
