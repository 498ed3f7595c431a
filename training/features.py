"""Input layers for the policy: a flat MLP input, or convolutions over the board.

Game observations mix one-hot planes with counters (Gem Mountain's int8
observation reaches 127), and a network fed raw counters saturates. Symlog,
``sign(x) * log(1 + |x|)``, keeps zero at zero, barely touches 0/1 features
and squeezes large counts, whatever Box bounds a game declares, so the
observation space itself stays exactly the game's.

Games whose observation starts with plane-major board images declare
``Game.observation_planes``; :class:`PlanesCNN` convolves over those planes,
so what it learns about one cell carries over to every other cell, which a
flat MLP has to learn cell by cell.
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.preprocessing import get_flattened_obs_dim
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


def symlog(x: torch.Tensor) -> torch.Tensor:
    return torch.sign(x) * torch.log1p(torch.abs(x))


class SymlogFlatten(BaseFeaturesExtractor):
    """Flatten, then symlog each feature."""

    def __init__(self, observation_space: spaces.Box) -> None:
        super().__init__(observation_space, get_flattened_obs_dim(observation_space))
        self.flatten = torch.nn.Flatten()

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return symlog(self.flatten(observations.float()))


class PlanesCNN(BaseFeaturesExtractor):
    """Board planes through two same-size 3x3 convolutions, squeezed to
    ``out_channels`` per cell and flattened channel-major (so the policy head
    still sees where each feature is), followed by a dense layer over the
    global values. The globals also shift the first convolution's channels,
    so what a cell is worth can depend on the scores and hands around it.
    Inputs are symlogged first, as in :class:`SymlogFlatten`."""

    def __init__(
        self,
        observation_space: spaces.Box,
        planes: tuple[int, int, int],
        channels: int = 32,
        out_channels: int = 8,
        global_features: int = 64,
    ) -> None:
        n_planes, rows, cols = (int(v) for v in planes)
        total = get_flattened_obs_dim(observation_space)
        board = n_planes * rows * cols
        if board > total:
            raise ValueError(
                f"{n_planes} planes of {rows}x{cols} do not fit an observation of {total} values"
            )
        n_globals = total - board
        super().__init__(
            observation_space, out_channels * rows * cols + (global_features if n_globals else 0)
        )
        self.shape, self.board, self.n_globals = (n_planes, rows, cols), board, n_globals
        self.out_channels, self.cells = out_channels, rows * cols
        self.conv_in = torch.nn.Conv2d(n_planes, channels, 3, padding=1)
        self.convs = torch.nn.Sequential(
            torch.nn.ReLU(),
            torch.nn.Conv2d(channels, channels, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(channels, out_channels, 1),
            torch.nn.ReLU(),
            torch.nn.Flatten(),
        )
        if n_globals:
            self.global_bias = torch.nn.Linear(n_globals, channels)
            self.dense = torch.nn.Sequential(torch.nn.Linear(n_globals, global_features), torch.nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = symlog(observations.float().reshape(observations.shape[0], -1))
        h = self.conv_in(x[:, : self.board].reshape(-1, *self.shape))
        if not self.n_globals:
            return self.convs(h)
        g = x[:, self.board :]
        board = self.convs(h + self.global_bias(g)[:, :, None, None])
        return torch.cat([board, self.dense(g)], dim=1)
