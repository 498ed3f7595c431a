"""The policy bot loads a MaskablePPO zip and acts on its seat's observation
within the mask, greedily or sampled (seeded)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.arena import tournament
from meeplezoo.agents.registry import make_agent
from tests.agents.helpers import observation_dict, random_positions
from tests.core.toy_game import HighCardGame

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """An untrained MaskablePPO saved the way training saves its models."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    game = HighCardGame(num_players=2)

    class Shape(gym.Env):
        observation_space = gym.spaces.Box(0.0, 1.0, game.observation_shape, np.float32)
        action_space = gym.spaces.Discrete(game.num_actions)

    path = tmp_path_factory.mktemp("policy") / "toy.zip"
    MaskablePPO("MlpPolicy", Shape(), seed=0, device="cpu").save(path)
    return path


def test_policy_acts_legally_and_reproducibly(checkpoint):
    game = HighCardGame(num_players=2)
    for spec in (f"policy:path={checkpoint}", f"policy:path={checkpoint},deterministic=false"):
        first, again = make_agent(spec, seed=4), make_agent(spec, seed=4)
        for state in random_positions(game, 40, seed=1):
            obs = observation_dict(state, state.current_player)
            action = first.act(obs)
            assert obs["action_mask"][action]
            assert again.act(obs) == action


def test_policy_plays_in_a_tournament(checkpoint):
    game = HighCardGame(num_players=2)
    specs = [f"policy:path={checkpoint}", "random"]
    first = tournament(game, specs, games=8, seed=2, progress=False)
    again = tournament(game, specs, games=8, seed=2, progress=False)
    assert [m.returns for m in first.matches] == [m.returns for m in again.matches]
    assert first.agents == specs and sum(first.games) == 16
