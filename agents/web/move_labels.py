"""Names of moves as a given seat may know them.

``action_to_string`` names a move in the acting player's frame and may tell
what only that player sees (an Amoeba selection names the tile taken from the
hidden hand). A page shown to another seat uses :func:`move_label`, which
swaps such private moves for a neutral label. Every other move of the five
games is public by their rules (cards are played face up, peeks and probes
openly), so its name is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable


def _amoeba_private(state, action: int) -> str | None:
    # Choosing a hand slot and rotation is private (amoeba.md 27: hands are
    # private); the tile becomes public when it is anchored on the table.
    return "select a tile (not shown)" if action < state.game.ANCHOR0 else None


# game name -> (state before the move, action) -> neutral label, or None for a public move
PRIVATE_MOVES: dict[str, Callable[[object, int], str | None]] = {
    "amoeba_v0": _amoeba_private,
}


def move_label(state, action: int, viewer: int | None) -> str:
    """The name of ``action``, about to be played in ``state``, as ``viewer``
    may know it; ``viewer`` None is a spectator who sees everything."""
    action = int(action)
    actor = state.current_player
    if viewer is None or viewer == actor or not state.game.info.hidden_information:
        return state.action_to_string(action)
    private = PRIVATE_MOVES.get(state.game.info.name)
    neutral = private(state, action) if private is not None else None
    return state.action_to_string(action) if neutral is None else neutral
