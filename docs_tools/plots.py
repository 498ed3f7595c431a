"""Bar and line charts drawn with Pillow, so the site needs no plotting library.

The charts are small and plain on purpose: a title, labelled axes, a grid,
and the values written where a reader looks for them. Drawing is
deterministic, so a regenerated chart is the same image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 900, 480
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 80, 30, 60, 70
INK, GRID, PAPER = (33, 33, 33), (220, 220, 220), (255, 255, 255)
LEGEND_WIDTH = 250  # a line chart's legend column, right of the plot
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (140, 86, 75)]


def font(size: int = 14) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@dataclass
class Series:
    """One line of a line chart: its points and, optionally, a band per point."""

    label: str
    points: list[tuple[float, float]]
    band: list[tuple[float, float]] = field(default_factory=list)  # (low, high) per point


@dataclass
class Frame:
    """The plotting area and the value ranges it maps."""

    x_range: tuple[float, float]
    y_range: tuple[float, float]
    width: int = WIDTH
    height: int = HEIGHT
    right_margin: int = MARGIN_RIGHT  # room for a legend beside the plot

    def to_pixel(self, x_value: float, y_value: float) -> tuple[float, float]:
        left, right = MARGIN_LEFT, self.width - self.right_margin
        top, bottom = MARGIN_TOP, self.height - MARGIN_BOTTOM
        x_low, x_high = self.x_range
        y_low, y_high = self.y_range
        x_pixel = left + (x_value - x_low) / ((x_high - x_low) or 1) * (right - left)
        y_pixel = bottom - (y_value - y_low) / ((y_high - y_low) or 1) * (bottom - top)
        return x_pixel, y_pixel


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten."""
    span = (high - low) or 1.0
    raw = span / count
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 10 ** -len(f"{raw:.10f}".split(".")[1].lstrip("0"))
    step = min((m * power for m in (1, 2, 5, 10) if m * power >= raw), default=raw)
    first = (low // step) * step
    ticks, value = [], first
    while value <= high + step * 1e-9:
        if value >= low - step * 1e-9:
            ticks.append(round(value, 10))
        value += step
    return ticks


def _label(value: float) -> str:
    """A short figure: 777k, 7.3k, 1M, 45, 0.25."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:,.0f}" if float(value).is_integer() or abs(value) >= 10 else f"{value:.2g}"


def _axes(draw: ImageDraw.ImageDraw, frame: Frame, title: str, x_title: str, y_title: str) -> None:
    """Title, grid lines with their values, and the axis titles."""
    draw.text((frame.width / 2, 24), title, fill=INK, font=font(18), anchor="mm")
    for tick in nice_ticks(*frame.y_range):
        _x, y_pixel = frame.to_pixel(frame.x_range[0], tick)
        draw.line([(MARGIN_LEFT, y_pixel), (frame.width - frame.right_margin, y_pixel)], fill=GRID)
        draw.text((MARGIN_LEFT - 8, y_pixel), _label(tick), fill=INK, font=font(12), anchor="rm")
    bottom = frame.height - MARGIN_BOTTOM
    draw.line([(MARGIN_LEFT, MARGIN_TOP), (MARGIN_LEFT, bottom)], fill=INK)
    draw.line([(MARGIN_LEFT, bottom), (frame.width - frame.right_margin, bottom)], fill=INK)
    middle = (MARGIN_LEFT + frame.width - frame.right_margin) / 2
    draw.text((middle, frame.height - 18), x_title, fill=INK, font=font(14), anchor="mm")
    draw.text((14, MARGIN_TOP - 24), y_title, fill=INK, font=font(14), anchor="lm")


def _legend(draw: ImageDraw.ImageDraw, labels: list[str], width: int) -> None:
    y_pixel = MARGIN_TOP + 6
    for index, label in enumerate(labels):
        colour = PALETTE[index % len(PALETTE)]
        x_pixel = width - LEGEND_WIDTH + 16
        draw.rectangle([x_pixel, y_pixel, x_pixel + 14, y_pixel + 10], fill=colour)
        draw.text((x_pixel + 20, y_pixel + 5), label, fill=INK, font=font(12), anchor="lm")
        y_pixel += 18


def line_chart(title: str, x_title: str, y_title: str, series: list[Series], y_range=None) -> Image.Image:
    """Lines with markers (and shaded bands where given), one colour per series."""
    xs = [x for one in series for x, _y in one.points]
    ys = [y for one in series for _x, y in one.points] + [
        v for one in series for pair in one.band for v in pair
    ]
    y_range = y_range or (min(ys + [0.0]), max(ys + [1.0]) * 1.1)
    frame = Frame((0.0, max(xs) * 1.05 if xs else 1.0), y_range, WIDTH + LEGEND_WIDTH, HEIGHT, LEGEND_WIDTH)
    image = Image.new("RGB", (frame.width, frame.height), PAPER)
    draw = ImageDraw.Draw(image, "RGBA")
    _axes(draw, frame, title, x_title, y_title)
    for tick in nice_ticks(*frame.x_range):
        x_pixel, _y = frame.to_pixel(tick, frame.y_range[0])
        draw.text(
            (x_pixel, frame.height - MARGIN_BOTTOM + 14), _label(tick), fill=INK, font=font(12), anchor="mm"
        )
    for index, one in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        if one.band:
            upper = [frame.to_pixel(x, high) for (x, _y), (_low, high) in zip(one.points, one.band)]
            lower = [frame.to_pixel(x, low) for (x, _y), (low, _high) in zip(one.points, one.band)]
            draw.polygon(upper + lower[::-1], fill=(*colour, 50))
        pixels = [frame.to_pixel(x, y) for x, y in one.points]
        if len(pixels) > 1:
            draw.line(pixels, fill=colour, width=3)
        for x_pixel, y_pixel in pixels:
            draw.ellipse([x_pixel - 4, y_pixel - 4, x_pixel + 4, y_pixel + 4], fill=colour)
    _legend(draw, [one.label for one in series], frame.width)
    return image


def bar_chart(
    title: str, x_title: str, bars: list[tuple[str, float, int]], log_scale: bool = False
) -> Image.Image:
    """Horizontal bars (label, value, colour index), each with its value at its end.
    ``log_scale`` spaces the axis by powers of ten, for figures spanning several."""
    label_width, row_height = 300, 30
    width, height = WIDTH, MARGIN_TOP + row_height * len(bars) + MARGIN_BOTTOM
    values = [max(value, 1.0) if log_scale else value for _text, value, _colour in bars]
    high = math.ceil(math.log10(max(values + [10.0]))) if log_scale else max(values + [1.0]) * 1.15
    left, right = label_width, width - MARGIN_RIGHT - 60

    def to_x(value: float) -> float:
        share = math.log10(value) / high if log_scale else value / high
        return left + share * (right - left)

    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((width / 2, 24), title, fill=INK, font=font(18), anchor="mm")
    ticks = [10**power for power in range(0, high + 1)] if log_scale else nice_ticks(0.0, high)
    bottom = height - MARGIN_BOTTOM + 10
    for tick in ticks:
        draw.line([(to_x(tick), MARGIN_TOP - 6), (to_x(tick), bottom)], fill=GRID)
        draw.text((to_x(tick), bottom + 10), _label(tick), fill=INK, font=font(12), anchor="mm")
    draw.text((width / 2, height - 18), x_title, fill=INK, font=font(14), anchor="mm")
    for index, ((text, _raw, colour), value) in enumerate(zip(bars, values)):
        top = MARGIN_TOP + index * row_height
        draw.rectangle(
            [left, top + 4, to_x(value), top + row_height - 4], fill=PALETTE[colour % len(PALETTE)]
        )
        draw.text((left - 8, top + row_height / 2), text, fill=INK, font=font(13), anchor="rm")
        draw.text((to_x(value) + 6, top + row_height / 2), _label(_raw), fill=INK, font=font(12), anchor="lm")
    return image
