"""Matches and tournaments between bots on any meeplezoo game.

Games run on the rules layer directly (no AEC wrapper), but each agent gets
exactly what the AEC env would hand its seat: ``{"observation", "action_mask"
(int8)}``, plus a :class:`~agents.base.SeatView` for agents that search.

Everything is seeded from one tournament seed: game ``i`` gets its own seed
and each seat's agent is reset with a seed derived from it, so a game's result
does not depend on which worker process plays it or what it played before.
Reports (ratings, win matrix, seat win rates) live in meeplezoo.agents.arena_report.
"""

from __future__ import annotations

import copy
import itertools
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meeplezoo.agents.base import Agent, SeatView
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs.core.backends import start_state
from meeplezoo.envs.core.ranking import ranks as competition_ranks
from meeplezoo.envs.core.replay import ReplayRecord, seal

MAX_ARRANGEMENTS = 20000  # beyond this many seatings, draw them at random


@dataclass
class MatchResult:
    """One finished game: who sat where and how it went."""

    game: str
    config: dict
    seed: int
    agents: list[str]  # label per seat
    returns: list[float]
    ranks: list[int]  # 1-based competition ranks per seat
    length: int  # actions played
    truncated: bool
    decisions: list[int]  # decisions made per seat
    decision_time: list[float]  # seconds spent deciding per seat
    replay: ReplayRecord | None = None
    index: int = 0  # position in its tournament
    seating: list[int] = field(default_factory=list)  # agent index per seat (tournaments)

    def to_dict(self) -> dict:
        d = {
            k: getattr(self, k)
            for k in (
                "index",
                "game",
                "seed",
                "agents",
                "returns",
                "ranks",
                "length",
                "truncated",
                "decisions",
                "decision_time",
            )
        }
        d["config"] = dict(self.config)
        return d


def _game(game, config: dict | None, num_agents: int | None = None):
    """A rules Game from a registry name, a Game class or a Game instance.
    With a name and no ``num_players`` in the config, the table size is the
    number of agents."""
    from meeplezoo.envs.core.state import Game

    if isinstance(game, Game):
        if config:
            return type(game)(**{**game.config, **config})
        return game
    config = dict(config or {})
    if isinstance(game, type):
        cls = game
    else:
        from meeplezoo import envs

        cls = envs.game_class(game)
    if num_agents is not None and "num_players" not in config and "num_players" in cls.defaults:
        config["num_players"] = num_agents
    return cls(**config)


def derive_seed(seed: int, *keys: int) -> int:
    """A 63-bit seed for ``(seed, keys...)``, independent across keys."""
    words = np.random.SeedSequence(entropy=int(seed), spawn_key=tuple(int(k) for k in keys)).generate_state(2)
    return int((int(words[0]) << 32 | int(words[1])) & (2**63 - 1))


def run_game(
    game, agents: Sequence[Agent], seed: int, labels: Sequence[str], record: bool = False
) -> MatchResult:
    """Play one game of ``game`` (a Game) with one agent per seat."""
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{game.info.name} with this config seats {n} players, got {len(agents)} agents")
    for seat, agent in enumerate(agents):
        agent.reset(derive_seed(seed, 1, seat))
    state = start_state(game, seed)
    actions: list[int] = []
    decisions = [0] * n
    spent = [0.0] * n
    while not state.done:
        seat = state.current_player
        mask = state.legal_action_mask()
        obs = {"observation": state.observation(seat), "action_mask": mask.astype(np.int8)}
        agent = agents[seat]
        view = SeatView(state, seat) if agent.needs_view else None
        start = time.perf_counter()
        action = int(agent.act(obs, view))
        spent[seat] += time.perf_counter() - start
        decisions[seat] += 1
        if not 0 <= action < mask.size or not mask[action]:
            raise ValueError(f"{labels[seat]} chose illegal action {action} in {game.info.name}")
        state.apply(action)
        actions.append(action)
    returns = [float(r) for r in state.returns()]
    result = MatchResult(
        game=game.info.name,
        config=dict(game.config),
        seed=int(seed),
        agents=list(labels),
        returns=returns,
        ranks=[int(r) for r in competition_ranks(returns)],
        length=len(actions),
        truncated=bool(state.truncated and not state.terminal),
        decisions=decisions,
        decision_time=spent,
    )
    if record:
        result.replay = seal(
            ReplayRecord(
                game=game.info.name,
                config=dict(game.config),
                seed=int(seed),
                actions=actions,
                meta={"agents": list(labels), "returns": returns, "ranks": result.ranks},
            ),
            game=game,
        )
    return result


def _label(spec) -> str:
    return spec if isinstance(spec, str) else spec.describe()


def play_match(game_name, agents, seed: int, config: dict | None = None, record: bool = False) -> MatchResult:
    """Play one game. ``agents`` are spec strings (``"mcts:sims=200"``) or
    Agent instances, one per seat; ``game_name`` a registry name (or a Game).
    With ``record`` the result carries a ReplayRecord."""
    game = _game(game_name, config, len(agents))
    built = [make_agent(a, seed=derive_seed(seed, 1, i)) for i, a in enumerate(agents)]
    return run_game(game, built, seed, [_label(a) for a in agents], record=record)


# --- tournaments --------------------------------------------------------------


def unique_labels(specs: Sequence) -> list[str]:
    """Report names for the entrants; repeats get ``#2``, ``#3``..."""
    labels, seen = [], {}
    for spec in specs:
        base = _label(spec)
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


def seatings(num_agents: int, players: int) -> list[tuple[int, ...]]:
    """Every fair table: with at least as many agents as seats, every ordered
    choice of distinct agents; with fewer, every seating that uses each agent
    at least once (some agents then fill several seats)."""
    if num_agents >= players:
        return list(itertools.permutations(range(num_agents), players))
    return [s for s in itertools.product(range(num_agents), repeat=players) if len(set(s)) == num_agents]


def _count_seatings(k: int, n: int) -> int:
    if k >= n:
        return int(np.prod(range(k - n + 1, k + 1)))
    return k**n


def schedule(num_agents: int, players: int, games: int, seed: int) -> list[tuple[int, ...]]:
    """The seating of each game: the full set of fair tables in a seeded
    order, cycled; every full cycle gives each agent each seat equally often.
    For huge sets (many agents at big tables) tables are drawn at random."""
    rng = np.random.default_rng(derive_seed(seed, 0))
    if num_agents < 1:
        raise ValueError("a tournament needs at least one agent")
    if _count_seatings(num_agents, players) > MAX_ARRANGEMENTS:
        out = []
        for _ in range(games):
            if num_agents >= players:
                out.append(tuple(int(x) for x in rng.permutation(num_agents)[:players]))
            else:
                base = list(range(num_agents)) + [
                    int(x) for x in rng.integers(num_agents, size=players - num_agents)
                ]
                out.append(tuple(int(base[i]) for i in rng.permutation(players)))
        return out
    tables = seatings(num_agents, players)
    order = [tables[i] for i in rng.permutation(len(tables))]
    return [order[i % len(order)] for i in range(games)]


def default_players(info, num_agents: int) -> int:
    """Everyone at one table when the game allows it, else the game's
    default table size."""
    if info.min_players <= num_agents <= info.max_players:
        return num_agents
    return info.default_players


class MatchTable:
    """A worker's agents: one instance per (entrant, copy), built once.

    Public because every arena backend (the process pool here, Ray in
    ``arena_ray``) plays its matches on one."""

    def __init__(self, game, specs, labels):
        self.game = game
        self.specs = specs
        self.labels = labels
        self.instances: dict[tuple[int, int], Agent] = {}

    def agent(self, index: int, copy_no: int) -> Agent:
        key = (index, copy_no)
        if key not in self.instances:
            spec = self.specs[index]
            self.instances[key] = (
                copy.deepcopy(spec) if isinstance(spec, Agent) and copy_no else make_agent(spec)
            )
        return self.instances[key]

    def play(self, task) -> MatchResult:
        index, seating, seed, record = task
        used: dict[int, int] = {}
        agents, labels = [], []
        for i in seating:
            agents.append(self.agent(i, used.get(i, 0)))
            used[i] = used.get(i, 0) + 1
            labels.append(self.labels[i])
        result = run_game(self.game, agents, seed, labels, record=record)
        result.index = index
        result.seating = list(seating)
        return result


_WORKER: MatchTable | None = None


def _init_worker(game, specs, labels) -> None:
    global _WORKER
    _WORKER = MatchTable(game, specs, labels)


def _play_in_worker(task) -> MatchResult:
    return _WORKER.play(task)


def tournament(
    game_name,
    agent_specs: Sequence,
    games: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    config: dict | None = None,
    out=None,
    progress: bool | Callable[[int, int], None] = True,
    record: bool = False,
    backend: str = "local",
    address: str | None = None,
    save: bool = True,
):
    """Play ``games`` games between the entrants and rate them.

    ``agent_specs`` are spec strings (or Agent instances); ``players`` the
    table size (default: everyone at one table if the game allows it, else
    the game's default). Seats rotate through every fair seating. With
    ``workers`` > 1 games run in worker processes; results are identical for
    any worker count. ``backend="ray"`` runs the games as Ray tasks (on a
    local Ray instance, or the cluster at ``address``) with the same results
    as a local run. With ``out`` the report (JSON, CSV, PNG) is written
    there, and with ``record`` also one replay file per game; the folder is
    checked (or created) before the first game, so a bad ``out`` costs no
    play. ``save=False`` leaves the writing to the caller, who may want to
    show the results first (``result.save(out)``). ``progress`` shows a bar,
    or is called with (games done, games) after each game.
    Returns an :class:`meeplezoo.agents.arena_report.TournamentResult`.
    """
    from meeplezoo.agents.arena_report import TournamentResult

    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    specs = list(agent_specs)
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two agents")
    for spec in specs:  # fail fast on a bad spec, before any worker starts
        if isinstance(spec, str):
            make_agent(spec)
    labels = unique_labels(specs)
    game = _tournament_game(game_name, config, players, len(specs))
    n = game.num_players
    tables = schedule(len(specs), n, games, seed)
    tasks = [(i, tables[i], derive_seed(seed, 2, i), bool(record)) for i in range(games)]
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if out is not None:
        prepare_report_folder(out)
    results = _run_tasks(game, specs, labels, tasks, workers, progress, backend, address)
    results.sort(key=lambda r: r.index)
    report = TournamentResult(
        game=game.info.name, config=dict(game.config), players=n, agents=labels, seed=seed, matches=results
    )
    if out is not None and save:
        report.save(out)
    return report


def _tournament_game(game_name, config: dict | None, players: int | None, entrants: int):
    """The game every table plays: ``players`` seats (or the config's
    ``num_players``, or everyone at one table if the game allows it, else
    its default); a ValueError when the game cannot seat them."""
    probe = _game(game_name, config)
    if players is None and config and "num_players" in config:
        players = int(config["num_players"])
    seats = players or default_players(probe.info, entrants)
    game = (
        _game(game_name, {**(config or {}), "num_players": seats})
        if "num_players" in probe.defaults
        else probe
    )
    if game.num_players != seats:
        raise ValueError(f"{game.info.name} cannot seat {seats} players")
    return game


def prepare_report_folder(out) -> Path:
    """Create the report folder ``out`` (or accept an existing one) before
    any game is played: an existing file or an unwritable place there is an
    error now, not after the whole tournament."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"report folder {str(out)!r} is an existing file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"report folder {str(out)!r} is not writable")
    return folder


def _run_tasks(
    game,
    specs,
    labels,
    tasks,
    workers: int,
    progress: bool | Callable[[int, int], None],
    backend: str = "local",
    address: str | None = None,
) -> list[MatchResult]:
    bar = _progress(len(tasks), progress, game.info.name)
    results = []
    try:
        if backend == "ray":
            from meeplezoo.agents.arena_ray import run_tasks_on_ray

            results = run_tasks_on_ray(game, specs, labels, tasks, workers, bar, address)
        elif workers <= 1:
            table = MatchTable(game, specs, labels)
            for task in tasks:
                results.append(table.play(task))
                bar.update(1)
        else:
            import multiprocessing as mp

            ctx = mp.get_context("spawn")
            with ctx.Pool(workers, initializer=_init_worker, initargs=(game, specs, labels)) as pool:
                chunk = max(1, min(8, len(tasks) // (workers * 8)))
                for result in pool.imap_unordered(_play_in_worker, tasks, chunksize=chunk):
                    results.append(result)
                    bar.update(1)
    finally:
        bar.close()
    return results


class _CallbackBar:
    """The bar interface ``_run_tasks`` drives, reporting to a function:
    lets a caller with its own display (the trainer's) show arena progress."""

    def __init__(self, total: int, report: Callable[[int, int], None]) -> None:
        self.total, self.done, self.report = total, 0, report

    def update(self, n: int = 1) -> None:
        self.done += n
        self.report(self.done, self.total)

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool | Callable[[int, int], None], name: str):
    if callable(enabled):
        return _CallbackBar(total, enabled)
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled, desc=name, unit="game", leave=False)
