"""Self-play games with the search, and the workers that play them.

A worker plays several games side by side and searches all of their moves
together, so each network call evaluates the leaves of every game at once.
The seat to move searches from its own :class:`SeatView` (determinizations in
hidden-information games), with Dirichlet noise at the root: with the tree
and the game in compiled code where the game has a kernel
(:func:`~meeplezoo.agents.puct.seat_search`; ``search_backend=python``
keeps the reference search). The first
``temperature_moves`` moves of a game are drawn from the visit counts, the
rest are the most visited. Moves with a single legal action are played
without a search and not recorded.

Workers are local processes (``backend="local"``), Ray tasks
(``backend="ray"``, through the arena's Ray connection) or this process
(``workers=0``). Each task carries the current weights, so a worker always
plays the network the learner has just published.
"""

from __future__ import annotations

import gc
import io
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from meeplezoo.agents.base import SeatView
from meeplezoo.agents.puct import relative_values, run_searches, seat_search
from meeplezoo.envs.core.backends import start_state
from meeplezoo.training.az.ownership import ownership_targets


@dataclass
class GameRecord:
    """One self-play game: the searched positions and the result."""

    observations: np.ndarray  # [moves, *observation_shape], the game's dtype
    masks: np.ndarray  # [moves, num_actions] bool
    policies: np.ndarray  # [moves, num_actions] float32: visit distribution
    values: np.ndarray  # [moves, num_players] float32: value targets, mover first (see value_targets)
    length: int  # every move played, forced ones included
    returns: list[float]  # final returns; a cut game: each seat's own estimate of its return
    cut: bool  # stopped at max_moves and scored by each mover's evaluate(viewer=mover)
    simulations: int  # searched by this game's moves
    search_seconds: float  # CPU seconds of the worker per game
    # [moves, entries] int8: who holds each cell at the end, from the mover's view (ownership.py)
    ownership: np.ndarray | None = None


class _Game:
    def __init__(self, game, seed: int) -> None:
        self.state = start_state(game, seed)
        self.rng = np.random.default_rng(seed)
        self.moves = 0
        self.samples: list[tuple] = []  # (observation, mask, policy, player, search value in seat order)
        self.simulations = 0
        self.blocks = None  # the last move's compiled search blocks, reused by the next move's search


def _advance_forced(game_run: _Game, max_moves: int) -> None:
    state = game_run.state
    while not state.done and not (max_moves and game_run.moves >= max_moves):
        legal = state.legal_actions()
        if legal.size > 1:
            return
        state.apply_unchecked(int(legal[0]))
        game_run.moves += 1


def _search(run: _Game, settings: dict):
    """The search of the move ``run`` is at, by the seat to move (not yet run)."""
    backend = settings.get("search_backend", "auto")
    return seat_search(
        SeatView(run.state, run.state.current_player),
        int(settings["sims"]),
        run.rng,
        None if backend == "auto" else backend,
        blocks=run.blocks,
        c_puct=float(settings["c_puct"]),
        search_batch=int(settings["search_batch"]),
        dirichlet_alpha=float(settings["dirichlet_alpha"]),
        dirichlet_weight=float(settings["dirichlet_weight"]),
        value_mix=float(settings["value_mix"]),
        value_rollout=int(settings["value_rollout"]),
        prior_temperature=float(settings["prior_temperature"]),
    )


def play_games(game, evaluator, seeds, settings: dict) -> list[GameRecord]:
    """Play one self-play game per seed, all searched together."""
    import time

    max_moves = int(settings.get("max_moves") or 0)
    runs = [_Game(game, int(seed)) for seed in seeds]
    started = time.process_time()  # CPU time: the machine may be shared
    search_weight = float(settings.get("search_value_weight", 0.0))
    margin = Margin(float(settings.get("margin_value_weight", 0.0)), float(settings.get("margin_scale", 1.0)))
    ownership = float(settings.get("ownership_weight", 0.0)) > 0
    with collector_paused():  # the records too: stacking them once set off a full collection
        _play(runs, evaluator, settings, max_moves)
        seconds = time.process_time() - started
        return [_record(run, game, seconds / len(runs), search_weight, margin, ownership) for run in runs]


@contextmanager
def collector_paused():
    """Python's cycle collector off while the games are played: the moves
    make no reference cycles, but every full collection walks each object
    torch and the network keep, which cost about a twentieth of compiled
    self-play's time. Reference counting still frees everything at once."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _play(runs: list[_Game], evaluator, settings: dict, max_moves: int) -> None:
    """Every run's moves to its end (or ``max_moves``), searched together."""
    while True:
        for run in runs:
            _advance_forced(run, max_moves)
        active = [r for r in runs if not r.state.done and not (max_moves and r.moves >= max_moves)]
        if not active:
            break
        searches = [_search(run, settings) for run in active]
        run_searches(searches, evaluator)
        for run, search in zip(active, searches):
            state = run.state
            seat = state.current_player
            visits = search.visit_counts()
            mask = state.legal_action_mask()
            run.samples.append(
                (state.observation(seat), mask, visits / visits.sum(), seat, search.root_value())
            )
            run.simulations += search.finished
            temperature = 1.0 if run.moves < int(settings["temperature_moves"]) else 0.0
            action = search.sample_action(temperature)
            state.apply(action)  # checked: a wrong search must never corrupt a training game
            run.moves += 1
            run.blocks = getattr(search, "blocks", None)  # read to the end: the next move may reuse them


@dataclass(frozen=True)
class Margin:
    """How much of a finished game's value target is its score margin rather
    than its result, and the margin that counts as most of a win."""

    weight: float = 0.0
    scale: float = 1.0


def margin_values(state, scale: float) -> np.ndarray:
    """Each seat's score margin over the mean of the others, squashed by
    ``tanh(margin / scale)`` into the reward range: a 22-20 game and a 30-10
    one are both a win to the result, but not to a player deciding where to
    place its last tiles. Only for games whose state counts ``scores()``."""
    if not hasattr(state, "scores"):
        raise ValueError(
            f"margin_value_weight needs a game that keeps scores; {type(state).__name__} has none"
        )
    scores = np.asarray(state.scores(), dtype=np.float64)
    others = (scores.sum() - scores) / (len(scores) - 1)
    return np.tanh((scores - others) / scale)


def value_targets(state, movers: list[int], margin: Margin = Margin()) -> np.ndarray:
    """The value target of each searched position, mover first, from the
    position the game stopped at: its returns once the game is over, moved
    ``margin.weight`` of the way to its squashed score margins. A game
    cut at ``max_moves`` is scored, for each position, by its own mover's
    estimate ``evaluate(viewer=mover)``: that reads only what the mover
    knows by the cut, which includes all it knew when it moved, whereas the
    whole-state estimate would score its positions by the other seats'
    hidden cards and tiles."""
    if state.done:
        returns = np.asarray(state.returns(), dtype=np.float64)
        if margin.weight:
            returns = (1.0 - margin.weight) * returns + margin.weight * margin_values(state, margin.scale)
        return np.stack([relative_values(returns, p) for p in movers])
    views = {p: state.evaluate(viewer=p) for p in sorted(set(movers))}
    return np.stack([relative_values(views[p], p) for p in movers])


def blend_search_values(targets: np.ndarray, samples: list[tuple], weight: float) -> np.ndarray:
    """``targets`` (mover first) moved ``weight`` of the way to each position's
    root search value: the final result says who won one game, the search
    what its position is worth on average, so a blend teaches the value with
    less noise from few games (the z and q average of AlphaZero reproductions)."""
    if not weight:
        return targets
    searched = np.stack([relative_values(s[4], s[3]) for s in samples])
    return (1.0 - weight) * targets + weight * searched


def _record(
    run: _Game, game, seconds: float, search_weight: float = 0.0, margin: Margin = Margin(),
    ownership: bool = False,
) -> GameRecord:  # fmt: skip
    state = run.state
    cut = not state.done
    n = game.num_players
    if cut:
        returns = np.array([state.evaluate(viewer=p)[p] for p in range(n)], dtype=np.float64)
    else:
        returns = np.asarray(state.returns(), dtype=np.float64)
    if run.samples:
        obs = np.stack([s[0] for s in run.samples]).astype(game.observation_dtype)
        masks = np.stack([s[1] for s in run.samples]).astype(bool)
        policies = np.stack([s[2] for s in run.samples]).astype(np.float32)
        values = value_targets(state, [s[3] for s in run.samples], margin)
        values = blend_search_values(values, run.samples, search_weight).astype(np.float32)
    else:
        obs = np.zeros((0, *game.observation_shape), game.observation_dtype)
        masks = np.zeros((0, game.num_actions), bool)
        policies = np.zeros((0, game.num_actions), np.float32)
        values = np.zeros((0, n), np.float32)
    owners = ownership_targets(state, game, [s[3] for s in run.samples]) if ownership else None
    return GameRecord(
        obs, masks, policies, values, run.moves, [float(r) for r in returns], cut, run.simulations, seconds,
        owners,
    )  # fmt: skip


# --- workers ---------------------------------------------------------------------

_WORKER_CACHE: dict = {}


def weights_bytes(net) -> bytes:
    """The network's weights as bytes, to send to workers."""
    import torch

    buffer = io.BytesIO()
    torch.save(net.state_dict(), buffer)
    return buffer.getvalue()


def _worker_network(game, spec: dict, weights: bytes, threads: int):
    """This worker's evaluator of ``weights``: the network is built once per
    game and shape, its weights (and numpy twin) renewed when they change."""
    import torch

    from meeplezoo.training.az.network import AZNetwork, TorchEvaluator

    key = (game.info.name, tuple(sorted(game.config.items())), tuple(sorted(spec.items())))
    cached = _WORKER_CACHE.get("net")
    if cached is None or cached[0] != key:
        limit_threads(threads)
        cached = (key, AZNetwork(game, **spec), None, None)
    key, net, loaded, evaluator = cached
    if loaded != hash(weights):
        net.load_state_dict(torch.load(io.BytesIO(weights), weights_only=True))
        evaluator = TorchEvaluator(net, game)
    _WORKER_CACHE["net"] = (key, net, hash(weights), evaluator)
    return evaluator


def limit_threads(threads: int) -> None:
    """A worker's threads for the network: torch's and numpy's matrix
    products (the numpy twin's) both held to ``threads``. numpy's BLAS must
    be loaded first, or the limit misses it: its idle threads spin, and on
    two cores the CPU time of compiled self-play doubled."""
    import torch
    from threadpoolctl import threadpool_limits

    threads = max(1, int(threads))
    torch.set_num_threads(threads)
    threadpool_limits(threads, user_api="blas")


def play_task(task: tuple) -> list[GameRecord]:
    """One worker task: (game, network spec, weights, seeds, settings)."""
    game, spec, weights, seeds, settings = task
    evaluator = _worker_network(game, spec, weights, int(settings.get("torch_threads", 1)))
    return play_games(game, evaluator, seeds, settings)


class Workers:
    """Where self-play games are played: this process, a local process pool
    or Ray tasks. ``play(...)`` returns the records in seed order."""

    def __init__(self, workers: int, backend: str = "local", address: str | None = None) -> None:
        if backend not in ("local", "ray"):
            raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
        if workers < 0:
            raise ValueError(f"workers must be at least 0, got {workers}")
        self.workers, self.backend, self.address = workers, backend, address
        self._pool = None
        self._remote = None

    def play(self, game, spec: dict, weights: bytes, seeds: list[int], settings: dict, on_done=None):
        per_task = max(1, int(settings["concurrent_games"]))
        chunks = [seeds[i : i + per_task] for i in range(0, len(seeds), per_task)]
        tasks = [(game, spec, weights, chunk, settings) for chunk in chunks]
        results: list[list[GameRecord]] = [None] * len(tasks)
        if self.backend == "ray":
            self._play_ray(tasks, results, on_done)
        elif self.workers == 0:
            for i, task in enumerate(tasks):
                results[i] = play_task(task)
                if on_done:
                    on_done(len(results[i]))
        else:
            pool = self._local_pool()
            for i, records in pool.imap_unordered(_indexed_play, list(enumerate(tasks))):
                results[i] = records
                if on_done:
                    on_done(len(records))
        return [record for chunk in results for record in chunk]

    def _local_pool(self):
        if self._pool is None:
            import multiprocessing as mp

            self._pool = mp.get_context("spawn").Pool(max(1, self.workers))
        return self._pool

    def _play_ray(self, tasks, results, on_done) -> None:
        import ray

        from meeplezoo.agents.arena_ray import connect

        connect(self.address, num_cpus=max(1, self.workers) if not self.address else None)
        if self._remote is None:
            self._remote = ray.remote(_indexed_play)
        pending = [self._remote.remote((i, task)) for i, task in enumerate(tasks)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            i, records = ray.get(done[0])
            results[i] = records
            if on_done:
                on_done(len(records))

    def close(self, wait: bool = True) -> None:
        """Stop the workers: after their games, or now, mid-game (``wait=False``,
        an interrupted run)."""
        if self._pool is not None:
            if wait:
                self._pool.close()
            else:
                self._pool.terminate()
            self._pool.join()
            self._pool = None


def _indexed_play(item: tuple) -> tuple[int, list[GameRecord]]:
    index, task = item
    return index, play_task(task)
