"""The princes' posts and the throne in the row, as ``throne.PrincesAndThrone``
does them: who is free, the regencies, taking Amber and its fall, the win
by holding it, and a player leaving the game."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.cards import EXILE, KING, LEADERSHIP, NUM_KINDS, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.frames import Appoint
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import stack
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    EMPTY,
    FRAME_CODE,
    FRAME_FIELD_WORDS,
    MOST_PLAYERS,
)

APPOINT, APPOINT_PLAYER = FRAME_CODE[Appoint], FRAME_FIELD_WORDS["APPOINT"]["player"]
NUM_POSTS = 3  # the regencies: GUARDIAN, NORTH, SOUTH (roles 1..3)


@njit
def free(state, prince):
    return state[S.ALIVE + prince] != 0 and state[S.CAPTURED + prince] == 0


@njit
def leadership(state, prince):
    return state[S.ATTRIBUTES + prince * 5 + LEADERSHIP]


@njit
def first_vacant_post(state):
    """The first regency nobody holds (-1: none vacant)."""
    for post in range(1, 1 + NUM_POSTS):
        held = False
        for prince in range(NUM_PRINCES):
            held = held or state[S.ROLE + prince] == post
        if not held:
            return post
    return -1


@njit
def escape(state, prince):
    """A captured prince is free again, in exile."""
    state[S.CAPTURED + prince] = 0
    state[S.JAILER + prince] = -1
    state[S.ROLE + prince] = EXILE


@njit
def _to_garrison(state, prince):
    state[S.GARRISON] += state[S.ARMIES + prince]
    state[S.ARMIES + prince] = 0


@njit
def take_amber(state, player):
    """The player's own prince is crowned; his strongest other free princes
    (by Leadership, then the lower id) fill the regencies, an Appoint for the rest."""
    for prince in range(NUM_PRINCES):
        state[S.ROLE + prince] = EXILE
    king = state[S.PLAYER_PRINCE + player]
    state[S.ROLE + king] = KING
    _to_garrison(state, king)
    filled = 0
    while filled < NUM_POSTS:
        best = -1
        for prince in range(NUM_PRINCES):
            if (
                state[S.CONTROLLER + prince] == player
                and prince != king
                and state[S.ROLE + prince] == EXILE
                and free(state, prince)
                and (best < 0 or leadership(state, prince) > leadership(state, best))
            ):
                best = prince
        if best < 0:
            break
        filled += 1
        state[S.ROLE + best] = filled
        _to_garrison(state, best)
    state[S.AMBER] = player
    for seat in range(state[S.NUM_PLAYERS]):
        state[S.HOLD_COUNT + seat] = 0
    if filled < NUM_POSTS:
        at = stack.push(state, APPOINT)
        state[at + APPOINT_PLAYER] = player


@njit
def strongest_regent(state):
    """The free Regent with the highest Leadership (the first such), or -1."""
    best = -1
    for prince in range(NUM_PRINCES):
        role = state[S.ROLE + prince]
        if 0 < role < EXILE and free(state, prince):
            if best < 0 or leadership(state, prince) > leadership(state, best):
                best = prince
    return best


@njit
def fall_neutral(state):
    """Amber's holder loses it: his lords go free of him, other players' lords
    go into exile, and the strongest Regent is King if the King is gone."""
    holder = state[S.AMBER]
    has_king = False
    for prince in range(NUM_PRINCES):
        role, owner = state[S.ROLE + prince], state[S.CONTROLLER + prince]
        if 0 < role < EXILE:
            if owner == holder:
                state[S.CONTROLLER + prince] = -1
            elif owner >= 0:
                state[S.ROLE + prince] = EXILE
        has_king = has_king or state[S.ROLE + prince] == KING
    if not has_king:
        best = strongest_regent(state)
        if best >= 0:
            state[S.ROLE + best] = KING
    state[S.AMBER] = -1
    for seat in range(state[S.NUM_PLAYERS]):
        state[S.HOLD_COUNT + seat] = 0


@njit
def fill_post(state, prince):
    """``prince`` takes the first vacant regency; his armies join the garrison."""
    state[S.ROLE + prince] = first_vacant_post(state)
    _to_garrison(state, prince)


@njit
def check_amber_secured(state):
    """Amber's holder wins once no other player has a free prince (unless a succession is owed)."""
    holder = state[S.AMBER]
    for player in range(state[S.NUM_PLAYERS]):
        if state[S.IN_GAME + player] and state[S.PLAYER_PRINCE + player] < 0:
            return
    for prince in range(NUM_PRINCES):
        owner = state[S.CONTROLLER + prince]
        if owner >= 0 and owner != holder and free(state, prince):
            return
    state[S.WINNER] = holder


@njit
def eliminate(state, player):
    """``player`` is out: his hand is discarded and his princes go neutral."""
    state[S.IN_GAME + player] = 0
    state[S.ELIMINATION_ORDER + player] = state[S.ELIMINATED_COUNT]
    state[S.ELIMINATED_COUNT] += 1
    _discard_hand(state, player)
    for kind in range(NUM_KINDS):
        state[S.HAND_KINDS + player * NUM_KINDS + kind] = 0
    for other in range(state[S.NUM_PLAYERS]):
        known = S.KNOWN_HAND + (other * MOST_PLAYERS + player) * NUM_KINDS
        for kind in range(NUM_KINDS):
            state[known + kind] = EMPTY
    state[S.EXTRA_TURNS + player] = 0
    state[S.HOLD_COUNT + player] = 0
    for prince in range(NUM_PRINCES):
        if state[S.CONTROLLER + prince] == player:
            state[S.CONTROLLER + prince] = -1
    left, last = 0, -1
    for other in range(state[S.NUM_PLAYERS]):
        if state[S.IN_GAME + other]:
            left, last = left + 1, other
    if left == 1:
        state[S.WINNER] = last


@njit
def _discard_hand(state, player):
    """The hand goes to the discard in its order; the later seats' cards move down."""
    start, count = S.HAND_CARDS, state[S.HAND_LENGTHS + player]
    for seat in range(player):
        start += state[S.HAND_LENGTHS + seat]
    end = S.HAND_CARDS
    for seat in range(MOST_PLAYERS):
        end += state[S.HAND_LENGTHS + seat]
    discarded = state[S.DISCARD_COUNT]
    for k in range(count):
        state[S.DECK_END - 1 - discarded - k] = state[start + k]
    state[S.DISCARD_COUNT] = discarded + count
    for k in range(start, end - count):
        state[k] = state[k + count]
    for k in range(end - count, end):
        state[k] = EMPTY
    state[S.HAND_LENGTHS + player] = 0
