"""A masked actor-critic whose board actions share one per-cell head.

In a game like Gem Mountain most actions mean "do this on cell i". A flat
policy head must learn a separate weight vector for each cell from the few
decisions that involve it; here one small linear map scores every cell from
that cell's own convolutional features (:class:`meeplezoo.training.features.PlanesCNN`)
and the score lands on the cell's action, so a lesson learnt on one cell
applies to all of them (the per-square policy heads of AlphaZero-style board
networks). A dense layer over all the features still adds to every logit.

Games declare their cell actions with ``Game.action_cells``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy


class CellActionHead(torch.nn.Module):
    """Logits = dense(latent) + the shared per-cell score of each cell action.

    ``latent`` starts with ``channels`` feature maps of ``cells`` cells,
    flattened channel-major; ``action_cells[a]`` is ``kind * cells + cell``
    for a cell action (one score per kind) and -1 for any other action.
    """

    def __init__(self, latent_dim: int, channels: int, cells: int, action_cells) -> None:
        super().__init__()
        index = torch.as_tensor(np.asarray(action_cells, dtype=np.int64))
        kinds = int(index.max().item()) // cells + 1 if (index >= 0).any() else 1
        self.channels, self.cells = channels, cells
        self.score = torch.nn.Linear(channels, kinds)
        self.dense = torch.nn.Linear(latent_dim, index.numel())
        self.register_buffer("index", index.clamp(min=0), persistent=False)
        self.register_buffer("is_cell", (index >= 0).float(), persistent=False)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        maps = latent[:, : self.channels * self.cells].reshape(-1, self.channels, self.cells)
        per_cell = self.score(maps.transpose(1, 2)).transpose(1, 2).reshape(latent.shape[0], -1)
        return self.dense(latent) + per_cell[:, self.index] * self.is_cell


class BoardPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy with a :class:`CellActionHead`.

    Needs a features extractor with ``out_channels`` and ``cells`` (the board
    CNN) and no hidden policy layers (``net_arch={"pi": [], "vf": [...]}``),
    so that the head sees the per-cell features themselves.
    """

    def __init__(self, *args: Any, action_cells=None, **kwargs: Any) -> None:
        if action_cells is None:
            raise ValueError("BoardPolicy needs action_cells (see Game.action_cells)")
        self.action_cells = [int(a) for a in action_cells]
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        extractor = self.pi_features_extractor
        if self.mlp_extractor.latent_dim_pi != extractor.features_dim:
            raise ValueError(
                'BoardPolicy needs net_arch={"pi": [], "vf": [...]}: the head reads the cell features'
            )
        self.action_net = CellActionHead(
            self.mlp_extractor.latent_dim_pi,
            extractor.out_channels,
            extractor.cells,
            self.action_cells,
        )
        if self.ortho_init:
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "action_cells": self.action_cells}


def policy_class(constructor_data: dict) -> type:
    """The policy class that a saved policy's constructor arguments belong to."""
    return BoardPolicy if "action_cells" in constructor_data else MaskableActorCriticPolicy
