"""The tournament picture, drawn with Pillow (no plotting library needed):
ratings with their mu ± 3 sigma intervals on the left, the head-to-head win
rate heat map on the right."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from meeplezoo.envs.core.draw import BACKGROUND, GREY, INK, SEAT_COLORS

ROW = 28
LABEL_W = 180


def _heat(value: float) -> tuple[int, int, int]:
    """Red (0) through white (0.5) to blue (1)."""
    value = min(1.0, max(0.0, value))
    if value < 0.5:
        t = value / 0.5
        return (220, int(60 + 195 * t), int(60 + 195 * t))
    t = (value - 0.5) / 0.5
    return (int(255 - 195 * t), int(255 - 125 * t), 255 - int(35 * t))


def draw_report(result) -> Image.Image:
    names = result.leaderboard()
    k = len(names)
    try:
        font = ImageFont.load_default(size=13)
    except TypeError:  # Pillow < 10.1: bitmap font only
        font = ImageFont.load_default()
    left_w = LABEL_W + 360
    cell = max(36, min(70, 420 // max(k, 1)))
    right_w = LABEL_W + cell * k + 20
    height = 90 + max(ROW * k + 40, cell * k)
    image = Image.new("RGB", (left_w + right_w + 20, max(height, 200)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text(
        (10, 10), f"{result.game}: {len(result.matches)} games, {result.players} players", fill=INK, font=font
    )

    # ratings: ordinal (mu - 3 sigma) as a dot at mu with the interval mu ± 3 sigma
    ratings = [result.ratings[n] for n in names]
    lo = min(r["mu"] - 3 * r["sigma"] for r in ratings)
    hi = max(r["mu"] + 3 * r["sigma"] for r in ratings)
    span = (hi - lo) or 1.0
    x0, x1 = LABEL_W, left_w - 20

    def x_of(v: float) -> float:
        return x0 + (v - lo) / span * (x1 - x0)

    draw.text(
        (10, 35), "rating: dot at mu, bar mu ± 3 sigma, tick at the ordinal mu - 3 sigma", fill=INK, font=font
    )
    for i, (name, r) in enumerate(zip(names, ratings)):
        y = 60 + ROW * i + ROW // 2
        color = SEAT_COLORS[i % len(SEAT_COLORS)]
        draw.text((10, y - 6), name[:28], fill=INK, font=font)
        draw.line(
            [(x_of(r["mu"] - 3 * r["sigma"]), y), (x_of(r["mu"] + 3 * r["sigma"]), y)], fill=color, width=3
        )
        draw.ellipse([x_of(r["mu"]) - 5, y - 5, x_of(r["mu"]) + 5, y + 5], fill=color, outline=INK)
        xo = x_of(r["ordinal"])
        draw.line([(xo, y - 8), (xo, y + 8)], fill=INK, width=2)
    axis_y = 60 + ROW * k + 8
    draw.line([(x0, axis_y), (x1, axis_y)], fill=GREY)
    for frac in (0.0, 0.5, 1.0):
        v = lo + frac * span
        draw.text((x_of(v) - 10, axis_y + 4), f"{v:.1f}", fill=INK, font=font)

    # head-to-head heat map: share of games the row bot beat the column bot
    ox = left_w + 10
    draw.text((ox, 35), "head to head: row beats column (draws count half)", fill=INK, font=font)
    for j, name in enumerate(names):
        draw.text(
            (ox + LABEL_W + cell * j + 3, 54), name[: max(4, cell // 7)], fill=INK, font=font
        )  # column heads
    for i, a in enumerate(names):
        y = 72 + cell * i
        draw.text((ox, y + cell // 2 - 6), a[:28], fill=INK, font=font)
        ai = result.agents.index(a)
        for j, b in enumerate(names):
            bi = result.agents.index(b)
            box = [ox + LABEL_W + cell * j, y, ox + LABEL_W + cell * (j + 1) - 2, y + cell - 2]
            games = result.h2h_games[ai, bi]
            if a == b or not games:
                draw.rectangle(box, fill=(225, 225, 225))
                continue
            score = (result.h2h_wins[ai, bi] + 0.5 * result.h2h_draws[ai, bi]) / games
            draw.rectangle(box, fill=_heat(score))
            draw.text((box[0] + 4, box[1] + cell // 2 - 6), f"{100 * score:.0f}%", fill=INK, font=font)
    return image
