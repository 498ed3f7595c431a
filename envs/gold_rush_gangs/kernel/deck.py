"""Chance in the row: the card draw (a deck or independent cards), the
first-player draw and ``new_initial_state``'s deal, as ``rules.py`` draws
them from the same generator words."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.pieces import (
    BANK,
    DEPLOY_PHASE,
    NUM_ORIGINS,
    NUM_SEATS,
    NUM_UNITS,
    STORE,
    STORE_PHASE,
)

DECK_SIZE = 52
# int64 constants (a plain int would compile the generator's draw once more for its literal)
ZERO, CARDS = np.int64(0), np.int64(DECK_SIZE)
NOWHERE = -1


@njit(inline="always")
def generator(state):
    """The row's generator words, as the uint64 array ``pcg64`` advances."""
    return state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)


@njit_borrowing
def rank_of(card):
    """card_rank: 1 (Ace) .. 13 (King)."""
    return card % 13 + 1


@njit_borrowing
def draw(state, game):
    """_draw: a uniform card id (``deck_mode='iid'``) or the deck's top card,
    the discard shuffled under an empty draw pile first (Deck.draw)."""
    if game[S.G_INDEPENDENT_DRAWS]:
        return pcg64.bounded(generator(state), ZERO, CARDS)
    count = state[S.DRAW_COUNT]
    if count == 0:
        count = state[S.DISCARD_COUNT]
        if count == 0:
            return NOWHERE  # no card anywhere: never, 52 cards and at most 8 in a fight
        pcg64.shuffle(generator(state), state[S.DISCARD : S.DISCARD + count], count)
        for k in range(count):
            state[S.DRAW_PILE + k] = state[S.DISCARD + k]
            state[S.DISCARD + k] = NOWHERE
        state[S.DISCARD_COUNT] = 0
    count -= 1
    card = state[S.DRAW_PILE + count]
    state[S.DRAW_PILE + count] = NOWHERE
    state[S.DRAW_COUNT] = count
    return card


@njit_borrowing
def discard(state, game, card):
    """A card drawn goes to the discard at once (not with ``deck_mode='iid'``)."""
    if not game[S.G_INDEPENDENT_DRAWS]:
        count = state[S.DISCARD_COUNT]
        state[S.DISCARD + count] = card
        state[S.DISCARD_COUNT] = count + 1


@njit
def draw_first_player(state, game):
    """draw_first_player: each contender draws, the highest rank starts, ties draw again."""
    contenders = (1 << NUM_SEATS) - 1
    drawn = np.zeros(NUM_SEATS, dtype=np.int64)
    round_index = 0
    while True:
        at = S.FIRST_DRAW + round_index * S.ROUND_WORDS
        pair = 0
        for seat in range(NUM_SEATS):
            if contenders >> seat & 1:
                drawn[seat] = draw(state, game)
                if round_index < S.MOST_DRAW_ROUNDS:
                    state[at + 2 * pair], state[at + 2 * pair + 1] = seat, drawn[seat]
                pair += 1
        best = 0
        for seat in range(NUM_SEATS):
            if contenders >> seat & 1:
                discard(state, game, drawn[seat])
                best = max(best, rank_of(drawn[seat]))
        winners, last = 0, 0
        for seat in range(NUM_SEATS):
            if contenders >> seat & 1 and rank_of(drawn[seat]) == best:
                winners, last = winners + 1, seat
            elif contenders >> seat & 1:
                contenders ^= 1 << seat
        if winners == 1:
            return last
        round_index += 1


@njit_borrowing
def clear(state):
    """Every word as an empty row holds it (the layout's fills)."""
    for k in range(S.STATE_WIDTH):
        state[k] = 0
    for k in range(S.DECK, S.DECK + S.DECK_WORDS):
        state[k] = NOWHERE
    for unit in range(NUM_UNITS):
        state[S.UNIT_CELL + unit] = NOWHERE
        state[S.UNIT_CARRYING + unit] = NOWHERE
    for cell in range(S.MOST_CELLS):
        state[S.OCCUPANT + cell] = NOWHERE
    for k in range(NUM_SEATS):
        state[S.STORES + k] = NOWHERE
    for k in range(S.MOST_FIGHTS * S.FIGHT_WORDS):
        state[S.LAST_COMBAT + k] = NOWHERE
    for k in range(S.MOST_DRAW_ROUNDS * S.ROUND_WORDS):
        state[S.FIRST_DRAW + k] = NOWHERE


@njit
def new_game(state, game, seed):
    """new_initial_state(seed): a shuffled deck, the fixed stores unless they
    are chosen, the bank's gold, then the first-player draw."""
    clear(state)
    pcg64.seed(generator(state), seed)
    for card in range(DECK_SIZE):
        state[S.DRAW_PILE + card] = card
    pcg64.shuffle(generator(state), state[S.DRAW_PILE : S.DRAW_PILE + DECK_SIZE], DECK_SIZE)
    state[S.DRAW_COUNT], state[S.DISCARD_COUNT] = DECK_SIZE, 0
    state[S.SACKS + game[S.G_BANK] * NUM_ORIGINS + BANK] = game[S.G_BANK_SACKS]
    if not game[S.G_CHOOSE_STORES]:
        for k in range(NUM_SEATS):
            cell = game[S.G_FIXED_STORES + k]
            state[S.STORES + k] = cell
            state[S.SACKS + cell * NUM_ORIGINS + STORE] = 1
    state[S.WINNER] = NOWHERE
    state[S.PHASE] = STORE_PHASE if game[S.G_CHOOSE_STORES] else DEPLOY_PHASE
    first = draw_first_player(state, game)
    state[S.FIRST_PLAYER], state[S.ACTING_SEAT] = first, first
