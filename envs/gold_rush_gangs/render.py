"""Pictures of a Gold Rush Gangs position: text rows and an RGB board.

Nothing is private to one player (only the deck order is hidden, from
everyone), so every viewer sees the same absolute picture.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.cards import card_name
from meeplezoo.envs.core.draw import GREY, INK, WHITE, Canvas, lighten, seat_color
from meeplezoo.envs.gold_rush_gangs.geometry import BANK, ORIGIN_NAMES, SLOT_NAMES

ACTIVE, INCAP = 1, 2
UNIT_GLYPHS = (("X", "x", "x"), ("Y", "y", "y"), ("Z", "z", "z"))
GOLD = (212, 175, 55)


def _status_lines(s) -> list[str]:
    g = s.game
    lines = []
    if s.winner >= 0:
        head = f"game over: player_{s.winner} wins"
    elif s.is_truncated:
        head = "game over: turn limit reached"
    else:
        head = f"player_{s.cur} to act ({s.phase_name()})"
        if s.phase == 2:
            head += f", AP {s.ap}"
    lines.append(f"turn {s.turns}/{g.max_turns}  first player_{s.first}  {head}")
    dmg = s.damage if g.per_player_bank else [s.damage[0]]
    bank_state = (
        "broken"
        if all(x >= g.threshold for x in dmg)
        else f"damage {'/'.join(map(str, dmg))} of {g.threshold}"
    )
    lines.append(
        "delivered "
        + "  ".join(f"player_{p}: {s.delivered[p]}/{g.win_sacks}" for p in range(3))
        + f"   bank {bank_state}"
    )
    if not g.iid:
        lines.append(f"deck {len(s.deck.draw_pile)} to draw, {len(s.deck.discard)} discarded")
    for fight in s.last_combat:
        a, d = fight["attacker"], fight["defender"]
        lines.append(
            f"fight: player_{a[0]} {SLOT_NAMES[a[1]]} [{' '.join(card_name(c) for c in fight['attacker_cards'])}]"
            f" vs player_{d[0]} {SLOT_NAMES[d[1]]} [{' '.join(card_name(c) for c in fight['defender_cards'])}]"
            f" -> {'attacker' if fight['attacker_won'] else 'defender'} wins"
        )
    for u in range(9):
        st = s.ustate[u]
        if st == INCAP:
            lines.append(f"player_{u // 3} {SLOT_NAMES[u % 3]} is out (misses {s.umiss[u] + 1} more turn(s))")
    return lines


def render_ansi(s, viewer: int | None = None) -> str:
    """Offset rows, 4 characters a cell, drawn in the viewer's frame (its
    home bottom-left, matching its action names; absolute for a spectator).
    First character: a thief (X/Y/Z pro, x/y/z amateur of player 0/1/2) or
    the ground ('.' open, ':' territory, '=' base, '~' store rim, '@' intact
    bank, 'o' broken bank); second: '*' when the thief carries a sack, else
    the number of sacks lying there."""
    g = s.game
    geo = g.geo
    R = geo.radius
    frame = geo.rel2abs[viewer] if viewer is not None and viewer >= 0 else list(range(geo.n))
    ground = ["."] * geo.n
    for p in range(3):
        for c in geo.territory[p]:
            ground[c] = ":"
        for c in geo.base[p]:
            ground[c] = "="
    for c in geo.neutral_border:
        ground[c] = "~"
    ground[geo.bank] = "o" if s.bank_broken(s.cur) else "@"
    who: dict[int, int] = {}
    for u in range(9):
        if s.ustate[u] == ACTIVE and s.ucell[u] not in who:
            who[s.ucell[u]] = u
    lines = _status_lines(s)
    lines.append("X/x player_0, Y/y player_1, Z/z player_2 (capital: pro); * carrying; digit: sacks lying")
    if viewer is not None and viewer >= 0 and frame[0] != 0:
        lines.append(f"board turned so that player_{viewer}'s home is at the bottom left")
    lines.append("")
    for r in range(-R, R + 1):
        row = []
        for q in range(-R, R + 1):
            rel = geo.index.get((q, r))
            if rel is None:
                continue
            c = frame[rel]
            sk = sum(s.sacks.get(c, ()))
            second = str(min(sk, 9)) if sk else " "
            if c in who:
                u = who[c]
                first = UNIT_GLYPHS[u // 3][u % 3]
                if s.ucarry[u] >= 0:
                    second = "*"
            else:
                first = ground[c]
            row.append(first + second)
        lines.append(f"r={r:3d} " + " " * (2 * abs(r)) + "  ".join(row))
    return "\n".join(lines) + "\n"


def render_rgb(s, viewer: int | None = None) -> np.ndarray:
    g = s.game
    geo = g.geo
    R = geo.radius
    size = 14.0
    w3 = math.sqrt(3) * size
    board_w = w3 * (2 * R + 1) + 20
    board_h = 1.5 * size * 2 * R + 2 * size + 20
    panel = 230
    cv = Canvas(board_w + panel, max(board_h, 260))
    cx0, cy0 = board_w / 2, board_h / 2

    def centre(c: int) -> tuple[float, float]:
        q, r = geo.coords[c]
        return cx0 + w3 * (q + r / 2), cy0 + 1.5 * size * r

    fill = [WHITE] * geo.n
    for p in range(3):
        col = seat_color(p)
        for c in geo.territory[p]:
            fill[c] = lighten(col, 0.75)
        for c in geo.base[p]:
            fill[c] = lighten(col, 0.35)
        fill[geo.homes[p]] = col
    for c in geo.neutral_border:
        fill[c] = (250, 236, 180)
    broken = s.bank_broken(s.cur)
    fill[geo.bank] = (190, 190, 190) if broken else (90, 90, 90)
    for c in range(geo.n):
        x, y = centre(c)
        cv.hexagon(x, y, size, fill=fill[c], outline=GREY)
    for c in s.stores:
        x, y = centre(c)
        cv.hexagon(x, y, size * 0.8, fill=None, outline=(140, 90, 40), width=2)
    x, y = centre(geo.bank)
    dmg = s.damage[s.cur if g.per_player_bank else 0]
    cv.text(
        x - size * 0.2,
        y - size * 0.2,
        "$" if broken else f"{min(dmg, g.threshold)}/{g.threshold}",
        fill=INK if broken else WHITE,
        anchor="mm",
    )
    for c, sk in s.sacks.items():
        total = sum(sk)
        if total:
            x, y = centre(c)
            cv.circle(x + size * 0.45, y + size * 0.35, size * 0.33, fill=GOLD, outline=INK)
            cv.text(x + size * 0.45, y + size * 0.35, str(total), fill=INK, anchor="mm")
    at_home = [0, 0, 0]
    for u in range(9):
        st = s.ustate[u]
        if st not in (ACTIVE, INCAP):
            continue
        p = u // 3
        x, y = centre(s.ucell[u])
        if st == INCAP or s.ucell[u] == geo.homes[p]:
            k = at_home[p]
            at_home[p] += 1
            x += (k - 1) * size * 0.55
        rad = size * (0.62 if u % 3 == 0 else 0.48)
        cv.token(x - size * 0.1, y, rad, p, "P" if u % 3 == 0 else SLOT_NAMES[u % 3])
        if st == INCAP:
            cv.line([(x - rad, y - rad), (x + rad, y + rad)], fill=INK, width=2)
        if s.ucarry[u] >= 0:
            cv.circle(x + rad * 0.6, y - rad * 0.7, size * 0.25, fill=GOLD, outline=INK)
            if s.ucarry[u] == BANK:
                cv.text(x + rad * 0.6, y - rad * 0.7, "b", fill=INK, anchor="mm")
    # side panel: score and AP per gang
    px = board_w + 10
    py = 14
    for p in range(3):
        col = seat_color(p)
        cv.token(px + 8, py + 6, 7, p)
        mark = " <" if p == s.cur and not s.done else ""
        cv.text(px + 22, py, f"player_{p}{mark}", fill=INK)
        ap = s.ap if (p == s.cur and s.phase == 2) else 0
        cv.text(
            px + 22,
            py + 14,
            f"sacks {s.delivered[p]}/{g.win_sacks}  AP {ap}/{g.base_ap + s.delivered[p]}",
            fill=INK,
        )
        bar = 180 * min(s.delivered[p] / g.win_sacks, 1.0)
        cv.rect(px + 22, py + 30, px + 202, py + 36, fill=WHITE, outline=GREY)
        cv.rect(px + 22, py + 30, px + 22 + bar, py + 36, fill=col, outline=None)
        py += 50
    if s.winner >= 0:
        status = [f"player_{s.winner} wins"]
    elif s.is_truncated:
        status = ["turn limit reached"]
    else:
        status = [f"player_{s.cur} to act", f"phase: {s.phase_name()}"]
    status.append(f"turn {s.turns}/{g.max_turns}")
    status.append("bank: broken" if broken else f"bank: {min(dmg, g.threshold)}/{g.threshold} broken")
    if not g.iid:
        status.append(f"deck {len(s.deck.draw_pile)}, discard {len(s.deck.discard)}")
    for line in status:
        cv.text(px, py, line, fill=INK)
        py += 14
    return cv.to_array()


__all__ = ["render_ansi", "render_rgb", "ORIGIN_NAMES"]
