"""Reading a legal-action mask without a branch per action.

A search node or a turn has a few legal moves among many actions; a loop
that tests every byte of the mask mispredicts at each legal one. These
passes add or select the mask's bytes instead, so they vectorise or run at
a cycle per action.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit_borrowing


@njit_borrowing
def any_legal(mask):
    """Whether ``mask`` has a True entry (``mask.any()``, read in full)."""
    seen = np.uint8(0)
    for flag in mask.view(np.uint8):
        seen |= flag
    return seen != 0


@njit_borrowing
def list_legal(mask, legal):
    """The True indices of ``mask`` in increasing order into ``legal`` (as
    long as the mask); how many there are."""
    flags = mask.view(np.uint8)
    count = 0
    for action in range(flags.shape[0]):
        legal[count] = action
        count += flags[action]
    return count
