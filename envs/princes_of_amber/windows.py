"""Decision frames, and the card windows among them.

Each decision frame kind has a :class:`Decision`: ``legal`` (the legal
actions, or None to skip the frame) and ``apply`` (what an answer does).
A *window* is a decision that may be answered with a response card (whose
record in ``acts.RULES`` names the window) or PASS. Skipping a window only
when public facts rule every card out keeps the player's hand hidden;
``prompt_only_if_playable`` skips it whenever he holds none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from meeplezoo.envs.princes_of_amber import acts
from meeplezoo.envs.princes_of_amber.acts import RULES
from meeplezoo.envs.princes_of_amber.cards import A_CARD, A_PASS
from meeplezoo.envs.princes_of_amber.frames import Frame

State = Any  # an AmberState (state.py imports this module, not the reverse)


@dataclass(frozen=True, slots=True)
class Decision:
    """How a decision frame kind is asked and answered."""

    legal: Callable[[State, Any], list[int] | None]
    apply: Callable[[State, Any, int], None]


def card_actions(state: State, player: int, kinds: Iterable[int]) -> list[int]:
    """The card actions of the ``kinds`` the player holds."""
    counts = state.hand_kinds[player]
    return [A_CARD + kind for kind in kinds if counts[kind] > 0]


def offer_window(state: State, player: int, kinds: Iterable[int]) -> list[int] | None:
    """A card window for ``player``: the allowed held cards and PASS, or None to skip it."""
    if player < 0 or not state.in_game[player]:
        return None
    moves = card_actions(state, player, kinds)
    if not moves and (state.game.prompt_only_if_playable or not state.might_hold(player, kinds)):
        return None
    moves.append(A_PASS)
    return moves


def legal_window(state: State, frame: Frame) -> list[int] | None:
    """The window of the frame's phase: the response cards that fit it (see acts.RULES)."""
    return offer_window(state, frame.player, acts.answers(state, frame))


def legal_queued_window(state: State, frame: Frame) -> list[int] | None:
    """The first player in the frame's queue who may answer gets the
    window; None once the queue is exhausted."""
    while True:
        moves = legal_window(state, frame)
        if moves is not None:
            return moves
        if not frame.queue:
            return None
        state.advance_queue(frame)


def play_response(state: State, frame: Frame, action: int) -> None:
    """A response card is played: it leaves the hand, then does what its record says."""
    kind = action - A_CARD
    state._take_card(frame.player, kind)
    RULES[kind].respond(state, frame, kind)


def apply_window(state: State, frame: Frame, action: int) -> None:
    """A window that closes on PASS."""
    if action == A_PASS:
        state.stack.pop()
    else:
        play_response(state, frame, action)


def apply_queued_window(state: State, frame: Frame, action: int) -> None:
    """A window that passes to the next player of its queue on PASS."""
    if action == A_PASS:
        state.advance_queue(frame)
    else:
        play_response(state, frame, action)
