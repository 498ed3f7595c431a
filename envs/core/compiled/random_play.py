"""Whole games of uniformly random legal moves inside a kernel: the rules'
own speed (mask, apply and a random pick, no Python between moves), which
the engine benchmark reports beside the Python rules doing the same."""

from __future__ import annotations

from functools import cache
from typing import Any

from meeplezoo.envs.core.compiled.batch import kernel_bindings, pick_legal
from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.core.compiled.specialise import specialise

# Placeholders: each kernel's copy of the template binds these (specialise.py).
legal_mask = apply_action = current_player = None


def _play_random(state, game, gen, mask, max_steps):
    """Play the k-th legal action, k drawn from ``gen``, until the game is
    done or ``max_steps`` moves; returns the moves played."""
    steps = 0
    while steps < max_steps and current_player(state) >= 0:
        legal_mask(state, game, mask)
        apply_action(state, game, pick_legal(mask, gen))
        steps += 1
    return steps


@cache
def random_player(kernel: Kernel) -> Any:
    """``play(state, game, gen, mask, max_steps)`` compiled for ``kernel``."""
    return specialise(_play_random, kernel.cache_tag, kernel_bindings(kernel))
