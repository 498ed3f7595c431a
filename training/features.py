"""Input scaling for the MLP policy.

Game observations mix one-hot planes with counters (Gem Mountain's int8
observation reaches 127), and an MLP fed raw counters saturates. Symlog,
``sign(x) * log(1 + |x|)``, keeps zero at zero, barely touches 0/1 features
and squeezes large counts, whatever Box bounds a game declares, so the
observation space itself stays exactly the game's.
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.preprocessing import get_flattened_obs_dim
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class SymlogFlatten(BaseFeaturesExtractor):
    """Flatten, then symlog each feature."""

    def __init__(self, observation_space: spaces.Box) -> None:
        super().__init__(observation_space, get_flattened_obs_dim(observation_space))
        self.flatten = torch.nn.Flatten()

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = self.flatten(observations.float())
        return torch.sign(x) * torch.log1p(torch.abs(x))
