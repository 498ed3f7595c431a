"""The redeal of what one seat cannot see, in the row (``determinize.py``):
the draw pile and the other hands form one pool, taken in card-id order;
the seat's memories are honoured (the deck top he saw stays on top, the
cards he knows in a hand stay there), the others' memories are refitted,
and the rest is dealt from one permutation drawn from the searcher's
generator words. While another player is asked a card window, the redeal is
drawn again (up to ``REDEALS_FOR_A_WINDOW`` times) until that window would
really be put to him; then the copy's generator is seeded by one more draw
and its scripted dice are dropped."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.core.rng import SEED_BOUND
from meeplezoo.envs.princes_of_amber.cards import A_CARD, A_NONCARD, NUM_ACTIONS, NUM_KINDS
from meeplezoo.envs.princes_of_amber.determinize import REDEALS_FOR_A_WINDOW
from meeplezoo.envs.princes_of_amber.kernel import decisions, stack
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    DICE_CAPACITY,
    EMPTY,
    FRAME_WORDS,
    MOST_PLAYERS,
    SEEN_CAPACITY,
)

ZERO, DRAW_SEED_BOUND = np.int64(0), np.int64(SEED_BOUND)


@njit
def take_largest(game, in_pool, kind):
    """The pool's highest card id of ``kind``, taken out of the pool."""
    for card in range(len(in_pool) - 1, -1, -1):
        if in_pool[card] and game[S.G_CARD_KIND + card] == kind:
            in_pool[card] = False
            return card
    return -1


@njit
def hand_bounds(state, player):
    start = S.HAND_CARDS
    for seat in range(player):
        start += state[S.HAND_LENGTHS + seat]
    return start, start + state[S.HAND_LENGTHS + player]


@njit
def split_pool(state, game, seat, in_pool, top, forced, forced_count):
    """unseen_cards: the seat's known deck top (top first) and known cards of each
    other hand are taken out of the pool, highest ids first; returns the top's length."""
    seats = state[S.NUM_PLAYERS]
    for k in range(state[S.DRAW_COUNT]):
        in_pool[state[S.CARDS + k]] = True
    for other in range(seats):
        if other != seat:
            start, end = hand_bounds(state, other)
            for k in range(start, end):
                in_pool[state[k]] = True
    count = 0
    for depth in range(SEEN_CAPACITY):
        kind = state[S.KNOWN_TOP + seat * SEEN_CAPACITY + depth]
        if kind == EMPTY:
            break
        top[count] = take_largest(game, in_pool, kind)
        count += 1
    for other in range(seats):
        known = S.KNOWN_HAND + (seat * MOST_PLAYERS + other) * NUM_KINDS
        if other == seat or state[known] == EMPTY:
            continue
        for kind in range(NUM_KINDS):
            for _ in range(state[known + kind]):
                forced[other, forced_count[other]] = take_largest(game, in_pool, kind)
                forced_count[other] += 1
    return count


@njit
def redeal(state, game, seat, top, top_count, forced, forced_count, shuffled, out):
    """Other hands: the known cards, then the shuffled pool in turn; the draw pile:
    the rest, then the known top; the others' memories refitted to the new deal."""
    out[:] = state
    used = deal_hands(state, game, seat, forced, forced_count, shuffled, out)
    pile = 0
    for k in range(used, len(shuffled)):
        out[S.CARDS + pile] = shuffled[k]
        pile += 1
    for k in range(top_count - 1, -1, -1):
        out[S.CARDS + pile] = top[k]
        pile += 1
    refit_memories(game, seat, pile, out)


@njit
def deal_hands(state, game, seat, forced, forced_count, shuffled, out):
    """Each other hand as long as before: its known cards, then the next shuffled ones; returns those used."""
    at, used = S.HAND_CARDS, 0
    for player in range(state[S.NUM_PLAYERS]):
        start, end = hand_bounds(state, player)
        if player == seat:
            for k in range(start, end):
                out[at] = state[k]
                at += 1
            continue
        for kind in range(NUM_KINDS):
            out[S.HAND_KINDS + player * NUM_KINDS + kind] = 0
        for k in range(end - start):
            if k < forced_count[player]:
                card = forced[player, k]
            else:
                card = shuffled[used]
                used += 1
            out[at] = card
            at += 1
            out[S.HAND_KINDS + player * NUM_KINDS + game[S.G_CARD_KIND + card]] += 1
    return used


@njit
def refit_memories(game, seat, pile, out):
    """The others saw the new deck top (as deep as before) and know nothing of a third hand."""
    seats = out[S.NUM_PLAYERS]
    for other in range(seats):
        if other == seat:
            continue
        memory = S.KNOWN_TOP + other * SEEN_CAPACITY
        for depth in range(SEEN_CAPACITY):
            if out[memory + depth] != EMPTY:
                out[memory + depth] = game[S.G_CARD_KIND + out[S.CARDS + pile - 1 - depth]]
        for third in range(seats):
            if third != seat:
                known = S.KNOWN_HAND + (other * MOST_PLAYERS + third) * NUM_KINDS
                for kind in range(NUM_KINDS):
                    out[known + kind] = EMPTY


@njit
def posed_legal(out, game):
    """state._posed_legal: the top decision's legal list in a probe, written to
    ``out`` if the rules would put it as it is (not skipped, not passed on)."""
    probe = out.copy()
    at = stack.top(probe)
    depth = stack.depth(probe)
    if decisions.legal(probe, game, at) == decisions.SKIP or stack.depth(probe) != depth:
        return False
    for word in range(FRAME_WORDS):
        if probe[at + word] != out[at + word]:
            return False
    for k in range(NUM_ACTIONS):
        out[S.LEGAL + k] = probe[S.LEGAL + k]
    return True


@njit
def card_free_legal(out):
    """The legal list without its card actions (no redeal fits the window)."""
    count = 0
    for k in range(NUM_ACTIONS):
        action = out[S.LEGAL + k]
        if action == EMPTY:
            break
        if not A_CARD <= action < A_NONCARD:
            out[S.LEGAL + count] = action
            count += 1
    decisions.finish(out, count)


@njit
def determinize(state, game, seat, searcher, out):
    """``out``: ``state`` with what ``seat`` cannot see redealt from the searcher's words."""
    in_pool = np.zeros(game[S.G_NUM_CARDS], dtype=np.bool_)
    top = np.empty(SEEN_CAPACITY, dtype=np.int64)
    forced = np.empty((MOST_PLAYERS, game[S.G_NUM_CARDS]), dtype=np.int64)
    forced_count = np.zeros(MOST_PLAYERS, dtype=np.int64)
    top_count = split_pool(state, game, seat, in_pool, top, forced, forced_count)
    rest = np.flatnonzero(in_pool).astype(np.int64)
    deciding = state[S.DECIDING_PLAYER]
    check = deciding >= 0 and deciding != seat and stack.depth(state) > 0
    tries = REDEALS_FOR_A_WINDOW if check else 1
    fitted = False
    for _ in range(tries):
        shuffled = rest.copy()
        pcg64.shuffle(searcher, shuffled, len(shuffled))
        redeal(state, game, seat, top, top_count, forced, forced_count, shuffled, out)
        if not check or posed_legal(out, game):
            fitted = True
            break
    if not fitted:
        card_free_legal(out)
    pcg64.seed(
        out[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64), pcg64.bounded(searcher, ZERO, DRAW_SEED_BOUND)
    )
    for k in range(DICE_CAPACITY):
        out[S.DICE + k] = 0
    out[S.DICE_USED] = 0
