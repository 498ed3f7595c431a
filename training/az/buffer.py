"""The replay buffer of expert iteration: the newest searched positions.

Each entry is (observation, mask, visit distribution, value target with the
mover first: the final returns, or a cut game's estimate by the mover), and
with ``ownership`` who held each cell where the game stopped, from the
mover's view (:mod:`~meeplezoo.training.az.ownership`). It is
a ring of fixed capacity, so the learner trains on the most recent games; it
saves to one compressed ``.npz`` for ``--resume``. With ``augment`` each
sampled position comes under a random symmetry of the game's board
(:mod:`meeplezoo.envs.core.symmetry`); what is stored stays as played.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from meeplezoo.envs.core.symmetry import Augmentation
from meeplezoo.training.az.ownership import ownership_size


class ReplayBuffer:
    def __init__(self, game, capacity: int, augment: bool = False, ownership: bool = False) -> None:
        if capacity < 1:
            raise ValueError(f"buffer_size must be at least 1, got {capacity}")
        if augment and ownership:  # a symmetry would have to move the ownership maps with the board
            raise ValueError("augment and ownership_weight cannot be combined yet")
        self.augmentation = None
        if augment:
            symmetries = game.symmetries()
            if not symmetries:
                raise ValueError(f"augment: {game.info.name} declares no board symmetries")
            size = int(np.prod(game.observation_shape))
            self.augmentation = Augmentation(symmetries, size, game.num_actions)
        self.capacity = int(capacity)
        self.observations = np.zeros((self.capacity, *game.observation_shape), game.observation_dtype)
        self.masks = np.zeros((self.capacity, game.num_actions), bool)
        self.policies = np.zeros((self.capacity, game.num_actions), np.float32)
        self.values = np.zeros((self.capacity, game.num_players), np.float32)
        entries = ownership_size(game) if ownership else 0
        self.ownership = np.zeros((self.capacity, entries), np.int8) if ownership else None
        self.size = 0
        self.next = 0  # slot of the next entry
        self.added = 0  # entries ever added

    def __len__(self) -> int:
        return self.size

    def add(self, record) -> None:
        for i in range(len(record.policies)):
            slot = self.next
            self.observations[slot] = record.observations[i]
            self.masks[slot] = record.masks[i]
            self.policies[slot] = record.policies[i]
            self.values[slot] = record.values[i]
            if self.ownership is not None:
                self.ownership[slot] = record.ownership[i]
            self.next = (slot + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)
            self.added += 1

    def sample(self, batch: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        index = rng.integers(0, self.size, size=min(batch, self.size))
        observations, masks, policies = self.observations[index], self.masks[index], self.policies[index]
        if self.augmentation is not None:
            observations, masks, policies = self.augmentation(observations, masks, policies, rng)
        if self.ownership is not None:
            return observations, masks, policies, self.values[index], self.ownership[index]
        return observations, masks, policies, self.values[index]

    def save(self, path: str | Path) -> None:
        used = slice(0, self.size)
        tmp = Path(path).with_name(Path(path).name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            observations=self.observations[used],
            masks=self.masks[used],
            policies=self.policies[used],
            values=self.values[used],
            counters=np.array([self.next, self.added]),
            **({} if self.ownership is None else {"ownership": self.ownership[used]}),
        )
        tmp.replace(path)

    def load(self, path: str | Path) -> None:
        with np.load(path) as data:
            if self.ownership is not None and "ownership" not in data:
                raise ValueError(
                    f"{path} holds no ownership targets: the run was made without ownership_weight"
                )
            size = min(len(data["policies"]), self.capacity)
            for name in ("observations", "masks", "policies", "values"):
                getattr(self, name)[:size] = data[name][:size]
            if self.ownership is not None:
                self.ownership[:size] = data["ownership"][:size]
            self.size = size
            self.next, self.added = (int(x) for x in data["counters"])
            self.next %= self.capacity
