"""Pictures of a Gem Mountain position: text (ansi) and an RGB image.

``viewer`` None is a spectator who sees everything; a seat sees only what
that seat knows (face-down tiles it has not peeked at show as '??', other
seats' secret tiles as '?').

The map is drawn as the diamond it is, corner (0,0) on top, so that the
arrow positions (N, NE, ...) sit where their names say. Rows run down to
the right from the upper-left edge and columns down to the left from the
upper-right edge; both are labelled at each end the way the moves name
cells: ``grab (r,c)``.
"""

from __future__ import annotations

import textwrap

import numpy as np

from meeplezoo.envs.core.draw import (
    BACKGROUND,
    GREY,
    INK,
    LABEL_SIZE,
    WHITE,
    Canvas,
    Key,
    legend_height,
    paragraph_height,
    readable_ink,
    seat_color,
)
from meeplezoo.envs.core.textgrid import TextGrid, legend_lines
from meeplezoo.envs.gem_mountain import tiles
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
ARROW_COLORS = ((250, 60, 60), (250, 140, 60))
# Two letters per content, each different: gems capitalised, action tiles in
# lower case ("tu" Tunnel, "ts" Turn Stone).
GEM_CODES = ("Di", "Ru", "Em", "Sa", "To", "On", "Op")
ACTION_CODES = (
    "gu",
    "co",
    "pi",
    "tu",
    "an",
    "la",
    "fl",
    "ts",
    "pr",
    "th",
    "gi",
    "av",
    "ea",
    "gr",
    "tw",
    "re",
)
CODES: tuple[str, ...] = GEM_CODES + ACTION_CODES
# One letter per section of a split tile (only gems and two actions occur there).
SPLIT_LETTERS: dict[int, str] = {
    tiles.content_of(name): letter
    for name, letter in (
        ("Diamond", "D"),
        ("Ruby", "R"),
        ("Emerald", "E"),
        ("Sapphire", "S"),
        ("Topaz", "T"),
        ("Onyx", "X"),
        ("Opal", "O"),
        ("Gust", "g"),
        ("Pickaxe", "p"),
    )
}
POSITION_PLACES = (
    "N top corner",
    "NE upper-right edge",
    "E right corner",
    "SE lower-right edge",
    "S bottom corner",
    "SW lower-left edge",
    "W left corner",
    "NW upper-left edge",
)


def _visible(st, cell: int, viewer) -> bool:
    return viewer is None or st.face_up[cell] or bool(st.peeks[cell] >> viewer & 1)


def _sections(st, cell: int) -> tuple[int, ...]:
    return tiles.SECTION_CONTENT[st.cells[cell]][st.rotations[cell]]


def _label(st, cell: int, viewer) -> str:
    """Five characters: '*' if face down but known to the viewer, then the
    tile's code (one letter per section NE SE SW NW for a split tile)."""
    d = st.cells[cell]
    if d < 0:
        return "  .. "
    if not _visible(st, cell, viewer):
        return "  ?? "
    sc = _sections(st, cell)
    mark = " " if st.face_up[cell] else "*"
    if tiles.PLAIN[d]:
        return f" {mark}{CODES[sc[0]]} "
    return mark + "".join(SPLIT_LETTERS.get(c, "?") for c in sc)


def _contents_in_play(st, viewer) -> list[int]:
    """Contents a legend must name: the game's pool and the public holdings
    (secret tiles come from the same pool, so nothing private is listed)."""
    seen = {c for d in st.game.pool for c in tiles.SHARDS[d]}
    counts = st.gem_counts(None if viewer is None else [viewer])
    for p in range(st.game.num_players):
        seen |= {k for k in range(7) if counts[p][k]}
        seen |= {7 + k for k in range(tiles.NUM_ACTION_TYPES) if st.action_tiles[p][k]}
    return sorted(seen)


def _split_letters_in_play(st) -> list[int]:
    return sorted({c for d in st.game.pool if not tiles.PLAIN[d] for c in tiles.SHARDS[d]})


def _arrow_text(st) -> str:
    parts = []
    for j, p in enumerate(st.arrows):
        parts.append(f"arrow {j + 1} at {POSITION_NAMES[p]} ({POSITION_PLACES[p].split(' ', 1)[1]})")
    return "; ".join(parts) or "no arrow yet"


def _holdings_lines(st, viewer) -> list[str]:
    """One line per seat: score, gems, action tiles, the secret tile if any."""
    counts = st.gem_counts(None if viewer is None else [viewer])
    scores = st.score_counts(counts)
    lines = []
    for p in range(st.game.num_players):
        gems = " ".join(f"{tiles.GEM_NAMES[k]}:{counts[p][k]}" for k in range(tiles.NUM_GEMS) if counts[p][k])
        acts = " ".join(
            f"{tiles.ACTION_NAMES[k]}:{st.action_tiles[p][k]}"
            for k in range(tiles.NUM_ACTION_TYPES)
            if st.action_tiles[p][k]
        )
        sec = ""
        if st.secret_tiles[p] >= 0:
            sec = f" secret:{tiles.CONTENT_NAMES[st.secret_tiles[p]]}" if viewer in (None, p) else " secret:?"
        lines.append(f"player_{p} score {scores[p]:+d} | {gems or '-'} | {acts or '-'}{sec}")
    return lines


def ansi(st, viewer=None) -> str:
    g = st.game
    R, C = g.rows, g.cols
    lines = [
        f"Gem Mountain  turn {st.turn}  phase {st.phase_name()}  to move: "
        f"{'-' if st.current_player < 0 else f'player_{st.current_player}'}",
        _arrow_text(st),
        "",
    ]
    grid = TextGrid()

    def col(r: int, c: int) -> int:
        return 3 * (c - r)

    for i in range(R * C):
        r, c = divmod(i, C)
        grid.put(col(r, c), r + c, _label(st, i, viewer))
    for r in range(R):  # row r: starts on the upper-left edge, ends on the lower-right edge
        grid.put(col(r, 0) - 2, r, f"r={r}", "right")
        if r > 0:
            grid.put(col(r, C - 1) + 6, r + C - 1, f"r={r}")
    for c in range(C):  # column c: starts on the upper-right edge, ends on the lower-left edge
        grid.put(col(0, c) + 6, c, f"c={c}")
        if c > 0:
            grid.put(col(R - 1, c) - 2, R - 1 + c, f"c={c}", "right")
    lines += grid.lines()
    lines.append("")
    lines += _holdings_lines(st, viewer)
    lines.append("")
    in_play = _contents_in_play(st, viewer)
    lines += legend_lines("gem tiles", [(CODES[c], tiles.CONTENT_NAMES[c]) for c in in_play if c < 7])
    lines += legend_lines("action tiles", [(CODES[c], tiles.CONTENT_NAMES[c]) for c in in_play if c >= 7])
    split = _split_letters_in_play(st)
    if split:
        lines += legend_lines(
            "split tiles, one letter per section NE SE SW NW",
            [(SPLIT_LETTERS[c], tiles.CONTENT_NAMES[c]) for c in split],
        )
    marks = [("..", "taken")]
    if g.dark_tunnels:
        marks = [("??", "face down"), ("*", "before a code: face down, but known to you")] + marks
    lines += legend_lines("marks", marks)
    lines += textwrap.wrap(
        "cells: (r,c) as in 'grab (r,c)'. Row r runs down to the right, its label r=0, r=1, ... at "
        "both ends (upper-left and lower-right edges); column c runs down to the left, its label "
        "c=0, c=1, ... at both ends (upper-right and lower-left edges)",
        100,
    )
    lines += legend_lines(
        "arrow positions", [(p.split(" ", 1)[0], p.split(" ", 1)[1]) for p in POSITION_PLACES]
    )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- RGB
HALF = 24  # half diagonal of a cell in pixels
PANEL_ROW = 26


def _content_color(content: int):
    return GEM_COLORS[content] if content < 7 else ACTION_COLOR


def _legend_keys(st, viewer) -> list[Key]:
    in_play = _contents_in_play(st, viewer)
    keys = [Key(tiles.CONTENT_NAMES[c], GEM_COLORS[c], "box", INK, CODES[c]) for c in in_play if c < 7]
    keys += [Key(tiles.CONTENT_NAMES[c], ACTION_COLOR, "box", INK, CODES[c]) for c in in_play if c >= 7]
    g = st.game
    if g.dark_tunnels:
        keys.append(Key("face down", DOWN_COLOR, "diamond", INK, "?", WHITE))
        keys.append(Key("dot: face down, but known to you", DOWN_COLOR, "disc", WHITE))
    keys.append(Key("taken", None, "diamond", GREY))
    keys.append(Key("arrow 1", ARROW_COLORS[0], "disc", INK, "N", WHITE))
    if g.two_arrows:
        keys.append(Key("arrow 2", ARROW_COLORS[1], "disc", INK, "S", WHITE))
    if g.secret_start_tiles:
        keys.append(
            Key("secret tile (content shown only to its owner)", DOWN_COLOR, "box", seat_color(0), "?", WHITE)
        )
    return keys


def _label_spots(rows: int, cols: int) -> list[tuple[float, float, str]]:
    """(r, c, text) of every coordinate label: each label sits on the
    off-map cell just beyond the end of its row or column."""
    spots = []
    for r in range(rows):
        spots.append((r, -1, f"r={r}"))
        spots.append((r, cols, f"r={r}"))
    for c in range(cols):
        spots.append((-1, c, f"c={c}"))
        spots.append((rows, c, f"c={c}"))
    return spots


def _arrow_spots(rows: int, cols: int) -> list[tuple[float, float]]:
    """(r, c) of each arrow position, outside the labels."""
    mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2
    return [
        (-1.3, -1.3),
        (-2.1, mid_c),
        (-1.3, cols + 0.3),
        (mid_r, cols + 1.1),
        (rows + 0.3, cols + 0.3),
        (rows + 1.1, mid_c),
        (rows + 0.3, -1.3),
        (mid_r, -2.1),
    ]


def rgb(st, viewer=None) -> np.ndarray:
    g = st.game
    R, C, n = g.rows, g.cols, g.num_players
    h = HALF
    arrows = _arrow_spots(R, C)
    spots = [(r, c) for r, c, _ in _label_spots(R, C)] + arrows
    xs = [(c - r) * h for r, c in spots]
    ys = [(r + c) * h for r, c in spots]
    pad = 14
    board_w = max(xs) - min(xs) + 2 * h + 2 * pad
    width = max(board_w, 460)
    text_w = width - 2 * pad
    mover = "-" if st.current_player < 0 else f"player_{st.current_player}"
    header = [f"turn {st.turn}  phase {st.phase_name()}  to move: {mover}", _arrow_text(st)]
    header_h = sum(paragraph_height(line, text_w) for line in header) + 4
    board_h = max(ys) - min(ys) + 2 * h + 2 * pad
    keys = _legend_keys(st, viewer)
    note = "cells: (r,c) as in 'grab (r,c)'; rows run down to the right, columns down to the left"
    foot_h = PANEL_ROW * n + 8 + paragraph_height(note, text_w) + legend_height(keys, text_w) + 10
    cv = Canvas(width, header_h + board_h + foot_h, BACKGROUND)
    x0 = width / 2 - (max(xs) + min(xs)) / 2
    y0 = header_h + pad + h - min(ys)

    def center(r: float, c: float) -> tuple[float, float]:
        return x0 + (c - r) * h, y0 + (r + c) * h

    y = 6
    for line in header:
        y = cv.paragraph(pad, y, line, text_w)
    _draw_map(cv, st, viewer, center, h)
    for r, c, text in _label_spots(R, C):
        cv.text(*center(r, c), text, fill=INK, anchor="mm", size=LABEL_SIZE)
    for j, p in enumerate(st.arrows):
        ax, ay = center(*arrows[p])
        cv.circle(ax, ay, 11, fill=ARROW_COLORS[j % 2], outline=INK)
        cv.text(ax, ay, POSITION_NAMES[p], fill=WHITE, anchor="mm", size=LABEL_SIZE - 1)
    y = header_h + board_h
    y = _draw_holdings(cv, st, viewer, pad, y)
    y = cv.paragraph(pad, y + 4, note, text_w)
    cv.legend(pad, y + 4, keys, text_w)
    return cv.to_array()


def _draw_map(cv: Canvas, st, viewer, center, half_diagonal: float) -> None:
    C = st.game.cols
    for i, d in enumerate(st.cells):
        r, c = divmod(i, C)
        x, y = center(r, c)
        pts = [
            (x, y - half_diagonal),
            (x + half_diagonal, y),
            (x, y + half_diagonal),
            (x - half_diagonal, y),
        ]  # top, right, bottom, left
        if d < 0:
            cv.polygon(pts, fill=None, outline=GREY)
            continue
        if not _visible(st, i, viewer):
            cv.polygon(pts, fill=DOWN_COLOR, outline=INK)
            cv.text(x, y, "?", fill=WHITE, anchor="mm", size=LABEL_SIZE)
            continue
        sc = _sections(st, i)
        for s in range(4):  # NE, SE, SW, NW triangles
            tri = [(x, y), pts[s], pts[(s + 1) % 4]]
            cv.polygon(tri, fill=_content_color(sc[s]), outline=None)
        cv.polygon(pts, fill=None, outline=INK, width=2 if not st.face_up[i] else 1)
        if tiles.PLAIN[d]:
            cv.text(
                x, y, CODES[sc[0]], fill=readable_ink(_content_color(sc[0])), anchor="mm", size=LABEL_SIZE
            )
        else:
            _split_marks(cv, sc, x, y, half_diagonal)
        if not st.face_up[i]:  # face down, but known to this viewer
            cv.circle(x, y + half_diagonal * 0.6, 3, fill=DOWN_COLOR, outline=WHITE)


def _split_marks(cv: Canvas, sc, x: float, y: float, half_diagonal: float) -> None:
    """Action sections of a split tile carry their letter (gems show by colour)."""
    offsets = ((0.38, -0.38), (0.38, 0.38), (-0.38, 0.38), (-0.38, -0.38))  # NE, SE, SW, NW centres
    for s, (dx, dy) in enumerate(offsets):
        if sc[s] >= 7:
            cv.text(
                x + dx * half_diagonal,
                y + dy * half_diagonal,
                SPLIT_LETTERS.get(sc[s], "?"),
                fill=INK,
                anchor="mm",
                size=10,
            )


def _draw_holdings(cv: Canvas, st, viewer, x0: float, y: float) -> float:
    """One row per seat: score, gems (coloured, with counts), action tiles
    (with codes and counts) and a secret tile (its content only if known)."""
    counts = st.gem_counts(None if viewer is None else [viewer])
    scores = st.score_counts(counts)
    mid = PANEL_ROW / 2
    for p in range(st.game.num_players):
        cv.token(x0 + 9, y + mid, 9, p, str(p))
        x = x0 + 24
        x += cv.text(x, y + mid, f"player_{p} {scores[p]:+d}", anchor="lm") + 10
        for k in range(7):
            if counts[p][k]:
                cv.rect(x, y + mid - 8, x + 20, y + mid + 8, fill=GEM_COLORS[k], outline=INK)
                cv.text(x + 10, y + mid, CODES[k], fill=readable_ink(GEM_COLORS[k]), anchor="mm", size=10)
                x += 24 + cv.text(x + 24, y + mid, f"x{counts[p][k]}", anchor="lm") + 8
        for k in range(16):
            if st.action_tiles[p][k]:
                cv.rect(x, y + mid - 8, x + 20, y + mid + 8, fill=ACTION_COLOR, outline=INK)
                cv.text(x + 10, y + mid, CODES[7 + k], fill=INK, anchor="mm", size=10)
                x += 24 + cv.text(x + 24, y + mid, f"x{st.action_tiles[p][k]}", anchor="lm") + 8
        if st.secret_tiles[p] >= 0:
            known = viewer in (None, p)
            fill = _content_color(st.secret_tiles[p]) if known else DOWN_COLOR
            cv.rect(x, y + mid - 8, x + 20, y + mid + 8, fill=fill, outline=seat_color(p), width=2)
            mark = CODES[st.secret_tiles[p]] if known else "?"
            cv.text(x + 10, y + mid, mark, fill=readable_ink(fill), anchor="mm", size=10)
            cv.text(x + 24, y + mid, "secret", anchor="lm")
        y += PANEL_ROW
    return y


__all__ = ["ansi", "rgb", "CODES", "SPLIT_LETTERS"]
