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


prange = numba.prange
