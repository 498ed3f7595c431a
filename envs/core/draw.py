"""A small Pillow kit for board pictures: shapes, tokens, text, seat colours.

Every game's ``render_rgb`` draws on a :class:`Canvas` and returns
``canvas.to_array()`` (HxWx3 uint8), so pictures share one look.
"""

from __future__ import annotations

import math

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


def seat_color(seat: int | None) -> tuple[int, int, int]:
    return GREY if seat is None or seat < 0 else SEAT_COLORS[seat % len(SEAT_COLORS)]


def lighten(color, amount: float = 0.5) -> tuple[int, int, int]:
    return tuple(int(c + (255 - c) * amount) for c in color)


def hex_corners(cx: float, cy: float, size: float, pointy: bool = True) -> list[tuple[float, float]]:
    start = 30 if pointy else 0
    return [
        (
            cx + size * math.cos(math.radians(start + 60 * k)),
            cy + size * math.sin(math.radians(start + 60 * k)),
        )
        for k in range(6)
    ]


class Canvas:
    """An RGB image with the drawing calls the games need."""

    def __init__(self, width: int, height: int, background=BACKGROUND) -> None:
        self.image = Image.new("RGB", (int(width), int(height)), background)
        self.draw = ImageDraw.Draw(self.image)
        self.font = ImageFont.load_default()

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

    def text(self, x, y, text: str, fill=INK, anchor: str = "la") -> None:
        self.draw.text((x, y), str(text), fill=fill, font=self.font, anchor=anchor)

    def token(self, cx, cy, radius, seat: int | None, label: str = "") -> None:
        """A round playing piece in a seat's colour, with an optional letter."""
        self.circle(cx, cy, radius, fill=seat_color(seat), outline=INK, width=1)
        if label:
            self.text(cx, cy, label, fill=WHITE, anchor="mm")

    def to_array(self) -> np.ndarray:
        return np.asarray(self.image, dtype=np.uint8).copy()
