"""Chance and cards in the row: the dice, the draw, the discard, the reshuffle,
peeks and revealed hands, as ``hands.HandsAndMemories`` does them (the same
generator words drawn in the same order), with the per-kind hand counts and
every player's memories kept in step.

The hands are packed one after the other (``slots.HAND_CARDS``): a card
joining or leaving seat ``p``'s hand moves the later seats' cards by one
word, a few dozen at most."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.cards import NUM_KINDS
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    DICE_CAPACITY,
    EMPTY,
    MOST_PLAYERS,
    SEEN_CAPACITY,
)

# int64 constants (a plain int would compile the generator's draw once more for its literal)
ONE, SEVEN = np.int64(1), np.int64(7)


@njit
def generator(state):
    """The row's generator words, as the uint64 array ``pcg64`` advances."""
    return state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)


@njit
def d6(state):
    """One die: the next scripted result if any is left, else a roll (``HandsAndMemories.d6``)."""
    used = state[S.DICE_USED]
    if used < DICE_CAPACITY and state[S.DICE + used] > 0:
        state[S.DICE_USED] = used + 1
        return state[S.DICE + used]
    return pcg64.bounded(generator(state), ONE, SEVEN)


@njit
def hand_start(state, player):
    """The word of seat ``player``'s first card."""
    at = S.HAND_CARDS
    for seat in range(player):
        at += state[S.HAND_LENGTHS + seat]
    return at


@njit
def _hands_end(state):
    at = S.HAND_CARDS
    for seat in range(MOST_PLAYERS):
        at += state[S.HAND_LENGTHS + seat]
    return at


@njit
def forget_deck_tops(state):
    for k in range(MOST_PLAYERS * SEEN_CAPACITY):
        state[S.KNOWN_TOP + k] = EMPTY


@njit
def reshuffle(state):
    """The discard, shuffled, goes under the draw pile; every memory of the deck top is void."""
    count, pile = state[S.DISCARD_COUNT], state[S.DRAW_COUNT]
    discard = np.empty(count, dtype=np.int64)
    for k in range(count):
        discard[k] = state[S.DECK_END - 1 - k]
        state[S.DECK_END - 1 - k] = EMPTY
    for k in range(pile - 1, -1, -1):
        state[S.CARDS + count + k] = state[S.CARDS + k]
    pcg64.shuffle(generator(state), discard, count)
    for k in range(count):
        state[S.CARDS + k] = discard[k]
    state[S.DRAW_COUNT], state[S.DISCARD_COUNT] = pile + count, 0
    forget_deck_tops(state)


@njit
def _known_top_length(state, player):
    at = S.KNOWN_TOP + player * SEEN_CAPACITY
    for depth in range(SEEN_CAPACITY):
        if state[at + depth] == EMPTY:
            return depth
    return SEEN_CAPACITY


@njit
def _remember_draw(state, player, kind):
    """Whoever knew the deck top knows what ``player`` just drew."""
    for other in range(state[S.NUM_PLAYERS]):
        at = S.KNOWN_TOP + other * SEEN_CAPACITY
        if state[at] == EMPTY:
            continue
        for depth in range(SEEN_CAPACITY - 1):
            state[at + depth] = state[at + depth + 1]
        state[at + SEEN_CAPACITY - 1] = EMPTY
        if other != player:
            known = S.KNOWN_HAND + (other * MOST_PLAYERS + player) * NUM_KINDS
            if state[known] == EMPTY:
                for k in range(NUM_KINDS):
                    state[known + k] = 0
            state[known + kind] += 1


@njit
def draw(state, game, player, count):
    """``player`` draws ``count`` cards (the discard is reshuffled when the pile runs out)."""
    for _ in range(count):
        if state[S.DRAW_COUNT] == 0:
            if state[S.DISCARD_COUNT] == 0:
                return
            reshuffle(state)
        top = state[S.DRAW_COUNT] - 1
        card = state[S.CARDS + top]
        state[S.CARDS + top] = EMPTY
        state[S.DRAW_COUNT] = top
        at = hand_start(state, player) + state[S.HAND_LENGTHS + player]
        for k in range(_hands_end(state), at, -1):
            state[k] = state[k - 1]
        state[at] = card
        state[S.HAND_LENGTHS + player] += 1
        kind = game[S.G_CARD_KIND + card]
        state[S.HAND_KINDS + player * NUM_KINDS + kind] += 1
        _remember_draw(state, player, kind)


@njit
def take_card(state, game, player, kind):
    """Move the last card of ``kind`` in ``player``'s hand to the discard (public)."""
    start = hand_start(state, player)
    at = start + state[S.HAND_LENGTHS + player] - 1
    while at >= start and game[S.G_CARD_KIND + state[at]] != kind:
        at -= 1
    if at < start:
        raise ValueError("take_card: the hand holds no card of that kind")
    card = state[at]
    end = _hands_end(state)
    for k in range(at, end - 1):
        state[k] = state[k + 1]
    state[end - 1] = EMPTY
    state[S.HAND_LENGTHS + player] -= 1
    discarded = state[S.DISCARD_COUNT]
    state[S.DECK_END - 1 - discarded] = card
    state[S.DISCARD_COUNT] = discarded + 1
    state[S.HAND_KINDS + player * NUM_KINDS + kind] -= 1
    for other in range(state[S.NUM_PLAYERS]):
        known = S.KNOWN_HAND + (other * MOST_PLAYERS + player) * NUM_KINDS
        if other != player and state[known] != EMPTY and state[known + kind] > 0:
            state[known + kind] -= 1


@njit
def peek(state, game, player, count):
    """``player`` looks at the top ``count`` cards of the deck (he keeps what he saw deeper)."""
    if state[S.DRAW_COUNT] == 0 and state[S.DISCARD_COUNT] > 0:
        reshuffle(state)
    pile = state[S.DRAW_COUNT]
    seen = min(pile, max(count, _known_top_length(state, player)))
    at = S.KNOWN_TOP + player * SEEN_CAPACITY
    for depth in range(seen):
        state[at + depth] = game[S.G_CARD_KIND + state[S.CARDS + pile - 1 - depth]]
    for depth in range(seen, SEEN_CAPACITY):
        state[at + depth] = EMPTY


@njit
def reveal_hand(state, viewer, holder):
    """``viewer`` sees the hand of ``holder``."""
    known = S.KNOWN_HAND + (viewer * MOST_PLAYERS + holder) * NUM_KINDS
    for k in range(NUM_KINDS):
        state[known + k] = state[S.HAND_KINDS + holder * NUM_KINDS + k]
