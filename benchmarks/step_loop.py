"""Step-loop throughput of one subject (a game, a peer or the floor).

What is timed, all with uniformly random legal moves from ``random.Random``
seeded per run, and games started from seeds ``seed, seed+1, ...``:

- ``aec``: agent steps per second of the loop a user writes
  (``reset`` / ``agent_iter`` / ``last`` / ``step``, observation and mask
  built every turn, resets and the closing ``None`` steps included);
- ``rules``: steps per second of ``legal_action_mask`` + ``apply`` on the
  rules state alone (meeplezoo games only);
- ``costs``: seconds per call of one AEC ``observe`` (observation + mask),
  of the rules ``observation`` and ``legal_action_mask``, of ``reset`` and of
  ``clone`` (games only: peers have no rules layer to clone), over positions
  sampled from random games;
- ``memory``: bytes allocated by one more env after ``reset`` (tracemalloc),
  and the bytes of one observation and one mask.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from typing import Any

import numpy as np

from benchmarks.subjects import Subject
from benchmarks.timing import Settings, rates, seconds_per_call, summary


def play_aec(env, steps: int, seed: int) -> int:
    """Random legal play through the AEC API for ``steps`` agent steps;
    returns how many games were started."""
    rnd = random.Random(seed)
    done_steps = games = 0
    while True:
        env.reset(seed=seed + games)
        games += 1
        for agent in env.agent_iter():
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(_obs["action_mask"])
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
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rnd.randrange(len(legal))]))
    return games


def _sample_indices(total: int, count: int) -> list[int]:
    if total <= count:
        return list(range(total))
    return sorted({round(i * (total - 1) / max(1, count - 1)) for i in range(count)})


def observe_seconds(env, decisions: int, seed: int) -> float:
    """Mean seconds of one ``env.observe`` at the decision points of random
    play, timed call by call (peers have no clone to park positions with)."""
    rnd = random.Random(seed)
    total, calls, games = 0.0, 0, 0
    clock = time.perf_counter
    while calls < decisions:
        env.reset(seed=seed + games)
        games += 1
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            t0 = clock()
            obs = env.observe(agent)
            total += clock() - t0
            calls += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))
            if calls >= decisions:
                break
    return total / calls


def _state_positions(game, count: int, seed: int, games: int = 4) -> list:
    """Rules states at ``count`` live positions spread over a few random games."""
    rnd, states = random.Random(seed), []
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.done:
            states.append(state.clone())
            legal = np.flatnonzero(state.legal_action_mask())
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


def measure(subject: Subject, settings: Settings) -> dict[str, Any]:
    """Every figure for one subject, as a JSON-able dict."""
    seed = settings.seed
    out: dict[str, Any] = {
        "name": subject.name,
        "label": subject.label,
        "kind": subject.kind,
        "config": subject.config,
    }
    env = subject.make_env()
    aec_rates, aec_steps = rates(lambda n: play_aec(env, n, seed), settings)
    out["aec"] = {**summary(aec_rates), "steps_per_repeat": aec_steps,
                  "games_per_repeat": play_aec(env, aec_steps, seed)}

    costs: dict[str, Any] = {}
    decisions = max(8, int(out["aec"]["median"] * settings.call_seconds))
    costs["observe"] = summary([observe_seconds(env, decisions, seed) for _ in range(settings.repeats)])
    reset_env = subject.make_env()
    costs["reset"] = summary(seconds_per_call(lambda s: reset_env.reset(seed=s), list(range(seed, seed + 8)), settings))

    if subject.make_game is not None:
        game = subject.make_game()
        rule_rates, rule_steps = rates(lambda n: play_rules(game, n, seed), settings)
        out["rules"] = {**summary(rule_rates), "steps_per_repeat": rule_steps,
                        "games_per_repeat": play_rules(game, rule_steps, seed)}
        states = _state_positions(game, settings.positions, seed)
        costs["observation"] = summary(seconds_per_call(lambda s: s.observation(s.current_player), states, settings))
        costs["mask"] = summary(seconds_per_call(lambda s: s.legal_action_mask(), states, settings))
        costs["clone"] = summary(seconds_per_call(lambda s: s.clone(), states, settings))
        costs["clone_method"] = "State.clone()"
    else:
        out["rules"] = None
    out["costs_s"] = costs
    out["memory_bytes"] = env_memory(subject.make_env, seed)
    out["observation_bytes"], out["mask_bytes"] = observation_bytes(subject.make_env, seed)
    return out
