"""The lowest set bit of a word, the one bit trick several kernels share."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import JIT_DISABLED, njit

if JIT_DISABLED:

    def trailing_zeros(word):
        """The compiled intrinsic's answer in plain Python: the place of the lowest set bit."""
        word = int(word)
        return (word & -word).bit_length() - 1

else:
    from numba.cpython.unsafe.numbers import trailing_zeros  # one machine instruction


@njit
def lowest_bit(word):
    """The place of the lowest set bit of a non-zero int64 word."""
    return trailing_zeros(word)
