"""Random play helpers for the conformance tests (rules layer and AEC)."""

from __future__ import annotations

import numpy as np


def random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "empty legal-action mask while the game runs"
    return int(legal[rng.integers(legal.size)])


def step_cap(game) -> int:
    """A bound no finite game of ours should pass in single decisions."""
    return 200 * max(1, int(game.max_turns)) + 10_000


def play_random_state(game, seed: int, until: int | None = None):
    """Play a random game on the rules layer; stop early after ``until`` steps."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    steps = 0
    while not state.done and (until is None or steps < until):
        state.apply(random_action(state.legal_action_mask(), rng))
        steps += 1
    return state, steps


def aec_random_trajectory(env, seed: int, max_steps: int = 400):
    """Play the AEC env with seeded random legal actions and record
    everything a learner sees: (agent, obs bytes, mask bytes, reward, done)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        trace.append(
            (agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), float(reward), term, trunc)
        )
        if term or trunc:
            action = None
        elif steps >= max_steps:
            break
        else:
            action = random_action(obs["action_mask"], rng)
        env.step(action)
        steps += 1
    return trace
