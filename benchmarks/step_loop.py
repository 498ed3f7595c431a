"""Step-loop throughput of one subject (a game, a peer or the floor).

What is timed, all with uniformly random legal moves from ``random.Random``
seeded per run, and games started from seeds ``seed, seed+1, ...``. The pick
itself (``mask.nonzero()[0]`` and ``randrange``, about 1.5 us) is inside every
loop's time, the same for every subject:

- ``aec``: agent steps per second of the loop a user writes
  (``reset`` / ``agent_iter`` / ``last`` / ``step``, observation and mask
  built every turn, resets and the closing ``None`` steps included);
- ``rules``: steps per second of ``legal_action_mask`` + ``apply`` on the
  rules state alone (meeplezoo games only);
- ``costs``: seconds per call of one AEC ``observe`` (observation + mask),
  of the rules ``observation`` and ``legal_action_mask``, of ``reset`` and of
  ``clone`` (games only: peers have no rules layer to clone), over positions
  sampled from random games; observation and mask on a fresh clone each call,
  so that no cache a state keeps makes them look free;
- ``memory``: bytes allocated by one more env after ``reset`` (tracemalloc),
  and the bytes of one observation and one mask.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from typing import Any

import numpy as np

from meeplezoo.benchmarks.subjects import Subject
from meeplezoo.benchmarks.timing import Settings, Workload, calls_over


def play_aec(env, steps: int, seed: int) -> int:
    """Random legal play through the AEC API for ``steps`` agent steps;
    returns how many games were started."""
    rnd = random.Random(seed)
    done_steps = games = 0
    while True:
        env.reset(seed=seed + games)
        games += 1
        for _agent in env.agent_iter():
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = _obs["action_mask"].nonzero()[0]
                action = int(legal[rnd.randrange(len(legal))])
                done_steps += 1
            env.step(action)
            if done_steps >= steps:
                return games


def play_rules(game, steps: int, seed: int) -> int:
    """Random legal play on the rules layer alone (mask + apply)."""
    rnd = random.Random(seed)
    games = 1
    state = game.new_initial_state(seed)
    for _ in range(steps):
        if state.done:
            state = game.new_initial_state(seed + games)
            games += 1
        legal = state.legal_action_mask().nonzero()[0]
        state.apply(int(legal[rnd.randrange(len(legal))]))
    return games


def _sample_indices(total: int, count: int) -> list[int]:
    if total <= count:
        return list(range(total))
    return sorted({round(i * (total - 1) / max(1, count - 1)) for i in range(count)})


def observe_seconds(env, decisions: int, seed: int) -> float:
    """Mean seconds of one ``env.observe`` at the decision points of random
    play, timed call by call on the wall clock (peers have no clone to park
    positions with); the slowest 1% of calls are dropped as preemptions."""
    rnd = random.Random(seed)
    times: list[float] = []
    games = 0
    clock = time.perf_counter
    while len(times) < decisions:
        env.reset(seed=seed + games)
        games += 1
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            t0 = clock()
            obs = env.observe(agent)
            times.append(clock() - t0)
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rnd.randrange(len(legal))]))
            if len(times) >= decisions:
                break
    times.sort()
    kept = times[: max(1, len(times) - len(times) // 100)]
    return sum(kept) / len(kept)


def fresh_call_seconds(op, states: list, calls: int) -> float:
    """Mean seconds of ``op`` on a fresh clone of each position, timed call by
    call on the wall clock (a state may cache its mask or observation, and a
    fresh clone is what a step or a search meets); slowest 1% dropped."""
    clock = time.perf_counter
    times = []
    count = len(states)
    for i in range(calls):
        s = states[i % count].clone()
        t0 = clock()
        op(s)
        times.append(clock() - t0)
    times.sort()
    kept = times[: max(1, len(times) - len(times) // 100)]
    return sum(kept) / len(kept)


def _state_positions(game, count: int, seed: int, games: int = 4) -> list:
    """Rules states at ``count`` live positions spread over a few random games."""
    rnd, states = random.Random(seed), []
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.done:
            states.append(state.clone())
            legal = state.legal_action_mask().nonzero()[0]
            state.apply(int(legal[rnd.randrange(len(legal))]))
    return [states[i] for i in _sample_indices(len(states), count)]


def env_memory(make_env, seed: int) -> int:
    """Bytes that one more env holds after ``reset`` (first one built before
    tracing, so imports and shared caches are not counted)."""
    warm = make_env()
    warm.reset(seed=seed)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        env = make_env()
        env.reset(seed=seed)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del env, warm
    return after - before


def observation_bytes(make_env, seed: int) -> tuple[int, int]:
    env = make_env()
    env.reset(seed=seed)
    obs = env.observe(env.agent_selection)
    return int(np.asarray(obs["observation"]).nbytes), int(np.asarray(obs["action_mask"]).nbytes)


class SubjectBench:
    """Every workload of one subject, sized by its warm-up, timed one repeat
    at a time so that a run can interleave subjects (load that comes and goes
    then hits every subject alike)."""

    def __init__(self, subject: Subject, settings: Settings) -> None:
        self.subject, self.settings = subject, settings
        seed = settings.seed
        env = subject.make_env()
        self.loops: dict[str, Workload] = {
            "aec": Workload(lambda n: play_aec(env, n, seed), "second", settings.repeat_seconds, settings)
        }
        self.costs: dict[str, Workload] = {}
        aec_rate = self.loops["aec"].units / settings.repeat_seconds
        decisions = max(20, int(aec_rate * settings.call_seconds))
        self.costs["observe"] = Workload(
            lambda n: observe_seconds(env, n, seed), "self", settings.call_seconds, settings, units=decisions
        )
        reset_env = subject.make_env()
        self.costs["reset"] = Workload(
            calls_over(lambda s: reset_env.reset(seed=s), list(range(seed, seed + 8))),
            "call",
            settings.call_seconds,
            settings,
        )
        if subject.make_game is not None:
            game = subject.make_game()
            self.loops["rules"] = Workload(
                lambda n: play_rules(game, n, seed), "second", settings.repeat_seconds, settings
            )
            states = _state_positions(game, settings.positions, seed)
            for key, op in (
                ("observation", lambda s: s.observation(s.current_player)),
                ("mask", lambda s: s.legal_action_mask()),
            ):
                self.costs[key] = Workload(
                    lambda n, op=op: fresh_call_seconds(op, states, n),
                    "self",
                    settings.call_seconds,
                    settings,
                    units=self._fresh_calls(states),
                )
            self.costs["clone"] = Workload(
                calls_over(lambda s: s.clone(), states), "call", settings.call_seconds, settings
            )
        self.memory_bytes = env_memory(subject.make_env, seed)
        self.observation_bytes, self.mask_bytes = observation_bytes(subject.make_env, seed)

    def _fresh_calls(self, states: list) -> int:
        """Calls that fill about ``call_seconds`` (mostly cloning)."""
        clock = time.perf_counter
        t0 = clock()
        for s in states:
            s.clone().observation(s.current_player)
        per_call = max((clock() - t0) / max(1, len(states)), 1e-7)
        return max(len(states), int(self.settings.call_seconds / per_call))

    def repeat(self) -> None:
        for work in (*self.loops.values(), *self.costs.values()):
            work.repeat()

    def result(self) -> dict[str, Any]:
        s = self.subject
        out: dict[str, Any] = {"name": s.name, "label": s.label, "kind": s.kind, "config": s.config}
        for key in ("aec", "rules"):
            work = self.loops.get(key)
            out[key] = None if work is None else {**work.summary(), "games_per_repeat": work.last_result}
        out["costs_s"] = {k: w.summary() for k, w in self.costs.items()}
        out["memory_bytes"] = self.memory_bytes
        out["observation_bytes"], out["mask_bytes"] = self.observation_bytes, self.mask_bytes
        return out


def measure(subject: Subject, settings: Settings) -> dict[str, Any]:
    """Every figure for one subject alone (no interleaving), as a JSON-able dict."""
    bench = SubjectBench(subject, settings)
    for _ in range(settings.repeats):
        bench.repeat()
    return bench.result()
