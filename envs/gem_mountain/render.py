"""Pictures of a Gem Mountain position: text (ansi) and an RGB image.

``viewer`` None is a spectator who sees everything; a seat sees only what
that seat knows (face-down tiles it has not peeked at show as '?').
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.draw import BACKGROUND, GREY, INK, Canvas, seat_color
from meeplezoo.envs.gem_mountain import tiles as T
from meeplezoo.envs.gem_mountain.geometry import POSITION_NAMES

GEM_COLORS = (
    (225, 240, 255),  # Diamond
    (200, 30, 45),  # Ruby
    (30, 160, 80),  # Emerald
    (40, 70, 200),  # Sapphire
    (240, 190, 40),  # Topaz
    (40, 40, 40),  # Onyx
    (230, 200, 230),  # Opal
)
ACTION_COLOR = (170, 130, 90)
DOWN_COLOR = (110, 100, 90)
SHORT = {
    c: (T.CONTENT_NAMES[c][:2] if c < 7 else T.CONTENT_NAMES[c][:2].lower()) for c in range(T.NUM_CONTENTS)
}


def _visible(st, i: int, viewer) -> bool:
    return viewer is None or st.up[i] or bool(st.peek[i] >> viewer & 1)


def _label(st, i: int, viewer) -> str:
    d = st.cells[i]
    if d < 0:
        return " .. "
    if not _visible(st, i, viewer):
        return " ?? "
    sc = T.SECTION_CONTENT[d][st.rot[i]]
    if T.PLAIN[d]:
        text = SHORT[sc[0]]
    else:
        text = "".join(SHORT[c][0] for c in sc)
    mark = "" if st.up[i] else "*"
    return f"{mark}{text}".center(4)


def ansi(st, viewer=None) -> str:
    g = st.game
    R, C = g.rows, g.cols
    lines = [
        f"Gem Mountain  turn {st.turn}  phase {st.phase_name()}  to move: "
        f"{'-' if st.current_player < 0 else f'player_{st.current_player}'}",
        "arrows: " + ", ".join(POSITION_NAMES[p] for p in st.arrows),
    ]
    width = 5
    span = R + C - 1
    for s in range(span):
        row = [(r, s - r) for r in range(R - 1, -1, -1) if 0 <= s - r < C]
        pad = " " * ((min(R, C) - len(row)) * width // 2 + 1)
        lines.append(pad + " ".join(_label(st, r * C + c, viewer) for r, c in row))
    counts = st.gem_counts(None if viewer is None else [viewer])
    scores = st.score_counts(counts)
    for p in range(g.num_players):
        gems = " ".join(f"{T.GEM_NAMES[k]}:{counts[p][k]}" for k in range(7) if counts[p][k])
        acts = " ".join(f"{T.ACTION_NAMES[k]}:{st.acts[p][k]}" for k in range(16) if st.acts[p][k])
        sec = ""
        if st.secret[p] >= 0:
            sec = f" secret:{T.CONTENT_NAMES[st.secret[p]]}" if viewer in (None, p) else " secret:?"
        lines.append(f"player_{p} score {scores[p]:+d} | {gems or '-'} | {acts or '-'}{sec}")
    return "\n".join(lines)


def _content_color(c: int):
    return GEM_COLORS[c] if c < 7 else ACTION_COLOR


def rgb(st, viewer=None) -> np.ndarray:
    g = st.game
    R, C, n = g.rows, g.cols, g.num_players
    h = 22  # half diagonal of a cell
    span = R + C
    width = max(span * h + 80, 420)
    board_h = span * h + 60
    height = board_h + 26 * n + 20
    cv = Canvas(width, height, BACKGROUND)
    x0 = width / 2 + (R - C) * h / 2
    y0 = 40

    def center(r, c):
        return x0 + (c - r) * h, y0 + (r + c) * h + h

    for i, d in enumerate(st.cells):
        r, c = divmod(i, C)
        x, y = center(r, c)
        pts = [(x, y - h), (x + h, y), (x, y + h), (x - h, y)]  # top, right, bottom, left
        if d < 0:
            cv.polygon(pts, fill=None, outline=GREY)
            continue
        if not _visible(st, i, viewer):
            cv.polygon(pts, fill=DOWN_COLOR, outline=INK)
            cv.text(x, y, "?", fill=(255, 255, 255), anchor="mm")
            continue
        sc = T.SECTION_CONTENT[d][st.rot[i]]
        for s in range(4):  # NE, SE, SW, NW triangles
            tri = [(x, y), pts[s], pts[(s + 1) % 4]]
            cv.polygon(tri, fill=_content_color(sc[s]), outline=None)
        cv.polygon(pts, fill=None, outline=INK, width=2 if not st.up[i] else 1)
        if T.PLAIN[d]:
            cv.text(x, y, SHORT[sc[0]], fill=INK if sc[0] not in (5, 3, 1) else (255, 255, 255), anchor="mm")
        if not st.up[i]:  # face down, but known to this viewer
            cv.circle(x + h * 0.55, y, 3, fill=DOWN_COLOR, outline=None)
    # arrows, placed outside the diamond at their corner or edge middle
    top = center(0, 0)
    right = center(0, C - 1)
    bottom = center(R - 1, C - 1)
    left = center(R - 1, 0)
    spots = [
        (top[0], top[1] - h),
        ((top[0] + right[0]) / 2 + h * 0.7, (top[1] + right[1]) / 2 - h * 0.7),
        (right[0] + h, right[1]),
        ((right[0] + bottom[0]) / 2 + h * 0.7, (right[1] + bottom[1]) / 2 + h * 0.7),
        (bottom[0], bottom[1] + h),
        ((bottom[0] + left[0]) / 2 - h * 0.7, (bottom[1] + left[1]) / 2 + h * 0.7),
        (left[0] - h, left[1]),
        ((left[0] + top[0]) / 2 - h * 0.7, (left[1] + top[1]) / 2 - h * 0.7),
    ]
    for j, p in enumerate(st.arrows):
        ax, ay = spots[p]
        cv.circle(ax, ay, 9, fill=(250, 60, 60) if j == 0 else (250, 140, 60), outline=INK)
        cv.text(ax, ay, POSITION_NAMES[p], fill=(255, 255, 255), anchor="mm")
    cv.text(6, 6, f"turn {st.turn}  {st.phase_name()}", fill=INK)
    # collections
    counts = st.gem_counts(None if viewer is None else [viewer])
    scores = st.score_counts(counts)
    y = board_h
    for p in range(n):
        cv.token(12, y + 9, 8, p, str(p))
        x = 26
        cv.text(x, y + 3, f"{scores[p]:+d}", fill=INK)
        x += 28
        for k in range(7):
            if counts[p][k]:
                cv.circle(x + 7, y + 9, 7, fill=GEM_COLORS[k], outline=INK)
                cv.text(x + 16, y + 3, str(counts[p][k]), fill=INK)
                x += 30
        for k in range(16):
            if st.acts[p][k]:
                cv.rect(x, y + 2, x + 14, y + 16, fill=ACTION_COLOR, outline=INK)
                cv.text(x + 7, y + 9, T.ACTION_NAMES[k][:1], fill=INK, anchor="mm")
                cv.text(x + 17, y + 3, str(st.acts[p][k]), fill=INK)
                x += 30
        if st.secret[p] >= 0:
            known = viewer in (None, p)
            cv.rect(
                x,
                y + 2,
                x + 14,
                y + 16,
                fill=_content_color(st.secret[p]) if known else DOWN_COLOR,
                outline=seat_color(p),
                width=2,
            )
            cv.text(x + 7, y + 9, "s", fill=INK, anchor="mm")
        y += 26
    return cv.to_array()
