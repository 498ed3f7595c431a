"""Compile every game's kernel into numba's disk cache ahead of use, one
process per game so that the cores compile several games at once.

A kernel compiles on its first use in a fresh install (about a minute and a
half for Gem Mountain on one core) and loads from the cache afterwards in a
second or two. Compiling is single-threaded, so warming the games side by
side divides that first wait by the number of cores. The test suite does
this before its workers start (``tests/conftest.py``: otherwise each worker
would compile the same kernels again); a user can do it once after
installing::

    python -m meeplezoo.envs.core.compiled.warm            # every game with a kernel
    python -m meeplezoo.envs.core.compiled.warm gem_mountain_v0 --parts state vec
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor

import numpy as np

PARTS = ("state", "vec", "vec_parallel", "gym")  # what a warm-up can compile, per game
DEFAULT_PARTS = ("state", "vec")  # what nearly every caller of a kernel uses
MOVES = 12  # moves played per exercise: enough to reach every entry point of a kernel


def kernel_games() -> list[str]:
    """The registered games whose Game class names a compiled kernel."""
    import meeplezoo
    from meeplezoo.envs.core.backends import has_kernel

    return [name for name in meeplezoo.names() if has_kernel(meeplezoo.make_game(name))]


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def exercise_state(name: str) -> None:
    """A compiled state's calls: deal, mask, apply, every seat's observation,
    returns, evaluate, determinize and clone."""
    import meeplezoo
    from meeplezoo.envs.core.backends import start_state
    from meeplezoo.envs.core.rng import make_rng

    game = meeplezoo.make_game(name)
    state = start_state(game, 0, "compiled")
    for _ in range(MOVES):
        if state.done:
            break
        for seat in range(game.num_players):
            state.observation(seat)
        state.evaluate()
        state.evaluate(state.current_player)
        if game.info.hidden_information:
            state.determinize(state.current_player, make_rng(0))
        state = state.clone()
        state.apply(_first_legal(state.legal_action_mask()))
    state.returns()


def exercise_vec(name: str, num_envs: int) -> None:
    """``make_vec`` reset and steps (serial below the parallel threshold)."""
    import meeplezoo

    env = meeplezoo.make_vec(name, num_envs)
    batch = env.reset(seed=0)
    for _ in range(MOVES):
        batch = env.step(np.array([_first_legal(mask) for mask in batch.legal_action_mask]))


def exercise_gym(name: str) -> None:
    """``make_gym_vec``: the random opponents' loop inside the kernel."""
    import meeplezoo

    env = meeplezoo.make_gym_vec(name, 2)
    observation, _ = env.reset(seed=0)
    for _ in range(MOVES):
        actions = [_first_legal(mask) for mask in observation["action_mask"]]
        observation, *_ = env.step(np.array(actions))


def _exercises() -> dict[str, Callable[[str], None]]:
    from meeplezoo.envs.core.compiled.batch import PARALLEL_FROM

    return {
        "state": exercise_state,
        "vec": lambda name: exercise_vec(name, 2),
        "vec_parallel": lambda name: exercise_vec(name, PARALLEL_FROM),
        "gym": exercise_gym,
    }


def warm_game(name: str, parts: Iterable[str] = DEFAULT_PARTS) -> float:
    """Compile (or load) ``name``'s kernel for ``parts``; seconds taken."""
    start = time.perf_counter()
    exercises = _exercises()
    for part in parts:
        exercises[part](name)
    return time.perf_counter() - start


def check_parts(parts: Iterable[str]) -> tuple[str, ...]:
    parts = tuple(parts)
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise ValueError(f"unknown warm-up part {unknown[0]!r}; the parts are {', '.join(PARTS)}")
    return parts


def usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def warm(
    names: Iterable[str] | None = None, parts: Iterable[str] = DEFAULT_PARTS, processes: int | None = None
) -> dict[str, float]:
    """Warm ``names`` (default: every game with a kernel), each in a fresh
    process, ``processes`` at a time (default: the usable cores); seconds per game."""
    parts = check_parts(parts)
    names = kernel_games() if names is None else list(names)
    processes = processes or usable_cores()
    context = multiprocessing.get_context("spawn")  # a clean interpreter: nothing compiled yet, no threads
    with ProcessPoolExecutor(max_workers=max(1, min(processes, len(names) or 1)), mp_context=context) as pool:
        futures = {name: pool.submit(warm_game, name, parts) for name in names}
        return {name: future.result() for name, future in futures.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.envs.core.compiled.warm", description=__doc__)
    parser.add_argument("games", nargs="*", help="games to warm (default: every game with a kernel)")
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=PARTS, help="what to compile")
    parser.add_argument("--processes", type=int, default=None, help="games compiled at once (default: cores)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seconds = warm(args.games or None, args.parts, args.processes)
    for name, taken in seconds.items():
        print(f"{name:<24} {taken:7.1f} s")
    print(f"{'all':<24} {time.perf_counter() - start:7.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
