"""Uniformly random legal play, seeded: the baseline every bot must beat."""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.base import Agent


class RandomAgent(Agent):
    name = "random"

    def act(self, observation: dict, view=None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(legal[self.rng.integers(legal.size)])
