"""PettingZoo's own checks, pickling and registry lookups for every game."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import aec_random_trajectory


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_api_test(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(case.make_env(), num_cycles=300)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_seed_test(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(case.make_env, num_cycles=300)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_pickled_env_continues_identically(case):
    env = case.make_env()
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(10):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.agent_selection == env.agent_selection
    assert copy.get_state() == env.get_state()
    for agent in env.agents:
        a, b = env.observe(agent), copy.observe(agent)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])


@pytest.mark.parametrize("name", sorted({c.name for c in CASES if c.env_factory is None}))
def test_found_by_registries(name):
    import pettingzoo

    from meeplezoo import envs

    env = envs.make(name)
    assert env.metadata["name"] == name
    assert envs.resolve(name.rsplit("_v", 1)[0]) == name
    pz_env = pettingzoo.make("aec", f"meeplezoo/{name}")
    assert type(pz_env).__name__ == type(env).__name__


def test_trace_helper_is_deterministic():
    case = CASES[0]
    assert aec_random_trajectory(case.make_env(), 3) == aec_random_trajectory(case.make_env(), 3)
