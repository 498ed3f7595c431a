"""Where a game's step time goes: cProfile of its AEC loop and rules loop.

``meeplezoo bench --profile gem_mountain`` prints the functions with the most
own time in each loop, the first place to look when a game misses a target.
"""

from __future__ import annotations

import cProfile
import io
import pstats

from meeplezoo import envs
from meeplezoo.benchmarks.step_loop import play_aec, play_rules


def _top(profiler: cProfile.Profile, limit: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(limit)
    return out.getvalue()


def profile(
    name: str, config: dict | None = None, steps: int = 20_000, seed: int = 0, limit: int = 25
) -> str:
    """Text report of the hot spots of ``steps`` random AEC and rules steps."""
    config = config or {}
    name = envs.resolve(name)
    env = envs.make(name, **config)
    game = envs.make_game(name, **config)
    play_aec(env, steps // 10, seed)  # warm-up
    parts = []
    for title, work in (
        ("AEC loop", lambda: play_aec(env, steps, seed)),
        ("rules loop", lambda: play_rules(game, steps, seed)),
    ):
        profiler = cProfile.Profile()
        profiler.runcall(work)
        parts.append(
            f"=== {name} {config or ''} {title}: {steps} steps, top {limit} by own time ===\n"
            + _top(profiler, limit)
        )
    return "\n".join(parts)
