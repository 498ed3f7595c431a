"""PPO's default torch RLModule with the legal-action mask applied.

The environment's observation is a dict of the flat observation and the
mask. The network sees only the observation; the mask adds log(mask) to the
action logits, so illegal actions get probability zero (their logit is the
most negative float) in exploration, inference and training alike. No action
is ever remapped after sampling.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(mask, batch whose OBS is the bare observation); the input is untouched."""
    obs = batch[Columns.OBS]
    inner = dict(batch)
    inner[Columns.OBS] = obs["observation"]
    return obs["action_mask"], inner


def _masked(out: dict[str, Any], mask) -> dict[str, Any]:
    out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
        torch.log(mask), min=FLOAT_MIN
    )
    return out


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """Builds its networks for the inner observation space; masks logits."""

    def __init__(self, *args, **kwargs) -> None:
        # Built from the env: a Dict space; restored from a checkpoint: the
        # inner Box it was built with (the saved constructor arguments).
        space = kwargs.get("observation_space")
        if isinstance(space, gym.spaces.Dict):
            if "action_mask" not in space.spaces or "observation" not in space.spaces:
                raise ValueError(
                    "MaskedPPOTorchRLModule needs 'observation' and 'action_mask' in its Dict space"
                )
            kwargs["observation_space"] = space["observation"]
        elif not isinstance(space, gym.spaces.Box):
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict or Box observation space, got {space!r}")
        super().__init__(*args, **kwargs)

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None):
        if isinstance(batch[Columns.OBS], dict):
            _, batch = _split(batch)
        return super().compute_values(batch, embeddings)
