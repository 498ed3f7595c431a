"""What a game's compiled twin hands the engine: one :class:`Kernel`.

A game with a kernel names it on its Game class as an import path
(``kernel = "meeplezoo.envs.gem_mountain.kernel.spec:KERNEL"``), so the
rules module never imports numba; :func:`kernel_of` loads it on first use.
Every function takes the state row (int64, laid out by
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`) and the game row
(the configuration, from ``game_row(game)``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kernel:
    """The compiled functions of one game.

    ``new_game(state, game, seed)`` deals as ``new_initial_state(seed)``;
    ``legal_mask(state, game, mask)`` fills a bool mask; ``apply_action(state,
    game, action)`` plays a legal action; ``returns(state, game, out)`` and
    ``evaluate(state, game, viewer, out)`` write float64 per seat (viewer -1:
    the whole state); ``observe(state, game, seat, out)`` writes a seat's
    observation; ``current_player(state)`` is -1 once the game is done;
    ``determinize(state, game, seat, searcher, out)`` deals what ``seat``
    cannot see from the searcher's generator words into ``out``."""

    name: str  # an identifier: names the kernel's compiled copies of the batch driver
    state_cls: type
    game_row: Callable[[Any], Any]
    new_game: Callable
    legal_mask: Callable
    apply_action: Callable
    returns: Callable
    current_player: Callable
    is_terminal: Callable
    is_truncated: Callable
    observe: Callable
    evaluate: Callable | None = None
    determinize: Callable | None = None


def kernel_of(game: Any) -> Kernel:
    """The Kernel named by ``type(game).kernel`` (imported on first use)."""
    path = getattr(type(game), "kernel", None)
    if not path:
        raise ValueError(f"{game.info.name} has no compiled kernel; use backend='python'")
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
