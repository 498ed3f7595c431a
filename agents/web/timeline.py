"""A replay as the positions a page shows, seen by one seat or a spectator.

Each position carries its picture (``render_rgb(viewer)``), the move that led
to it named for the viewer, the seat to move and the rewards so far (the AEC
env pays rewards only at the end, so they are zero until the last position).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from meeplezoo.agents.replay_cli import check_viewer as check_seat
from meeplezoo.agents.web.move_labels import move_label
from meeplezoo.envs.core.replay import ReplayError, ReplayRecord, replay_states


@dataclass
class Position:
    index: int  # moves played so far
    to_move: int  # seat to move, -1 once the game is over
    moved: int | None  # seat that played the move leading here (None at the start)
    label: str | None  # that move's name as the viewer may know it
    rewards: list[float]
    status: str  # "player_1 to move", "game over", ...
    picture: np.ndarray


def status_line(state) -> str:
    if state.terminal:
        return "game over"
    if state.truncated:
        return "game over at the turn limit"
    return f"player_{state.current_player} to move"


def rewards_so_far(state) -> list[float]:
    if not state.done:
        return [0.0] * state.game.num_players
    return [float(r) for r in state.returns()]


def check_viewer(record: ReplayRecord, viewer: int | None) -> None:
    """A viewer must be a seat of the replay's game (None: a spectator)."""
    if viewer is None:
        return
    try:
        check_seat(viewer, next(replay_states(record)).game.num_players)
    except ValueError as exc:
        raise ReplayError(str(exc)) from None


def replay_timeline(record: ReplayRecord, viewer: int | None = None) -> Iterator[Position]:
    """Every position of ``record`` (the initial one and one per move), as
    ``viewer`` sees it. Raises ReplayError on a replay that does not re-run."""
    check_viewer(record, viewer)
    moved, label = None, None
    for index, state in enumerate(replay_states(record)):
        yield Position(
            index=index,
            to_move=state.current_player if not state.done else -1,
            moved=moved,
            label=label,
            rewards=rewards_so_far(state),
            status=status_line(state),
            picture=state.render_rgb(viewer),
        )
        if index < len(record.actions) and _is_legal(state, record.actions[index]):
            moved = state.current_player
            label = move_label(state, record.actions[index], viewer)
        # an illegal action is reported by replay_states on the next step


def _is_legal(state, action: int) -> bool:
    return not state.done and 0 <= action < state.game.num_actions and bool(state.legal_action_mask()[action])
