"""Reading a legal-action mask without a branch per action.

A search node or a turn has a few legal moves among many actions; a loop
that tests every byte of the mask mispredicts at each legal one. These
passes add or select the mask's bytes instead, so they vectorise or run at
a cycle per action; a random pick reads them eight at a time.
"""

from __future__ import annotations

import warnings

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import JIT_DISABLED, njit_borrowing

if JIT_DISABLED:  # as plain Python, numpy scalars warn where the compiled code wraps silently, as meant
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, module=__name__)

BYTE_ONES = np.uint64(0x0101010101010101)  # times a word of 0/1 bytes: their count in the top byte
TOP_BYTE = np.uint64(56)


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
        count += np.int64(flags[action])  # as plain Python a uint8 sum would wrap at 256
    return count


@njit_borrowing
def copy_mask(mask, out):
    """``out[:] = mask`` as a loop: numba's copy between two arrays checks
    them for overlap first, about 14 times the loop's cost on a mask."""
    for action in range(mask.shape[0]):
        out[action] = mask[action]


@njit_borrowing
def count_in_word(word):
    """How many of a mask word's eight 0/1 bytes are 1."""
    return np.int64((word * BYTE_ONES) >> TOP_BYTE)


@njit_borrowing
def pick_legal(mask, gen):
    """A uniformly random True index of ``mask`` (-1 when none): the draw
    picks the k-th legal action. The mask is read eight bytes a word: the
    count adds each word's bytes, and the pick skips whole words before it
    looks at the bytes of the one that holds the k-th, which is most of a
    random move's cost on games with hundreds of actions."""
    flags = mask.view(np.uint8)
    whole = flags.shape[0] >> 3 << 3
    words = flags[:whole].view(np.uint64)
    count = 0
    for word in words:
        count += count_in_word(word)
    for action in range(whole, flags.shape[0]):
        count += np.int64(flags[action])
    if count == 0:
        return -1
    pick = pcg64.bounded(gen, 0, count)
    for index in range(words.shape[0]):
        inside = count_in_word(words[index])
        if pick < inside:
            return _kth_byte(flags, index << 3, pick)
        pick -= inside
    return _kth_byte(flags, whole, pick)


@njit_borrowing
def _kth_byte(flags, start, pick):
    """The index of the ``pick``-th (from 0) 1 byte of ``flags`` from ``start`` on."""
    for action in range(start, flags.shape[0]):
        pick -= np.int64(flags[action])  # signed: as plain Python a uint8 would wrap instead
        if pick < 0:
            return action
    return -1
