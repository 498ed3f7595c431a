"""What a game's compiled twin hands the engine: one :class:`Kernel`.

A game with a kernel names it on its Game class as an import path
(``kernel = "meeplezoo.envs.gem_mountain.kernel.spec:KERNEL"``), so the
rules module never imports numba; :func:`kernel_of` loads it on first use.
Every function takes the state row (int64, laid out by
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`) and the game row
(the configuration, from ``game_row(game)``).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any


@dataclass(frozen=True, eq=False)
class Kernel:
    """The compiled functions of one game.

    ``new_game(state, game, seed)`` deals as ``new_initial_state(seed)``;
    ``legal_mask(state, game, mask)`` fills a bool mask; ``apply_action(state,
    game, action)`` plays a legal action; ``returns(state, game, out)`` and
    ``evaluate(state, game, viewer, out)`` write float64 per seat (viewer -1:
    the whole state); ``observe(state, game, seat, out)`` writes a seat's
    observation; ``current_player(state)`` is -1 once the game is done;
    ``determinize(state, game, seat, searcher, out)`` deals what ``seat``
    cannot see from the searcher's generator words into ``out``.

    ``observe_entries(state, game, seat, out, entries)`` (optional) writes
    the same observation into an ``out`` that is all zero and records each
    index it writes in ``entries`` (while there is room), returning how many
    writes it made: ``make_vec`` then clears only the last step's entries
    instead of the whole observation, which is most of a step's memory
    traffic for a large, sparse observation (see ``entries.py``).
    ``observe_fixed(game, seat, out, entries)`` and
    ``observe_changing(state, game, seat, out, entries, count)`` (optional,
    together) split those writes: the first lists the entries only the game
    and the seat decide (a board in the seat's frame), the second the rest
    after them, at no index of the first; ``observe_entries`` is the two in
    turn. ``make_vec`` then keeps the fixed entries while the same seat
    moves again.

    ``observe_stamp(state, game)`` and ``observe_rest(state, game, seat,
    out)`` (optional, together, for a kernel without entries) split the
    observation into a board and the rest: the stamp (an int below 2**31)
    changes whenever anything the board part shows may change, and
    ``observe_rest`` rewrites everything but the board. ``make_vec`` then
    rewrites only the rest while the same seat moves again on an unchanged
    stamp (a tile chosen before it is laid, say).

    A kernel equals only itself (``eq=False``): each game has one, and the
    compiled searches keep caches keyed by it, which hash it by identity
    rather than by every function it holds."""

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
    # ``scores(state, game, out)``: the points per seat (int64), for games whose State has ``scores()``
    scores: Callable | None = None
    observe_entries: Callable | None = None
    observe_fixed: Callable | None = None
    observe_changing: Callable | None = None
    observe_stamp: Callable | None = None
    observe_rest: Callable | None = None

    @cached_property
    def cache_tag(self) -> str:
        """``name`` and a digest of the game package's sources: the tag of the
        engine's and the search's compiled copies for this kernel. numba keys a
        cached copy by its own file alone, so without the digest a copy
        compiled against an older layout of the game would load after the
        game changed (and read the rows wrongly)."""
        package = Path(inspect.getfile(self.state_cls)).parent
        digest = hashlib.sha1()
        for path in sorted(package.rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
        return f"{self.name}_{digest.hexdigest()[:12]}"


def cached_game_row(game: Any, build: Callable[[Any], Any]) -> Any:
    """``build(game)``, the game row, made once per Game and kept on it
    read-only (a Game's settings never change)."""
    row = getattr(game, "_kernel_game_row", None)
    if row is None:
        row = build(game)
        row.flags.writeable = False
        game._kernel_game_row = row
    return row


def kernel_of(game: Any) -> Kernel:
    """The Kernel named by ``type(game).kernel`` (imported on first use)."""
    path = getattr(type(game), "kernel", None)
    if not path:
        raise ValueError(f"{game.info.name} has no compiled kernel; use backend='python'")
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
