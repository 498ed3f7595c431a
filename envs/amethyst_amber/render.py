"""Pictures: the brick grid as text, and the real trihexagonal board in RGB.

Both draw from the viewer's frame: Amber (seat 1) sees the board turned 180
degrees so that her home is at the bottom, like her actions; a spectator
(viewer None) sees the absolute frame with Amethyst at the bottom. The
labels are the viewer's coordinates, spelt as the action names spell them:
triangles by brick X,Y (``select 5,2``), hexes by axial q,r (``place
attacker -3,4``).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES
from meeplezoo.envs.amethyst_amber.board import NEUTRAL, RADIUS, SEAT_NAMES, HexColour
from meeplezoo.envs.core.draw import (
    INK,
    LABEL_SIZE,
    WHITE,
    Canvas,
    Key,
    legend_height,
    lighten,
    line_height,
    paragraph_height,
    text_width,
)
from meeplezoo.envs.core.textgrid import TextGrid, hex_diagonal_labels, hex_row_labels, legend_lines

SEAT_RGB = ((140, 80, 200), (235, 160, 20))  # amethyst, amber
LETTER = ("M", "B")  # aMethyst, amBer
TILE_RGB = {
    0: (250, 250, 245),
    HexColour.RED: (215, 70, 60),
    HexColour.GREEN: (90, 175, 90),
    HexColour.AMETHYST_ENTRY: (80, 130, 215),
    HexColour.AMBER_ENTRY: (80, 130, 215),
}
BLACK_TRI = (45, 45, 50)
YELLOW_TRI = (235, 215, 80)
NEUTRAL_RES = (200, 200, 200)


def _frame(state, viewer) -> int:
    return 1 if viewer == 1 and state.game.relative_frame else 0


def _hex_qr(state, hex_index: int, frame: int) -> tuple[int, int]:
    """Axial (q, r) of hex ``hex_index`` in ``frame`` (the turned frame negates both)."""
    q, r = state.game.board.hex_qr[hex_index]
    return (-q, -r) if frame else (q, r)


def _hex_brick(q: int, r: int) -> tuple[int, int]:
    """Brick (X, Y) of the hex at axial (q, r) of the frame drawn."""
    return 2 * q + r + 2 * RADIUS + 1, 2 * (r + RADIUS) + 1


def _tri_brick(state, tri_index: int, frame: int) -> tuple[int, int]:
    x, y = state.game.board.geo.tri_xy[tri_index]
    span = state.game.board.geo.width - 1
    return (span - x, span - y) if frame else (x, y)


def _frame_note(state, viewer) -> str:
    """Whose coordinates the labels are, so that a reader types the right cell."""
    if not state.game.relative_frame:
        return "both players name cells in this one frame"
    if _frame(state, viewer):
        return "Amber's frame: the board is turned 180 degrees so that her home is at the bottom"
    if viewer == 0:
        return "Amethyst's frame (her home at the bottom)"
    return (
        "spectator view in Amethyst's frame; Amber names cells in her own frame, "
        "turned 180 degrees (X,Y -> 18-X,18-Y and q,r -> -q,-r)"
    )


def _header(state) -> str:
    g = state.game
    if state.terminal:
        head = f"game over: {SEAT_NAMES[state.winner]} wins"
    elif state.truncated:
        head = "game over: turn limit reached"
    else:
        head = f"{SEAT_NAMES[state.acting_seat]} to act ({state.phase_name()})"
    lines = [f"Amethyst and Amber - main turn {state.main_turns}/{g.max_main_turns} - {head}"]
    for p in (0, 1):
        lines.append(
            f"  {SEAT_NAMES[p]:<8} [{LETTER[p]}] reserve attackers {state.reserve[p]}, unplaced defenders "
            f"{state.unplaced[p]}, resources in hand {state.hand[p]}, placed {state.placed[p]}"
        )
    return "\n".join(lines)


HEX_TEXT_LEGEND = (
    (".", "plain"),
    ("r", "red (centre ring)"),
    ("g", "green (resources are placed here)"),
    ("1", "Amethyst's entry"),
    ("2", "Amber's entry"),
    ("N", "neutral resource"),
    ("AM AB", "attacker of Amethyst / Amber"),
    ("RM2", "resource of Amethyst holding 2 prisoners (RB: Amber's)"),
)
TRI_TEXT_LEGEND = (
    ("+", "black"),
    ("y", "yellow (no defenders)"),
    ("DM DB", "defender of Amethyst / Amber"),
    ("*", "after D: selected"),
    ("'", "after D: moved this turn"),
)
COORD_TEXT_LEGEND = (
    (
        "",
        "hexes q,r as in 'place attacker q,r' and 'step q,r E': r= row, q= diagonal running down to the right",
    ),
    ("", "triangles X,Y as in 'select X,Y' and 'move to X,Y': X along the top, Y down the left"),
)


def _ansi_cells(state, frame: int) -> dict[tuple[int, int], str]:
    """Three-character text of every hex and triangle, by displayed brick (X, Y)."""
    bd = state.game.board
    geo = bd.geo
    hex_empty = {
        0: " . ",
        HexColour.RED: " r ",
        HexColour.GREEN: " g ",
        HexColour.AMETHYST_ENTRY: " 1 ",
        HexColour.AMBER_ENTRY: " 2 ",
    }
    cells = {}
    for h in range(NUM_HEXES):
        cell = hex_empty[bd.hex_colour[h]]
        if state.attacker_at[h] >= 0:
            cell = "A" + LETTER[state.attacker_at[h]] + " "
        elif state.resource_at[h] == NEUTRAL:
            cell = " N "
        elif state.resource_at[h] >= 0:
            cell = "R" + LETTER[state.resource_at[h]] + str(state.prisoners_under[h])
        cells[_hex_brick(*_hex_qr(state, h, frame))] = cell
    for t in range(len(geo.tri_xy)):
        b = geo.bit_tri[t]
        if state.defender_bits[0] & b or state.defender_bits[1] & b:
            p = 0 if state.defender_bits[0] & b else 1
            mark = "*" if t == state.selected else ("'" if state.moved_defenders & b else " ")
            cell = "D" + LETTER[p] + mark
        else:
            cell = " + " if bd.is_black[t] else " y "
        cells[_tri_brick(state, t, frame)] = cell
    return cells


def render_ansi(state, viewer: int | None = None) -> str:
    """The brick grid, 3 characters per X: X numbers on top and Y numbers
    at the left for triangles; r= row labels and q= diagonal labels for hexes."""
    f = _frame(state, viewer)
    span = state.game.board.geo.width - 1
    grid = TextGrid()
    for (x, y), cell in _ansi_cells(state, f).items():
        grid.put(3 * x, y, cell)
    grid.put(-4, -1, "Y\\X", "right")
    for x in range(span + 1):
        grid.put(3 * x + 1, -1, str(x), "centre")
    for y in range(span + 1):
        grid.put(-4, y, str(y), "right")
    hexes = [_hex_qr(state, h, f) for h in range(NUM_HEXES)]
    for r, text in hex_row_labels(hexes).items():
        grid.put(-8, _hex_brick(0, r)[1], text, "right")
    number_lines = {"above": -2, "below": span + 1}
    first: dict[str, int] = {}
    for label in hex_diagonal_labels(hexes):
        x, y = _hex_brick(*label.cell)
        if label.side in number_lines:
            grid.put(3 * x + 1, number_lines[label.side], label.text, "right")
            first[label.side] = min(first.get(label.side, x), x)
        elif label.side == "left":
            grid.put(3 * x - 2, y, label.text, "right", keep=True)
        else:
            grid.put(3 * x + 4, y, label.text, "left", keep=True)
    for side, x in first.items():
        grid.put(3 * x - 2, number_lines[side], "q=", "right")
    lines = [_header(state), ""]
    lines += grid.lines()
    lines.append("")
    lines += legend_lines("hexes", HEX_TEXT_LEGEND)
    lines += legend_lines("triangles", TRI_TEXT_LEGEND)
    lines += legend_lines("coordinates", COORD_TEXT_LEGEND)
    lines += textwrap.wrap(_frame_note(state, viewer), 100)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- RGB
SIDE = 22.0


def _legend_keys() -> list[Key]:
    return [
        Key("plain hex", TILE_RGB[0], "hex"),
        Key("red: centre ring", TILE_RGB[HexColour.RED], "hex"),
        Key("green: resources go here", TILE_RGB[HexColour.GREEN], "hex"),
        Key("blue: entry (each at its own home edge)", TILE_RGB[HexColour.AMETHYST_ENTRY], "hex"),
        Key("black triangle", BLACK_TRI, "box"),
        Key("yellow triangle: no defenders", YELLOW_TRI, "box"),
        Key("Amethyst defender", SEAT_RGB[0], "disc"),
        Key("Amber defender", SEAT_RGB[1], "disc"),
        Key("wall: touching defenders", lighten(SEAT_RGB[0], 0.3), "line"),
        Key("selected", None, "ring", WHITE),
        Key("moved this turn", SEAT_RGB[1], "disc", WHITE),
        Key("attacker, in its side's colour", SEAT_RGB[0], "disc", INK, "A", WHITE),
        Key("resource (grey: neutral)", SEAT_RGB[1], "diamond"),
        Key("prisoner under a resource", SEAT_RGB[0], "disc"),
    ]


def _geometry(state, frame: int, side: float):
    """Pixel centres (board frame) of hexes, and the polygon and centre of
    every triangle; flat-topped hexes whose neighbours touch at a vertex."""
    bd = state.game.board
    geo = bd.geo
    sq3 = math.sqrt(3.0)
    hex_c = [_hex_px(*_hex_qr(state, h, frame), side) for h in range(NUM_HEXES)]
    edge_angle = (-90, -30, 30, 90, 150, -150)  # corner N, NE, SE, S, SW, NW

    def pt(angle: float, rad: float, cx: float, cy: float):
        return cx + rad * math.cos(math.radians(angle)), cy + rad * math.sin(math.radians(angle))

    tri_poly, tri_centre = {}, {}
    for h in range(NUM_HEXES):
        cx, cy = hex_c[h]
        for c in range(6):
            t = int(geo.hex_corner_tri[h, c])
            if t < 0 or t in tri_poly:
                continue
            ang = edge_angle[c] + (180 if frame else 0)  # in the turned frame corner c points the other way
            p1, p2, apex = pt(ang - 30, side, cx, cy), pt(ang + 30, side, cx, cy), pt(ang, side * sq3, cx, cy)
            tri_poly[t] = (p1, p2, apex)
            tri_centre[t] = ((p1[0] + p2[0] + apex[0]) / 3, (p1[1] + p2[1] + apex[1]) / 3)
    return hex_c, tri_poly, tri_centre


def _hex_px(q: float, r: float, side: float) -> tuple[float, float]:
    return 2 * side * q + side * r, math.sqrt(3.0) * side * r


def _brick_px(x: float, y: float, side: float) -> tuple[float, float]:
    """Pixel position (board frame) of brick column x and brick row y."""
    return side * (x - 2 * RADIUS - 1), math.sqrt(3.0) * side * (y - 2 * RADIUS - 1) / 2


def _labels(state, frame: int, side: float) -> list[tuple[str, float, float, str]]:
    """(text, x, y, anchor) of every coordinate label, board frame."""
    span = state.game.board.geo.width - 1
    sq3 = math.sqrt(3.0)
    hexes = [_hex_qr(state, h, frame) for h in range(NUM_HEXES)]
    left = _brick_px(0, 0, side)[0] - side
    top = _hex_px(0, -RADIUS, side)[1] - sq3 * side / 2
    bottom = _hex_px(0, RADIUS, side)[1] + sq3 * side / 2
    y_col = left - text_width("q=-4", LABEL_SIZE) - 14
    r_col = y_col - text_width("00", LABEL_SIZE) - 12
    out = [("Y\\X", y_col, top - 2.2 * line_height(LABEL_SIZE), "rm")]
    for x in range(span + 1):
        out.append((str(x), _brick_px(x, 0, side)[0], top - 2.2 * line_height(LABEL_SIZE), "mm"))
    for y in range(span + 1):
        out.append((str(y), y_col, _brick_px(0, y, side)[1], "rm"))
    for r, text in hex_row_labels(hexes).items():
        out.append((text, r_col, _hex_px(0, r, side)[1], "rm"))
    number_y = {"above": top - 0.8 * line_height(LABEL_SIZE), "below": bottom + 0.8 * line_height(LABEL_SIZE)}
    first: dict[str, float] = {}
    for label in hex_diagonal_labels(hexes):
        x, y = _hex_px(*label.cell, side)
        if label.side in number_y:
            out.append((label.text, x, number_y[label.side], "mm"))
            first[label.side] = min(first.get(label.side, x), x)
        elif label.side == "left":
            out.append((label.text, x - side - 9, y, "rm"))
        else:
            out.append((label.text, x + side + 9, y, "lm"))
    for where, x in first.items():
        out.append(("q=", x - side, number_y[where], "rm"))
    return out


def _row_leaders(state, frame: int, side: float, labels, boxes) -> list[tuple[float, float, float]]:
    """(x0, x1, y) of a dotted leader along each hex row, from its labels in
    the margin to the first thing on the row (a q= label or the first hex)."""
    hexes = [_hex_qr(state, h, frame) for h in range(NUM_HEXES)]
    out = []
    for r in hex_row_labels(hexes):
        y = _hex_px(0, r, side)[1]
        first_hex = min(_hex_px(q, rr, side)[0] for q, rr in hexes if rr == r) - side
        y_col = next(lab[1] for lab in labels if lab[0] == "Y\\X")
        on_row = [(lab, b) for lab, b in zip(labels, boxes) if abs(lab[2] - y) < 1e-6]
        margin_end = max(b[2] for lab, b in on_row if lab[1] <= y_col)
        later = [b[0] for lab, b in on_row if lab[1] > y_col]
        end = min([first_hex, *later]) - 4
        if end - margin_end > 12:
            out.append((margin_end + 4, end, y))
    return out


def _label_box(text: str, x: float, y: float, anchor: str) -> tuple[float, float, float, float]:
    w = text_width(text, LABEL_SIZE)
    x0 = x if anchor[0] == "l" else x - w if anchor[0] == "r" else x - w / 2
    return x0, y - LABEL_SIZE / 2, x0 + w, y + LABEL_SIZE / 2


def render_rgb(state, viewer: int | None = None, side: float = SIDE) -> np.ndarray:
    """The trihex board with X,Y and q,r labels, the two sides' counts, and
    a legend for every colour."""
    bd = state.game.board
    geo = bd.geo
    f = _frame(state, viewer)
    hex_c, tri_poly, tri_centre = _geometry(state, f, side)
    labels = _labels(state, f, side)
    boxes = [_label_box(*lab) for lab in labels]
    xs = [c[0] for c in hex_c] + [b[0] for b in boxes] + [b[2] for b in boxes]
    ys = [c[1] for c in hex_c] + [b[1] for b in boxes] + [b[3] for b in boxes]
    pad = 10
    board_w = max(xs) - min(xs) + 2 * side + 2 * pad
    width = max(board_w, 420)
    header = [
        _header(state).split("\n")[0],
        f"Amethyst: hand {state.hand[0]}, reserve {state.reserve[0]}"
        f"    Amber: hand {state.hand[1]}, reserve {state.reserve[1]}",
        _frame_note(state, viewer),
    ]
    text_w = width - 2 * pad
    header_h = sum(paragraph_height(line, text_w) for line in header) + 6
    keys = _legend_keys()
    height = header_h + max(ys) - min(ys) + 2 * pad + legend_height(keys, text_w) + 10
    cv = Canvas(width, height)
    ox = (width - (max(xs) - min(xs))) / 2 - min(xs)
    oy = header_h + pad - min(ys)
    y = 6
    for line in header:
        y = cv.paragraph(pad, y, line, text_w)

    def at(point):
        return point[0] + ox, point[1] + oy

    for t, poly in tri_poly.items():
        cv.polygon([at(p) for p in poly], fill=BLACK_TRI if bd.is_black[t] else YELLOW_TRI, outline=INK)
    for h in range(NUM_HEXES):
        cx, cy = at(hex_c[h])
        cv.hexagon(cx, cy, side, fill=TILE_RGB[bd.hex_colour[h]], outline=INK, pointy=False)
    _draw_pieces(cv, state, geo, [at(c) for c in hex_c], {t: at(c) for t, c in tri_centre.items()}, side)
    for text, x, y, anchor in labels:
        cv.text(x + ox, y + oy, text, anchor=anchor, size=LABEL_SIZE)
    for x0, x1, y in _row_leaders(state, f, side, labels, boxes):
        cv.dotted(x0 + ox, y + oy, x1 + ox, y + oy)
    cv.legend(pad, oy + max(ys) + pad, keys, text_w)
    return cv.to_array()


def _draw_pieces(cv: Canvas, state, geo, hex_c, tri_centre, side: float) -> None:
    for p in (0, 1):  # walls: adjacent same-colour defenders
        own = state.defender_bits[p]
        for t in geo.bits_to_tris(own):
            for u in geo.tri_neighbors[t]:
                if u > t and own & geo.bit_tri[u]:
                    cv.line([tri_centre[t], tri_centre[u]], fill=lighten(SEAT_RGB[p], 0.3), width=5)
    for p in (0, 1):
        for t in geo.bits_to_tris(state.defender_bits[p]):
            cx, cy = tri_centre[t]
            outline = WHITE if state.moved_defenders & geo.bit_tri[t] else INK
            cv.circle(
                cx, cy, side * 0.32, fill=SEAT_RGB[p], outline=outline, width=2 if t == state.selected else 1
            )
            if t == state.selected:
                cv.circle(cx, cy, side * 0.45, fill=None, outline=WHITE, width=2)
    for h in range(NUM_HEXES):
        cx, cy = hex_c[h]
        if state.attacker_at[h] >= 0:
            cv.circle(cx, cy, side * 0.55, fill=SEAT_RGB[state.attacker_at[h]], outline=INK, width=2)
            cv.text(cx, cy, "A", fill=WHITE, anchor="mm", size=LABEL_SIZE)
        elif state.resource_at[h] >= 0:
            fill = NEUTRAL_RES if state.resource_at[h] == NEUTRAL else SEAT_RGB[state.resource_at[h]]
            r = side * 0.55
            cv.polygon(
                [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=INK, width=2
            )
            for k in range(state.prisoners_under[h]):  # prisoners: small discs of the other colour
                cv.circle(
                    cx - side * 0.3 + k * side * 0.6,
                    cy + side * 0.75,
                    side * 0.18,
                    fill=SEAT_RGB[1 - state.resource_at[h]],
                )
