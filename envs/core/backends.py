"""Which rules run a game: the compiled kernel or the Python reference.

Everything that starts games (the AEC env, the arena, self-play, the web
table) asks :func:`start_state`, so a game that gains a kernel runs on it
everywhere at once, and ``backend="python"`` brings the reference back.
numba is imported only when a compiled state is made.
"""

from __future__ import annotations

from typing import Any

BACKENDS = ("compiled", "python")


def has_kernel(game: Any) -> bool:
    """Whether ``game``'s class names a compiled kernel."""
    return bool(getattr(type(game), "kernel", None))


def choose_backend(game: Any, backend: str | None = None) -> str:
    """``backend`` checked against ``game`` (None: compiled where the game has a kernel)."""
    if backend is None:
        return "compiled" if has_kernel(game) else "python"
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS} or None, got {backend!r}")
    if backend == "compiled" and not has_kernel(game):
        raise ValueError(f"{game.info.name} has no compiled kernel yet; use backend='python'")
    return backend


def start_state(game: Any, seed: int | None, backend: str | None = None) -> Any:
    """``game.new_initial_state(seed)`` on the chosen backend."""
    if choose_backend(game, backend) == "python":
        return game.new_initial_state(seed)
    from meeplezoo.envs.core.compiled.state import CompiledState
    from meeplezoo.envs.core.rng import make_rng

    if seed is None:  # a seed drawn as the reference draws its generator's entropy
        seed = int(make_rng(None).integers(0, 2**63 - 1))
    return CompiledState.new(game, seed)


def loaded_state(game: Any, position: dict, backend: str | None = None) -> Any:
    """``game.state_from_dict(position)`` on the chosen backend."""
    state = game.state_from_dict(position)
    if choose_backend(game, backend) == "python":
        return state
    from meeplezoo.envs.core.compiled.state import CompiledState

    return CompiledState.of(state)
