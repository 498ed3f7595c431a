"""Observations written as lists of entries, for ``make_vec``'s sparse rewrite.

A kernel's ``observe_entries`` writes its observation with :func:`put` and
:func:`add` into an all-zero ``out``, recording each index it touches. The
batched driver keeps each slot's list beside its observation row: the next
step sets those entries back to zero (the row is then all zero again) and
writes the new ones, so a step touches the few cache lines that hold
nonzero entries instead of clearing and rewriting the whole row. The values
are the same as a plain ``observe`` gives, bit for bit: the writes are the
same, in the same order, onto the same zeros. A kernel may split its
list into a fixed part, decided by the game and the seat alone, and the
rest (``Kernel.observe_fixed``/``observe_changing``): while the same seat
moves again, the driver keeps the fixed part and rewrites only the rest.
"""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit


@njit(inline="always")
def put(out, entries, count, index, value):
    """``out[index] = value``, recorded as the ``count``-th entry; returns the
    new count. ``entries`` needs room for one at least: past its end the
    last slot is overwritten (the count then says the list is incomplete).
    Branch-free on purpose: a branch here keeps numba from pruning the
    reference counting of the two arrays, which costs fifteen times the write."""
    out[index] = value
    entries[min(count, entries.shape[0] - 1)] = index
    return count + 1


@njit(inline="always")
def add(out, entries, count, index, value):
    """``out[index] += value``, recorded as :func:`put` records."""
    out[index] += value
    entries[min(count, entries.shape[0] - 1)] = index
    return count + 1
