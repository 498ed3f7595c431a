"""A Gymnasium ``VectorEnv`` for one learning seat against fixed opponents.

Each of ``num_envs`` games seats the learner at ``seat``; the other seats
are played inside the kernel by uniformly random legal moves (each slot
has its own opponent generator), so a step hands back the learner's next
decision. Observations are ``{"observation", "action_mask"}`` dicts of
batched arrays, the reward is the learner's, and finished games restart in
the same step (Gymnasium's same-step auto-reset; the finished game's
observation is not kept).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from meeplezoo.envs.core.aec import check_seed
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.batch import SEED_BOUND, kernel_bindings, pick_legal
from meeplezoo.envs.core.compiled.jit import prange
from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.core.compiled.specialise import specialise
from meeplezoo.envs.core.compiled.vector import VecEnv
from meeplezoo.envs.core.state import integer_index

# Placeholders: each kernel's copy of the templates below binds these names
# to its own functions (see specialise.py).
new_game = legal_mask = apply_action = returns = current_player = play_random = until_learner = None


def _play_random(state, game, gen, mask):
    """One uniformly random legal move for the seat to move."""
    legal_mask(state, game, mask)
    apply_action(state, game, pick_legal(mask, gen))


def _until_learner(state, game, seat, seeder, gen, mask, scratch, reward):
    """Opponents move until the learner is to move; a game that ends
    scores the learner's reward and the next one starts."""
    ended = False
    while current_player(state) != seat:
        if current_player(state) < 0:
            returns(state, game, scratch)
            reward[0] += scratch[seat]
            ended = True
            new_game(state, game, pcg64.bounded(seeder, 0, SEED_BOUND))
        else:
            play_random(state, game, gen, mask)
    return ended


def _advance_all(states, game, seat, seeders, gens, masks, scratch, rewards, ended):
    for i in prange(states.shape[0]):
        ended[i] = until_learner(
            states[i], game, seat, seeders[i], gens[i], masks[i], scratch[i], rewards[i : i + 1]
        )


@cache
def opponent_driver(kernel: Kernel) -> tuple:
    """(serial, parallel) loops that play the random opponents of ``kernel``'s games."""
    bound = kernel_bindings(kernel)
    bound["play_random"] = specialise(_play_random, kernel.cache_tag, bound)
    bound["until_learner"] = specialise(_until_learner, kernel.cache_tag, bound)
    serial = specialise(_advance_all, kernel.cache_tag, bound)
    return serial, specialise(_advance_all, kernel.cache_tag + "_parallel", bound, parallel=True)


class LearnerVectorEnv(VectorEnv):
    """``num_envs`` games of ``game``: the learner at ``seat``, random opponents."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game, num_envs: int, seat: int = 0) -> None:
        self.games = VecEnv(game, num_envs)
        index = integer_index(seat)
        if index is None or not 0 <= index < game.num_players:
            raise ValueError(f"seat must be a seat of 0..{game.num_players - 1}, got {seat!r}")
        self.seat = index
        self.num_envs = self.games.num_envs
        self._serial, self._parallel = opponent_driver(self.games.kernel)
        self.opponent_generators = np.zeros((self.num_envs, pcg64.WORDS), dtype=np.uint64)
        self._scratch = np.zeros((self.num_envs, game.num_players), dtype=np.float64)
        self._masks = np.zeros((self.num_envs, game.num_actions), dtype=np.bool_)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    game.observation_low,
                    game.observation_high,
                    game.observation_shape,
                    game.observation_dtype,
                ),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = spaces.Dict(
            {
                key: spaces.Box(
                    np.broadcast_to(box.low, (self.num_envs, *box.shape)),
                    np.broadcast_to(box.high, (self.num_envs, *box.shape)),
                    dtype=box.dtype,
                )
                for key, box in self.single_observation_space.spaces.items()
            }
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, game.num_actions))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Every slot starts; opponents seeded beside the games (seed + i
        deals slot i as ``make_vec``'s reset does)."""
        seed = check_seed(seed)
        self.games.reset(seed)
        opponent_seeds = np.random.default_rng([self.games.seed, 1]).integers(0, SEED_BOUND, self.num_envs)
        for i, value in enumerate(opponent_seeds.tolist()):
            pcg64.seed(self.opponent_generators[i], value)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._advance(rewards)
        return self._observations(), {}

    def step(self, actions: Any):
        """The learner's actions; opponents answer until the learner is to move."""
        state = self.games.step(actions)
        rewards = state.rewards[:, self.seat].astype(np.float64)
        terminated, truncated = state.terminated.copy(), state.truncated.copy()
        ended = self._advance(rewards)
        terminated |= ended & ~truncated
        return self._observations(), rewards.astype(np.float32), terminated, truncated, {}

    def _advance(self, rewards: np.ndarray) -> np.ndarray:
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        games = self.games
        advance = self._parallel if self.num_envs >= 64 else self._serial
        advance(
            games.states, games._game_row, self.seat, games.seeders, self.opponent_generators,
            self._masks, self._scratch, rewards, ended,
        )  # fmt: skip
        games.refresh()
        return ended

    def _observations(self) -> dict[str, np.ndarray]:
        view = self.games.view()
        return {"observation": view.observation, "action_mask": view.legal_action_mask.astype(np.int8)}
