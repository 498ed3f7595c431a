"""Princes of Amber's rules over one int64 row: the deal, the driver that
runs automatic frames until a decision is due, the legal mask, apply, the
seat to move, the end and the returns, as ``state.AmberState`` plays them.

``new_game`` deals as ``AmberGame.new_initial_state(seed)`` draws: the deck
shuffled (and the test hook's kinds put on top), the hands, the prince
order, rolled attributes, then the first turn."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.cards import EXILE, KING, NUM_KINDS, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.kernel import cards, decisions, flow, stack, throne, wars
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import words as W
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    CARD_CAPACITY,
    EMPTY,
    FRAME_WORDS,
    MOST_PLAYERS,
    SEEN_CAPACITY,
    STACK_CAPACITY,
    WAR_WORDS,
)

ONE, SEVEN = np.int64(1), np.int64(7)
KEY_TYPE = np.int64
NUM_ATTRIBUTES = 5


# ---- the driver -------------------------------------------------------------------------------
@njit
def run_automatic(state, game, at):
    """Run the automatic frame at ``at`` (the top)."""
    code = state[at]
    if code == W.TURN:
        flow.auto_turn(state, game, at)
    elif code == W.TURN_END:
        flow.auto_turn_end(state, game, at)
    elif code == W.FIGHT:
        flow.auto_fight(state, game, at)
    elif code == W.WILL:
        flow.auto_will(state, game, at)
    elif code == W.WAR:
        wars.auto_war(state, game, at)
    elif code == W.DAMAGE:
        flow.auto_damage(state, game, at)
    elif code == W.DEATH_SEQ:
        flow.auto_death_sequence(state, game, at)
    elif code == W.CAPTURE:
        flow.auto_capture(state, game, at)
    elif code == W.KING_REMOVAL:
        flow.auto_king_removal(state, game, at)
    else:
        flow.auto_block_effect(state, game, at)


@njit
def run(state, game):
    """Run automatic frames until a decision is due (or the game is over)."""
    while True:
        if state[S.WINNER] >= 0 or state[S.TURN_LIMIT_REACHED]:
            for k in range(STACK_CAPACITY * FRAME_WORDS):
                state[S.STACK + k] = EMPTY
            state[S.DECIDING_PLAYER] = -1
            decisions.finish(state, 0)
            return
        if state[S.AMBER] >= 0:
            throne.check_amber_secured(state)
            if state[S.WINNER] >= 0:
                continue
        at = stack.top(state)
        if W.PHASE_OF[state[at]] < 0:
            run_automatic(state, game, at)
            continue
        if decisions.legal(state, game, at) == decisions.SKIP:
            stack.pop(state)
            continue
        state[S.DECIDING_PLAYER] = state[at + W.PLAYER]
        return


# ---- the contract -------------------------------------------------------------------------------
@njit
def current_player(state):
    return state[S.DECIDING_PLAYER]


@njit
def is_terminal(state):
    return state[S.WINNER] >= 0


@njit
def is_truncated(state):
    return state[S.TURN_LIMIT_REACHED] != 0 and state[S.WINNER] < 0


@njit
def legal_mask(state, game, mask):
    mask[:] = False
    if state[S.DECIDING_PLAYER] < 0:
        return
    for k in range(len(mask)):
        action = state[S.LEGAL + k]
        if action == EMPTY:
            return
        mask[action] = True


@njit
def apply_action(state, game, action):
    """Play a legal ``action`` of the decision on top, then run to the next decision."""
    decisions.apply(state, game, stack.top(state), action)
    run(state, game)


@njit
def returns(state, game, out):
    """Rank rewards once over: out of the game (the later out, the better) <
    still in < the winner (or, ranked ``amber_first``, Amber's holder at the limit)."""
    seats = state[S.NUM_PLAYERS]
    out[:] = 0.0
    if state[S.WINNER] < 0 and not state[S.TURN_LIMIT_REACHED]:
        return
    amber_first = state[S.WINNER] < 0 and game[S.G_AMBER_FIRST] != 0
    keys = np.zeros(seats, dtype=KEY_TYPE)
    for player in range(seats):
        if not state[S.IN_GAME + player]:
            keys[player] = state[S.ELIMINATION_ORDER + player]  # 0..4: the later out, the better
        elif state[S.WINNER] == player or (amber_first and state[S.AMBER] == player):
            keys[player] = 20
        else:
            keys[player] = 10
    rank_values(keys, seats, out)


@njit
def rank_values(keys, seats, out):
    """ranking.rank_rewards of the keys (higher is better): rank k of n is worth
    1 - 2k/(n-1), tied seats share the mean of their ranks' values."""
    for player in range(seats):
        better, tied = 0, 0
        for other in range(seats):
            better += keys[other] > keys[player]
            tied += keys[other] == keys[player]
        share = 0.0
        for rank in range(better, better + tied):
            share += 1.0 - 2.0 * rank / (seats - 1)
        out[player] = share / tied


# ---- the deal -----------------------------------------------------------------------------------
@njit
def clear(state):
    """Every word as an empty row holds it (the layout's fills)."""
    state[:] = 0
    for k in range(MOST_PLAYERS * SEEN_CAPACITY):
        state[S.KNOWN_TOP + k] = EMPTY
    decisions.finish(state, 0)
    for k in range(MOST_PLAYERS * MOST_PLAYERS * NUM_KINDS):
        state[S.KNOWN_HAND + k] = EMPTY
    for k in range(S.HAND_CARDS, S.HAND_CARDS + CARD_CAPACITY):
        state[k] = EMPTY
    for k in range(S.CARDS, S.DECK_END):
        state[k] = EMPTY
    for k in range(STACK_CAPACITY * FRAME_WORDS):
        state[S.STACK + k] = EMPTY
    for k in range(1, WAR_WORDS):
        state[S.WAR + k] = EMPTY


@njit
def stack_kinds(state, game):
    """The test hook's kinds on top of the draw pile, drawn in the given order
    (core.cards.stack_ranks: each the topmost card of its kind)."""
    wanted = game[S.G_DECK_OVERRIDE_COUNT]
    chosen = np.empty(wanted, dtype=np.int64)
    for k in range(wanted):
        kind = game[S.G_DECK_OVERRIDE + k]
        pile = state[S.DRAW_COUNT]
        at = pile - 1
        while game[S.G_CARD_KIND + state[S.CARDS + at]] != kind:
            at -= 1
        chosen[k] = state[S.CARDS + at]
        for j in range(at, pile - 1):
            state[S.CARDS + j] = state[S.CARDS + j + 1]
        state[S.DRAW_COUNT] = pile - 1
    pile = state[S.DRAW_COUNT]
    for k in range(wanted):
        state[S.CARDS + pile + k] = chosen[wanted - 1 - k]
    state[S.DRAW_COUNT] = pile + wanted


@njit
def seat_princes(state, game, order):
    """Attributes (printed or 2d6 each), each player's own prince, then the King and the three Regents."""
    seats = state[S.NUM_PLAYERS]
    generator = cards.generator(state)
    for prince in range(NUM_PRINCES):
        for column in range(NUM_ATTRIBUTES):
            at = S.ATTRIBUTES + prince * NUM_ATTRIBUTES + column
            if game[S.G_ROLLED_ATTRIBUTES]:
                state[at] = pcg64.bounded(generator, ONE, SEVEN) + pcg64.bounded(generator, ONE, SEVEN)
            else:
                state[at] = game[S.G_TABLE_ATTRIBUTES + prince * NUM_ATTRIBUTES + column]
    for prince in range(NUM_PRINCES):
        state[S.HITS + prince] = state[S.ATTRIBUTES + prince * NUM_ATTRIBUTES]
        state[S.ALIVE + prince], state[S.CONTROLLER + prince], state[S.ROLE + prince] = 1, -1, EXILE
        state[S.JAILER + prince] = -1
    for player in range(seats):
        state[S.PLAYER_PRINCE + player] = order[player]
        state[S.CONTROLLER + order[player]] = player
    state[S.ROLE + order[seats]] = KING
    for post in range(1, 4):
        state[S.ROLE + order[seats + post]] = post


@njit
def start_counters(state, game):
    seats = state[S.NUM_PLAYERS]
    state[S.AMBER], state[S.GARRISON] = -1, game[S.G_GARRISON_START]
    for player in range(seats):
        state[S.IN_GAME + player], state[S.ELIMINATION_ORDER + player] = 1, -1
    turn = stack.push(state, W.TURN)
    state[turn + W.PLAYER] = 0
    state[S.PENDING_ACT], state[S.ACTING_PRINCE], state[S.TARGET_PRINCE] = -1, -1, -1
    state[S.DAMAGED_PRINCE], state[S.DAMAGE_DEALER] = -1, -1
    state[S.WINNER], state[S.DECIDING_PLAYER] = -1, -1
    for k in range(game[S.G_DICE_COUNT]):
        state[S.DICE + k] = game[S.G_DICE + k]


@njit
def new_game(state, game, seed):
    """new_initial_state(seed), dealt in the row."""
    clear(state)
    generator = cards.generator(state)
    pcg64.seed(generator, seed)
    state[S.NUM_PLAYERS] = game[S.G_NUM_PLAYERS]
    count = game[S.G_NUM_CARDS]
    for card in range(count):
        state[S.CARDS + card] = card
    pcg64.shuffle(generator, state[S.CARDS : S.CARDS + count], count)
    state[S.DRAW_COUNT] = count
    stack_kinds(state, game)
    for player in range(state[S.NUM_PLAYERS]):
        cards.draw(state, game, player, game[S.G_STARTING_HAND])
    order = np.arange(NUM_PRINCES)
    if game[S.G_PRINCE_ORDER] >= 0:
        for prince in range(NUM_PRINCES):
            order[prince] = game[S.G_PRINCE_ORDER + prince]
    else:
        pcg64.shuffle(generator, order, NUM_PRINCES)
    seat_princes(state, game, order)
    start_counters(state, game)
    run(state, game)
