"""Pictures of an Amoeba position: a compact text map and an RGB image."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.tiles import ORIENTED, PORT_DIR, PORT_UNIT, notation
from meeplezoo.envs.core.draw import INK, Canvas, seat_color

PINK = (236, 112, 160)
BLUE = (120, 170, 225)
DARK_BLUE = (70, 120, 190)


def _bbox(st):
    U = st.game.U
    occ = np.flatnonzero(st.height > 0)
    if len(occ) == 0:
        c = U // 2 - 1
        return c, c + 1, c, c + 1
    rows, cols = occ // U, occ % U
    return int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())


def _header(st, viewer):
    n = st.game.num_players
    sc = st.scores()
    lines = [
        f"turn {st.turn}  player {st.cur}  phase {st.phase_name()}  die {st.die}  left {st.left}  pile {len(st.pile)}"
    ]
    for p in range(n):
        if viewer is None or viewer == p:
            hand = " ".join(f"{t}:{notation(ORIENTED[t * 4])}" for t in st.hands[p])
        else:
            hand = f"{len(st.hands[p])} hidden"
        lines.append(
            f"  p{p}: nuclei {st.supply[p]}  score {sc[p]}  hand [{hand}]  removed {len(st.removed[p])}"
        )
    if st.phase == 2 and st.offers:
        cid = st.offers[st.offer_i]
        lines.append(f"  offer: amoeba of size {len(st.comps[cid][0])} (marked @)")
    return lines


def render_ansi(st, viewer=None) -> str:
    """Each unit is a cell of a (2H+1) x (2W+1) character grid: the unit's
    centre shows 'o'/'O' (ground/top) or the owner's seat digit; the edges show
    '*' for pink contacts or open pink ports, '-'/'|' for blue tile borders."""
    U = st.game.U
    r0, r1, c0, c1 = _bbox(st)
    r0, c0 = max(r0 - 1, 0), max(c0 - 1, 0)
    r1, c1 = min(r1 + 1, U - 1), min(c1 + 1, U - 1)
    H, W = r1 - r0 + 1, c1 - c0 + 1
    grid = [[" "] * (2 * W + 1) for _ in range(2 * H + 1)]
    offer = set()
    if st.phase == 2 and st.offers:
        offer = set(st.comps[st.offers[st.offer_i]][0])
    dr = (-1, 0, 1, 0)
    dc = (0, 1, 0, -1)
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            u = r * U + c
            k = st.unit_vis[u]
            gr, gc = 2 * (r - r0) + 1, 2 * (c - c0) + 1
            if k < 0:
                grid[gr][gc] = "."
                continue
            ch = "o" if st.height[u] == 1 else "O"
            for d in range(4):
                p = st.slot_piece[u * 4 + d]
                if p >= 0:
                    cid = st.piece_comp[p]
                    own = st.comps[cid][2]
                    if p in offer:
                        ch = "@"
                    elif own >= 0:
                        ch = str(own)
            grid[gr][gc] = ch
            for d in range(4):
                rr, cc = r + dr[d], c + dc[d]
                inside = 0 <= rr < U and 0 <= cc < U and st.unit_vis[rr * U + cc] == k
                er, ec = gr + dr[d], gc + dc[d]
                if inside:
                    continue
                if st.slot_piece[u * 4 + d] >= 0:
                    grid[er][ec] = "*"
                elif grid[er][ec] != "*":
                    grid[er][ec] = "-" if d in (0, 2) else "|"
    lines = _header(st, viewer)
    lines.append(f"  rows {r0}..{r1}, cols {c0}..{c1}")
    lines.extend("  " + "".join(row) for row in grid)
    return "\n".join(lines)


def _draw_tile(cv, x, y, cell, pieces, top=False, outline=None):
    """Tile of 2x2 units at (x, y) with unit size ``cell``."""
    cv.rect(
        x, y, x + 2 * cell, y + 2 * cell, fill=DARK_BLUE if top else BLUE, outline=INK, width=2 if top else 1
    )
    cx, cy = x + cell, y + cell
    for i, piece in enumerate(pieces):
        pts = []
        for p in piece:
            ur, uc = PORT_UNIT[p]
            d = PORT_DIR[p]
            px = x + uc * cell + cell / 2 + (cell / 2 if d == 1 else -cell / 2 if d == 3 else 0)
            py = y + ur * cell + cell / 2 + (cell / 2 if d == 2 else -cell / 2 if d == 0 else 0)
            pts.append((px, py))
        mx = sum(p[0] for p in pts) / len(pts) * 0.6 + cx * 0.4
        my = sum(p[1] for p in pts) / len(pts) * 0.6 + cy * 0.4
        colour = outline[i] if outline else None
        for px, py in pts:
            if colour is not None:
                cv.line([(px, py), (mx, my)], fill=colour, width=max(3, cell // 2) + 4)
        for px, py in pts:
            cv.line([(px, py), (mx, my)], fill=PINK, width=max(3, cell // 2))
        cv.circle(mx, my, max(3, cell // 3), fill=PINK, outline=PINK)
    return


def render_rgb(st, viewer=None) -> np.ndarray:
    game = st.game
    U = game.U
    cell = 18
    margin = 10
    side = 170
    header_h = 16 * (game.num_players + 2)
    width = margin * 2 + U * cell + side
    height = max(margin * 2 + U * cell, header_h + 80) + header_h
    cv = Canvas(width, height)
    oy = header_h
    cv.rect(margin, oy + margin, margin + U * cell, oy + margin + U * cell, fill=(250, 250, 250), outline=INK)
    W = game.geo.W
    # visible tiles (ground tiles that are covered are not drawn)
    for k, (a, tile, rot, level, covered) in enumerate(st.placements):
        if covered:
            continue
        r, c = divmod(a, W)
        outline = []
        for p in st.place_pieces[k]:
            cid = st.piece_comp[p]
            own = st.comps[cid][2] if cid >= 0 else -1
            outline.append(seat_color(own) if own >= 0 else None)
        _draw_tile(
            cv, margin + c * cell, oy + margin + r * cell, cell, ORIENTED[tile * 4 + rot], level == 2, outline
        )
    # nuclei: one token per owned amoeba, on its first piece
    for members, _, own in st.comps.values():
        if own < 0:
            continue
        p = min(members, key=lambda q: min(st.piece_slots[q]))
        s = min(st.piece_slots[p])
        u = s // 4
        r, c = divmod(u, U)
        cv.token(
            margin + c * cell + cell / 2,
            oy + margin + r * cell + cell / 2,
            cell // 2 - 1,
            own,
            str(len(members)),
        )
    # header
    for i, line in enumerate(_header(st, viewer)):
        cv.text(margin, 4 + 14 * i, line)
    # hands of the viewer (everyone for a spectator)
    x0 = margin * 2 + U * cell
    y = oy + margin
    for p in range(game.num_players):
        if viewer is not None and viewer != p:
            continue
        cv.text(x0, y, f"hand p{p}", fill=seat_color(p))
        y += 14
        for j, t in enumerate(st.hands[p]):
            _draw_tile(cv, x0 + j * 50, y, 20, ORIENTED[t * 4])
        y += 50
    return cv.to_array()
