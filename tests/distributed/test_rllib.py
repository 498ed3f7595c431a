"""RLlib self-play on a local Ray instance with 2 CPUs: a masked PPO
iteration on a 2-player and a 3-player game, no illegal action ever, and a
checkpoint that restores and resumes. Marked ``ray``; short by design."""

from __future__ import annotations

import json

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

from meeplezoo import envs  # noqa: E402

pytestmark = pytest.mark.ray


def small(game, **kw):
    from meeplezoo.training.rllib import RLlibSettings

    return RLlibSettings(
        game=game,
        train_batch_size=200,
        minibatch_size=100,
        num_epochs=1,
        hidden=(32,),
        snapshots=2,
        snapshot_every=1,
        **kw,
    )


def test_mapping_sends_the_learner_seat_to_main_and_others_to_the_league():
    from meeplezoo.training.rllib import RLlibSettings, mapping_fn

    settings = RLlibSettings(game="gold_rush_gangs", snapshots=3, self_play_prob=0.0)
    fn = mapping_fn(settings)

    class Episode:
        def __init__(self, i):
            self.id_ = f"episode-{i}"

    seen = set()
    for i in range(60):
        modules = [fn(f"player_{s}", Episode(i)) for s in range(3)]
        assert modules.count("main") == 1  # the learner's seat only
        assert modules == [fn(f"player_{s}", Episode(i)) for s in range(3)]  # stable in an episode
        seen.update(modules)
    assert seen == {"main", "snapshot_0", "snapshot_1", "snapshot_2"}
    per_seat = RLlibSettings(game="gold_rush_gangs", policy_mode="per_seat")
    assert [mapping_fn(per_seat)(f"player_{s}", Episode(0)) for s in range(3)] == [
        "seat_0",
        "seat_1",
        "seat_2",
    ]


# Remote env runners (one more Ray actor, its own imports) take minutes on 2 cores: under -m slow.
@pytest.mark.parametrize("runners", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_masked_module_gives_illegal_actions_zero_probability(local_ray, tmp_path, runners):
    import torch
    from ray.rllib.core.columns import Columns

    from meeplezoo.agents.rllib_policy import load_module
    from meeplezoo.training.rllib import train_rllib

    summary = train_rllib(
        small("amethyst_amber", num_env_runners=runners), 200, tmp_path, progress=False, log=lambda _: None
    )
    assert summary["env_steps"] >= 200 and summary["iterations"] >= 1
    module = load_module(tmp_path)
    game = envs.make_game("amethyst_amber")
    rng = np.random.default_rng(0)
    state = game.new_initial_state(0)
    for _ in range(40):
        mask = state.legal_action_mask().astype(np.float32)
        obs = state.observation(state.current_player).astype(np.float32).reshape(1, -1)
        batch = {
            Columns.OBS: {"observation": torch.from_numpy(obs), "action_mask": torch.from_numpy(mask[None])}
        }
        with torch.no_grad():
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0]
        probs = torch.softmax(logits.double(), -1).numpy()
        assert probs[mask == 0].sum() < 1e-12
        legal = np.flatnonzero(mask)
        state.apply(int(rng.choice(legal)))
        if state.done:
            state = game.new_initial_state(int(rng.integers(1000)))


def test_three_player_training_saves_restores_and_resumes(local_ray, tmp_path):
    from meeplezoo.agents.rllib_policy import RLlibPolicyAgent
    from meeplezoo.training.rllib import train_rllib

    settings = small("gold_rush_gangs", num_env_runners=0)
    first = train_rllib(settings, 200, tmp_path, progress=False, log=lambda _: None)
    resumed = train_rllib(
        settings, first["env_steps"] + 200, tmp_path, resume=True, progress=False, log=lambda _: None
    )
    assert resumed["env_steps"] >= first["env_steps"] + 200
    assert resumed["iterations"] > first["iterations"]
    assert json.loads((tmp_path / "rllib_run.json").read_text())["env_steps"] == resumed["env_steps"]
    # the restored module plays whole games with legal moves only
    agent = RLlibPolicyAgent(seed=1, path=str(tmp_path), deterministic=False)
    env = envs.make("gold_rush_gangs", illegal_action="raise", max_rounds=3)
    env.reset(seed=3)
    for _name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs))
    assert env.game_state.done and not env.agents
