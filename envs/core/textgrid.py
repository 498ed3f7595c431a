"""Text pictures: a character canvas, and where coordinate labels go.

The ansi renders build their boards on a :class:`TextGrid`, which takes
strings at any (column, line), negative ones included, so that labels can
be put around a board without working out margins first.

Board coordinates are labelled one way in every game, the way their action
names spell them: rows as ``r=3`` at the row's left, columns (or hex
diagonals) as ``c=3`` / ``q=3`` beside the cell where they leave the board,
and a line of bare numbers above or below the board starts with ``c=`` /
``q=``. The same placements serve the RGB pictures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class TextGrid:
    """A sparse character canvas addressed by (column, line)."""

    def __init__(self) -> None:
        self._chars: dict[tuple[int, int], str] = {}

    def put(self, col: int, line: int, text: str, align: str = "left", keep: bool = False) -> None:
        """Write ``text`` starting at ``col`` (``align="left"``), ending at it
        (``"right"``) or centred on it (``"centre"``). With ``keep`` the
        characters already written stay (labels never cover the board)."""
        text = str(text)
        if align == "right":
            col -= len(text) - 1
        elif align == "centre":
            col -= (len(text) - 1) // 2
        for i, ch in enumerate(text):
            key = (col + i, line)
            if keep and self._chars.get(key, " ") != " ":
                continue
            self._chars[key] = ch

    def lines(self) -> list[str]:
        """The picture, from its leftmost column and top line; no trailing spaces."""
        if not self._chars:
            return []
        cols = [c for c, _ in self._chars]
        rows = [r for _, r in self._chars]
        left = min(cols)
        out = []
        for line in range(min(rows), max(rows) + 1):
            chars = [" "] * (max(cols) - left + 1)
            for (c, r), ch in self._chars.items():
                if r == line:
                    chars[c - left] = ch
            out.append("".join(chars).rstrip())
        return out


@dataclass(frozen=True)
class EdgeLabel:
    """A coordinate label beside a board cell on the edge.

    ``side`` says where it goes: ``above`` / ``below`` (a bare number in the
    line of labels over / under the board), ``left`` / ``right`` (the full
    ``q=3`` text beside the cell)."""

    cell: tuple[int, int]
    side: str
    text: str


def hex_row_labels(cells: Iterable[tuple[int, int]]) -> dict[int, str]:
    """Row label per axial row r of a hex board: ``r=-3``."""
    return {r: f"r={r}" for r in sorted({r for _, r in cells})}


def hex_diagonal_labels(cells: Iterable[tuple[int, int]]) -> list[EdgeLabel]:
    """Labels of the axial q diagonals of a hex board (pointy-top, rows r
    drawn top to bottom, so a diagonal of constant q runs down to the right).
    Each diagonal is labelled at both ends: above the top row or left of its
    first cell, and below the bottom row or right of its last cell."""
    cells = list(cells)
    top = min(r for _, r in cells)
    bottom = max(r for _, r in cells)
    labels = []
    for q in sorted({q for q, _ in cells}):
        rows = [r for qq, r in cells if qq == q]
        first, last = min(rows), max(rows)
        if first == top:
            labels.append(EdgeLabel((q, first), "above", str(q)))
        else:
            labels.append(EdgeLabel((q, first), "left", f"q={q}"))
        if last == bottom:
            labels.append(EdgeLabel((q, last), "below", str(q)))
        else:
            labels.append(EdgeLabel((q, last), "right", f"q={q}"))
    return labels


def legend_lines(title: str, entries: Iterable[tuple[str, str]], width: int = 100) -> list[str]:
    """A text legend: ``title`` then ``symbol meaning`` pairs, joined with
    commas and wrapped to ``width`` characters (continuation lines indented)."""
    out: list[str] = []
    line, filled = f"{title}:", False
    for symbol, meaning in entries:
        item = f" {symbol} {meaning}," if symbol else f" {meaning},"
        if filled and len(line) + len(item) > width:
            out.append(line.rstrip(","))
            line = "  "
        line += item
        filled = True
    out.append(line.rstrip(","))
    return out
