"""The automatic frames in the row, as ``turn.py``, ``contests.py`` and
``wars.py`` run them: a turn's start and end, a Fight, a Will contest, a war
and its battle, damage, death, capture, the King's fall and a blocking card."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.acts import Contest
from meeplezoo.envs.princes_of_amber.cards import EXILE, FIGHT_ATTRIBUTE, KING, NUM_PRINCES, WILL
from meeplezoo.envs.princes_of_amber.contests import PSYCHIC_HOLD_MALUS
from meeplezoo.envs.princes_of_amber.frames import CaptureStep, DeathStep, FightStep, WillStep
from meeplezoo.envs.princes_of_amber.kernel import acts, cards, stack, throne
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import words as W
from meeplezoo.envs.princes_of_amber.kernel.row_fields import MOST_PLAYERS

FIGHT_CONTEST, WILL_CONTEST, WAR_CONTEST = int(Contest.FIGHT), int(Contest.WILL), int(Contest.WAR)
MAX_REROLLS = 1000  # dice.contest_with's bound on tied rounds
# the steps as ints (the compiled code compares words)
FIGHT_OFFER, FIGHT_CONTEST_STEP, FIGHT_GUARDS = (int(step) for step in FightStep)
WILL_OFFER, WILL_FURY, WILL_CONTEST_STEP, WILL_GUARDS = (int(step) for step in WillStep)
DEATH_OFFER, DEATH_RESOLVE = (int(step) for step in DeathStep)
CAPTURE_OFFER, CAPTURE_RESOLVE = (int(step) for step in CaptureStep)


# ---- the turn ------------------------------------------------------------------------------
@njit
def push_for(state, code, player):
    at = stack.push(state, code)
    state[at + W.PLAYER] = player
    return at


@njit
def auto_turn(state, game, at):
    """A turn begins: a win by holding Amber long enough, else draw, discard, act."""
    player = state[at + W.PLAYER]
    stack.pop(state)
    state[S.TURN_PLAYER] = player
    if state[S.AMBER] == player:
        state[S.HOLD_COUNT + player] += 1
        if state[S.HOLD_COUNT + player] >= game[S.G_HOLD_TURNS]:
            state[S.WINNER] = player
            return
    push_for(state, W.TURN_END, player)
    push_for(state, W.ACTION_SELECT, player)
    cards.draw(state, game, player, 1)
    push_for(state, W.FATE_DISCARD, player)


@njit
def next_seat(state, player):
    seats = state[S.NUM_PLAYERS]
    for step in range(1, seats + 1):
        seat = (player + step) % seats
        if state[S.IN_GAME + seat]:
            return seat
    return player


@njit
def auto_turn_end(state, game, at):
    """A turn ends: amnesia wears off, the turn limit, then the next (or an extra) turn."""
    player = state[at + W.PLAYER]
    stack.pop(state)
    for prince in range(NUM_PRINCES):
        if state[S.CONTROLLER + prince] == player and state[S.AMNESIA + prince] > 0:
            state[S.AMNESIA + prince] -= 1
        state[S.ACTED + prince] = 0
    state[S.PENDING_ACT], state[S.ACTING_PRINCE], state[S.TARGET_PRINCE] = -1, -1, -1
    state[S.TURNS] += 1
    if state[S.TURNS] >= game[S.G_MAX_TURNS]:
        state[S.TURN_LIMIT_REACHED] = 1
        return
    if state[S.IN_GAME + player] and state[S.EXTRA_TURNS + player] > 0:
        state[S.EXTRA_TURNS + player] -= 1
        push_for(state, W.TURN, player)
    else:
        state[S.EXTRA_TURNS + player] = 0
        push_for(state, W.TURN, next_seat(state, player))


# ---- contests ------------------------------------------------------------------------------
@njit
def responder(state, attacked_player, attacker):
    """The attacked player, if he is another player still in the game, else -1."""
    if attacked_player >= 0 and attacked_player != attacker and state[S.IN_GAME + attacked_player]:
        return attacked_player
    return -1


@njit
def opposed_roll(state, bonus_a, bonus_b):
    """dice.contest_with: 2d6 each (side a first) until they differ; the last totals are kept."""
    for _ in range(MAX_REROLLS):
        total_a = bonus_a + cards.d6(state) + cards.d6(state)
        total_b = bonus_b + cards.d6(state) + cards.d6(state)
        state[S.CONTEST_TOTALS], state[S.CONTEST_TOTALS + 1] = total_a, total_b
        if total_a != total_b:
            return 0 if total_a > total_b else 1
    raise ValueError("contest kept tying")


@njit
def contest(state, prince, target, attribute, prince_bonus, target_bonus):
    """2d6 + attribute contest between ``prince`` and ``target``; returns the winner's id."""
    prince_total = state[S.ATTRIBUTES + prince * 5 + attribute] + prince_bonus
    target_total = state[S.ATTRIBUTES + target * 5 + attribute] + target_bonus
    if state[S.PSYCHIC_HOLD + prince]:
        prince_total -= PSYCHIC_HOLD_MALUS
    if state[S.PSYCHIC_HOLD + target]:
        target_total -= PSYCHIC_HOLD_MALUS
    state[S.PSYCHIC_HOLD + prince], state[S.PSYCHIC_HOLD + target] = 0, 0
    return prince if opposed_roll(state, prince_total, target_total) == 0 else target


@njit
def call_guards(state, attacked_player, attacker, prince):
    """The attacked player may call the guards on a free exiled attacking prince."""
    caller = responder(state, attacked_player, attacker)
    if caller >= 0 and throne.free(state, prince) and state[S.ROLE + prince] == EXILE:
        at = push_for(state, W.CALL_GUARDS, caller)
        state[at + W.PRINCE] = prince


@njit
def push_negate(state, negator, against, prince):
    at = push_for(state, W.NEGATE, negator)
    state[at + W.AGAINST], state[at + W.NEGATE_PRINCE] = against, prince


@njit
def auto_fight(state, game, at):
    player, prince, target = state[at + W.PLAYER], state[at + W.PRINCE], state[at + W.TARGET]
    target_controller = state[at + W.TARGET_CONTROLLER]
    state[S.CONTEST_TYPE] = FIGHT_CONTEST
    step = state[at + W.FIGHT_STEP]
    if step == FIGHT_OFFER:
        state[at + W.FIGHT_STEP] = FIGHT_CONTEST_STEP
        negator = responder(state, target_controller, player)
        if negator >= 0:
            push_negate(state, negator, FIGHT_CONTEST, target)
    elif step == FIGHT_CONTEST_STEP:
        if state[at + W.NEGATED_WORD[W.FIGHT]]:
            stack.pop(state)
            return
        state[at + W.FIGHT_STEP] = FIGHT_GUARDS
        winner = contest(state, prince, target, FIGHT_ATTRIBUTE, 0, 0)
        loser = target if winner == prince else prince
        acts.push_damage(state, loser, state[S.CONTROLLER + winner])
    else:
        stack.pop(state)
        call_guards(state, target_controller, player, prince)


@njit
def auto_will(state, game, at):
    player, prince, target = state[at + W.PLAYER], state[at + W.PRINCE], state[at + W.TARGET]
    target_controller = state[at + W.TARGET_CONTROLLER]
    state[S.CONTEST_TYPE] = WILL_CONTEST
    step = state[at + W.WILL_STEP]
    if step == WILL_OFFER:
        state[at + W.WILL_STEP] = WILL_FURY
        negator = responder(state, target_controller, player)
        if negator >= 0:
            push_negate(state, negator, WILL_CONTEST, target)
    elif step == WILL_FURY:
        if state[at + W.NEGATED_WORD[W.WILL]]:
            stack.pop(state)
            return
        state[at + W.WILL_STEP] = WILL_CONTEST_STEP
        defender = responder(state, target_controller, player)
        fury = push_for(state, W.FURY, player)
        state[fury + W.QUEUE] = 0
        if defender >= 0:
            state[fury + W.QUEUE], state[fury + W.QUEUE + 1] = 1, defender
    elif step == WILL_CONTEST_STEP:
        state[at + W.WILL_STEP] = WILL_GUARDS
        bonus_a, bonus_b = state[at + W.ATTACKER_FURY], state[at + W.DEFENDER_FURY]
        if contest(state, prince, target, WILL, bonus_a, bonus_b) == prince:
            acts.will_won(state, at)
    else:
        stack.pop(state)
        call_guards(state, target_controller, player, prince)


# ---- damage, death, capture ----------------------------------------------------------------
@njit
def auto_damage(state, game, at):
    """Hits are taken: at zero the prince is dying, else the dealer may follow up."""
    victim, dealer, amount = state[at + W.VICTIM], state[at + W.DEALER], state[at + W.AMOUNT]
    stack.pop(state)
    state[S.HITS + victim] -= amount
    state[S.DAMAGED_PRINCE], state[S.DAMAGE_DEALER] = victim, dealer
    if state[S.HITS + victim] <= 0:
        state[S.HITS + victim] = 0
        death = stack.push(state, W.DEATH_SEQ)
        state[death + W.VICTIM], state[death + W.CAUSER] = victim, dealer
    elif (
        dealer >= 0
        and state[S.IN_GAME + dealer]
        and throne.free(state, victim)
        and state[S.CONTROLLER + victim] != dealer
    ):
        followup = push_for(state, W.DAMAGE_FOLLOWUP, dealer)
        state[followup + W.FOLLOWUP_VICTIM] = victim


@njit
def push_death_window(state, victim):
    """Who may save a dying prince, in order: his controller, then the players
    in turn order from the turn player."""
    owner = state[S.CONTROLLER + victim]
    queue = np.empty(MOST_PLAYERS, dtype=np.int64)
    count = 0
    if owner >= 0 and state[S.IN_GAME + owner]:
        queue[0] = owner
        count = 1
    seats = state[S.NUM_PLAYERS]
    for step in range(seats):
        seat = (state[S.TURN_PLAYER] + step) % seats
        if state[S.IN_GAME + seat] and seat != owner:
            queue[count] = seat
            count += 1
    at = push_for(state, W.DEATH, queue[0])
    state[at + W.QUEUE] = count - 1
    for k in range(1, count):
        state[at + W.QUEUE + k] = queue[k]


@njit
def auto_death_sequence(state, game, at):
    victim = state[at + W.VICTIM]
    if state[at + W.DEATH_STEP] == DEATH_OFFER:
        state[at + W.DEATH_STEP] = DEATH_RESOLVE
        push_death_window(state, victim)
        return
    causer, saved = state[at + W.CAUSER], state[at + W.NOT_REALLY_DEAD]
    stack.pop(state)
    old_controller, old_role = state[S.CONTROLLER + victim], state[S.ROLE + victim]
    was_own_prince = old_controller >= 0 and state[S.PLAYER_PRINCE + old_controller] == victim
    if saved:
        state[S.HITS + victim] = state[S.ATTRIBUTES + victim * 5]
    else:
        state[S.ALIVE + victim], state[S.HITS + victim] = 0, 0
    state[S.CONTROLLER + victim], state[S.ROLE + victim] = -1, EXILE
    state[S.ARMIES + victim], state[S.AMNESIA + victim] = 0, 0
    state[S.PSYCHIC_HOLD + victim], state[S.CAPTURED + victim], state[S.JAILER + victim] = 0, 0, -1
    if was_own_prince:
        state[S.PLAYER_PRINCE + old_controller] = -1
        push_for(state, W.SUCCESSION, old_controller)
    if old_role == KING:
        removal = stack.push(state, W.KING_REMOVAL)
        state[removal + W.KING_CAUSER] = causer


@njit
def auto_capture(state, game, at):
    victim, captor = state[at + W.VICTIM], state[at + W.CAPTOR]
    if state[at + W.CAPTURE_STEP] == CAPTURE_OFFER:
        state[at + W.CAPTURE_STEP] = CAPTURE_RESOLVE
        negator = responder(state, state[S.CONTROLLER + victim], captor)
        if negator >= 0:
            window = push_for(state, W.CAPTURE_NEGATE, negator)
            state[window + W.PRINCE] = victim
        return
    negated = state[at + W.NEGATED_WORD[W.CAPTURE]]
    stack.pop(state)
    if negated or not throne.free(state, victim):
        return
    old_role = state[S.ROLE + victim]
    state[S.CAPTURED + victim], state[S.JAILER + victim], state[S.ROLE + victim] = 1, captor, EXILE
    if old_role == KING:
        removal = stack.push(state, W.KING_REMOVAL)
        state[removal + W.KING_CAUSER] = captor


@njit
def auto_king_removal(state, game, at):
    """The King fell: a player still in, not holding Amber, with his own prince
    free, takes Amber; otherwise it falls neutral."""
    causer = state[at + W.KING_CAUSER]
    stack.pop(state)
    own = state[S.PLAYER_PRINCE + causer] if causer >= 0 else -1
    if (
        causer >= 0
        and state[S.IN_GAME + causer]
        and causer != state[S.AMBER]
        and own >= 0
        and throne.free(state, own)
    ):
        throne.take_amber(state, causer)
    else:
        throne.fall_neutral(state)


@njit
def auto_block_effect(state, game, at):
    """A blocking card takes effect unless Shadow Mastery negated it."""
    card, negated = state[at + W.BLOCK_CARD], state[at + W.NEGATED_WORD[W.BLOCK_EFFECT]]
    stack.pop(state)
    if not negated:
        acts.effect(state, game, card, -1, -1, -1)
