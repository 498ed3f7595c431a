"""Board symmetries as index maps, for training on every turn of a position.

A symmetry is a transformation of a position that plays exactly the same
(turning Gem Mountain's map a quarter turn with its arrows and tiles, say).
It is written as two gather maps over the flat arrays an agent sees: the
transformed position's observation is ``observation[observation_index]`` and
its legal mask, or a policy over its actions, is ``mask[action_index]``. A
value per seat does not change. Maps are built once per configuration by the
game package, beside its observer, whose layout they follow, and reached
as ``game.symmetries()``.

AlphaGo Zero trained on the eight turns and reflections of each Go position;
:class:`Augmentation` does the same for a minibatch, one random symmetry
(the identity included) per row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Symmetry:
    """``name`` for reports; the two gather maps (module docstring)."""

    name: str
    observation_index: np.ndarray
    action_index: np.ndarray


def is_permutation(index: np.ndarray, size: int) -> bool:
    return index.shape == (size,) and np.array_equal(np.sort(index), np.arange(size))


class Augmentation:
    """The identity and a game's symmetries, stacked once so that a
    minibatch is transformed with three gathers."""

    def __init__(self, symmetries: tuple[Symmetry, ...], observation_size: int, num_actions: int) -> None:
        for symmetry in symmetries:
            if not is_permutation(symmetry.observation_index, observation_size):
                raise ValueError(f"symmetry {symmetry.name!r}: observation_index is not a permutation")
            if not is_permutation(symmetry.action_index, num_actions):
                raise ValueError(f"symmetry {symmetry.name!r}: action_index is not a permutation")
        self.names = ("identity",) + tuple(s.name for s in symmetries)
        self.observation_maps = np.stack(
            [np.arange(observation_size)] + [s.observation_index for s in symmetries]
        )
        self.action_maps = np.stack([np.arange(num_actions)] + [s.action_index for s in symmetries])

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray, policies: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each row under one of the maps, drawn uniformly (value targets need
        no change)."""
        chosen = rng.integers(0, len(self.names), size=len(observations))
        actions = self.action_maps[chosen]
        flat = observations.reshape(len(observations), -1)
        return (
            np.take_along_axis(flat, self.observation_maps[chosen], axis=1).reshape(observations.shape),
            np.take_along_axis(masks, actions, axis=1),
            np.take_along_axis(policies, actions, axis=1),
        )
