"""Golden traces: one seeded random game through the AEC env, step by step,
as short digests of everything a learner sees.

A trace keeps the actions it played, so a replay feeds the same actions back
and can name the first step where the env now shows something else.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from tests.conformance.cases import Case
from tests.conformance.play import random_action

SEED = 0
STEP_CAP = 300  # actions per trace; Gold Rush Gangs games run to about 2,000
DIGEST_CHARS = 16
GONE = "-"  # a seat that has stepped out of env.agents: nothing to observe


def digest_array(array: np.ndarray) -> str:
    """Short sha256 of an array's dtype, shape and bytes."""
    array = np.ascontiguousarray(array)
    h = hashlib.sha256()
    h.update(array.dtype.str.encode())
    h.update(repr(array.shape).encode())
    h.update(array.tobytes())
    return h.hexdigest()[:DIGEST_CHARS]


def digest_json(data) -> str:
    """Short sha256 of a JSON-able value in canonical form."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def seat_end(env, agent: str) -> str:
    """One letter: ``.`` playing, ``t`` terminated, ``u`` truncated, or GONE."""
    if agent not in env.agents:
        return GONE
    if env.terminations[agent]:
        return "t"
    return "u" if env.truncations[agent] else "."


def observed(env, agent: str, key: str) -> str:
    """Digest of one part of ``agent``'s observation."""
    if agent not in env.agents:
        return GONE
    return digest_array(env.observe(agent)[key])


def reward(values: dict, agent: str) -> str:
    """A reward as the exact float text (``repr``), or GONE."""
    return repr(float(values[agent])) if agent in values else GONE


def view(env) -> dict:
    """What the env shows now, as text: the agent to move, every seat's
    observation, the mover's action mask, the rewards (this step's and the
    accumulated ones ``last()`` returns) and each seat's end."""
    seats = env.possible_agents
    return {
        "agent": env.agent_selection,
        "obs": [observed(env, a, "observation") for a in seats],
        "mask": observed(env, env.agent_selection, "action_mask"),
        "rewards": [reward(env.rewards, a) for a in seats],
        "cumulative": [reward(env._cumulative_rewards, a) for a in seats],
        "ends": "".join(seat_end(env, a) for a in seats),
    }


def record(case: Case, seed: int = SEED, cap: int = STEP_CAP) -> dict:
    """Play ``case`` with seeded random legal actions until every agent has
    stepped out, or until ``cap`` actions."""
    env = case.make_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, moves, capped = [], 0, False
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            action = None
        elif moves >= cap:
            capped = True
            break
        else:
            action = random_action(env.observe(agent)["action_mask"], rng)
            moves += 1
        steps.append({"action": action, **view(env)})
        env.step(action)
    return {
        "config": case.config,
        "seed": seed,
        "cap": cap,
        "capped": capped,
        "end": view(env),
        "final_state": digest_json(env.get_state()),
        "steps": steps,
    }
