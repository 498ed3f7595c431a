"""A small Pillow kit for board pictures: shapes, tokens, text, legends, seat colours.

Every game's ``render_rgb`` draws on a :class:`Canvas` and returns
``canvas.to_array()`` (HxWx3 uint8), so pictures share one look.

Text uses one scalable font (Pillow's built-in FreeType font, at any size)
with spaces widened to a third of the font size, because the font's own
space is so narrow that words seem to run together. All measuring goes
through :func:`text_width` so that layouts, wrapping and the drawing agree;
text never runs outside the image: a line too long for its room is cut and
ends with an ellipsis.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

# One colour per seat, in seat order (colour-blind friendly palette).
SEAT_COLORS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # green
    (204, 121, 167),  # purple
    (230, 159, 0),  # orange
)
BACKGROUND = (245, 240, 228)
INK = (30, 30, 30)
GREY = (150, 150, 150)
WHITE = (255, 255, 255)
GUIDE = (190, 180, 160)  # dotted leaders from a label to what it names

TEXT_SIZE = 13  # body text: headers, panels, legends
LABEL_SIZE = 11  # coordinate labels and text inside pieces
TITLE_SIZE = 15
ELLIPSIS = "\u2026"
MIN_SPACE_EM = 0.33  # a space is at least this share of the font size
LINE_SPACING = 1.3  # line height as a multiple of the font size
# Tests turn this on: then text that an image edge would cut, or that would
# stick out above or below the image, raises TextOutsideImage.
STRICT_BOUNDS = False


class TextOutsideImage(ValueError):
    """Raised (with STRICT_BOUNDS) for text the picture cannot fully show."""


@cache
def font(size: int = TEXT_SIZE) -> ImageFont.FreeTypeFont:
    """The one picture font at ``size`` pixels (Pillow's built-in scalable font)."""
    return ImageFont.load_default(size=size)


@cache
def space_width(size: int = TEXT_SIZE) -> float:
    """Width of a space as drawn: the font's own, widened to stay visible."""
    return max(font(size).getlength(" "), MIN_SPACE_EM * size)


@lru_cache(maxsize=1 << 16)
def word_width(word: str, size: int = TEXT_SIZE) -> float:
    """Width in pixels of one word: FreeType measures it anew on every call,
    and a picture measures the same few hundred words thousands of times."""
    return font(size).getlength(word)


def text_width(text: str, size: int = TEXT_SIZE) -> float:
    """Width in pixels of one line of ``text`` as :meth:`Canvas.text` draws it."""
    words = str(text).split(" ")
    return sum(word_width(w, size) for w in words) + space_width(size) * (len(words) - 1)


def line_height(size: int = TEXT_SIZE) -> int:
    """Distance between the tops of two lines of text."""
    return int(math.ceil(size * LINE_SPACING))


def with_ellipsis(text: str, max_width: float, size: int = TEXT_SIZE) -> str:
    """``text`` shortened as needed so that it ends with an ellipsis and fits."""
    text = str(text).rstrip()
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0 and text_width(ELLIPSIS, size) > max_width:
        return ""
    return text[:lo].rstrip() + ELLIPSIS


def fit(text: str, max_width: float, size: int = TEXT_SIZE) -> str:
    """``text`` if it fits in ``max_width`` pixels, else cut with an ellipsis."""
    text = str(text)
    return text if text_width(text, size) <= max_width else with_ellipsis(text, max_width, size)


def _break_word(word: str, max_width: float, size: int) -> list[str]:
    """A word wider than a line, split into pieces that each fit."""
    pieces, start = [], 0
    while start < len(word):
        end = start + 1
        while end < len(word) and text_width(word[start : end + 1], size) <= max_width:
            end += 1
        pieces.append(word[start:end])
        start = end
    return pieces


def wrap(text: str, max_width: float, size: int = TEXT_SIZE, max_lines: int | None = None) -> list[str]:
    """Lines of ``text`` no wider than ``max_width``, broken at spaces (and at
    newlines). A word longer than a whole line is split. With ``max_lines``,
    text that does not fit is cut and the last line ends with an ellipsis."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size) <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            pieces = _break_word(word, max_width, size) if text_width(word, size) > max_width else [word]
            lines.extend(pieces[:-1])
            line = pieces[-1]
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[: max(max_lines, 0)]
        if lines:
            lines[-1] = with_ellipsis(lines[-1], max_width, size)
    return lines


def paragraph_height(text: str, max_width: float, size: int = TEXT_SIZE, max_lines: int | None = None) -> int:
    """Height of ``text`` wrapped to ``max_width`` (see :meth:`Canvas.paragraph`)."""
    return line_height(size) * len(wrap(text, max_width, size, max_lines))


def seat_color(seat: int | None) -> tuple[int, int, int]:
    return GREY if seat is None or seat < 0 else SEAT_COLORS[seat % len(SEAT_COLORS)]


def lighten(color, amount: float = 0.5) -> tuple[int, int, int]:
    return tuple(int(c + (255 - c) * amount) for c in color)


def darken(color, amount: float = 0.3) -> tuple[int, int, int]:
    return tuple(int(c * (1 - amount)) for c in color)


def readable_ink(fill) -> tuple[int, int, int]:
    """White or black, whichever reads better on ``fill``."""
    if fill is None:
        return INK
    r, g, b = fill[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


def hex_corners(cx: float, cy: float, size: float, pointy: bool = True) -> list[tuple[float, float]]:
    start = 30 if pointy else 0
    return [
        (
            cx + size * math.cos(math.radians(start + 60 * k)),
            cy + size * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


@dataclass(frozen=True)
class Key:
    """One legend entry: a small swatch and what it means.

    ``shape`` is one of ``box``, ``disc``, ``ring``, ``hex``, ``diamond``,
    ``line``, ``struck`` (a crossed-out disc) or ``text`` (only the ``mark``); ``mark`` is a
    short text drawn on the swatch, as the picture draws it on the board."""

    label: str
    fill: tuple[int, int, int] | None = None
    shape: str = "box"
    outline: tuple[int, int, int] | None = INK
    mark: str = ""
    mark_fill: tuple[int, int, int] | None = None


LEGEND_GAP = 14  # pixels between two legend entries on one row


def _swatch_width(key: Key, size: int) -> float:
    """A swatch is a square, or a box wide enough for its mark."""
    if key.shape == "text":
        return text_width(key.mark, size)
    if key.shape == "box" and key.mark:
        return max(size, text_width(key.mark, size - 3) + 6)
    return size


def _legend_rows(keys: Sequence[Key], width: float, size: int) -> list[list[tuple[float, Key, str]]]:
    """Flow layout of a legend: rows of (x offset, key, label as drawn)."""
    rows: list[list[tuple[float, Key, str]]] = [[]]
    x = 0.0
    for key in keys:
        swatch = _swatch_width(key, size) + 5
        need = swatch + text_width(key.label, size)
        if rows[-1] and x + need > width:
            rows.append([])
            x = 0.0
        label = fit(key.label, width - swatch, size)
        rows[-1].append((x, key, label))
        x += swatch + text_width(label, size) + LEGEND_GAP
    return [row for row in rows if row]


def legend_height(keys: Sequence[Key], width: float, size: int = TEXT_SIZE) -> int:
    """Height of :meth:`Canvas.legend` for the same keys and width."""
    return line_height(size) * len(_legend_rows(keys, width, size)) if keys else 0


class Canvas:
    """An RGB image with the drawing calls the games need."""

    def __init__(self, width: int, height: int, background=BACKGROUND) -> None:
        self.image = Image.new("RGB", (int(math.ceil(width)), int(math.ceil(height))), background)
        self.draw = ImageDraw.Draw(self.image)

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    def polygon(self, points, fill=None, outline=INK, width: int = 1) -> None:
        self.draw.polygon([(float(x), float(y)) for x, y in points], fill=fill, outline=outline, width=width)

    def hexagon(self, cx, cy, size, fill=None, outline=INK, width: int = 1, pointy: bool = True) -> None:
        self.polygon(hex_corners(cx, cy, size, pointy), fill=fill, outline=outline, width=width)

    def rect(self, x0, y0, x1, y1, fill=None, outline=INK, width: int = 1) -> None:
        self.draw.rectangle([x0, y0, x1, y1], fill=fill, outline=outline, width=width)

    def circle(self, cx, cy, radius, fill=None, outline=INK, width: int = 1) -> None:
        self.draw.ellipse(
            [cx - radius, cy - radius, cx + radius, cy + radius], fill=fill, outline=outline, width=width
        )

    def line(self, points, fill=INK, width: int = 1) -> None:
        self.draw.line([(float(x), float(y)) for x, y in points], fill=fill, width=width)

    def dotted(self, x0, y0, x1, y1, fill=GUIDE, step: float = 4.0) -> None:
        """A dotted leader that takes the eye from a label to what it names."""
        length = math.hypot(x1 - x0, y1 - y0)
        for k in range(int(length // step) + 1):
            t = k * step / length if length else 0.0
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            self.draw.point((x, y), fill=fill)

    def _room(self, x: float, horizontal: str) -> float:
        """Widest line that fits between ``x`` and the image edges."""
        if horizontal == "l":
            return self.width - x - 1
        if horizontal == "r":
            return x
        return 2 * min(x, self.width - x - 1)

    def text(
        self, x, y, text: str, fill=INK, anchor: str = "la", size: int = TEXT_SIZE, max_width=None
    ) -> float:
        """One line of text; ``anchor`` as in Pillow (``la``: left, ascender).
        The line is cut with an ellipsis to ``max_width`` and always to the
        image. Returns the width drawn."""
        horizontal, vertical = anchor[0], anchor[1]
        room = self._room(x, horizontal)
        wanted = str(text)
        text = fit(wanted, room if max_width is None else min(room, max_width), size)
        if STRICT_BOUNDS:
            self._check_inside(wanted, text, y, vertical, size, room < (max_width or math.inf))
        total = text_width(text, size)
        left = x if horizontal == "l" else x - total if horizontal == "r" else x - total / 2
        f = font(size)
        gap = space_width(size)
        for word in text.split(" "):
            if word:
                self.draw.text((left, y), word, fill=fill, font=f, anchor="l" + vertical)
            left += word_width(word, size) + gap
        return total

    def _check_inside(self, wanted: str, drawn: str, y, vertical: str, size: int, edge_binds: bool) -> None:
        """Raise if an image edge cut the text or it leaves the image vertically."""
        if drawn != wanted and edge_binds:
            raise TextOutsideImage(f"{wanted!r} cut by the image edge to {drawn!r}")
        top, bottom = font(size).getbbox(drawn or "A", anchor="l" + vertical)[1::2]
        if y + top < 0 or y + bottom > self.height:
            raise TextOutsideImage(f"{wanted!r} at y={y:.0f} leaves the image (height {self.height})")

    def paragraph(
        self, x, y, text: str, width, fill=INK, size: int = TEXT_SIZE, max_lines: int | None = None
    ) -> float:
        """``text`` wrapped to ``width`` pixels from the top-left (x, y);
        returns the y below the last line."""
        for line in wrap(text, min(width, self._room(x, "l")), size, max_lines):
            self.text(x, y, line, fill=fill, size=size)
            y += line_height(size)
        return y

    def text_box(
        self, x0, y0, x1, y1, text: str, fill=INK, size: int = TEXT_SIZE, padding: int = 4
    ) -> list[str]:
        """``text`` wrapped inside the box; what does not fit is cut with an
        ellipsis. Returns the lines drawn."""
        max_lines = max(int((y1 - y0 - 2 * padding) // line_height(size)), 0)
        lines = wrap(text, x1 - x0 - 2 * padding, size, max_lines) if max_lines else []
        for i, line in enumerate(lines):
            self.text(x0 + padding, y0 + padding + i * line_height(size), line, fill=fill, size=size)
        return lines

    def swatch(self, key: Key, cx: float, cy: float, size: int = TEXT_SIZE) -> None:
        """The little picture of a legend entry, centred on (cx, cy)."""
        r = size / 2
        fill, outline = key.fill, key.outline
        if key.shape == "box":
            half = _swatch_width(key, size) / 2
            self.rect(cx - half, cy - r, cx + half, cy + r, fill=fill, outline=outline)
        elif key.shape == "disc":
            self.circle(cx, cy, r, fill=fill, outline=outline)
        elif key.shape == "ring":
            colour = outline or fill
            self.circle(cx, cy, r - 1, fill=None, outline=colour, width=2)
            if readable_ink(colour) == INK:  # a light ring needs a dark edge to show on the paper
                self.circle(cx, cy, r, fill=None, outline=INK, width=1)
                self.circle(cx, cy, r - 3, fill=None, outline=INK, width=1)
        elif key.shape == "hex":
            self.hexagon(cx, cy, r + 1, fill=fill, outline=outline)
        elif key.shape == "diamond":
            self.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=outline)
        elif key.shape == "line":
            self.line([(cx - r, cy), (cx + r, cy)], fill=fill, width=4)
        elif key.shape == "struck":  # a piece crossed out
            self.circle(cx, cy, r, fill=fill, outline=outline)
            self.line([(cx - r, cy - r), (cx + r, cy + r)], fill=INK, width=2)
        if key.mark:
            ink = key.mark_fill or (
                readable_ink(fill) if key.shape in ("box", "disc", "hex", "diamond") else INK
            )
            self.text(cx, cy, key.mark, fill=ink, anchor="mm", size=size if key.shape == "text" else size - 3)

    def legend(self, x, y, keys: Sequence[Key], width, size: int = TEXT_SIZE) -> float:
        """Legend entries flowed into rows ``width`` pixels wide; returns the
        y below the last row."""
        width = min(width, self._room(x, "l"))
        h = line_height(size)
        for row in _legend_rows(keys, width, size):
            for dx, key, label in row:
                sw = _swatch_width(key, size)
                self.swatch(key, x + dx + sw / 2, y + h / 2, size)
                self.text(x + dx + sw + 5, y + h / 2, label, anchor="lm", size=size)
            y += h
        return y

    def token(self, cx, cy, radius, seat: int | None, label: str = "", size: int | None = None) -> None:
        """A round playing piece in a seat's colour, with an optional letter
        (by default as large as the piece allows, at most LABEL_SIZE)."""
        self.circle(cx, cy, radius, fill=seat_color(seat), outline=INK, width=1)
        if label:
            size = size or max(8, min(LABEL_SIZE, int(radius * 1.5)))
            self.text(cx, cy, label, fill=WHITE, anchor="mm", size=size)

    def to_array(self) -> np.ndarray:
        return np.asarray(self.image, dtype=np.uint8).copy()
