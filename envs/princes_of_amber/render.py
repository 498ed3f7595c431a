"""Pictures of the table: text (ansi) and an RGB image.

A viewer sees its own hand face up and only the sizes of the other hands;
viewer None (a spectator) sees every hand.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.draw import GREY, INK, WHITE, Canvas, lighten, seat_color
from meeplezoo.envs.princes_of_amber.cards import (
    EXILE,
    KIND_NAMES,
    NUM_KINDS,
    NUM_PRINCES,
    PRINCE_NAMES,
    ROLE_NAMES,
)


def _owner(s, i: int) -> str:
    c = s.ctrl[i]
    if c < 0:
        return "neutral"
    return f"P{c}" + (" PP" if s.pp[c] == i else " ally")


def _prince_line(s, i: int) -> str:
    at = s.attrs[i]
    status = "dead" if not s.alive[i] else (f"captured by P{s.jailer[i]}" if s.captured[i] else "free")
    extra = []
    if s.armies[i]:
        extra.append(f"armies {s.armies[i]}")
    if s.amnesia[i]:
        extra.append(f"amnesia {s.amnesia[i]}")
    if s.hold[i]:
        extra.append("held -7")
    if s.acted[i]:
        extra.append("acted")
    return (
        f"  {PRINCE_NAMES[i]:<9} {ROLE_NAMES[s.role[i]]:<18} {_owner(s, i):<10} {status:<14} "
        f"hits {s.hits[i]:>2}/{at[0]:<2} F{at[1]} Wi{at[2]} Wl{at[3]} L{at[4]} " + " ".join(extra)
    ).rstrip()


def _hand_text(s, p: int) -> str:
    counts = s.hk[p]
    parts = [f"{KIND_NAMES[k].lower()}x{counts[k]}" for k in range(NUM_KINDS) if counts[k]]
    return ", ".join(parts) if parts else "(empty)"


def render_ansi(s, viewer=None) -> str:
    lines = []
    ctl = "neutral" if s.amber < 0 else f"P{s.amber}"
    lines.append(
        f"AMBER  controller {ctl}  garrison {s.G}  hold {s.hold_count}  turn {s.turns}"
        f"/{s.game.max_turns}  turn player P{s.turn_player}"
    )
    lords = [i for i in range(NUM_PRINCES) if s.role[i] != EXILE]
    exiles = [i for i in range(NUM_PRINCES) if s.role[i] == EXILE]
    lines.append("Lords in Amber:")
    lines += [_prince_line(s, i) for i in sorted(lords, key=lambda i: s.role[i])] or ["  (none)"]
    lines.append("Exiles in Shadow:")
    lines += [_prince_line(s, i) for i in exiles]
    lines.append(f"Deck {len(s.deck.draw_pile)}  discard {len(s.deck.discard)}")
    for p in range(s.n):
        state = "in game" if s.in_game[p] else f"out (#{s.elim_order[p] + 1})"
        if viewer is None or viewer == p:
            hand = _hand_text(s, p)
        else:
            hand = f"{len(s.hands[p])} cards"
        lines.append(f"P{p} [{state}] hand: {hand}")
    if s.winner >= 0:
        lines.append(f"GAME OVER: P{s.winner} wins")
    elif s.trunc:
        lines.append("GAME OVER: turn limit reached")
    else:
        lines.append(f"Phase {s.phase_name()}, P{s.cur} to decide")
    return "\n".join(lines)


def render_rgb(s, viewer=None) -> np.ndarray:
    width, card_w, card_h = 760, 150, 96
    rows = 2 + (s.n + 1) // 2
    height = 40 + 2 * (card_h + 30) + 26 * s.n + 40
    cv = Canvas(width, height)
    ctl = "neutral" if s.amber < 0 else f"P{s.amber}"
    cv.text(10, 8, f"AMBER - controller {ctl} - garrison {s.G} - turn {s.turns} - {s.phase_name()}")
    cv.rect(5, 24, width - 5, 24 + card_h + 20, fill=lighten((200, 170, 60), 0.7))
    cv.text(10, 28, "Amber")
    lords = sorted((i for i in range(NUM_PRINCES) if s.role[i] != EXILE), key=lambda i: s.role[i])
    exiles = [i for i in range(NUM_PRINCES) if s.role[i] == EXILE]
    y_ex = 24 + card_h + 30
    cv.rect(5, y_ex, width - 5, y_ex + card_h + 20, fill=lighten((90, 90, 140), 0.75))
    cv.text(10, y_ex + 4, "Shadow")
    for _row, group, y0 in ((0, lords, 42), (1, exiles, y_ex + 18)):
        step = min(card_w + 4, (width - 20) // max(1, len(group)))
        for j, i in enumerate(group):
            x0 = 10 + j * step
            _card(cv, s, i, x0, y0, min(card_w, step - 4), card_h)
    y = y_ex + card_h + 30
    for p in range(s.n):
        col = seat_color(p) if s.in_game[p] else GREY
        cv.rect(10, y, 24, y + 14, fill=col)
        if viewer is None or viewer == p:
            hand = _hand_text(s, p)
        else:
            hand = f"{len(s.hands[p])} cards"
        status = "" if s.in_game[p] else " (out)"
        cv.text(30, y + 2, f"P{p}{status}: {hand}"[:120])
        y += 26
    del rows
    return cv.to_array()


def _card(cv: Canvas, s, i: int, x0: int, y0: int, w: int, h: int) -> None:
    c = s.ctrl[i]
    fill = WHITE if c < 0 else lighten(seat_color(c), 0.6)
    if not s.alive[i]:
        fill = (120, 120, 120)
    cv.rect(x0, y0, x0 + w, y0 + h, fill=fill, outline=INK, width=2 if c >= 0 and s.pp[c] == i else 1)
    at = s.attrs[i]
    cv.text(x0 + 4, y0 + 3, PRINCE_NAMES[i] + (" (PP)" if c >= 0 and s.pp[c] == i else ""))
    cv.text(x0 + 4, y0 + 17, ROLE_NAMES[s.role[i]][:20])
    cv.text(x0 + 4, y0 + 31, f"hits {s.hits[i]}/{at[0]}")
    cv.text(x0 + 4, y0 + 45, f"F{at[1]} Wi{at[2]} Wl{at[3]} L{at[4]}")
    if s.armies[i]:
        cv.token(x0 + w - 14, y0 + h - 14, 10, c if c >= 0 else None, str(s.armies[i]))
    if s.captured[i]:
        cv.text(x0 + 4, y0 + 59, f"CAPTURED by P{s.jailer[i]}", fill=(170, 0, 0))
    if s.amnesia[i]:
        cv.text(x0 + 4, y0 + 73, f"amnesia {s.amnesia[i]}")
