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
from meeplezoo.envs.core.compiled.masks import pick_legal
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
observe_entries = observe_fixed = observe_changing = clear_observation = write_observation = None
observe_stamp = observe_rest = None

# Each slot's entries row: a header, then the indices its observation row holds
# when the kernel lists its writes (entries.py), so it always says what a reset
# or a step must clear. The header: how many were listed, the seat (plus one;
# 0: none) whose fixed entries lead the list, and how many those are; for a
# kernel that stamps its board, the seat (plus one; 0: none) whose board the
# row holds and that board's stamp.
COUNT, FIXED_FOR, FIXED_COUNT, STAMP_FOR, STAMP = range(5)
ENTRIES_HEADER = 5


def _clear_listed(observation, entries, seat):
    """Zero the last observation's recorded entries, all but the leading
    fixed ones when the next observation is for the seat they were written
    for: the row then holds exactly what the list says."""
    listed = entries[ENTRIES_HEADER:]
    count = entries[COUNT]
    kept = entries[FIXED_COUNT] if seat >= 0 and entries[FIXED_FOR] == seat + 1 else 0
    if count > listed.shape[0]:  # the list outgrew its row: clear the whole observation
        observation[:] = 0
        kept = 0
    else:
        for k in range(kept, count):
            observation[listed[k]] = 0
    entries[COUNT] = kept
    if kept == 0:
        entries[FIXED_FOR] = entries[FIXED_COUNT] = 0


def _write_listed(state, game, seat, observation, entries):
    """The seat's fixed entries unless the row holds them, then the rest."""
    listed = entries[ENTRIES_HEADER:]
    count = entries[COUNT]
    if entries[FIXED_FOR] != seat + 1:
        count = observe_fixed(game, seat, observation, listed)
        entries[FIXED_FOR], entries[FIXED_COUNT] = seat + 1, count
    entries[COUNT] = observe_changing(state, game, seat, observation, listed, count)


def _nothing_fixed(game, seat, out, entries):
    """A kernel that lists its entries without a fixed part."""
    return 0


def _all_changing(state, game, seat, out, entries, count):
    return observe_entries(state, game, seat, out, entries)


def _clear_whole(observation, entries, seat):
    """A kernel without entries rewrites the whole row; once done it is zeroed."""
    if seat < 0:
        observation[:] = 0
        entries[STAMP_FOR] = 0


def _write_whole(state, game, seat, observation, entries):
    observe(state, game, seat, observation)


def _write_stamped(state, game, seat, observation, entries):
    """The rest alone while the row holds this seat's board at the same
    stamp; else the whole observation, its board stamped."""
    stamp = observe_stamp(state, game)
    if entries[STAMP_FOR] == seat + 1 and entries[STAMP] == stamp:
        observe_rest(state, game, seat, observation)
    else:
        observe(state, game, seat, observation)
        entries[STAMP_FOR], entries[STAMP] = seat + 1, stamp


def _show(state, game, observation, mask, current, entries):
    """The seat to move's observation and mask (nothing once done)."""
    seat = current_player(state)
    current[0] = seat
    clear_observation(observation, entries, seat)
    if seat >= 0:
        write_observation(state, game, seat, observation, entries)
        legal_mask(state, game, mask)
    else:
        mask[:] = False


def _start(state, game, seeder, observation, mask, current, entries):
    """The slot's next game: a seed drawn from its seeder, then dealt (the
    row's board, of the game before, no longer counts as stamped)."""
    new_game(state, game, pcg64.bounded(seeder, 0, SEED_BOUND))
    entries[STAMP_FOR] = 0
    show(state, game, observation, mask, current, entries)


def _step_one(state, game, action, seeder, observation, mask, rewards, flags, current, entries):
    """One move; a finished game scores and makes way for the next."""
    apply_action(state, game, action)
    flags[0], flags[1] = is_terminal(state), is_truncated(state)
    if flags[0] or flags[1]:
        returns(state, game, rewards)
        start(state, game, seeder, observation, mask, current, entries)
    else:
        rewards[:] = 0.0
        show(state, game, observation, mask, current, entries)


def _show_all(states, game, observations, masks, current, entries):
    for i in prange(states.shape[0]):
        show(states[i], game, observations[i], masks[i], current[i : i + 1], entries[i])


def _reset_all(states, game, seeders, seed, observations, masks, current, entries):
    for i in prange(states.shape[0]):
        pcg64.seed(seeders[i], seed + i)
        start(states[i], game, seeders[i], observations[i], masks[i], current[i : i + 1], entries[i])


def _step_all(states, game, actions, seeders, observations, masks, rewards, flags, current, entries):
    for i in prange(states.shape[0]):
        step_one(
            states[i], game, actions[i], seeders[i], observations[i], masks[i],
            rewards[i], flags[i], current[i : i + 1], entries[i],
        )  # fmt: skip


def kernel_bindings(kernel: Kernel) -> dict[str, Any]:
    """The kernel's functions under the names the templates use."""
    names = ("new_game", "legal_mask", "apply_action", "returns", "observe", "current_player")
    bindings = {name: getattr(kernel, name) for name in names}
    bindings.update(is_terminal=kernel.is_terminal, is_truncated=kernel.is_truncated)
    return bindings


def entry_capacity(kernel: Kernel, observation_size: int) -> int:
    """Room for one observation's entries: as many as it has values (a
    longer list, of repeated additions, clears the whole row instead)."""
    return observation_size if kernel.observe_entries is not None else 0


class _Driver:
    """The batch functions of one kernel: a serial copy (``prange`` runs as
    ``range`` without ``parallel``) and a parallel one of each loop."""

    def __init__(self, kernel: Kernel) -> None:
        tag = kernel.cache_tag
        bound = kernel_bindings(kernel)
        listed = kernel.observe_entries is not None
        bound["observe_entries"] = kernel.observe_entries
        split = kernel.observe_fixed is not None
        bound["observe_fixed"] = kernel.observe_fixed if split else specialise(_nothing_fixed, tag, bound)
        bound["observe_changing"] = (
            kernel.observe_changing if split else specialise(_all_changing, tag, bound)
        )
        stamped = kernel.observe_stamp is not None
        bound["observe_stamp"], bound["observe_rest"] = kernel.observe_stamp, kernel.observe_rest
        write = _write_listed if listed else _write_stamped if stamped else _write_whole
        bound["clear_observation"] = specialise(_clear_listed if listed else _clear_whole, tag, bound)
        bound["write_observation"] = specialise(write, tag, bound)
        bound["show"] = specialise(_show, tag, bound)
        bound["start"] = specialise(_start, tag, bound)
        bound["step_one"] = specialise(_step_one, tag, bound)
        loops = (_show_all, _reset_all, _step_all)
        self.show_serial, self.reset_serial, self.step_serial = (specialise(f, tag, bound) for f in loops)
        self.show_parallel, self.reset_parallel, self.step_parallel = (
            specialise(f, tag + "_parallel", bound, parallel=True) for f in loops
        )

    def show_all(self, states, game, observations, masks, current, entries) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.show_parallel if parallel else self.show_serial)(
            states, game, observations, masks, current, entries
        )

    def reset(self, states, game, seeders, seed, observations, masks, current, entries) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.reset_parallel if parallel else self.reset_serial)(
            states, game, seeders, np.int64(seed), observations, masks, current, entries
        )

    def step(
        self, states, game, actions, seeders, observations, masks, rewards, flags, current, entries
    ) -> None:
        parallel = states.shape[0] >= PARALLEL_FROM
        (self.step_parallel if parallel else self.step_serial)(
            states, game, actions, seeders, observations, masks, rewards, flags, current, entries
        )


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
