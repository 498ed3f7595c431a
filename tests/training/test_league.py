"""The opponent pool: weights, lazy snapshots, the pushed current policy."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from meeplezoo.agents.policy import action_probabilities
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.training.league import League, PolicyOpponent, policy_payload


def small_policy(seed=0):
    import torch

    torch.manual_seed(seed)
    return MaskableActorCriticPolicy(
        spaces.Box(0.0, 1.0, (6,), np.float32), spaces.Discrete(4), lambda _: 1e-3, net_arch=[8]
    )


def test_empty_categories_fall_back_to_what_exists():
    league = League(weights={"self": 1.0, "snapshots": 1.0, "random": 0.0})
    # nothing pushed yet: the only opponent left is random
    assert isinstance(league.sample(np.random.default_rng(0)), RandomAgent)


def test_unknown_or_negative_weights_are_refused():
    with pytest.raises(ValueError, match="names no category"):
        League(weights={"nobody": 1.0})
    with pytest.raises(ValueError, match=">= 0"):
        League(weights={"random": -1.0})


def test_snapshots_load_lazily_and_keep_a_window(tmp_path):
    league = League(weights={"snapshots": 1.0}, window=2)
    paths = []
    for k in range(3):
        path = tmp_path / f"snapshot_{k}.pt"
        small_policy(k).save(str(path))
        league.add_snapshot(str(path))
        paths.append(str(path))
    assert league.snapshot_paths == paths[1:]
    assert not league._loaded  # nothing loaded before it is drawn
    opponent = league.sample(np.random.default_rng(0))
    assert isinstance(opponent, PolicyOpponent)
    assert len(league._loaded) == 1
    loaded = next(iter(league._loaded.values()))
    assert next(loaded.parameters()).device.type == "cpu"


def test_current_policy_is_rebuilt_from_its_payload():
    policy = small_policy(1)
    league = League(weights={"self": 1.0})
    league.set_current(policy_payload(policy))
    obs = np.linspace(0, 1, 6).astype(np.float32)
    mask = np.array([1, 0, 1, 1], dtype=np.int8)
    expected = action_probabilities(policy, obs, mask)
    assert np.allclose(action_probabilities(league.current, obs, mask), expected)
    assert expected[1] == 0 and expected.sum() == pytest.approx(1.0)
    # a second push updates the same module in place
    league.set_current(policy_payload(small_policy(2)))
    assert not np.allclose(action_probabilities(league.current, obs, mask), expected)


def test_policy_opponent_samples_legal_actions_reproducibly():
    policy = small_policy(3)
    mask = np.array([0, 1, 0, 1], dtype=np.int8)
    obs = {"observation": np.full(6, 0.5, np.float32), "action_mask": mask}
    draws = []
    for _ in range(2):
        agent = PolicyOpponent(policy)
        agent.reset(11)
        draws.append([agent.act(obs) for _ in range(50)])
    assert draws[0] == draws[1]
    assert set(draws[0]) == {1, 3}
    greedy = PolicyOpponent(policy, deterministic=True)
    assert greedy.act(obs) == int(np.argmax(action_probabilities(policy, obs["observation"], mask)))


def test_sampling_follows_the_weights():
    league = League(weights={"random": 3.0, "mcts": 1.0})
    rng = np.random.default_rng(0)
    for _ in range(400):
        league.sample(rng)
    assert league.counts["random"] + league.counts["mcts"] == 400
    assert 0.65 < league.counts["random"] / 400 < 0.85
