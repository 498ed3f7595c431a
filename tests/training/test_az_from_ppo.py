"""A PPO checkpoint written as an az network file gives the same priors and
values as searching over the checkpoint itself, and plays as az:path=."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo import envs  # noqa: E402
from meeplezoo.agents.az import PPOEvaluator, load_network  # noqa: E402
from meeplezoo.agents.base import SeatView  # noqa: E402
from meeplezoo.agents.policy import load_model  # noqa: E402
from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.training.az.from_ppo import export_ppo, main  # noqa: E402
from tests.agents.helpers import observation_dict, random_positions  # noqa: E402


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    from meeplezoo.training.train import train
    from tests.training.helpers import TINY as TINY_PPO

    out = tmp_path_factory.mktemp("ppo")
    summary = train(
        "princes_of_amber", timesteps=128, config=TINY_PPO, out=out, progress=False, final_eval=False
    )
    return summary["final_model"]


def test_the_file_evaluates_as_the_checkpoint_does(checkpoint, tmp_path):
    game = envs.make_game("princes_of_amber")
    path = export_ppo(checkpoint, "princes_of_amber", tmp_path / "net.pt2", play={"sims": 12})
    states = random_positions(game, 6, seed=2, max_plies=60)
    observations = np.stack([s.observation(s.current_player) for s in states])
    masks = np.stack([s.legal_action_mask() for s in states])
    network = load_network(path)
    priors, values = network.evaluate(observations, masks)
    want_priors, want_values = PPOEvaluator(load_model(checkpoint), 2).evaluate(observations, masks)
    np.testing.assert_allclose(priors, want_priors, atol=1e-6)
    np.testing.assert_allclose(values, want_values, atol=1e-6)
    assert np.allclose(values[:, 0], -values[:, 1])  # zero-sum: the other seat gets the opposite
    assert network.meta["play"] == {"sims": 12}
    assert network.meta["trained"]["algorithm"] == "ppo"


def layer_by_layer(policy, observations, masks):
    """The policy's forward built from its layers (how PPOEvaluator read it
    before it used sb3-contrib's public API): the reference it must match."""
    import torch

    from meeplezoo.agents.az import softmax_masked

    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(np.asarray(observations))
        pi_features = policy.extract_features(obs, policy.pi_features_extractor)
        vf_features = policy.extract_features(obs, policy.vf_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(pi_features)).numpy()
        own = policy.value_net(policy.mlp_extractor.forward_critic(vf_features)).numpy()[:, 0]
    return softmax_masked(logits, masks), own


def test_the_evaluator_gives_the_policys_own_forward(checkpoint):
    game = envs.make_game("princes_of_amber")
    states = random_positions(game, 6, seed=3, max_plies=80)
    observations = np.stack([s.observation(s.current_player) for s in states])
    masks = np.stack([s.legal_action_mask() for s in states])
    model = load_model(checkpoint)
    priors, values = PPOEvaluator(model, 2).evaluate(observations, masks)
    want_priors, want_own = layer_by_layer(model.policy, observations, masks)
    np.testing.assert_allclose(priors, want_priors, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(values[:, 0], want_own)
    assert np.all(priors[~masks] == 0)


def test_the_file_plays_legal_moves_with_its_own_settings(checkpoint, tmp_path):
    main([checkpoint, "--game", "princes_of_amber", "--out", str(tmp_path / "net.pt2"), "--sims", "5"])
    agent = make_agent(f"az:path={tmp_path / 'net.pt2'}", seed=0)
    assert agent.sims == 5
    game = envs.make_game("princes_of_amber")
    for state in random_positions(game, 4, seed=5, max_plies=40):
        seat = state.current_player
        assert state.legal_action_mask()[agent.act(observation_dict(state, seat), SeatView(state, seat))]


def test_a_checkpoint_of_another_game_is_refused_by_name(checkpoint, tmp_path):
    with pytest.raises(ValueError, match="does not fit gem_mountain_v0"):
        export_ppo(checkpoint, "gem_mountain", tmp_path / "net.pt2")
    assert not (tmp_path / "net.pt2").exists()
