"""Pictures of the table: text (ansi) and an RGB image.

A viewer sees its own hand face up and only the sizes of the other hands;
viewer None (a spectator) sees every hand. Princes and cards are named as
the moves name them (``prince eric``, ``card fight``).
"""

from __future__ import annotations

import numpy as np

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
)
from meeplezoo.envs.core.textgrid import legend_lines
from meeplezoo.envs.princes_of_amber.cards import (
    EXILE,
    KIND_NAMES,
    NUM_KINDS,
    NUM_PRINCES,
    PRINCE_NAMES,
    ROLE_NAMES,
)

ATTRIBUTE_LEGEND = (
    ("hits a/b", "a hits left of b"),
    ("F", "Fight"),
    ("Wi", "Wit"),
    ("Wl", "Will"),
    ("L", "Leadership"),
    ("PP", "the player's own prince"),
    ("ally", "a prince the player won over"),
    ("held -7", "psychic hold: -7 in his next contest"),
)
AMBER_FILL = lighten((200, 170, 60), 0.7)
SHADOW_FILL = lighten((90, 90, 140), 0.75)
DEAD_FILL = (120, 120, 120)
CAPTURED_INK = (170, 0, 0)


def _owner(s, i: int) -> str:
    c = s.controller[i]
    if c < 0:
        return "neutral"
    return f"player_{c}" + (" PP" if s.player_prince[c] == i else " ally")


def _status(s, i: int) -> str:
    if not s.alive[i]:
        return "dead"
    return f"captured by player_{s.jailer[i]}" if s.captured[i] else "free"


def _extras(s, i: int) -> list[str]:
    extra = []
    if s.armies[i]:
        extra.append(f"armies {s.armies[i]}")
    if s.amnesia[i]:
        extra.append(f"amnesia {s.amnesia[i]}")
    if s.psychic_hold[i]:
        extra.append("held -7")
    if s.acted[i]:
        extra.append("acted")
    return extra


def _attributes(s, i: int) -> str:
    at = s.attributes[i]
    return f"F{at[1]} Wi{at[2]} Wl{at[3]} L{at[4]}"


def _prince_line(s, i: int) -> str:
    at = s.attributes[i]
    return (
        f"  {PRINCE_NAMES[i]:<9} {ROLE_NAMES[s.role[i]]:<18} {_owner(s, i):<15} {_status(s, i):<22} "
        f"hits {s.hits[i]:>2}/{at[0]:<2} {_attributes(s, i)} " + " ".join(_extras(s, i))
    ).rstrip()


def _hand_text(s, p: int, viewer) -> str:
    """The hand as 'card <name>' moves name its cards, or only its size."""
    if viewer is not None and viewer != p:
        return f"{len(s.hands[p])} cards (hidden)"
    counts = s.hand_kinds[p]
    parts = [f"{KIND_NAMES[k].lower()} x{counts[k]}" for k in range(NUM_KINDS) if counts[k]]
    return ", ".join(parts) if parts else "(empty)"


def _seat_line(s, p: int, viewer) -> str:
    state = "in game" if s.in_game[p] else f"out (#{s.elimination_order[p] + 1})"
    return f"player_{p} [{state}] hand: {_hand_text(s, p, viewer)}"


def _headline(s) -> str:
    ctl = "neutral" if s.amber < 0 else f"player_{s.amber}"
    holds = ", ".join(str(h) for h in s.hold_count)
    return (
        f"AMBER  controller {ctl}  garrison {s.garrison}  turns held per player [{holds}]  "
        f"turn {s.turns}/{s.game.max_turns}  turn player player_{s.turn_player}"
    )


def _footline(s) -> str:
    if s.winner >= 0:
        return f"GAME OVER: player_{s.winner} wins"
    if s.turn_limit_reached:
        return "GAME OVER: turn limit reached"
    return f"Phase {s.phase_name()}, player_{s.deciding_player} to decide"


def _lords_and_exiles(s) -> tuple[list[int], list[int]]:
    lords = sorted((i for i in range(NUM_PRINCES) if s.role[i] != EXILE), key=lambda i: s.role[i])
    exiles = [i for i in range(NUM_PRINCES) if s.role[i] == EXILE]
    return lords, exiles


def render_ansi(s, viewer=None) -> str:
    lines = [_headline(s)]
    lords, exiles = _lords_and_exiles(s)
    lines.append("Lords in Amber:")
    lines += [_prince_line(s, i) for i in lords] or ["  (none)"]
    lines.append("Exiles in Shadow:")
    lines += [_prince_line(s, i) for i in exiles]
    lines.append(f"Deck {len(s.deck.draw_pile)}  discard {len(s.deck.discard)}")
    lines += [_seat_line(s, p, viewer) for p in range(s.num_players)]
    lines.append(_footline(s))
    lines.append("")
    lines += legend_lines("princes", ATTRIBUTE_LEGEND)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- RGB
WIDTH = 780
CARD_W, CARD_H = 150, 122
PAD = 10
SEAT_TEXT_W = WIDTH - 2 * PAD - 24


def _seat_height(text: str) -> int:
    """Height of one seat's wrapped hand line, with the gap below it."""
    return max(line_height(), 2 + paragraph_height(text, SEAT_TEXT_W)) + 6


def _legend_keys(s) -> list[Key]:
    keys = [Key(f"player_{p}", lighten(seat_color(p), 0.6), "box") for p in range(s.num_players)]
    keys += [
        Key("neutral", WHITE, "box"),
        Key("dead", DEAD_FILL, "box"),
        Key("thick edge: PP, the player's own prince", WHITE, "box"),
        Key("armies", seat_color(0), "disc", INK, "3", WHITE),
        Key("Fight 8 (Wi Wit, Wl Will, L Leadership); hits: left / most", None, "text", None, "F8"),
    ]
    return keys


def render_rgb(s, viewer=None) -> np.ndarray:
    """The princes as cards in Amber and in Shadow, each seat's hand (the
    viewer's only) wrapped to the width, and a legend."""
    pad = PAD
    text_w = WIDTH - 2 * pad
    head = _headline(s)
    seats = [_seat_line(s, p, viewer) for p in range(s.num_players)]
    foot = _footline(s) + f"   deck {len(s.deck.draw_pile)}, discard {len(s.deck.discard)}"
    keys = _legend_keys(s)
    zone_h = CARD_H + 30
    height = (
        6
        + paragraph_height(head, text_w)
        + 6
        + 2 * (zone_h + 8)
        + sum(_seat_height(t) for t in seats)
        + paragraph_height(foot, text_w)
        + 8
        + legend_height(keys, text_w)
        + pad
    )
    cv = Canvas(WIDTH, height)
    y = cv.paragraph(pad, 6, head, text_w) + 6
    lords, exiles = _lords_and_exiles(s)
    for title, group, fill in (("Amber", lords, AMBER_FILL), ("Shadow", exiles, SHADOW_FILL)):
        cv.rect(pad // 2, y, WIDTH - pad // 2, y + zone_h, fill=fill)
        cv.text(pad, y + 4, title)
        step = min(CARD_W + 4, (WIDTH - 2 * pad) // max(1, len(group)))
        for j, i in enumerate(group):
            _card(cv, s, i, pad + j * step, y + 22, min(CARD_W, step - 4), CARD_H)
        y += zone_h + 8
    for p, text in enumerate(seats):
        cv.rect(pad, y + 2, pad + 14, y + 16, fill=seat_color(p) if s.in_game[p] else GREY)
        cv.paragraph(pad + 22, y + 2, text, SEAT_TEXT_W)
        y += _seat_height(text)
    y = cv.paragraph(pad, y, foot, text_w) + 8
    cv.legend(pad, y, keys, text_w)
    return cv.to_array()


def _card(cv: Canvas, s, i: int, x0: int, y0: int, w: int, h: int) -> None:
    """One prince: name, role, owner, hits and attributes, then what is
    special (captured, armies, amnesia...); lines that do not fit end in '…'."""
    c = s.controller[i]
    pp = c >= 0 and s.player_prince[c] == i
    fill = WHITE if c < 0 else lighten(seat_color(c), 0.6)
    if not s.alive[i]:
        fill = DEAD_FILL
    cv.rect(x0, y0, x0 + w, y0 + h, fill=fill, outline=INK, width=3 if pp else 1)
    at = s.attributes[i]
    room = w - 8
    lines = [
        (PRINCE_NAMES[i] + (" (PP)" if pp else ""), INK, TEXT_SIZE),
        (ROLE_NAMES[s.role[i]], INK, LABEL_SIZE),
        (_owner(s, i), INK, LABEL_SIZE),
        (f"hits {s.hits[i]}/{at[0]}", INK, LABEL_SIZE),
        (_attributes(s, i), INK, LABEL_SIZE),
    ]
    if not s.alive[i]:
        lines.append(("dead", WHITE, LABEL_SIZE))
    elif s.captured[i]:
        lines.append((f"captured by player_{s.jailer[i]}", CAPTURED_INK, LABEL_SIZE))
    rest = [e for e in _extras(s, i) if not e.startswith("armies")]
    if rest:
        lines.append((", ".join(rest), INK, LABEL_SIZE))
    y = y0 + 3
    for text, ink, size in lines:
        if y + line_height(size) > y0 + h - 2:
            break
        near_token = s.armies[i] and y + line_height(size) > y0 + h - 26
        cv.text(x0 + 4, y, text, fill=ink, size=size, max_width=room - 24 if near_token else room)
        y += line_height(size)
    if s.armies[i]:
        cv.token(x0 + w - 14, y0 + h - 14, 10, c if c >= 0 else None, str(s.armies[i]))
