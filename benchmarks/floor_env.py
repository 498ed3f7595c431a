"""The cheapest AEC env the PettingZoo API allows: the floor of the API's cost.

Two agents alternate a fixed number of moves with one always-legal action; the
observation and mask are preallocated arrays handed out as they are. Whatever a
real env costs above this is its own rules, observations and checks.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

GAME_LENGTH = 40


class FloorEnv(AECEnv):
    metadata = {"render_modes": [], "name": "floor_v0", "is_parallelizable": False}

    def __init__(self, game_length: int = GAME_LENGTH) -> None:
        super().__init__()
        self.game_length = game_length
        self.possible_agents = ["player_0", "player_1"]
        self._obs = {
            "observation": np.zeros(1, dtype=np.int8),
            "action_mask": np.ones(2, dtype=np.int8),
        }
        space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (1,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (2,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(2) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.moves = 0

    def observe(self, agent):
        return self._obs

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.moves += 1
        if self.moves >= self.game_length:
            for a in self.agents:
                self.terminations[a] = True
            self.rewards = {"player_0": 1.0, "player_1": -1.0}
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[self.moves % 2]


def env(**kwargs) -> FloorEnv:
    return FloorEnv(**kwargs)
