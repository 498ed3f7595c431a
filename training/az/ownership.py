"""Who holds each cell where a game stopped: an auxiliary target of expert iteration.

A game's result is one number per seat, so a network learns its value from
few, noisy signals per game. Where the game declares ``ownership_planes``
(board planes that say, for each cell, who holds it), the position a game
stopped at also says which cells each seat ended up holding, hundreds of
targets per position; KataGo's networks learn that final ownership beside
the result, and their value learns faster for it. Here each searched position
gets the holders at the end from its mover's view: +1 the mover's, -1 another
seat's, 0 nobody's, one entry per cell of each declared plane.
"""

from __future__ import annotations

import numpy as np


def check_ownership(game, body: str) -> tuple[int, ...]:
    """The game's ownership planes, or a ValueError saying why it cannot
    learn them (none declared, or a body without per-cell features). The
    planes are board planes, so ``body="auto"`` picks the cnn for such a game."""
    planes = getattr(game, "ownership_planes", None)
    if not planes:
        raise ValueError(
            f"ownership_weight needs a game that declares ownership planes; {game.info.name} has none"
        )
    if body == "mlp":
        raise ValueError("ownership_weight needs the cnn body (per-cell features), got body='mlp'")
    return tuple(int(plane) for plane in planes)


def ownership_size(game) -> int:
    """Target entries per position: one per cell of each ownership plane."""
    _, rows, cols = game.observation_planes
    return len(game.ownership_planes) * rows * cols


def final_ownership(state, game) -> np.ndarray:
    """Each seat's view of who holds each cell of ``state``: [seat, entry]
    int8, +1 the seat's own, -1 another seat's, 0 nobody's. Read from each
    seat's observation, so only what that seat is shown is used."""
    planes, rows, cols = game.observation_planes
    cells = rows * cols
    chosen = list(game.ownership_planes)
    maps = np.zeros((game.num_players, len(chosen) * cells), dtype=np.int8)
    for seat in range(game.num_players):
        board = np.asarray(state.observation(seat))[: planes * cells].reshape(planes, cells)
        holders = board[chosen].reshape(-1).astype(np.int16)
        maps[seat] = np.where(holders == 1, 1, np.where(holders > 1, -1, 0))
    return maps


def ownership_targets(state, game, movers: list[int]) -> np.ndarray:
    """The ownership target of each searched position: the holders where
    the game stopped, from that position's mover's view ([position, entry])."""
    return final_ownership(state, game)[np.asarray(movers, dtype=np.int64)]
