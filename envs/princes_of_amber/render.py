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


def _owner(state, prince: int) -> str:
    c = state.controller[prince]
    if c < 0:
        return "neutral"
    return f"player_{c}" + (" PP" if state.player_prince[c] == prince else " ally")


def _status(state, prince: int) -> str:
    if not state.alive[prince]:
        return "dead"
    return f"captured by player_{state.jailer[prince]}" if state.captured[prince] else "free"


def _extras(state, prince: int) -> list[str]:
    extra = []
    if state.armies[prince]:
        extra.append(f"armies {state.armies[prince]}")
    if state.amnesia[prince]:
        extra.append(f"amnesia {state.amnesia[prince]}")
    if state.psychic_hold[prince]:
        extra.append("held -7")
    if state.acted[prince]:
        extra.append("acted")
    return extra


def _attributes(state, prince: int) -> str:
    at = state.attributes[prince]
    return f"F{at[1]} Wi{at[2]} Wl{at[3]} L{at[4]}"


def _prince_line(state, prince: int) -> str:
    at = state.attributes[prince]
    return (
        f"  {PRINCE_NAMES[prince]:<9} {ROLE_NAMES[state.role[prince]]:<18} "
        f"{_owner(state, prince):<15} {_status(state, prince):<22} "
        f"hits {state.hits[prince]:>2}/{at[0]:<2} {_attributes(state, prince)} "
        + " ".join(_extras(state, prince))
    ).rstrip()


def _hand_text(state, player: int, viewer) -> str:
    """The hand as 'card <name>' moves name its cards, or only its size."""
    if viewer is not None and viewer != player:
        return f"{len(state.hands[player])} cards (hidden)"
    counts = state.hand_kinds[player]
    parts = [f"{KIND_NAMES[k].lower()} x{counts[k]}" for k in range(NUM_KINDS) if counts[k]]
    return ", ".join(parts) if parts else "(empty)"


def _seat_line(state, player: int, viewer) -> str:
    standing = "in game" if state.in_game[player] else f"out (#{state.elimination_order[player] + 1})"
    return f"player_{player} [{standing}] hand: {_hand_text(state, player, viewer)}"


def _headline(state) -> str:
    ctl = "neutral" if state.amber < 0 else f"player_{state.amber}"
    holds = ", ".join(str(h) for h in state.hold_count)
    return (
        f"AMBER  controller {ctl}  garrison {state.garrison}  turns held per player [{holds}]  "
        f"turn {state.turns}/{state.game.max_turns}  turn player player_{state.turn_player}"
    )


def _footline(state) -> str:
    if state.winner >= 0:
        return f"GAME OVER: player_{state.winner} wins"
    if state.turn_limit_reached:
        return "GAME OVER: turn limit reached"
    return f"Phase {state.phase_name()}, player_{state.deciding_player} to decide"


def _lords_and_exiles(state) -> tuple[list[int], list[int]]:
    lords = sorted(
        (i for i in range(NUM_PRINCES) if state.role[i] != EXILE), key=lambda prince: state.role[prince]
    )
    exiles = [i for i in range(NUM_PRINCES) if state.role[i] == EXILE]
    return lords, exiles


def render_ansi(state, viewer=None) -> str:
    lines = [_headline(state)]
    lords, exiles = _lords_and_exiles(state)
    lines.append("Lords in Amber:")
    lines += [_prince_line(state, i) for i in lords] or ["  (none)"]
    lines.append("Exiles in Shadow:")
    lines += [_prince_line(state, i) for i in exiles]
    lines.append(f"Deck {len(state.deck.draw_pile)}  discard {len(state.deck.discard)}")
    lines += [_seat_line(state, player, viewer) for player in range(state.num_players)]
    lines.append(_footline(state))
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


def _legend_keys(state) -> list[Key]:
    keys = [
        Key(f"player_{player}", lighten(seat_color(player), 0.6), "box")
        for player in range(state.num_players)
    ]
    keys += [
        Key("neutral", WHITE, "box"),
        Key("dead", DEAD_FILL, "box"),
        Key("thick edge: PP, the player's own prince", WHITE, "box"),
        Key("armies", seat_color(0), "disc", INK, "3", WHITE),
        Key("Fight 8 (Wi Wit, Wl Will, L Leadership); hits: left / most", None, "text", None, "F8"),
    ]
    return keys


def render_rgb(state, viewer=None) -> np.ndarray:
    """The princes as cards in Amber and in Shadow, each seat's hand (the
    viewer's only) wrapped to the width, and a legend."""
    pad = PAD
    text_w = WIDTH - 2 * pad
    head = _headline(state)
    seats = [_seat_line(state, player, viewer) for player in range(state.num_players)]
    foot = _footline(state) + f"   deck {len(state.deck.draw_pile)}, discard {len(state.deck.discard)}"
    keys = _legend_keys(state)
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
    lords, exiles = _lords_and_exiles(state)
    for title, group, fill in (("Amber", lords, AMBER_FILL), ("Shadow", exiles, SHADOW_FILL)):
        cv.rect(pad // 2, y, WIDTH - pad // 2, y + zone_h, fill=fill)
        cv.text(pad, y + 4, title)
        step = min(CARD_W + 4, (WIDTH - 2 * pad) // max(1, len(group)))
        for j, i in enumerate(group):
            _card(cv, state, i, pad + j * step, y + 22, min(CARD_W, step - 4), CARD_H)
        y += zone_h + 8
    for player, text in enumerate(seats):
        cv.rect(pad, y + 2, pad + 14, y + 16, fill=seat_color(player) if state.in_game[player] else GREY)
        cv.paragraph(pad + 22, y + 2, text, SEAT_TEXT_W)
        y += _seat_height(text)
    y = cv.paragraph(pad, y, foot, text_w) + 8
    cv.legend(pad, y, keys, text_w)
    return cv.to_array()


def _card(cv: Canvas, state, prince: int, x0: int, y0: int, width: int, height: int) -> None:
    """One prince: name, role, owner, hits and attributes, then what is
    special (captured, armies, amnesia...); lines that do not fit end in '…'."""
    c = state.controller[prince]
    pp = c >= 0 and state.player_prince[c] == prince
    fill = WHITE if c < 0 else lighten(seat_color(c), 0.6)
    if not state.alive[prince]:
        fill = DEAD_FILL
    cv.rect(x0, y0, x0 + width, y0 + height, fill=fill, outline=INK, width=3 if pp else 1)
    at = state.attributes[prince]
    room = width - 8
    lines = [
        (PRINCE_NAMES[prince] + (" (PP)" if pp else ""), INK, TEXT_SIZE),
        (ROLE_NAMES[state.role[prince]], INK, LABEL_SIZE),
        (_owner(state, prince), INK, LABEL_SIZE),
        (f"hits {state.hits[prince]}/{at[0]}", INK, LABEL_SIZE),
        (_attributes(state, prince), INK, LABEL_SIZE),
    ]
    if not state.alive[prince]:
        lines.append(("dead", WHITE, LABEL_SIZE))
    elif state.captured[prince]:
        lines.append((f"captured by player_{state.jailer[prince]}", CAPTURED_INK, LABEL_SIZE))
    rest = [e for e in _extras(state, prince) if not e.startswith("armies")]
    if rest:
        lines.append((", ".join(rest), INK, LABEL_SIZE))
    y = y0 + 3
    for text, ink, size in lines:
        if y + line_height(size) > y0 + height - 2:
            break
        near_token = state.armies[prince] and y + line_height(size) > y0 + height - 26
        cv.text(x0 + 4, y, text, fill=ink, size=size, max_width=room - 24 if near_token else room)
        y += line_height(size)
    if state.armies[prince]:
        cv.token(x0 + width - 14, y0 + height - 14, 10, c if c >= 0 else None, str(state.armies[prince]))
