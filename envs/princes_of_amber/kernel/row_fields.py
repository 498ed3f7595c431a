"""How Princes of Amber's State fits one compiled row of fixed width.

Plain lists of ints (the princes' and the players' lists, the attributes,
the scalars) are laid out by their declared shapes alone. What is not a flat
list of ints gets a converter here, with a fixed number of words that fits
every configuration:

- the deck: ``[draw count, discard count]`` then ``CARD_CAPACITY`` words, the
  draw pile from the front (bottom first, so the top is the last of them)
  and the discard from the back (the first discarded in the last word): a
  draw or a discard moves no other card;
- the hands: one length per seat, then every hand's cards one after the
  other, seat 0 first (together they never hold more than the deck's cards);
- ``known_hand``: per viewer and seat the count of each kind, ``-1`` in every
  word for None (nothing known);
- the frame stack: ``STACK_CAPACITY`` records of ``FRAME_WORDS`` words, each
  its kind's index in ``FRAME_KINDS`` and then its fields in declaration
  order, a list field as its length (``-1``: None) and its entries padded to
  the list's capacity; unused records are all ``-1``;
- the war: a presence word, then the :class:`War` record the same way.

The stack's depth is bounded by the rules: the bottom holds the turn's end
and its action phase, and the longest chain the push sites can build above
them is a war's Call the Guards window and its follow-up window, the act of
a card played there (a Will contest), the Succession of the prince it kills,
an Appoint and a Regent offer: 8 frames. ``STACK_CAPACITY`` leaves room
twice over; a deeper stack is refused with a ValueError rather than written
past its slot.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

import numpy as np

from meeplezoo.envs.core.cards import Deck
from meeplezoo.envs.core.fields import Dim
from meeplezoo.envs.princes_of_amber.cards import NUM_ACTIONS, NUM_KINDS, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.frames import FRAME_TYPES, Frame, War

NAME = "princes_of_amber_v1"
MOST_PLAYERS = 5
CARD_CAPACITY = 1000  # the game's MAX_DECK_CARDS (game.py imports this package's users, not the reverse)
SEEN_CAPACITY = 7  # the deepest peek: Look Ahead's seven cards (Fortune shows a die's worth, at most 6)
DICE_CAPACITY = 64  # scripted dice (a test hook) a compiled position may hold
STACK_CAPACITY = 16  # twice the deepest stack the rules build (see the module docstring)
EMPTY = -1  # the fill of unused words

DECK_WORDS = 2 + CARD_CAPACITY
HAND_WORDS = MOST_PLAYERS + CARD_CAPACITY
# the capacity of each list field of a frame or of the war, by its name
LIST_CAPACITY = {
    "queue": MOST_PLAYERS,
    "declined": MOST_PLAYERS,
    "supporters": MOST_PLAYERS,
    "lords": NUM_PRINCES,
    "losing": NUM_PRINCES,
}

LAYOUT_DIMS = {
    "players": Dim(MOST_PLAYERS, lambda game: game.num_players),
    "seen": Dim(SEEN_CAPACITY),  # a memory of the deck top ends at its first EMPTY
    "legal": Dim(NUM_ACTIONS),  # the legal list ends at its first EMPTY
    "dice": Dim(DICE_CAPACITY),  # the scripted dice end at their first 0
}


def _record_width(record_type: type) -> int:
    return sum(
        1 + LIST_CAPACITY[item.name] if item.name in LIST_CAPACITY else 1 for item in fields(record_type)
    )


def _field_offsets(record_type: type, start: int) -> dict[str, int]:
    """The word of each field of ``record_type`` in its record, the first at ``start``."""
    out, at = {}, start
    for item in fields(record_type):
        out[item.name] = at
        at += 1 + LIST_CAPACITY[item.name] if item.name in LIST_CAPACITY else 1
    return out


FRAME_KINDS: tuple[type, ...] = tuple(FRAME_TYPES.values())
FRAME_CODE = {kind: code for code, kind in enumerate(FRAME_KINDS)}
FRAME_WORDS = 1 + max(_record_width(kind) for kind in FRAME_KINDS)
# per frame kind's name: the word of each of its fields in the record (word 0 is the kind)
FRAME_FIELD_WORDS = {kind.name: _field_offsets(kind, 1) for kind in FRAME_KINDS}
WAR_WORDS = 1 + _record_width(War)
WAR_FIELD_WORDS = _field_offsets(War, 1)


def _template(kind: type) -> list[int]:
    """The record a push starts from: the kind, each default, EMPTY where the pusher must write."""
    words = [FRAME_CODE[kind]]
    for item in fields(kind):
        capacity = LIST_CAPACITY.get(item.name)
        if item.default is not MISSING:
            default = item.default
        elif item.default_factory is not MISSING:
            default = item.default_factory()
        else:
            default = EMPTY if capacity is None else None
        if capacity is None:
            words.append(int(default))
        else:
            length = EMPTY if default is None else len(default)
            words += [length] + [EMPTY] * capacity
    return words + [EMPTY] * (FRAME_WORDS - len(words))


# per frame kind (its FRAME_CODE), the words a pushed frame starts with
FRAME_TEMPLATES = np.array([_template(kind) for kind in FRAME_KINDS], dtype=np.int64)


# ---- records -----------------------------------------------------------------------------
def _record_to_words(record: Any) -> list[int]:
    words: list[int] = []
    for item in fields(record):
        value = getattr(record, item.name)
        capacity = LIST_CAPACITY.get(item.name)
        if capacity is None:
            words.append(int(value))
        elif value is None:
            words += [EMPTY] * (1 + capacity)
        else:
            if len(value) > capacity:
                raise ValueError(f"{NAME}: {item.name} {value} holds more than {capacity} entries")
            words += [len(value), *(int(entry) for entry in value), *[EMPTY] * (capacity - len(value))]
    return words


def _record_from_words(record_type: type, words: list[int]) -> Any:
    values, at = {}, 0
    for item in fields(record_type):
        capacity = LIST_CAPACITY.get(item.name)
        if capacity is None:
            values[item.name] = bool(words[at]) if item.type in ("bool", bool) else words[at]
            at += 1
            continue
        length = words[at]
        values[item.name] = None if length < 0 else words[at + 1 : at + 1 + length]
        at += 1 + capacity
    return record_type(**values)


def stack_to_row(stack: list[Frame], _state: Any) -> list[list[int]]:
    if len(stack) > STACK_CAPACITY:
        raise ValueError(
            f"{NAME}: a stack of {len(stack)} frames does not fit the compiled row's {STACK_CAPACITY}"
        )
    return [[FRAME_CODE[type(frame)], *_record_to_words(frame)] for frame in stack]


def stack_from_row(rows: list[list[int]], _game: Any) -> list[Frame]:
    stack = []
    for words in rows:
        if words[0] < 0:
            break
        stack.append(_record_from_words(FRAME_KINDS[words[0]], words[1:]))
    return stack


def war_to_row(war: War | None, _state: Any) -> list[int]:
    return [0] if war is None else [1, *_record_to_words(war)]


def war_from_row(words: list[int], _game: Any) -> War | None:
    return None if words[0] == 0 else _record_from_words(War, words[1:])


# ---- cards -------------------------------------------------------------------------------
def _check_cards(count: int, what: str) -> None:
    if count > CARD_CAPACITY:
        raise ValueError(f"{NAME}: {what} hold {count} cards, more than the compiled row's {CARD_CAPACITY}")


def deck_to_row(deck: Deck, _state: Any) -> list[int]:
    draw, discard = deck.draw_pile, deck.discard
    _check_cards(len(draw) + len(discard), "the draw pile and the discard")
    gap = CARD_CAPACITY - len(draw) - len(discard)
    return [len(draw), len(discard), *draw, *[EMPTY] * gap, *reversed(discard)]


def deck_from_row(words: list[int], _game: Any) -> Deck:
    draw, discard = words[0], words[1]
    return Deck(words[2 : 2 + draw], words[DECK_WORDS - discard :][::-1])


def hands_to_row(hands: list[list[int]], _state: Any) -> list[int]:
    _check_cards(sum(len(hand) for hand in hands), "the hands")
    lengths = [len(hand) for hand in hands] + [0] * (MOST_PLAYERS - len(hands))
    return lengths + [card for hand in hands for card in hand]


def hands_from_row(words: list[int], game: Any) -> list[list[int]]:
    hands, at = [], MOST_PLAYERS
    for player in range(game.num_players):
        hands.append(words[at : at + words[player]])
        at += words[player]
    return hands


def known_hand_to_row(known_hand: list[list], _state: Any) -> list[list[list[int]]]:
    return [[[EMPTY] * NUM_KINDS if known is None else known for known in row] for row in known_hand]


def known_hand_from_row(rows: list[list[list[int]]], _game: Any) -> list[list]:
    return [[None if known[0] < 0 else known for known in row] for row in rows]


def dice_to_row(dice: list[int], _state: Any) -> list[int]:
    if len(dice) > DICE_CAPACITY:
        raise ValueError(f"{NAME}: {len(dice)} scripted dice do not fit the compiled row's {DICE_CAPACITY}")
    return dice
