"""Position builders for Gem Mountain tests (rules layer only)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.gem_mountain.rules import GemMountainGame

R = C = 6
M = R * C


def cell(r: int, c: int) -> int:
    return r * C + c


def layout(fill: str = "Topaz", **tiles) -> list:
    """A 6x6 layout of `fill`, with tiles placed by key 'c<r>_<c>' (None = empty)."""
    lay = [fill] * M
    for key, name in tiles.items():
        r, c = (int(x) for x in key.lstrip("c").split("_"))
        lay[cell(r, c)] = name
    return lay


def new(lay=None, arrows=(0,), holdings=None, rotations=None, seed=0, **cfg):
    cfg.setdefault("num_players", 2)
    game = GemMountainGame(
        layout_override=list(lay if lay is not None else layout()),
        arrow_override=list(arrows) if arrows is not None else None,
        holdings_override=holdings,
        rotation_override=rotations if rotations is not None else [0] * M,
        **cfg,
    )
    return game.new_initial_state(seed)


def act(state, text: str) -> None:
    state.apply(state.string_to_action(text))


def legal_names(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def legal_cells(state) -> set[tuple[int, int]]:
    return {divmod(int(a), C) for a in state.legal_actions() if a < M}


def remove(state, *cells) -> None:
    """Take tiles off the map directly (setting up a position)."""
    for r, c in cells:
        state.cells[cell(r, c)] = -1
    state._recount()


def top(state, p: int) -> set[tuple[int, int]]:
    return {divmod(i, C) for i in state.top_cells(p)}


def holdings(**seats):
    return seats


def obs_cell(state, player: int, r: int, c: int) -> np.ndarray:
    """The 113 plane values of one cell (planes come first, plane k at k*M + cell)."""
    m = state.game.num_cells
    return state.observation(player)[: 113 * m].reshape(113, m)[:, cell(r, c)]
