"""Simulations per second of the ``az`` search beside ``mcts:sims=200``, same run.

Both bots decide the same positions (reached by seeded random play) of each
game; the figure is simulations per second of CPU time and milliseconds per
decision. An ``az`` simulation is one walk down the tree and one network
evaluation (batched); an ``mcts`` simulation is one walk and a random
rollout of up to 20 moves, so the two buy different things: the decision
time is what a table pays. The network is the shipped baseline where there is
one, else a fresh network of the game's training settings (same size, same
cost). The ``mcts`` columns are the reference search (``backend=python``);
where the game has a compiled kernel the compiled ``mcts`` is measured too,
on the same positions as compiled states, at 200 simulations and at
``--compiled-sims``, and so is the compiled ``az`` (its tree and the game in
the kernel), with the share of its decision time its network takes (the
rest is the tree and the engine). The first table's ``az`` columns are the
reference search (``backend=python``). ``--selfplay-games N`` also plays
N expert-iteration self-play games of each game's recipe
(:mod:`meeplezoo.training.az.settings`, a fresh network of its size, as
one worker plays them) with each search, and gives self-play games per
CPU minute. ``--profile`` splits the az search's time between root sampling
(clone / determinize), moves, masks, observations, the network and the
tree itself.

    python -m meeplezoo.benchmarks.search_speed --markdown benchmarks/results/search_speed.md
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time

import numpy as np

from meeplezoo import envs
from meeplezoo.benchmarks.decisions import decide as _decide
from meeplezoo.envs.core.backends import has_kernel

PARTS = {
    "sample (clone, determinize)": ("sample",),  # SeatView.sample: the determinization and its reseed
    "apply": ("apply_unchecked",),
    "mask": ("legal_action_mask",),
    "observation": ("observation",),
    "network": ("evaluate",),
}


def positions(game, count: int, seed: int):
    rng = np.random.default_rng(seed)
    out, game_seed = [], 0
    while len(out) < count:
        state = game.new_initial_state(seed * 1000 + game_seed)
        game_seed += 1
        for _ in range(int(rng.integers(0, 60))):
            if state.done:
                break
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(legal.size)]))
        if not state.done and state.legal_actions().size > 1:
            out.append(state)
    return out


def az_agent(game, sims: int, backend: str = "python"):
    """The baseline of ``game`` if shipped, else a fresh network of its settings."""
    from meeplezoo.agents.az import AZAgent, baseline_path

    try:
        agent = AZAgent(seed=0, baseline=game.info.name, sims=sims, backend=backend)
        return agent, str(baseline_path(game.info.name).name)
    except ValueError:
        from meeplezoo.training.az.network import AZNetwork, TorchEvaluator
        from meeplezoo.training.az.settings import az_settings

        s = az_settings(game.info.name)
        net = AZNetwork(game, int(s["hidden"]), int(s["channels"]), str(s["body"]))
        return AZAgent(seed=0, sims=sims, evaluator=TorchEvaluator(net), backend=backend), "untrained network"


class TimedEvaluator:
    """An evaluator that counts the CPU seconds its network takes."""

    def __init__(self, inner) -> None:
        self.inner, self.seconds = inner, 0.0

    def evaluate(self, observations, masks):
        start = time.process_time()
        out = self.inner.evaluate(observations, masks)
        self.seconds += time.process_time() - start
        return out


def compiled_az_row(game, states, az_sims: int) -> dict:
    """The compiled ``az`` on the positions as compiled states: simulations
    per second, ms per decision and the network's share of that time."""
    from meeplezoo.envs.core.compiled.state import CompiledState

    compiled = [CompiledState.of(state) for state in states]
    agent, _ = az_agent(game, az_sims, backend="compiled")
    _decide(agent, compiled[:1])  # warm-up: loads the network and (or compiles) the search
    timed = agent._evaluator = TimedEvaluator(agent.evaluator(game))
    seconds = _decide(agent, compiled)
    return {
        "az_compiled_sims_per_second": az_sims * len(compiled) / seconds,
        "az_compiled_ms_per_decision": 1000 * seconds / len(compiled),
        "az_compiled_network_share": timed.seconds / seconds,
    }


def measure(
    name: str, az_sims: int, count: int, seed: int, profile: bool = False, compiled_sims: int = 2000,
    selfplay_games: int = 0, selfplay_rounds: int = 3, selfplay_config: dict | None = None,
) -> dict:  # fmt: skip
    from meeplezoo.agents.mcts import MCTSAgent

    game = envs.make_game(name)
    states = positions(game, count, seed)
    az, network = az_agent(game, az_sims)
    mcts = MCTSAgent(seed=0, sims=200, backend="python")
    _decide(az, states[:1])  # warm-up: loads the network
    az_seconds = _decide(az, states)
    mcts_seconds = _decide(mcts, states)
    row = {
        "game": game.info.name,
        "positions": len(states),
        "network": network,
        "az_sims": az_sims,
        "az_sims_per_second": az_sims * len(states) / az_seconds,
        "az_ms_per_decision": 1000 * az_seconds / len(states),
        "mcts_sims_per_second": 200 * len(states) / mcts_seconds,
        "mcts_ms_per_decision": 1000 * mcts_seconds / len(states),
    }
    if has_kernel(game):
        row.update(compiled_row(states, compiled_sims))
        row.update(compiled_az_row(game, states, az_sims))
        if selfplay_games:
            row.update(selfplay_row(game, selfplay_games, selfplay_rounds, selfplay_config))
    if profile:
        row["az_profile"] = profile_parts(az, states)
    return row


def compiled_row(states, compiled_sims: int) -> dict:
    """The compiled ``mcts`` on the positions as compiled states: simulations
    per second and ms per decision at 200 simulations and at ``compiled_sims``."""
    from meeplezoo.agents.mcts import MCTSAgent
    from meeplezoo.envs.core.compiled.state import CompiledState

    compiled = [CompiledState.of(state) for state in states]
    row = {"compiled_sims": compiled_sims}
    for sims, key in ((200, "compiled_200"), (compiled_sims, "compiled")):
        agent = MCTSAgent(seed=0, sims=sims, backend="compiled")
        _decide(agent, compiled[:1])  # warm-up: loads (or compiles) the search
        seconds = _decide(agent, compiled)
        row[f"{key}_sims_per_second"] = sims * len(compiled) / seconds
        row[f"{key}_ms_per_decision"] = 1000 * seconds / len(compiled)
    return row


def profile_parts(agent, states) -> dict:
    """Share of the az decision time per part (cumulative, so parts nest:
    an observation inside a determinization counts once, under sample)."""
    profiler = cProfile.Profile()
    profiler.enable()
    _decide(agent, states)
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    total = max(ct for (_, _, func), (_, _, _, ct, _) in stats.items() if func == "act")
    shares = {}
    for part, names in PARTS.items():
        best = {}
        for (file, _, func), (_, _, _, ct, _) in stats.items():
            if func in names and "site-packages" not in file:  # the project's functions, not numpy's
                best[func] = max(best.get(func, 0.0), ct)
        shares[part] = sum(best.values()) / total
    shares["tree (selection, backup)"] = max(0.0, 1.0 - sum(shares.values()))
    return shares


def markdown(rows: list[dict], command: str) -> str:
    lines = [
        "# Search speed: az against mcts:sims=200",
        "",
        "Simulations per second of CPU time on the same positions, same run (see",
        "`benchmarks/search_speed.py` for what a simulation is in each).",
        "",
        f"Command: `{command}`",
        "",
        "| game | network | az sims | az sims/s | az ms/decision | mcts sims/s | mcts ms/decision |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['network']} | {r['az_sims']} | {r['az_sims_per_second']:,.0f} | "
            f"{r['az_ms_per_decision']:.1f} | {r['mcts_sims_per_second']:,.0f} | {r['mcts_ms_per_decision']:.1f} |"
        )
    lines += compiled_table(rows)
    lines += compiled_az_table(rows)
    lines += selfplay_table(rows)
    if any("az_profile" in r for r in rows):
        parts = list(next(r for r in rows if "az_profile" in r)["az_profile"])
        lines += ["", "Where the az search spends its time (cProfile, share of decision time):", ""]
        lines += ["| game | " + " | ".join(parts) + " |", "|---|" + "---:|" * len(parts)]
        for r in rows:
            if "az_profile" in r:
                lines.append(
                    f"| {r['game']} | " + " | ".join(f"{r['az_profile'][p]:.0%}" for p in parts) + " |"
                )
    return "\n".join(lines) + "\n"


def compiled_table(rows: list[dict]) -> list[str]:
    """The compiled mcts beside the reference, for the games with a kernel."""
    compiled = [r for r in rows if "compiled_sims" in r]
    if not compiled:
        return []
    lines = [
        "",
        "The compiled `mcts` (20-move rollouts) on the same positions, beside the reference's 200 simulations:",
        "",
        "| game | reference sims/s | compiled sims/s at 200 | ms/decision | compiled sims | sims/s | ms/decision |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in compiled:
        lines.append(
            f"| {r['game']} | {r['mcts_sims_per_second']:,.0f} | {r['compiled_200_sims_per_second']:,.0f} | "
            f"{r['compiled_200_ms_per_decision']:.1f} | {r['compiled_sims']} | {r['compiled_sims_per_second']:,.0f} | "
            f"{r['compiled_ms_per_decision']:.1f} |"
        )
    return lines


def selfplay_row(game, games: int, rounds: int = 3, config: dict | None = None) -> dict:
    """Self-play games per CPU minute of ``game``'s recipe (its az settings,
    then ``config``), one worker's games searched together, its threads held
    as a worker holds them: the reference search with torch's forward
    (self-play before the compiled engine), then the compiled search with the
    evaluator a worker uses now (the network's numpy twin where numpy is
    sooner). Each search plays ``rounds`` times, the two taking turns; the
    row keeps each search's median round (a compiled round lasts under a
    second, and one round's figure moved by a tenth from run to run)."""
    from meeplezoo.training.az.network import AZNetwork, TorchEvaluator
    from meeplezoo.training.az.selfplay import limit_threads, play_games
    from meeplezoo.training.az.settings import az_settings

    limit_threads(1)
    settings = az_settings(game.info.name, {**(config or {}), "concurrent_games": games})
    net = AZNetwork(game, int(settings["hidden"]), int(settings["channels"]), str(settings["body"]))
    evaluators = {"python": TorchEvaluator(net), "compiled": TorchEvaluator(net, game)}
    play_games(
        game, evaluators["compiled"], [0], {**settings, "max_moves": 4}
    )  # warm-up: loads the compiled code
    row = {
        "selfplay_games": games, "selfplay_sims": int(settings["sims"]), "selfplay_rounds": rounds,
        "selfplay_config": dict(config or {}),
    }  # fmt: skip
    played: dict[str, list[tuple[float, float, int]]] = {backend: [] for backend in evaluators}
    for _ in range(rounds):
        for backend, evaluator in evaluators.items():
            timed = TimedEvaluator(evaluator)
            start = time.process_time()
            records = play_games(game, timed, list(range(games)), {**settings, "search_backend": backend})
            seconds = time.process_time() - start
            moves = sum(record.length for record in records)
            played[backend].append((60 * games / seconds, timed.seconds / seconds, moves))
    for backend, results in played.items():
        per_minute, share, moves = sorted(results)[len(results) // 2]
        row[f"selfplay_{backend}_games_per_cpu_minute"] = per_minute
        row[f"selfplay_{backend}_rounds_games_per_cpu_minute"] = [result[0] for result in results]
        row[f"selfplay_{backend}_moves"] = moves
        row[f"selfplay_{backend}_network_share"] = share
    return row


def selfplay_table(rows: list[dict]) -> list[str]:
    """Self-play games per CPU minute, reference search against compiled."""
    played = [r for r in rows if "selfplay_games" in r]
    if not played:
        return []
    lines = [
        "",
        "Expert-iteration self-play of each game's recipe (a fresh network of its size, the games of one",
        "worker searched together), games per CPU minute with each search, the median of "
        f"{played[0].get('selfplay_rounds', 1)} rounds that take turns:",
        "",
        "| game | settings over the defaults | games | sims/move | reference games/CPU-min | network share "
        "| compiled games/CPU-min | network share | speed-up |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in played:
        before, after = r["selfplay_python_games_per_cpu_minute"], r["selfplay_compiled_games_per_cpu_minute"]
        config = " ".join(f"{k}={v}" for k, v in r.get("selfplay_config", {}).items()) or "none"
        lines.append(
            f"| {r['game']} | {config} | {r['selfplay_games']} | {r['selfplay_sims']} | {before:.1f} | "
            f"{r['selfplay_python_network_share']:.0%} | {after:.1f} | "
            f"{r['selfplay_compiled_network_share']:.0%} | {after / before:.1f}x |"
        )
    return lines


def compiled_az_table(rows: list[dict]) -> list[str]:
    """The compiled az beside the reference, for the games with a kernel."""
    compiled = [r for r in rows if "az_compiled_sims_per_second" in r]
    if not compiled:
        return []
    lines = [
        "",
        "The compiled `az` (tree and game in the kernel) on the same positions and network:",
        "",
        "| game | az sims | reference ms/decision | compiled sims/s | compiled ms/decision | speed-up "
        "| network share | tree + engine share |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in compiled:
        share = r["az_compiled_network_share"]
        lines.append(
            f"| {r['game']} | {r['az_sims']} | {r['az_ms_per_decision']:.1f} | "
            f"{r['az_compiled_sims_per_second']:,.0f} | {r['az_compiled_ms_per_decision']:.1f} | "
            f"{r['az_ms_per_decision'] / r['az_compiled_ms_per_decision']:.1f}x | {share:.0%} | {1 - share:.0%} |"
        )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", help="games (default: all)")
    parser.add_argument("--sims", type=int, default=64, help="az simulations per decision")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument(
        "--compiled-sims", type=int, default=2000, help="compiled mcts simulations per decision"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--selfplay-games", type=int, default=0, help="self-play games per search kind (games with a kernel)"
    )
    parser.add_argument(
        "--selfplay-rounds", type=int, default=3, help="self-play rounds per search kind (the median is kept)"
    )
    parser.add_argument(
        "--selfplay-config", nargs="+", default=[], metavar="KEY=VALUE",
        help="az settings of the self-play recipe over the game's defaults (a shipped network's recipe)",
    )  # fmt: skip
    parser.add_argument("--profile", action="store_true", help="also split the az time by part")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    from meeplezoo.cli import parse_config
    from meeplezoo.training.az.settings import az_settings

    names = [envs.resolve(g) for g in args.games] if args.games else envs.names()
    try:
        selfplay_config = parse_config(args.selfplay_config)
        for name in names:  # an unknown key or a value out of range, before any measuring
            az_settings(name, selfplay_config)
    except ValueError as exc:
        parser.error(str(exc))
    import torch

    torch.set_num_threads(1)  # as the az agent and the self-play workers run it
    rows = []
    for name in names:
        row = measure(
            name, args.sims, args.positions, args.seed, args.profile, args.compiled_sims,
            args.selfplay_games, args.selfplay_rounds, selfplay_config,
        )  # fmt: skip
        rows.append(row)
        print(json.dumps(row))
    words = sys.argv[1:] if argv is None else list(argv)
    command = "python -m meeplezoo.benchmarks.search_speed " + " ".join(words)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"command": command.strip(), "rows": rows}, fh, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(markdown(rows, command.strip()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
