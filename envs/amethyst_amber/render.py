"""Pictures: the brick grid as text, and the real trihexagonal board in RGB.

Both draw from the viewer's frame: Amber (seat 1) sees the board turned 180
degrees so that her home is at the bottom, like her actions; a spectator
(viewer None) sees the absolute frame with Amethyst at the bottom.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.amethyst_amber.board import BLUE0, BLUE1, GREEN, RED, SEAT_NAMES, H
from meeplezoo.envs.core.draw import INK, WHITE, Canvas, lighten

SEAT_RGB = ((140, 80, 200), (235, 160, 20))  # amethyst, amber
LETTER = ("M", "B")  # aMethyst, amBer
TILE_RGB = {
    0: (250, 250, 245),
    RED: (215, 70, 60),
    GREEN: (90, 175, 90),
    BLUE0: (80, 130, 215),
    BLUE1: (80, 130, 215),
}
BLACK_TRI = (45, 45, 50)
YELLOW_TRI = (235, 215, 80)


def _frame(s, viewer) -> int:
    return 1 if viewer == 1 and s.game.relative_frame else 0


def _header(s) -> str:
    g = s.game
    if s.terminal:
        head = f"game over: {SEAT_NAMES[s.winner]} wins"
    elif s.truncated:
        head = "game over: turn limit reached"
    else:
        head = f"{SEAT_NAMES[s.cur]} to act ({s.phase_name()})"
    lines = [f"Amethyst and Amber - main turn {s.main_turns}/{g.max_main_turns} - {head}"]
    for p in (0, 1):
        lines.append(
            f"  {SEAT_NAMES[p]:<8} [{LETTER[p]}] reserve attackers {s.reserve[p]}, unplaced defenders "
            f"{s.unplaced[p]}, resources in hand {s.hand[p]}, placed {s.placed[p]}"
        )
    return "\n".join(lines)


def render_ansi(s, viewer: int | None = None) -> str:
    bd = s.game.board
    geo = bd.geo
    w = geo.width
    f = _frame(s, viewer)
    grid = [["   "] * w for _ in range(w)]
    hex_empty = {0: " . ", RED: " r ", GREEN: " g ", BLUE0: " 1 ", BLUE1: " 2 "}
    for h in range(H):
        x, y = geo.hex_xy[h]
        cell = hex_empty[bd.hex_colour[h]]
        if s.att[h] >= 0:
            cell = "A" + LETTER[s.att[h]] + " "
        elif s.res[h] == 2:
            cell = " N "
        elif s.res[h] >= 0:
            cell = "R" + LETTER[s.res[h]] + str(s.under[h])
        grid[y][x] = cell
    for t in range(len(geo.tri_xy)):
        x, y = geo.tri_xy[t]
        b = geo.bit_tri[t]
        if s.dbits[0] & b or s.dbits[1] & b:
            p = 0 if s.dbits[0] & b else 1
            mark = "*" if t == s.sel else ("'" if s.moved & b else " ")
            cell = "D" + LETTER[p] + mark
        else:
            cell = " + " if bd.is_black[t] else " y "
        grid[y][x] = cell
    if f:
        grid = [row[::-1] for row in grid[::-1]]
    span = w - 1
    lines = [_header(s), ""]
    lines.append("Y\\X " + "".join(f"{(span - x if f else x):^3}" for x in range(w)))
    for y in range(w):
        lines.append(f"{(span - y if f else y):>3} " + "".join(grid[y]).rstrip())
    lines.append("")
    lines.append(
        "hexes: . plain, r red, g green, 1/2 entry of Amethyst/Amber, N neutral resource, "
        "A? attacker, R?n resource of ? holding n prisoners"
    )
    lines.append("triangles: + black, y yellow, D? defender (* selected, ' moved); ? is M Amethyst, B Amber")
    return "\n".join(lines)


def render_rgb(s, viewer: int | None = None, side: float = 18.0) -> np.ndarray:
    bd = s.game.board
    geo = bd.geo
    f = _frame(s, viewer)
    sq3 = math.sqrt(3.0)
    margin = 2.2 * side
    # flat-topped hexagons of side ``side``; neighbours touch at a vertex
    centres = []
    for q, r in bd.hex_qr:
        if f:
            q, r = -q, -r
        centres.append((2 * side * q + side * r, sq3 * side * r))
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    ox, oy = margin - min(xs), margin + 40 - min(ys)
    width = int(max(xs) - min(xs) + 2 * margin)
    height = int(max(ys) - min(ys) + 2 * margin + 40)
    cv = Canvas(width, height)
    edge_angle = (-90, -30, 30, 90, 150, -150)  # corner N, NE, SE, S, SW, NW

    def pt(a: float, rad: float, cx: float, cy: float):
        return cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a))

    tri_poly = {}
    tri_centre = {}
    for h in range(H):
        cx, cy = centres[h][0] + ox, centres[h][1] + oy
        for c in range(6):
            t = int(geo.hex_corner_tri[h, c])
            if t < 0 or t in tri_poly:
                continue
            # in the turned frame corner c points the opposite way
            ang = edge_angle[c] + (180 if f else 0)
            p1 = pt(ang - 30, side, cx, cy)
            p2 = pt(ang + 30, side, cx, cy)
            apex = pt(ang, side * sq3, cx, cy)
            tri_poly[t] = (p1, p2, apex)
            tri_centre[t] = ((p1[0] + p2[0] + apex[0]) / 3, (p1[1] + p2[1] + apex[1]) / 3)
    for t, poly in tri_poly.items():
        cv.polygon(poly, fill=BLACK_TRI if bd.is_black[t] else YELLOW_TRI, outline=INK)
    for h in range(H):
        cx, cy = centres[h][0] + ox, centres[h][1] + oy
        col = TILE_RGB[bd.hex_colour[h]]
        cv.polygon([pt(60 * k, side, cx, cy) for k in range(6)], fill=col, outline=INK)
    # walls: adjacent same-colour defenders
    for p in (0, 1):
        own = s.dbits[p]
        for t in geo.bits_to_tris(own):
            for u in geo.tri_neighbors[t]:
                if u > t and own & geo.bit_tri[u]:
                    cv.line([tri_centre[t], tri_centre[u]], fill=lighten(SEAT_RGB[p], 0.3), width=5)
    for p in (0, 1):
        for t in geo.bits_to_tris(s.dbits[p]):
            cx, cy = tri_centre[t]
            outline = WHITE if s.moved & geo.bit_tri[t] else INK
            cv.circle(cx, cy, side * 0.32, fill=SEAT_RGB[p], outline=outline, width=2 if t == s.sel else 1)
            if t == s.sel:
                cv.circle(cx, cy, side * 0.45, fill=None, outline=WHITE, width=2)
    for h in range(H):
        cx, cy = centres[h][0] + ox, centres[h][1] + oy
        if s.att[h] >= 0:
            cv.circle(cx, cy, side * 0.55, fill=SEAT_RGB[s.att[h]], outline=INK, width=2)
            cv.text(cx, cy, "A", fill=WHITE, anchor="mm")
        elif s.res[h] >= 0:
            fill = (200, 200, 200) if s.res[h] == 2 else SEAT_RGB[s.res[h]]
            r = side * 0.55
            cv.polygon(
                [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=INK, width=2
            )
            for k in range(s.under[h]):
                # prisoners: small discs of the other colour
                cv.circle(
                    cx - side * 0.3 + k * side * 0.6,
                    cy + side * 0.75,
                    side * 0.18,
                    fill=SEAT_RGB[1 - s.res[h]],
                )
    text = _header(s).split("\n")[0]
    cv.text(8, 8, text)
    cv.text(
        8,
        22,
        f"Amethyst: hand {s.hand[0]}, reserve {s.reserve[0]}   Amber: hand {s.hand[1]}, reserve {s.reserve[1]}",
    )
    return cv.to_array()
