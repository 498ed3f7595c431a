"""``make_vec``: many games of one configuration stepped at once, Pgx-style.

``VecEnv.reset(seed)`` and ``VecEnv.step(actions)`` return a
:class:`VecState` with Pgx's field names: ``observation`` (of the seat to
move), ``legal_action_mask``, ``current_player``, ``rewards`` (per seat),
``terminated`` and ``truncated``. A finished game is replaced by the slot's
next one within the same step (auto-reset): that step's rewards and flags
belong to the finished game, its observation and mask to the new one. The
arrays are the env's own buffers, overwritten by the next call: copy what
you keep, and do not write into them (where the game's kernel lists its
observation's entries, a step rewrites only the entries that were or become
nonzero).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from meeplezoo.envs.core.aec import check_seed
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.batch import ENTRIES_HEADER, driver, entry_capacity
from meeplezoo.envs.core.compiled.kernel import kernel_of
from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.core.state import Game, integer_index

MOST_ENVS = 1 << 24  # a sanity bound on num_envs (16M games)


class VecState(NamedTuple):
    """The batch after a reset or a step (Pgx's field names)."""

    observation: np.ndarray  # (num_envs, *observation_shape), the seat to move's view
    legal_action_mask: np.ndarray  # (num_envs, num_actions) bool
    current_player: np.ndarray  # (num_envs,) int32: the seat to move
    rewards: np.ndarray  # (num_envs, num_players) float32
    terminated: np.ndarray  # (num_envs,) bool
    truncated: np.ndarray  # (num_envs,) bool


def check_num_envs(num_envs: Any) -> int:
    """``num_envs`` as a positive int, or a ValueError naming it."""
    value = integer_index(num_envs)
    if value is None or not 1 <= value <= MOST_ENVS:
        raise ValueError(f"num_envs must be an integer from 1 to {MOST_ENVS}, got {num_envs!r}")
    return value


class VecEnv:
    """``num_envs`` games of ``game`` on its compiled kernel."""

    def __init__(self, game: Game, num_envs: int) -> None:
        self.game = game
        self.num_envs = n = check_num_envs(num_envs)
        self.kernel = kernel_of(game)
        self.layout = layout_of(self.kernel.state_cls)
        self._driver = driver(self.kernel)
        self._game_row = self.kernel.game_row(game)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.observation_shape = tuple(game.observation_shape)
        self.states = self.layout.new_rows(n)
        self.seeders = np.zeros((n, pcg64.WORDS), dtype=np.uint64)
        self._observation = np.zeros((n, *self.observation_shape), dtype=game.observation_dtype)
        self._mask = np.zeros((n, self.num_actions), dtype=np.bool_)
        self._current = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, self.num_players), dtype=np.float64)
        self._flags = np.zeros((n, 2), dtype=np.bool_)
        size = int(np.prod(self.observation_shape, dtype=np.int64))
        self._entries = np.zeros((n, ENTRIES_HEADER + entry_capacity(self.kernel, size)), dtype=np.int32)
        self._started = False

    def reset(self, seed: int | None = None) -> VecState:
        """Start every slot: slot ``i`` deals as ``make(...).reset(seed=seed + i)``
        (no seed: one drawn from the operating system)."""
        seed = check_seed(seed)
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(2))
        if seed + self.num_envs > 2**63 - 1:
            raise ValueError(f"seed + num_envs must stay below 2**63 - 1, got seed {seed}")
        self.seed = seed
        self._driver.reset(
            self.states, self._game_row, self.seeders, seed, self._flat_obs(), self._mask, self._current,
            self._entries,
        )  # fmt: skip
        self._rewards[:] = 0.0
        self._flags[:] = False
        self._started = True
        return self._result()

    def step(self, actions: Any) -> VecState:
        """One action per slot for its seat to move (checked first: a wrong
        shape, dtype, range or an illegal action is a ValueError naming the
        slot, and nothing is stepped)."""
        if not self._started:
            raise ValueError("call reset() before step()")
        actions = self._checked_actions(actions)
        self._driver.step(
            self.states,
            self._game_row,
            actions,
            self.seeders,
            self._flat_obs(),
            self._mask,
            self._rewards,
            self._flags,
            self._current,
            self._entries,
        )
        return self._result()

    def refresh(self) -> None:
        """Read every slot's seat to move, observation and mask again (after
        the rows were changed outside :meth:`step`)."""
        self._driver.show_all(
            self.states, self._game_row, self._flat_obs(), self._mask, self._current, self._entries
        )

    def view(self) -> VecState:
        """The batch as it stands (the last step's rewards and flags)."""
        return self._result()

    def _checked_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {array.dtype}")
        array = array.astype(np.int64, copy=False)
        outside = np.flatnonzero((array < 0) | (array >= self.num_actions))
        if outside.size:
            i = int(outside[0])
            raise ValueError(
                f"env {i}: action {array[i]} is outside the action space Discrete({self.num_actions})"
            )
        illegal = np.flatnonzero(~self._mask[np.arange(self.num_envs), array])
        if illegal.size:
            i = int(illegal[0])
            raise ValueError(f"env {i}: action {array[i]} is not legal for seat {self._current[i]}")
        return np.ascontiguousarray(array)

    def _flat_obs(self) -> np.ndarray:
        return self._observation.reshape(self.num_envs, -1)

    def _result(self) -> VecState:
        return VecState(
            observation=self._observation,
            legal_action_mask=self._mask,
            current_player=self._current.astype(np.int32),
            rewards=self._rewards.astype(np.float32),
            terminated=self._flags[:, 0].copy(),
            truncated=self._flags[:, 1].copy(),
        )

    def state_of(self, index: int):
        """Slot ``index``'s game as a rules-layer State (the reference's
        class): for rendering, names of actions, saving the position."""
        return self.layout.read(self.states[index], self.game)
