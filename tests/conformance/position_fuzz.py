"""Fuzzing loaded positions: real mid-game dicts, mutated one change at a time.

Each mutation drops a key, changes a type, pushes a number out of range,
duplicates, drops or swaps list entries (a card in two hands, a missing
tile), or shifts a number by one. Loading a mutant must either raise a
ValueError or TypeError that names what is wrong, leaving the env as it was,
or give a position that plays to its end with every invariant holding
(observations inside their Box, a legal move while the game runs, returns
in range). Anything else is a finding.

``python -m tests.conformance.position_fuzz --game amoeba --count 5000``
prints the tally per game; the conformance suite runs a few examples per
case through Hypothesis (``test_position_fuzz.py``).
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tests.conformance.cases import CASES, Case
from tests.conformance.play import random_action, step_cap

ODD_VALUES = (None, "x", 1.5, -1, 10**9, -(10**9), [], {}, True)


def real_positions(case: Case, count: int = 6, seed: int = 0) -> list[dict]:
    """Positions of seeded random games, taken at spread-out moves."""
    game = case.make_game()
    rng = np.random.default_rng(seed)
    positions = []
    for game_index in range(count):
        state = game.new_initial_state(seed + game_index)
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if state.done:
                break
            state.apply(random_action(state.legal_action_mask(), rng))
        positions.append(state.to_dict())
    return positions


def paths(data, prefix=()) -> list[tuple]:
    """Every path (keys and indices) into a JSON tree, generator state left out."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in ("rng", "config_digest"):
                found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def _parent(data, path):
    for step in path[:-1]:
        data = data[step]
    return data


def mutate(position: dict, rng: np.random.Generator) -> tuple[dict, str]:
    """One random change to a copy of ``position``; the copy and what changed."""
    data = copy.deepcopy(position)
    candidates = [p for p in paths(data) if p]
    path = candidates[int(rng.integers(len(candidates)))]
    parent, last = _parent(data, path), path[-1]
    value = parent[last]
    choice = int(rng.integers(6))
    if choice == 0 and isinstance(parent, dict):
        del parent[last]
        return data, f"dropped {path}"
    if choice == 1 and isinstance(value, list) and value:
        value.append(copy.deepcopy(value[int(rng.integers(len(value)))]))
        return data, f"duplicated an entry of {path}"
    if choice == 2 and isinstance(value, list) and value:
        value.pop(int(rng.integers(len(value))))
        return data, f"removed an entry of {path}"
    if choice == 3 and isinstance(value, list) and len(value) > 1:
        i, j = rng.choice(len(value), 2, replace=False)
        value[i], value[j] = value[j], value[i]
        return data, f"swapped entries of {path}"
    if choice == 4 and isinstance(value, int) and not isinstance(value, bool):
        parent[last] = value + int(rng.choice([-1, 1, 7]))
        return data, f"shifted {path}"
    parent[last] = ODD_VALUES[int(rng.integers(len(ODD_VALUES)))]
    return data, f"set {path} to {parent[last]!r}"


def check_playable(env, rng: np.random.Generator) -> None:
    """Play the loaded env to its end with random legal moves, checking what a
    learner sees at each step (raises AssertionError or the game's error)."""
    game = env.game
    low, high = game.observation_low, game.observation_high
    for steps, _agent in enumerate(env.agent_iter()):
        assert steps < step_cap(game), "the game does not end"
        obs, reward, term, trunc, _ = env.last()
        observation = obs["observation"]
        assert observation.shape == game.observation_shape
        assert np.all(observation >= low) and np.all(observation <= high), "observation outside its Box"
        low_r, high_r = game.reward_range
        assert low_r - 1e-9 <= reward <= high_r + 1e-9, f"reward {reward} outside {game.reward_range}"
        env.step(None if term or trunc else random_action(obs["action_mask"], rng))


@dataclass
class Tally:
    rejected: Counter = field(default_factory=Counter)  # error type -> count
    accepted: int = 0
    findings: list[str] = field(default_factory=list)


def try_one(case: Case, position: dict, rng: np.random.Generator, tally: Tally) -> None:
    """Load one mutant into a running env and judge the outcome."""
    mutant, change = mutate(position, rng)
    env = case.make_env()
    env.reset(seed=1)
    before = (json.dumps(env.get_state(), sort_keys=True), env.agent_selection)
    try:
        env.load_state(mutant)
    except (ValueError, TypeError) as exc:
        tally.rejected[type(exc).__name__] += 1
        if (json.dumps(env.get_state(), sort_keys=True), env.agent_selection) != before:
            tally.findings.append(f"{change}: the env changed although the position was refused")
        if not str(exc):
            tally.findings.append(f"{change}: {type(exc).__name__} without a message")
        return
    except Exception as exc:  # noqa: BLE001 - a finding, reported
        tally.findings.append(f"{change}: load raised {type(exc).__name__}: {exc}")
        return
    tally.accepted += 1
    try:
        check_playable(env, rng)
    except Exception as exc:  # noqa: BLE001 - a finding, reported
        tally.findings.append(f"{change}: accepted, then {type(exc).__name__}: {exc}")


def fuzz(case: Case, count: int, seed: int = 0) -> Tally:
    rng = np.random.default_rng(seed)
    positions = real_positions(case, seed=seed)
    tally = Tally()
    for index in range(count):
        try_one(case, positions[index % len(positions)], rng, tally)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="only this game (with or without _vN)")
    parser.add_argument("--count", type=int, default=500, help="mutants per game and config")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=10, help="findings to print per case")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if args.game is None or args.game in (c.name, c.name.rsplit("_v", 1)[0])]
    total_findings = 0
    print(f"{'case':70} {'mutants':>8} {'accepted':>9} {'rejected':>20} {'findings':>9}")
    for case in cases:
        tally = fuzz(case, args.count, args.seed)
        rejected = ", ".join(f"{k} {v}" for k, v in sorted(tally.rejected.items()))
        print(
            f"{case.id[:70]:70} {args.count:>8} {tally.accepted:>9} {rejected:>20} {len(tally.findings):>9}"
        )
        for finding in tally.findings[: args.show]:
            print(f"    {finding[:300]}")
        total_findings += len(tally.findings)
    return 1 if total_findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
