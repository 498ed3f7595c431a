"""Pictures of a Gold Rush Gangs position: text rows and an RGB board.

Nothing is private to one player (only the deck order is hidden, from
everyone), so every viewer sees the same position; a seat sees it in its
own frame (its home at the bottom left), which is the frame its action names
use, and the coordinate labels are that frame's (q, r).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np

from meeplezoo.envs.core.cards import card_name
from meeplezoo.envs.core.draw import (
    GREY,
    INK,
    LABEL_SIZE,
    TEXT_SIZE,
    WHITE,
    Canvas,
    Key,
    legend_height,
    lighten,
    line_height,
    paragraph_height,
    seat_color,
    text_width,
)
from meeplezoo.envs.core.textgrid import TextGrid, hex_diagonal_labels, hex_row_labels, legend_lines
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    BANK,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NUM_SEATS,
    NUM_UNITS,
    ORIGIN_NAMES,
    SLOT_NAMES,
)

UNIT_LETTERS = ("P", "A", "B")  # pro, amateurs A and B, as in "move A NE"
GOLD = (212, 175, 55)
RIM = (250, 236, 180)
STORE_EDGE = (140, 90, 40)
BANK_CLOSED = (90, 90, 90)
BANK_OPEN = (190, 190, 190)
# text map ground marks
OPEN, TERRITORY, BASE, HOME, RIM_MARK, STORE, BANK_MARK, BANK_BROKEN = ".", ":", "=", "#", "~", "S", "@", "O"


def _frame(state, viewer) -> list[int]:
    """rel cell -> absolute cell for the viewer (identity for a spectator)."""
    geo = state.game.geo
    return geo.to_absolute[viewer] if viewer is not None and viewer >= 0 else list(range(geo.num_cells))


def _relative_frames(state) -> bool:
    geo = state.game.geo
    return geo.to_absolute[1] != geo.to_absolute[0]


def _frame_note(state, viewer) -> str:
    """Whose coordinates the labels are, so a reader types the right cell."""
    if not _relative_frames(state):
        return "cells are named in one frame for every player"
    if viewer is not None and viewer >= 0:
        turned = " (board turned so that its home is at the bottom left)" if viewer else ""
        return f"cells and directions are player_{viewer}'s{turned}"
    return (
        "spectator view: cells and directions are player_0's; "
        "the others name cells in their own frames, turned so that their home is at the bottom left"
    )


def _status_lines(state) -> list[str]:
    g = state.game
    lines = []
    if state.winner >= 0:
        head = f"game over: player_{state.winner} wins"
    elif state.is_truncated:
        head = "game over: turn limit reached"
    else:
        head = f"player_{state.acting_seat} to act ({state.phase_name()})"
        if state.phase == MOVEMENT:
            head += f", AP {state.action_points}"
    lines.append(f"turn {state.turns}/{g.max_turns}  first player_{state.first_player}  {head}")
    dmg = state.bank_damage if g.per_player_bank else [state.bank_damage[0]]
    bank_state = (
        "broken"
        if all(x >= g.bank_threshold for x in dmg)
        else f"damage {'/'.join(map(str, dmg))} of {g.bank_threshold}"
    )
    lines.append(
        "delivered "
        + "  ".join(f"player_{p}: {state.delivered[p]}/{g.win_sacks}" for p in range(NUM_SEATS))
        + f"   bank {bank_state}"
    )
    if not g.independent_draws:
        lines.append(f"deck {len(state.deck.draw_pile)} to draw, {len(state.deck.discard)} discarded")
    for fight in state.last_combat:
        a, d = fight["attacker"], fight["defender"]
        lines.append(
            f"fight: player_{a[0]} {SLOT_NAMES[a[1]]} [{' '.join(card_name(c) for c in fight['attacker_cards'])}]"
            f" vs player_{d[0]} {SLOT_NAMES[d[1]]} [{' '.join(card_name(c) for c in fight['defender_cards'])}]"
            f" -> {'attacker' if fight['attacker_won'] else 'defender'} wins"
        )
    for u in range(NUM_UNITS):
        if state.unit_status[u] == INCAPACITATED:
            seat, slot = divmod(u, GANG_SIZE)
            misses = state.unit_turns_to_miss[u]  # turns of its gang it still sits out
            if misses:
                lines.append(f"player_{seat} {SLOT_NAMES[slot]} is out (misses {misses} more turn(s))")
            else:
                lines.append(f"player_{seat} {SLOT_NAMES[slot]} is out (back at its gang's next turn)")
    return lines


def _ground_marks(state) -> list[str]:
    """One text mark per absolute cell for what lies under the thieves."""
    geo = state.game.geo
    ground = [OPEN] * geo.num_cells
    for p in range(NUM_SEATS):
        for c in geo.territory[p]:
            ground[c] = TERRITORY
        for c in geo.base[p]:
            ground[c] = BASE
        ground[geo.homes[p]] = HOME
    for c in geo.neutral_border:
        ground[c] = RIM_MARK
    for c in state.stores:
        ground[c] = STORE
    ground[geo.bank] = BANK_BROKEN if state.bank_broken(state.acting_seat) else BANK_MARK
    return ground


def _units_by_cell(state) -> dict[int, list[int]]:
    """Active units standing on each absolute cell, in unit order."""
    out: dict[int, list[int]] = {}
    for u in range(NUM_UNITS):
        if state.unit_status[u] == ACTIVE:
            out.setdefault(state.unit_cell[u], []).append(u)
    return out


def _cell_text(state, cell: int, ground: list[str], units: dict[int, list[int]]) -> str:
    """Three characters: seat digit, unit letter, '*' carrying or the number
    of sacks lying there; or ' ', the ground mark, the sacks lying there."""
    lying = sum(state.sacks.get(cell, ()))
    sacks = str(min(lying, 9)) if lying else " "
    here = units.get(cell)
    if not here:
        return f" {ground[cell]}{sacks}"
    u = here[0]
    if len(here) > 1:
        return f"{u // GANG_SIZE}" + "".join(UNIT_LETTERS[v % GANG_SIZE] for v in here)[:2]
    extra = "*" if state.unit_carrying[u] >= 0 else sacks
    return f"{u // GANG_SIZE}{UNIT_LETTERS[u % GANG_SIZE]}{extra}"


TEXT_LEGEND = (
    ("0P 1A 2B", "thieves of player_0 / 1 / 2 (P pro, A and B amateurs, as in 'move A NE')"),
    ("*", "after a thief: it carries a sack"),
    ("a digit", "last: sacks lying there"),
)
GROUND_LEGEND = (
    (OPEN, "open"),
    (TERRITORY, "territory"),
    (BASE, "base"),
    (HOME, "home"),
    (RIM_MARK, "store rim"),
    (STORE, "store"),
    (BANK_MARK, "bank"),
    (BANK_BROKEN, "broken bank"),
)


def render_ansi(state, viewer: int | None = None) -> str:
    """Offset rows, 4 characters a cell, drawn in the viewer's frame (its
    home bottom-left, matching its action names; absolute for a spectator),
    with r= row labels and q= labels at both ends of every diagonal."""
    geo = state.game.geo
    frame = _frame(state, viewer)
    ground = _ground_marks(state)
    units = _units_by_cell(state)
    grid = TextGrid()
    cells = [geo.coords[rel] for rel in range(geo.num_cells)]

    def col(q: int, r: int) -> int:
        return 4 * q + 2 * r

    for rel, (q, r) in enumerate(cells):
        grid.put(col(q, r), r, _cell_text(state, frame[rel], ground, units))
    left_edge = min(col(q, r) for q, r in cells)
    _text_axes(grid, cells, col, left_edge)
    lines = _status_lines(state)
    lines += legend_lines("pieces", TEXT_LEGEND)
    lines += legend_lines("ground", GROUND_LEGEND)
    lines += legend_lines(
        "cells",
        [
            (
                "",
                "(q,r) as in 'deploy (q,r)': r= row, q= diagonal running down to the right, labelled at both ends",
            )
        ],
    )
    lines += textwrap.wrap(_frame_note(state, viewer), 100)
    lines.append("")
    lines += grid.lines()
    return "\n".join(lines) + "\n"


def _text_axes(grid: TextGrid, cells, col, left_edge: int) -> None:
    """r= labels in a margin left of the board, q= labels around it."""
    top = min(r for _, r in cells)
    bottom = max(r for _, r in cells)
    widest = max(len(f"q={q}") for q, _ in cells)  # side q= labels end 2 left of their cell
    margin = left_edge - widest - 4
    for r, text in hex_row_labels(cells).items():
        grid.put(margin, r, text, "right")
    number_lines = {"above": top - 1, "below": bottom + 1}
    first_number: dict[str, int] = {}
    for label in hex_diagonal_labels(cells):
        q, r = label.cell
        c = col(q, r)
        if label.side in number_lines:
            grid.put(c + 1, number_lines[label.side], label.text, "right")
            first_number[label.side] = min(first_number.get(label.side, c), c)
        elif label.side == "left":
            grid.put(c - 2, r, label.text, "right", keep=True)
        else:
            grid.put(c + 4, r, label.text, "left", keep=True)
    for side, c in first_number.items():
        grid.put(c - 3, number_lines[side], "q=", "right")


# ----------------------------------------------------------------------------- RGB
HEX_SIZE = 15.0
PANEL_W = 300


def _legend_keys(state) -> list[Key]:
    keys = []
    for p in range(NUM_SEATS):
        col = seat_color(p)
        keys.append(Key(f"player_{p} territory", lighten(col, 0.75), "hex", GREY))
        keys.append(Key("base", lighten(col, 0.35), "hex", GREY))
        keys.append(Key("home", col, "hex", GREY))
    keys += [
        Key("store rim", RIM, "hex", GREY),
        Key("store", None, "ring", STORE_EDGE),
        Key("bank: damage / needed", BANK_CLOSED, "hex", GREY, "0"),
        Key("broken bank", BANK_OPEN, "hex", GREY, "$"),
        Key("sacks lying", GOLD, "disc", INK, "2"),
        Key("thief: P pro, A / B amateur", seat_color(0), "disc", INK, "A", WHITE),
        Key("carries a sack (b: from the bank)", GOLD, "disc", INK, "b"),
        Key("out for a turn", seat_color(1), "struck"),
    ]
    return keys


def render_rgb(state, viewer: int | None = None) -> np.ndarray:
    """The board in the viewer's frame with r= / q= labels, and a side panel
    with the gangs, the turn and a legend for every colour and mark."""
    geo = state.game.geo
    frame = _frame(state, viewer)
    cells = [geo.coords[rel] for rel in range(geo.num_cells)]
    size = HEX_SIZE
    w3 = math.sqrt(3) * size

    def centre0(q: float, r: float) -> tuple[float, float]:
        return w3 * (q + r / 2), 1.5 * size * r

    labels = _rgb_labels(cells, centre0, size)
    xs = [x for _, x, _, w, a in labels for x in _span(x, w, a)] + [centre0(q, r)[0] for q, r in cells]
    ys = [y for _, _, y, _, _ in labels] + [centre0(q, r)[1] for q, r in cells]
    pad = 8
    ox, oy = pad + w3 / 2 - min(xs), pad + size - min(ys)
    board_w = max(xs) - min(xs) + w3 + 2 * pad
    board_h = max(ys) - min(ys) + 2 * size + 2 * pad
    text_w = PANEL_W - 16
    status = _panel_status(state)
    note = _frame_note(state, viewer)
    keys = _legend_keys(state)
    panel_h = (
        12
        + 3 * (2 * line_height() + 14)
        + sum(paragraph_height(line, text_w) for line in status)
        + paragraph_height(note, text_w, LABEL_SIZE)
        + 10
        + legend_height(keys, text_w)
        + 12
    )
    cv = Canvas(board_w + PANEL_W, max(board_h, panel_h))

    def centre(rel: int) -> tuple[float, float]:
        x, y = centre0(*geo.coords[rel])
        return x + ox, y + oy

    _draw_board(cv, state, frame, centre, size)
    for text, x, y, _, anchor in labels:
        cv.text(x + ox, y + oy, text, fill=INK, anchor=anchor, size=LABEL_SIZE)
    for x0, x1, y in _row_leaders(cells, labels, centre0, size):
        cv.dotted(x0 + ox, y + oy, x1 + ox, y + oy)
    _draw_panel(cv, state, board_w + 8, text_w, status, note, keys)
    return cv.to_array()


def _span(x: float, width: float, anchor: str) -> tuple[float, float]:
    if anchor[0] == "l":
        return x, x + width
    if anchor[0] == "r":
        return x - width, x
    return x - width / 2, x + width / 2


def _rgb_labels(cells, centre0, size) -> list[tuple[str, float, float, float, str]]:
    """(text, x, y, width, anchor) of every coordinate label, board frame."""
    w3 = math.sqrt(3) * size
    out = []
    left = min(centre0(q, r)[0] for q, r in cells) - w3 / 2
    margin = left - text_width("q=-00", LABEL_SIZE) - 10
    for r, text in hex_row_labels(cells).items():
        out.append((text, margin, centre0(0, r)[1], text_width(text, LABEL_SIZE), "rm"))
    first: dict[str, tuple[float, float]] = {}
    for label in hex_diagonal_labels(cells):
        x, y = centre0(*label.cell)
        width = text_width(label.text, LABEL_SIZE)
        if label.side in ("above", "below"):
            dy = -size * 1.45 if label.side == "above" else size * 1.45
            out.append((label.text, x, y + dy, width, "mm"))
            if label.side not in first or x < first[label.side][0]:
                first[label.side] = (x, y + dy)
        elif label.side == "left":
            out.append((label.text, x - w3 / 2 - 3, y, width, "rm"))
        else:
            out.append((label.text, x + w3 / 2 + 3, y, width, "lm"))
    for x, y in first.values():
        out.append(("q=", x - w3 / 2 - 2, y, text_width("q=", LABEL_SIZE), "rm"))
    return out


def _row_leaders(cells, labels, centre0, size) -> list[tuple[float, float, float]]:
    """(x0, x1, y) of a dotted leader from each r= label in the margin to
    the first thing on its row (a q= label or the row's first cell)."""
    w3 = math.sqrt(3) * size
    out = []
    for r, text in hex_row_labels(cells).items():
        _, x, y, _, _ = next(
            lab for lab in labels if lab[0] == text and lab[4] == "rm" and lab[0].startswith("r=")
        )
        first_cell = min(centre0(q, rr)[0] for q, rr in cells if rr == r) - w3 / 2
        on_row = [_span(lx, w, a)[0] for t, lx, ly, w, a in labels if ly == y and t != text]
        end = min([first_cell, *on_row]) - 4
        if end - x > 12:
            out.append((x + 4, end, y))
    return out


def _draw_board(cv: Canvas, state, frame: list[int], centre, size: float) -> None:
    """The cells, stores, bank, sacks and units; ``centre(rel)`` places a cell
    by its index in the viewer's ``frame``."""
    where = {abs_c: rel for rel, abs_c in enumerate(frame)}

    def at(cell: int) -> tuple[float, float]:
        return centre(where[cell])

    _draw_cells(cv, state, at, size)
    _draw_bank(cv, state, at, size)
    for c, sk in state.sacks.items():
        total = sum(sk)
        if total:
            x, y = at(c)
            cv.circle(x + size * 0.45, y + size * 0.4, size * 0.42, fill=GOLD, outline=INK)
            cv.text(x + size * 0.45, y + size * 0.4, str(total), fill=INK, anchor="mm", size=10)
    _draw_units(cv, state, at, size)


def _cell_fills(state) -> list:
    """Each cell's colour: territories, bases and homes in their seat's
    colour, the neutral border, the bank open or closed."""
    geo = state.game.geo
    fill = [WHITE] * geo.num_cells
    for p in range(NUM_SEATS):
        col = seat_color(p)
        for c in geo.territory[p]:
            fill[c] = lighten(col, 0.75)
        for c in geo.base[p]:
            fill[c] = lighten(col, 0.35)
        fill[geo.homes[p]] = col
    for c in geo.neutral_border:
        fill[c] = RIM
    fill[geo.bank] = BANK_OPEN if state.bank_broken(state.acting_seat) else BANK_CLOSED
    return fill


def _draw_cells(cv: Canvas, state, at, size: float) -> None:
    fill = _cell_fills(state)
    for c in range(state.game.geo.num_cells):
        x, y = at(c)
        cv.hexagon(x, y, size, fill=fill[c], outline=GREY)
    for c in state.stores:
        x, y = at(c)
        cv.hexagon(x, y, size * 0.8, fill=None, outline=STORE_EDGE, width=2)


def _draw_bank(cv: Canvas, state, at, size: float) -> None:
    """The bank's damage so far, or a $ once it is broken."""
    g = state.game
    broken = state.bank_broken(state.acting_seat)
    x, y = at(g.geo.bank)
    dmg = state.bank_damage[state.acting_seat if g.per_player_bank else 0]
    cv.text(
        x,
        y - size * 0.25,
        "$" if broken else f"{min(dmg, g.bank_threshold)}/{g.bank_threshold}",
        fill=INK if broken else WHITE,
        anchor="mm",
        size=LABEL_SIZE - 1,
    )


def _draw_units(cv: Canvas, state, at, size: float) -> None:
    """Each unit on the board, side by side at home, struck through when
    incapacitated, with the sack it carries."""
    at_home = [0] * NUM_SEATS
    for u in range(NUM_UNITS):
        st = state.unit_status[u]
        if st not in (ACTIVE, INCAPACITATED):
            continue
        p = u // GANG_SIZE
        x, y = at(state.unit_cell[u])
        if st == INCAPACITATED or state.unit_cell[u] == state.game.geo.homes[p]:
            k = at_home[p]
            at_home[p] += 1
            x += (k - 1) * size * 0.55
        rad = size * (0.62 if u % GANG_SIZE == 0 else 0.52)
        cv.token(x - size * 0.1, y, rad, p, UNIT_LETTERS[u % GANG_SIZE])
        if st == INCAPACITATED:
            cv.line([(x - rad, y - rad), (x + rad, y + rad)], fill=INK, width=2)
        if state.unit_carrying[u] >= 0:
            cv.circle(x + rad * 0.6, y - rad * 0.7, size * 0.3, fill=GOLD, outline=INK)
            if state.unit_carrying[u] == BANK:
                cv.text(x + rad * 0.6, y - rad * 0.7, "b", fill=INK, anchor="mm", size=9)


def _panel_status(state) -> list[str]:
    g = state.game
    if state.winner >= 0:
        status = [f"player_{state.winner} wins"]
    elif state.is_truncated:
        status = ["turn limit reached"]
    else:
        status = [f"player_{state.acting_seat} to act, phase: {state.phase_name()}"]
    status.append(f"turn {state.turns}/{g.max_turns}")
    dmg = state.bank_damage[state.acting_seat if g.per_player_bank else 0]
    broken = state.bank_broken(state.acting_seat)
    status.append(
        "bank: broken" if broken else f"bank damage {min(dmg, g.bank_threshold)} of {g.bank_threshold}"
    )
    if not g.independent_draws:
        status.append(f"deck {len(state.deck.draw_pile)}, discard {len(state.deck.discard)}")
    return status


def _draw_panel(cv: Canvas, state, px: float, text_w: float, status, note: str, keys) -> None:
    """Per gang: delivered sacks and AP; then the turn, the frame and the legend."""
    g = state.game
    py = 12
    h = line_height()
    for p in range(NUM_SEATS):
        col = seat_color(p)
        cv.token(px + 8, py + h / 2, 7, p)
        mark = "  (to act)" if p == state.acting_seat and not state.done else ""
        cv.text(px + 22, py, f"player_{p}{mark}", fill=INK)
        ap = state.action_points if (p == state.acting_seat and state.phase == MOVEMENT) else 0
        cv.text(
            px + 22,
            py + h,
            f"sacks {state.delivered[p]}/{g.win_sacks}   AP {ap}/{g.base_ap + state.delivered[p]}",
        )
        bar = (text_w - 30) * min(state.delivered[p] / g.win_sacks, 1.0)
        top = py + 2 * h + 2
        cv.rect(px + 22, top, px + text_w - 8, top + 6, fill=WHITE, outline=GREY)
        cv.rect(px + 22, top, px + 22 + bar, top + 6, fill=col, outline=None)
        py += 2 * h + 14
    for line in status:
        py = cv.paragraph(px, py, line, text_w)
    py = cv.paragraph(px, py, note, text_w, size=LABEL_SIZE)
    py += 10
    cv.legend(px, py, keys, text_w, TEXT_SIZE)


__all__ = ["render_ansi", "render_rgb", "ORIGIN_NAMES"]
