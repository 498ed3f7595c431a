"""A person at the terminal: shows the board from their seat, lists the legal
moves with numbers, and reads a number or a move's name.

Input and output are injectable (``input_fn``, ``output_fn``) so the player can
be driven by tests and by other front ends.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from meeplezoo.agents.base import Agent, SeatView

QUIT_WORDS = ("q", "quit", "exit")
LEGEND_MIN_LINES = 3  # a shorter unchanged tail is part of the board, not a legend


class PlayerQuit(Exception):
    """The person chose to leave the game (``q``): an ordinary end, not an interruption."""


def new_lines_only(text: str, previous: str | None) -> tuple[str, bool]:
    """``text`` without the tail of lines it shares with ``previous`` (the
    legend, unchanged since the last move), and whether a tail was cut."""
    lines, before = text.splitlines(), (previous or "").splitlines()
    same = 0
    while same < min(len(lines), len(before)) and lines[-1 - same] == before[-1 - same]:
        same += 1
    if same < LEGEND_MIN_LINES:
        return text, False
    return "\n".join(lines[: len(lines) - same]).rstrip(), True


class HumanAgent(Agent):
    """Asks a person for each move. Needs the view only to draw the board and
    name the moves from its own seat; it never shows other seats' secrets."""

    name = "human"
    needs_view = True

    def __init__(
        self,
        seed: int | None = None,
        input_fn: Callable[[str], str] = input,
        output_fn: Callable[[str], None] = print,
        show_board: bool = True,
        **params,
    ) -> None:
        super().__init__(seed, **params)
        self.input_fn = input_fn
        self.output_fn = output_fn
        self.show_board = show_board
        self._last_board: str | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._last_board = None

    def _show_board(self, view: SeatView) -> None:
        """The board from the seat; its legend only when it changed (``?`` shows it all)."""
        board = view._state.render_ansi(view.seat)
        shown, cut = new_lines_only(board, self._last_board)
        self._last_board = board
        self.output_fn(shown + ("\n(legend as before: ? shows it)" if cut else ""))

    def act(self, observation: dict, view: SeatView | None = None) -> int:
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if not legal:
            raise ValueError("no legal action in the mask")
        names = self._names(legal, view)
        if self.show_board and view is not None:
            self._show_board(view)
        seat = f"player_{view.seat}" if view is not None else "you"
        self.output_fn(f"{seat} to move. Legal moves:")
        for k, (_a, label) in enumerate(zip(legal, names)):
            self.output_fn(f"  {k:>3}. {label}")
        while True:
            try:
                text = self.input_fn("move (number or name, ? for the whole board, q to quit)> ")
            except EOFError:
                raise KeyboardInterrupt from None
            if text.strip().lower() in QUIT_WORDS:
                raise PlayerQuit
            if text.strip() == "?" and view is not None:
                self.output_fn(view._state.render_ansi(view.seat))
                continue
            choice = self._parse(text, legal, names)
            if choice is not None:
                return choice
            self.output_fn(f"not a legal move: {text!r}; give a number 0-{len(legal) - 1} or a move's name")

    @staticmethod
    def _names(legal: list[int], view: SeatView | None) -> list[str]:
        if view is None:
            return [f"action {a}" for a in legal]
        return [view._state.action_to_string(a) for a in legal]

    @staticmethod
    def _parse(text: str, legal: list[int], names: list[str]) -> int | None:
        """The chosen action, or None if the text names no legal move."""
        text = (text or "").strip()
        if not text:
            return None
        if text.lstrip("-").isdigit():
            k = int(text)
            return legal[k] if 0 <= k < len(legal) else None
        wanted = text.lower()
        for a, label in zip(legal, names):
            if label.strip().lower() == wanted:
                return a
        starts = [a for a, label in zip(legal, names) if label.strip().lower().startswith(wanted)]
        return starts[0] if len(starts) == 1 else None
