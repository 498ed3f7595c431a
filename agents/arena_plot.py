"""The tournament picture, drawn with Pillow (no plotting library needed):
ratings with their mu ± 3 sigma intervals on the left, the head-to-head win
rate heat map on the right.

Every column and margin is sized from the measured width of the text that
goes in it (with the shared picture font), so no name or header is cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from meeplezoo.envs.core.draw import GREY, INK, SEAT_COLORS, TITLE_SIZE, Canvas, line_height, text_width

ROW = 30  # height of a rating row and of a heat map cell
BAR_W = 320  # room for the rating intervals
MIN_CELL = 48
GAP = 12
PAD = 10
RATING_NOTE = "rating: dot at mu, bar mu ± 3 sigma, tick at the ordinal mu - 3 sigma"
H2H_NOTE = "head to head: share of games the row beat the column (draws count half)"


def _heat(value: float) -> tuple[int, int, int]:
    """Red (0) through white (0.5) to blue (1)."""
    value = min(1.0, max(0.0, value))
    if value < 0.5:
        t = value / 0.5
        return (220, int(60 + 195 * t), int(60 + 195 * t))
    t = (value - 0.5) / 0.5
    return (int(255 - 195 * t), int(255 - 125 * t), 255 - int(35 * t))


@dataclass(frozen=True)
class ReportLayout:
    """Where everything of report.png goes, from measured text widths."""

    names: list[str]
    title: str
    width: int
    height: int
    label_w: float  # the column of bot names (both panels)
    bar_x0: float
    bar_x1: float
    map_x: float  # left edge of the heat map panel
    cell_w: float
    top: float  # y of the first row

    def column_x(self, j: int) -> float:
        """Left edge of heat map column j."""
        return self.map_x + self.label_w + self.cell_w * j

    def header_boxes(self) -> list[tuple[str, float, float]]:
        """(text, x0, x1) of every column header as drawn (centred on its column)."""
        boxes = []
        for j, name in enumerate(self.names):
            centre = self.column_x(j) + (self.cell_w - 2) / 2
            w = text_width(name)
            boxes.append((name, centre - w / 2, centre + w / 2))
        return boxes


def report_layout(result) -> ReportLayout:
    names = result.leaderboard()
    k = len(names)
    title = f"{result.game}: {len(result.matches)} games, {result.players} players"
    label_w = max([text_width(n) for n in names] + [0]) + 2 * GAP
    bar_x0 = PAD + label_w
    bar_x1 = bar_x0 + BAR_W
    left_w = max(bar_x1 + GAP, PAD + text_width(RATING_NOTE) + GAP)
    cell_w = max(MIN_CELL, max([text_width(n) for n in names] + [0]) + GAP)
    map_x = left_w + GAP
    right_w = max(label_w + cell_w * k, text_width(H2H_NOTE)) + PAD
    width = max(map_x + right_w, PAD + text_width(title, TITLE_SIZE) + PAD)
    top = 40 + 2 * line_height() + 6
    height = top + max(ROW * k + 2 * line_height() + 10, ROW * k + PAD)
    return ReportLayout(
        names, title, int(width) + 1, int(height) + 1, label_w, bar_x0, bar_x1, map_x, cell_w, top
    )


def draw_report(result) -> Image.Image:
    lay = report_layout(result)
    cv = Canvas(lay.width, lay.height)
    cv.text(PAD, 10, lay.title, size=TITLE_SIZE)
    _draw_ratings(cv, result, lay)
    _draw_head_to_head(cv, result, lay)
    return cv.image


def _draw_ratings(cv: Canvas, result, lay: ReportLayout) -> None:
    """Ordinal (mu - 3 sigma) as a tick, a dot at mu and the interval mu ± 3 sigma."""
    names = lay.names
    cv.text(PAD, 40, RATING_NOTE)
    ratings = [result.ratings[n] for n in names]
    lo = min(r["mu"] - 3 * r["sigma"] for r in ratings)
    hi = max(r["mu"] + 3 * r["sigma"] for r in ratings)
    span = (hi - lo) or 1.0
    x0, x1 = lay.bar_x0, lay.bar_x1

    def x_of(v: float) -> float:
        return x0 + (v - lo) / span * (x1 - x0)

    for i, (name, r) in enumerate(zip(names, ratings)):
        y = lay.top + ROW * i + ROW // 2
        color = SEAT_COLORS[i % len(SEAT_COLORS)]
        cv.text(PAD, y, name, anchor="lm")
        cv.line(
            [(x_of(r["mu"] - 3 * r["sigma"]), y), (x_of(r["mu"] + 3 * r["sigma"]), y)], fill=color, width=3
        )
        cv.circle(x_of(r["mu"]), y, 5, fill=color, outline=INK)
        xo = x_of(r["ordinal"])
        cv.line([(xo, y - 8), (xo, y + 8)], fill=INK, width=2)
    axis_y = lay.top + ROW * len(names) + 8
    cv.line([(x0, axis_y), (x1, axis_y)], fill=GREY)
    for frac, anchor in ((0.0, "la"), (0.5, "ma"), (1.0, "ra")):
        v = lo + frac * span
        cv.text(x_of(v), axis_y + 4, f"{v:.1f}", anchor=anchor)


def _draw_head_to_head(cv: Canvas, result, lay: ReportLayout) -> None:
    """Share of games the row bot beat the column bot, as a coloured grid."""
    names = lay.names
    cv.text(lay.map_x, 40, H2H_NOTE)
    for name, bx0, _ in lay.header_boxes():
        cv.text(bx0, lay.top - 4, name, anchor="ld")
    for i, a in enumerate(names):
        y = lay.top + ROW * i
        cv.text(lay.map_x, y + ROW / 2, a, anchor="lm")
        ai = result.agents.index(a)
        for j, b in enumerate(names):
            bi = result.agents.index(b)
            x = lay.column_x(j)
            box = (x, y, x + lay.cell_w - 2, y + ROW - 2)
            games = result.h2h_games[ai, bi]
            if a == b or not games:
                cv.rect(*box, fill=(225, 225, 225), outline=None)
                continue
            score = (result.h2h_wins[ai, bi] + 0.5 * result.h2h_draws[ai, bi]) / games
            cv.rect(*box, fill=_heat(score), outline=None)
            cv.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, f"{100 * score:.0f}%", anchor="mm")


__all__ = ["draw_report", "report_layout", "ReportLayout"]
