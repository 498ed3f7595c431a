"""How every kernel is compiled: one decorator, one threading layer.

``njit`` is numba's with ``cache=True`` (later processes load the machine
code from ``__pycache__`` instead of compiling again) and ``nogil=True``.
``NUMBA_DISABLE_JIT=1`` turns every kernel back into the plain Python
function, for debugging and coverage.

The threading layer is chosen here before any parallel kernel runs:
numba's OpenMP layer costs milliseconds per ``prange`` region on small
machines, the ``workqueue`` layer tens of microseconds, and it ships with
numba. A user's ``NUMBA_THREADING_LAYER`` wins.
"""

from __future__ import annotations

import os

import numba

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"

JIT_DISABLED = bool(numba.config.DISABLE_JIT)


def njit(*args, **kwargs):
    """``numba.njit`` with the project's defaults (cache, no GIL)."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    return numba.njit(*args, **kwargs)


def njit_borrowing(function=None, **kwargs):
    """``njit`` without numba's reference counting, for the small hot helpers
    (mask, apply, draws): numba counts references on every array argument
    of every call, atomically, and in such helpers that was half of a move.
    The arrays such a function gets are borrowed from a caller that holds
    them, so it must not create an array, hand one back, or keep one that
    an ordinary ``njit`` function made and returned (views made inside it
    are fine). ``NUMBA_DISABLE_JIT=1`` runs it as plain Python too."""
    kwargs.setdefault("_nrt", False)
    return njit(function, **kwargs) if function is not None else njit(**kwargs)


def is_borrowing(function) -> bool:
    """Whether ``function`` was compiled by :func:`njit_borrowing`: a generic
    template over a kernel's functions may borrow too only if they all do."""
    options = getattr(function, "targetoptions", None) or {}
    return options.get("_nrt", True) is False


prange = numba.prange
