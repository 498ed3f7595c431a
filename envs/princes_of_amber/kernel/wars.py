"""An attack on Amber in the row, as ``wars.py`` runs it: the WAR frame's
stages, the supporters, both sides' totals, the battle rounds and the outcome."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.cards import EXILE, KING, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.contests import PSYCHIC_HOLD_MALUS
from meeplezoo.envs.princes_of_amber.frames import WarStage
from meeplezoo.envs.princes_of_amber.kernel import cards, flow, stack, throne
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import words as W

WAR_OFFER, WAR_BLOCK, WAR_ARMIES, WAR_BATTLE = (int(stage) for stage in WarStage)


@njit
def controls_regent(state, player):
    for prince in range(NUM_PRINCES):
        if state[S.CONTROLLER + prince] == player and 0 < state[S.ROLE + prince] < EXILE:
            return True
    return False


@njit
def is_free_exile_of(state, player, prince):
    return (
        state[S.CONTROLLER + prince] == player
        and throne.free(state, prince)
        and state[S.ROLE + prince] == EXILE
    )


@njit
def has_free_exile(state, player):
    for prince in range(NUM_PRINCES):
        if is_free_exile_of(state, player, prince):
            return True
    return False


@njit
def push_support(state, attacker, defender):
    """The players asked to support the attack, in seat order after the attacker:
    those in the game, not defending, with no regent and a free exile of their own."""
    seats = state[S.NUM_PLAYERS]
    at, count = -1, 0
    for step in range(1, seats):
        other = (attacker + step) % seats
        if (
            state[S.IN_GAME + other]
            and other != defender
            and not controls_regent(state, other)
            and has_free_exile(state, other)
        ):
            if at < 0:
                at = flow.push_for(state, W.SUPPORT, other)
                state[at + W.QUEUE] = 0
            else:
                state[at + W.QUEUE + 1 + count] = other
                count += 1
                state[at + W.QUEUE] = count


@njit
def auto_war(state, game, at):
    player, prince = state[at + W.PLAYER], state[at + W.PRINCE]
    defender = state[S.WAR + W.WAR_DEFENDER]
    defending = defender >= 0 and state[S.IN_GAME + defender] != 0
    state[S.CONTEST_TYPE] = flow.WAR_CONTEST
    step = state[at + W.WAR_STEP]
    if step == WAR_OFFER:
        state[at + W.WAR_STEP] = WAR_BLOCK
        if defending:
            flow.push_negate(state, defender, flow.WAR_CONTEST, prince)
    elif step == WAR_BLOCK:
        if state[at + W.NEGATED_WORD[W.WAR]]:
            stack.pop(state)
            return
        state[at + W.WAR_STEP] = WAR_ARMIES
        if defending:
            flow.push_for(state, W.BLOCK, defender)
    elif step == WAR_ARMIES:
        state[at + W.WAR_STEP] = WAR_BATTLE
        if state[S.ARMIES + prince] > 0:
            flow.push_for(state, W.SHADOW_ARMIES, player)
            if game[S.G_ALLOW_SUPPORT]:
                push_support(state, player, defender)
    else:
        stack.pop(state)
        fight_war(state, game, player, prince)


@njit
def defending_leader(state):
    """The King, or the strongest free Regent without one (-1: none)."""
    for prince in range(NUM_PRINCES):
        if state[S.ROLE + prince] == KING:
            return prince
    return throne.strongest_regent(state)


@njit
def exiles_leadership(state, player, skip):
    """The Leadership of ``player``'s free exiles other than ``skip``."""
    total = 0
    for prince in range(NUM_PRINCES):
        if prince != skip and is_free_exile_of(state, player, prince):
            total += throne.leadership(state, prince)
    return total


@njit
def defends(state, game, player, prince, leader):
    """Whether ``prince`` defends Amber against ``player`` (wars._amber_defenders)."""
    role, owner = state[S.ROLE + prince], state[S.CONTROLLER + prince]
    if game[S.G_ALL_LORDS_DEFEND]:
        return role != EXILE and throne.free(state, prince) and owner != player
    if state[S.WAR + W.WAR_DEFENDER] >= 0:
        return role == KING or (
            0 < role < EXILE and throne.free(state, prince) and owner >= 0 and owner != player
        )
    return prince == leader


@njit
def war_totals(state, game, player, prince, leader):
    """Attack: the attacker's and his free exiles' Leadership, the supporters'
    exiles and the Shadow Armies; defence: the defenders' Leadership and the Walls."""
    war = S.WAR
    attack = (
        throne.leadership(state, prince)
        + state[war + W.SHADOW_BONUS]
        + exiles_leadership(state, player, prince)
    )
    for k in range(state[war + W.SUPPORTERS]):
        supporter = state[war + W.SUPPORTERS + 1 + k]
        if state[S.IN_GAME + supporter]:
            attack += exiles_leadership(state, supporter, -1)
    defence = state[war + W.WALLS_BONUS]
    for lord in range(NUM_PRINCES):
        if defends(state, game, player, lord, leader):
            defence += throne.leadership(state, lord)
    return attack, defence


@njit
def battle(state, prince, attack, defence, leader):
    """Rounds of 2d6 contests until the garrison or the attacking armies are
    gone; each lost round costs the loser a die of armies. A psychic hold
    weighs on the first round only."""
    first = True
    while state[S.GARRISON] > 0 and state[S.ARMIES + prince] > 0:
        round_attack, round_defence = attack, defence
        if first:
            if state[S.PSYCHIC_HOLD + prince]:
                round_attack -= PSYCHIC_HOLD_MALUS
                state[S.PSYCHIC_HOLD + prince] = 0
            if leader >= 0 and state[S.PSYCHIC_HOLD + leader]:
                round_defence -= PSYCHIC_HOLD_MALUS
                state[S.PSYCHIC_HOLD + leader] = 0
            first = False
        winner = flow.opposed_roll(state, round_attack, round_defence)
        loss = cards.d6(state)
        if winner == 0:
            state[S.GARRISON] = max(0, state[S.GARRISON] - loss)
        else:
            state[S.ARMIES + prince] = max(0, state[S.ARMIES + prince] - loss)


@njit
def fight_war(state, game, player, prince):
    """The battle; a won war takes Amber, a lost one may bring the guards.
    Either way the winner may follow up on the losing side."""
    war = S.WAR
    leader = defending_leader(state)
    attack, defence = war_totals(state, game, player, prince, leader)
    state[war + W.WAR_ATTACK], state[war + W.WAR_DEFENCE] = attack, defence
    state[S.CONTEST_TOTALS], state[S.CONTEST_TOTALS + 1] = attack, defence
    battle(state, prince, attack, defence, leader)
    losing = war + W.WAR_LOSING
    count = 0
    if state[S.GARRISON] == 0 and state[S.ARMIES + prince] > 0:
        state[war + W.WAR_WON] = 1
        for k in range(state[war + W.LORDS]):
            lord = state[war + W.LORDS + 1 + k]
            if state[S.CONTROLLER + lord] != player:
                state[losing + 1 + count] = lord
                count += 1
        state[losing] = count
        push_followup(state, player, losing)
        state[S.GARRISON] = state[S.ARMIES + prince]
        state[S.ARMIES + prince] = 0
        throne.take_amber(state, player)
    else:
        state[war + W.WAR_WON] = 0
        state[losing + 1] = prince
        count = 1
        for exile in range(NUM_PRINCES):
            if exile != prince and is_free_exile_of(state, player, exile):
                state[losing + 1 + count] = exile
                count += 1
        state[losing] = count
        defender = state[war + W.WAR_DEFENDER]
        flow.call_guards(state, defender, player, prince)
        if defender >= 0 and state[S.IN_GAME + defender]:
            push_followup(state, defender, losing)


@njit
def push_followup(state, player, losing):
    """A WAR_FOLLOWUP window for ``player`` with a copy of the losing side's list."""
    at = flow.push_for(state, W.WAR_FOLLOWUP, player)
    for k in range(1 + state[losing]):
        state[at + W.WF_LOSING + k] = state[losing + k]
