"""meeplezoo games as RLlib multi-agent environments.

RLlib's own ``PettingZooEnv`` wrapper drives our AEC env; in front of it a
small PettingZoo wrapper flattens each observation to float32 and hands the
mask over as float32, which is what RLlib's default MLP encoders and the
masking module in :mod:`meeplezoo.training.rllib_module` expect. Rewards arrive at the
end of the game for every seat, including those that were not to move: the
AEC env accumulates them and RLlib's wrapper collects every seat's last
observation as the seats step out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from meeplezoo import envs

ENV_NAME = "meeplezoo"


class FlatMaskedObservation(BaseWrapper):
    """Observation dict ``{"observation": float32 vector, "action_mask": float32}``."""

    def __init__(self, env) -> None:
        super().__init__(env)
        game = env.unwrapped.game
        size = int(np.prod(game.observation_shape))
        box = spaces.Box(
            low=float(np.min(game.observation_low)),
            high=float(np.max(game.observation_high)),
            shape=(size,),
            dtype=np.float32,
        )
        mask = spaces.Box(0.0, 1.0, (game.num_actions,), dtype=np.float32)
        self._space = spaces.Dict({"observation": box, "action_mask": mask})

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {
            "observation": np.asarray(obs["observation"], dtype=np.float32).reshape(-1),
            "action_mask": obs["action_mask"].astype(np.float32),
        }


def make_aec_env(game: str, game_config: dict | None = None):
    """The wrapped AEC env for one game and config. An illegal action raises:
    the masking module must never produce one, and training would stop if it did."""
    return FlatMaskedObservation(envs.make(game, illegal_action="raise", **(game_config or {})))


def make_rllib_env(env_config: dict[str, Any]):
    """Env creator registered with RLlib: ``env_config`` holds ``game`` and
    ``game_config``."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(make_aec_env(env_config["game"], env_config.get("game_config")))


def register() -> None:
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_rllib_env)
