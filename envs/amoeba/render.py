"""Pictures of an Amoeba position: a text map and an RGB image.

Both label the unit grid the way the moves name it: ``anchor r c`` lays a
tile with its top-left unit at row r (``r=`` labels at the left) and column
c (``c=`` numbers along the top). A seat sees only its own hand; a
spectator (viewer None) sees every hand.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.tiles import ORIENTED, PORT_DIR, PORT_UNIT, notation
from meeplezoo.envs.core.draw import (
    INK,
    LABEL_SIZE,
    Canvas,
    Key,
    darken,
    legend_height,
    line_height,
    paragraph_height,
    seat_color,
    text_width,
)
from meeplezoo.envs.core.textgrid import TextGrid, legend_lines

PINK = (236, 112, 160)
BLUE = (120, 170, 225)
DARK_BLUE = (70, 120, 190)
BOARD = (250, 250, 250)
OFFER = (255, 200, 0)


def halo_color(seat: int) -> tuple[int, int, int]:
    """Owner colour around pink pieces, darkened: seat 3's purple would
    otherwise vanish next to the pink."""
    return darken(seat_color(seat), 0.35)


DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)


def _bbox(st):
    U = st.game.units
    occ = np.flatnonzero(st.height > 0)
    if len(occ) == 0:
        c = U // 2 - 1
        return c, c + 1, c, c + 1
    rows, cols = occ // U, occ % U
    return int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())


def _hand_text(st, seat: int, viewer) -> str:
    """The hand as the select moves name it, or only its size if hidden."""
    if viewer is not None and viewer != seat:
        return f"{len(st.hands[seat])} tiles (hidden)"
    parts = [f"slot {s}: tile {t} ({notation(ORIENTED[t * 4])})" for s, t in enumerate(st.hands[seat])]
    return ", ".join(parts) or "empty"


def _header(st, viewer) -> list[str]:
    n = st.game.num_players
    sc = st.scores()
    head = (
        f"turn {st.turn}, player_{st.mover} to act, phase {st.phase_name()}, die {st.die}, "
        f"placements left {st.placements_left}, pile {len(st.pile)} tiles"
    )
    if st.selection is not None:
        head += f", selected slot {st.selection[0]} rot {st.selection[1]}"
    lines = [head]
    for p in range(n):
        lines.append(
            f"  player_{p}: score {sc[p]}, nuclei left {st.supply[p]}, removed tiles {len(st.removed[p])}; "
            f"hand: {_hand_text(st, p, viewer)}"
        )
    if st.offered() is not None:
        cid = st.offers[st.offer_index]
        lines.append(f"  on offer: amoeba of {len(st.amoebas[cid][0])} segments (marked @)")
    return lines


def _offer_pieces(st) -> set[int]:
    if st.offered() is not None:
        return set(st.amoebas[st.offers[st.offer_index]][0])
    return set()


def _unit_mark(st, unit: int, offer: set[int]) -> str:
    """Centre mark of a unit: '.', 'o'/'O' (tile, second storey), the owner's
    seat digit, or '@' for the amoeba on offer."""
    if st.unit_placement[unit] < 0:
        return "."
    mark = "o" if st.height[unit] == 1 else "O"
    for d in range(4):
        p = st.slot_piece[unit * 4 + d]
        if p >= 0:
            own = st.amoebas[st.piece_amoeba[p]][2]
            if p in offer:
                mark = "@"
            elif own >= 0:
                mark = str(own)
    return mark


def _borders(st, r0, r1, c0, c1) -> dict[tuple[str, int, int], bool]:
    """Tile borders in the window: ('h', r, c) is the top edge of unit (r, c),
    ('v', r, c) its left edge; the value says a pink port opens there."""
    U = st.game.units
    edges: dict[tuple[str, int, int], bool] = {}
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            u = r * U + c
            k = st.unit_placement[u]
            if k < 0:
                continue
            for d in range(4):
                rr, cc = r + DR[d], c + DC[d]
                if 0 <= rr < U and 0 <= cc < U and st.unit_placement[rr * U + cc] == k:
                    continue
                key = ("h", r + (d == 2), c) if d in (0, 2) else ("v", r, c + (d == 1))
                edges[key] = edges.get(key, False) or st.slot_piece[u * 4 + d] >= 0
    return edges


TEXT_LEGEND_UNITS = (
    (".", "empty"),
    ("o", "tile"),
    ("O", "tile on the second storey"),
    ("0-3", "part of an amoeba owned by that player"),
    ("@", "amoeba on offer"),
)
TEXT_LEGEND_EDGES = (("| ---", "tile border"), ("*", "pink port: an amoeba piece reaches the border here"))


def render_ansi(st, viewer=None) -> str:
    """The occupied part of the board, 4 characters and 2 lines per unit,
    with r= row labels and c= column numbers."""
    U = st.game.units
    r0, r1, c0, c1 = _bbox(st)
    # two units around the tiles: every anchor a tile may be laid at is on the axes
    r0, c0 = max(r0 - 2, 0), max(c0 - 2, 0)
    r1, c1 = min(r1 + 2, U - 1), min(c1 + 2, U - 1)
    offer = _offer_pieces(st)
    grid = TextGrid()
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            grid.put(4 * (c - c0) + 2, 2 * (r - r0) + 1, _unit_mark(st, r * U + c, offer))
    edges = _borders(st, r0, r1, c0, c1)
    for (kind, r, c), pink in edges.items():
        x, y = 4 * (c - c0), 2 * (r - r0)
        if kind == "h":
            grid.put(x + 1, y, "-*-" if pink else "---")
            grid.put(x, y, "+")
            grid.put(x + 4, y, "+")
        else:
            grid.put(x, y + 1, "*" if pink else "|")
            grid.put(x, y, "+")
            grid.put(x, y + 2, "+")
    for r in range(r0, r1 + 1):
        grid.put(-2, 2 * (r - r0) + 1, f"r={r}", "right")
    for c in range(c0, c1 + 1):
        grid.put(4 * (c - c0) + 2, -1, str(c), "centre")
    grid.put(-2, -1, "c=", "right")
    lines = _header(st, viewer)
    lines.append("")
    lines += grid.lines()
    lines.append("")
    lines += legend_lines("units", TEXT_LEGEND_UNITS)
    lines += legend_lines("edges", TEXT_LEGEND_EDGES)
    lines += legend_lines(
        "moves",
        [
            ("", "'anchor r c' lays the selected tile with its top-left unit at row r, column c"),
            ("", "tiles read id (ports): ports 0-7 clockwise from the left half of the top side"),
            ("", "| separates pink pieces"),
        ],
    )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- RGB
CELL = 20
HAND_UNIT = 20  # a hand tile is 2 x 2 units of this many pixels
PANEL_W = 250


def _piece_paths(x, y, cell, pieces) -> list[tuple[list[tuple[float, float]], tuple[float, float]]]:
    """Per pink piece of a tile at (x, y): its port points on the tile edge
    and the point inside where its arms meet."""
    cx, cy = x + cell, y + cell
    paths = []
    for piece in pieces:
        pts = []
        for p in piece:
            ur, uc = PORT_UNIT[p]
            d = PORT_DIR[p]
            px = x + uc * cell + cell / 2 + (cell / 2 if d == 1 else -cell / 2 if d == 3 else 0)
            py = y + ur * cell + cell / 2 + (cell / 2 if d == 2 else -cell / 2 if d == 0 else 0)
            pts.append((px, py))
        mx = sum(p[0] for p in pts) / len(pts) * 0.6 + cx * 0.4
        my = sum(p[1] for p in pts) / len(pts) * 0.6 + cy * 0.4
        paths.append((pts, (mx, my)))
    return paths


def _draw_piece(cv: Canvas, pts, middle, cell: int, colour, grow: int = 0) -> None:
    """One pink piece (or, with ``grow``, a halo of ``colour`` around it)."""
    for px, py in pts:
        cv.line([(px, py), middle], fill=colour, width=max(3, cell // 2) + 2 * grow)
    radius = max(3, cell // 3) + grow
    cv.circle(*middle, radius, fill=colour, outline=colour)


def _tile_square(cv: Canvas, x, y, cell, top: bool) -> None:
    cv.rect(
        x, y, x + 2 * cell, y + 2 * cell, fill=DARK_BLUE if top else BLUE, outline=INK, width=2 if top else 1
    )


def _draw_tile(cv, x, y, cell, pieces, top=False) -> None:
    """A lone tile of 2x2 units at (x, y), unit size ``cell`` (the hands)."""
    _tile_square(cv, x, y, cell, top)
    for pts, middle in _piece_paths(x, y, cell, pieces):
        _draw_piece(cv, pts, middle, cell, PINK)


def _draw_board_tiles(cv: Canvas, st, bx: float, by: float, cell: int) -> None:
    """The visible tiles, then halos in the owner's colour (or the offer's)
    around owned pieces, then the pink: halos are drawn after every tile so
    that no neighbouring tile covers them."""
    W = st.game.geo.W
    offer = _offer_pieces(st)
    laid = []
    for k, (a, tile, rot, level) in enumerate(st.placements):
        if st.covered[k]:  # a ground tile under a second-storey tile is not seen
            continue
        r, c = divmod(a, W)
        x, y = bx + c * cell, by + r * cell
        _tile_square(cv, x, y, cell, level == 2)
        laid.append((k, _piece_paths(x, y, cell, ORIENTED[tile * 4 + rot])))
    for k, paths in laid:
        for p, (pts, middle) in zip(st.placement_pieces[k], paths):
            cid = st.piece_amoeba[p]
            own = st.amoebas[cid][2] if cid >= 0 else -1
            if p in offer or own >= 0:
                _draw_piece(cv, pts, middle, cell, OFFER if p in offer else halo_color(own), grow=3)
    for _, paths in laid:
        for pts, middle in paths:
            _draw_piece(cv, pts, middle, cell, PINK)


def _legend_keys(num_players: int) -> list[Key]:
    keys = [
        Key("tile", BLUE, "box"),
        Key("tile on the second storey", DARK_BLUE, "box"),
        Key("amoeba piece", PINK, "line"),
    ]
    keys += [Key(f"owned by player_{p}", halo_color(p), "line") for p in range(num_players)]
    keys += [
        Key("nucleus (number: segments)", seat_color(0), "disc", INK, "5"),
        Key("amoeba on offer", OFFER, "line"),
        Key(
            "under a hand tile: its pink ports 0-7, clockwise from the top left; | between pieces",
            None,
            "text",
            None,
            "0|17",
        ),
    ]
    return keys


def render_rgb(st, viewer=None) -> np.ndarray:
    """The whole board with r= / c= labels, the hands (the viewer's only)
    beside it, a header and a legend."""
    game = st.game
    U, n = game.units, game.num_players
    cell = CELL
    pad = 10
    left = text_width(f"r={U - 1}", LABEL_SIZE) + 8
    top = line_height(LABEL_SIZE) + 4
    board = U * cell
    width = pad + left + board + pad + PANEL_W
    text_w = width - 2 * pad
    header = _header(st, viewer)
    header_h = sum(paragraph_height(line, text_w) for line in header) + 6
    keys = _legend_keys(n)
    panel_h = _panel_height(st, viewer)
    body_h = max(top + board, panel_h)
    height = header_h + body_h + pad + legend_height(keys, text_w) + pad
    cv = Canvas(width, height)
    y = 6
    for line in header:
        y = cv.paragraph(pad, y, line, text_w)
    bx, by = pad + left, header_h + top
    _draw_axes(cv, U, bx, by, cell)
    cv.rect(bx, by, bx + board, by + board, fill=BOARD, outline=INK)
    _draw_board_tiles(cv, st, bx, by, cell)
    _draw_nuclei(cv, st, bx, by, cell)
    _draw_hands(cv, st, viewer, bx + board + pad + 6, header_h)
    cv.legend(pad, header_h + body_h + pad, keys, text_w)
    return cv.to_array()


def _draw_axes(cv: Canvas, units: int, bx: float, by: float, cell: int) -> None:
    """c= numbers over every unit column, r= labels left of every unit row."""
    for c in range(units):
        cv.text(bx + c * cell + cell / 2, by - 3, str(c), anchor="md", size=LABEL_SIZE)
    cv.text(bx - 4, by - 3, "c=", anchor="rd", size=LABEL_SIZE)
    for r in range(units):
        cv.text(bx - 4, by + r * cell + cell / 2, f"r={r}", anchor="rm", size=LABEL_SIZE)


def _draw_nuclei(cv: Canvas, st, bx: float, by: float, cell: int) -> None:
    """One token per owned amoeba, on its first piece, showing its size."""
    U = st.game.units
    for members, _, own in st.amoebas.values():
        if own < 0:
            continue
        p = min(members, key=lambda piece: min(st.piece_slots[piece]))
        r, c = divmod(min(st.piece_slots[p]) // 4, U)
        cv.token(bx + c * cell + cell / 2, by + r * cell + cell / 2, cell // 2, own, str(len(members)))


def _panel_height(st, viewer) -> int:
    h = line_height()
    total = 4
    for p in range(st.game.num_players):
        total += h
        if viewer is None or viewer == p:
            total += 2 * HAND_UNIT + 2 * line_height(LABEL_SIZE) + 14
    return total


def _draw_hands(cv: Canvas, st, viewer, x0: float, y: float) -> None:
    """Each visible hand: the tiles at rotation 0, with slot, id and ports."""
    y += 4
    step = (PANEL_W - 10) / 3
    for p in range(st.game.num_players):
        if viewer is not None and viewer != p:
            cv.text(x0, y, f"player_{p}: {len(st.hands[p])} tiles (hidden)", fill=seat_color(p))
            y += line_height()
            continue
        cv.text(x0, y, f"player_{p} hand", fill=seat_color(p))
        y += line_height()
        for j, t in enumerate(st.hands[p]):
            x = x0 + j * step
            _draw_tile(cv, x, y, HAND_UNIT, ORIENTED[t * 4])
            cv.text(x, y + 2 * HAND_UNIT + 4, f"slot {j}: tile {t}", size=LABEL_SIZE, max_width=step - 4)
            cv.text(
                x,
                y + 2 * HAND_UNIT + 4 + line_height(LABEL_SIZE),
                notation(ORIENTED[t * 4]),
                size=LABEL_SIZE,
                max_width=step - 4,
            )
        y += 2 * HAND_UNIT + 2 * line_height(LABEL_SIZE) + 14
