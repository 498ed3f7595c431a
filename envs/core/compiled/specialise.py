"""One generic compiled function per kernel, cached on disk like any other.

The batched driver is written once, over names (``new_game``,
``apply_action``...) that each game's kernel fills in. A closure would do
that, but numba keys its disk cache of a closure by the pickled functions
it closes over, which differ from process to process: every process would
compile the driver again. :func:`specialise` instead makes a copy of the
template function whose globals hold the kernel's functions, named after
the kernel, so each kernel's copy has a cache entry of its own that later
processes load.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing


def specialise(
    template: Callable, tag: str, bindings: dict[str, Any], borrowing: bool = False, **jit_options: Any
) -> Any:
    """``template`` compiled with ``bindings`` as its globals, cached as
    ``<template>.<tag>`` (``tag``: the kernel's name, an identifier);
    ``borrowing``: without reference counting (:func:`njit_borrowing`)."""
    if not tag.isidentifier():
        raise ValueError(f"a specialisation tag must be an identifier, got {tag!r}")
    namespace = {**template.__globals__, **bindings}
    function = types.FunctionType(template.__code__, namespace, template.__name__, template.__defaults__)
    function.__qualname__ = f"{template.__qualname__}.{tag}"
    function.__doc__ = template.__doc__
    return (njit_borrowing if borrowing else njit)(**jit_options)(function)
