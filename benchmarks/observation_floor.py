"""How fast ``make_vec`` could step if the rules cost nothing: the memory floor.

Every ``make_vec`` step writes each slot's observation and legal mask into
the batch's buffers. At batch 1024 those buffers outgrow the caches, and the
writes alone bound the step rate. This measures that bound: the writes of
two consecutive real steps, captured from the game and replayed in turn,
with no rules in between, on every core numba is given. A kernel without an
entry list clears and rewrites the whole observation; one with a list
(``envs/core/compiled/entries.py``) zeroes the last step's entries and
writes the new ones, as the driver does.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit, prange


@njit(parallel=True)
def _write_all(observations, masks, steps, turn, listed):
    """Each slot: the observation and mask of step ``turn`` of the two
    captured ones, written over those of the other."""
    entries, values, counts, legal, legal_counts = steps
    for i in prange(observations.shape[0]):
        observation, mask = observations[i], masks[i]
        if listed:
            for k in range(counts[1 - turn, i]):
                observation[entries[1 - turn, i, k]] = 0
        else:
            observation[:] = 0
        for k in range(counts[turn, i]):
            observation[entries[turn, i, k]] = values[turn, i, k]
        mask[:] = False
        for k in range(legal_counts[turn, i]):
            mask[legal[turn, i, k]] = True


class ObservationWrites:
    """The writes of ``make_vec`` steps, from two consecutive steps' observations and masks."""

    def __init__(self, observations: list[np.ndarray], masks: list[np.ndarray], listed: bool) -> None:
        flat = [step.reshape(step.shape[0], -1) for step in observations]
        self.observations = flat[0].copy()
        self.masks = masks[0].copy()
        self.listed = listed
        entries, values, counts = _sparse_steps(flat)
        legal, _, legal_counts = _sparse_steps([step.astype(np.int8) for step in masks])
        self.steps = (entries, values, counts, legal, legal_counts)
        self.turn = 1

    def __call__(self) -> int:
        """One step's writes for every slot; returns the slots written."""
        _write_all(self.observations, self.masks, self.steps, self.turn, self.listed)
        self.turn = 1 - self.turn
        return self.observations.shape[0]


def _sparse_steps(steps: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per step and row: the indices and values of its nonzero entries, padded to the longest."""
    counts = np.stack([np.count_nonzero(rows, axis=1) for rows in steps]).astype(np.int64)
    width = max(1, int(counts.max()))
    entries = np.zeros((len(steps), steps[0].shape[0], width), dtype=np.int64)
    values = np.zeros((len(steps), steps[0].shape[0], width), dtype=steps[0].dtype)
    for s, rows in enumerate(steps):
        for i, row in enumerate(rows):
            nonzero = np.flatnonzero(row)
            entries[s, i, : nonzero.size], values[s, i, : nonzero.size] = nonzero, row[nonzero]
    return entries, values, counts
