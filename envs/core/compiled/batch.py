"""The batched driver: reset and step many games of one kernel at once.

Each game is a row of ``states``; each slot also has a *seeder*, a PCG64
generator that draws every new game's seed exactly as the AEC env draws it
from its ``np_random`` (slot ``i`` reset with ``seed`` plays the games of
``make(name).reset(seed=seed + i)`` and the resets after it). A finished
game is replaced at once by the slot's next game (auto-reset): the step
reports the finished game's rewards and flags with the new game's
observation and mask, as Pgx's ``auto_reset`` does.

Rows are independent, so the parallel loop gives the same results at any
thread count; small batches take the serial loop, which skips the thread
pool's start-up cost.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, prange
from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.core.compiled.specialise import specialise

SEED_BOUND = 2**63 - 1  # game seeds lie in 0..SEED_BOUND-1, as the AEC env draws them
PARALLEL_FROM = 64  # batches at least this large run on every thread


@cache
def driver(kernel: Kernel) -> Any:
    """The batched functions of ``kernel`` (compiled once per kernel)."""
    return _Driver(kernel)


# Placeholders: each kernel's copy of the templates below binds these names
# to its own functions (see specialise.py).
new_game = legal_mask = apply_action = returns = observe = current_player = None
is_terminal = is_truncated = show = start = step_one = None


def _show(state, game, observation, mask, current):
    """The seat to move's observation and mask (nothing once done)."""
    seat = current_player(state)
    current[0] = seat
    if seat >= 0:
        observe(state, game, seat, observation)
        legal_mask(state, game, mask)
    else:
        observation[:] = 0
        mask[:] = False


def _start(state, game, seeder, observation, mask, current):
    """The slot's next game: a seed drawn from its seeder, then dealt."""
    new_game(state, game, pcg64.bounded(seeder, 0, SEED_BOUND))
    show(state, game, observation, mask, current)


def _step_one(state, game, action, seeder, observation, mask, rewards, flags, current):
    """One move; a finished game scores and makes way for the next."""
    apply_action(state, game, action)
    flags[0], flags[1] = is_terminal(state), is_truncated(state)
    if flags[0] or flags[1]:
        returns(state, game, rewards)
        start(state, game, seeder, observation, mask, current)
    else:
        rewards[:] = 0.0
        show(state, game, observation, mask, current)


def _show_all(states, game, observations, masks, current):
    for i in prange(states.shape[0]):
        show(states[i], game, observations[i], masks[i], current[i : i + 1])


def _reset_all(states, game, seeders, seed, observations, masks, current):
    for i in prange(states.shape[0]):
        pcg64.seed(seeders[i], seed + i)
        start(states[i], game, seeders[i], observations[i], masks[i], current[i : i + 1])


def _step_all(states, game, actions, seeders, observations, masks, rewards, flags, current):
    for i in prange(states.shape[0]):
        step_one(
            states[i], game, actions[i], seeders[i], observations[i], masks[i],
            rewards[i], flags[i], current[i : i + 1],
        )  # fmt: skip


def kernel_bindings(kernel: Kernel) -> dict[str, Any]:
    """The kernel's functions under the names the templates use."""
    names = ("new_game", "legal_mask", "apply_action", "returns", "observe", "current_player")
    bindings = {name: getattr(kernel, name) for name in names}
    bindings.update(is_terminal=kernel.is_terminal, is_truncated=kernel.is_truncated)
    return bindings


class _Driver:
    """The batch functions of one kernel: a serial copy (``prange`` runs as
    ``range`` without ``parallel``) and a parallel one of each loop."""

    def __init__(self, kernel: Kernel) -> None:
        tag = kernel.cache_tag
        bound = kernel_bindings(kernel)
        bound["show"] = specialise(_show, tag, bound)
        bound["start"] = specialise(_start, tag, bound)
        bound["step_one"] = specialise(_step_one, tag, bound)
        loops = (_show_all, _reset_all, _step_all)
        self.show_serial, self.reset_serial, self.step_serial = (specialise(f, tag, bound) for f in loops)
        self.show_parallel, self.reset_parallel, self.step_parallel = (
            specialise(f, tag + "_parallel", bound, parallel=True) for f in loops
        )

    def show_all(self, states, game, observations, masks, current) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.show_parallel if parallel else self.show_serial)(states, game, observations, masks, current)

    def reset(self, states, game, seeders, seed, observations, masks, current) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.reset_parallel if parallel else self.reset_serial)(
            states, game, seeders, np.int64(seed), observations, masks, current
        )

    def step(self, states, game, actions, seeders, observations, masks, rewards, flags, current) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.step_parallel if parallel else self.step_serial)(
            states, game, actions, seeders, observations, masks, rewards, flags, current
        )


@njit
def pick_legal(mask, gen):
    """A uniformly random True index of ``mask`` (-1 when none)."""
    count = 0
    for legal in mask:
        count += legal
    if count == 0:
        return -1
    pick = pcg64.bounded(gen, 0, count)
    for action in range(mask.shape[0]):
        if mask[action]:
            if pick == 0:
                return action
            pick -= 1
    return -1


@njit
def _random_serial(masks, generators, out):
    for i in range(masks.shape[0]):
        out[i] = pick_legal(masks[i], generators[i])


@njit(parallel=True)
def _random_parallel(masks, generators, out):
    for i in prange(masks.shape[0]):
        out[i] = pick_legal(masks[i], generators[i])


def random_legal_actions(masks: np.ndarray, generators: np.ndarray, out: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (bool), drawn
    from each row's generator words: a random player for batches."""
    (_random_parallel if masks.shape[0] >= PARALLEL_FROM else _random_serial)(masks, generators, out)
    return out
