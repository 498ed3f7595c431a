"""The handlers of an attack on Amber (Conquer): the war's stages, the
totals of both sides, the battle rounds and the outcome.

The figures of the war under way are ``state.war`` (``frames.War``); the
``WAR`` frame steps through ``frames.WarStage``: the defender's chance to
block the way, his blocking cards, the attacker's Shadow Armies and the
other players' support, then the battle.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.dice import contest_with
from meeplezoo.envs.core.turns import relative_seats
from meeplezoo.envs.princes_of_amber.acts import RULES, Contest
from meeplezoo.envs.princes_of_amber.cards import A_PASS, A_SUPPORT, EXILE, KING, NUM_PRINCES, Kind
from meeplezoo.envs.princes_of_amber.contests import PSYCHIC_HOLD_MALUS, call_guards
from meeplezoo.envs.princes_of_amber.frames import (
    Block,
    BlockEffect,
    Negate,
    ShadowArmies,
    Support,
    War,
    WarFollowup,
    WarStage,
    WarStep,
)
from meeplezoo.envs.princes_of_amber.windows import legal_window

State = Any  # an AmberState (state.py imports this module, not the reverse)


def _supporters(state: State, attacker: int, defender: int) -> list[int]:
    """The players asked to support the attack, in seat order after the attacker:
    those in the game, not defending, with no regent and a free exile of their own."""
    return [
        other
        for other in relative_seats(attacker, state.num_players)[1:]
        if state.in_game[other]
        and other != defender
        and not state.controls_regent(other)
        and state.free_exiles_of(other)
    ]


def auto_war(state: State, frame: WarStep) -> None:
    player, prince = frame.player, frame.prince
    defender = state.war.defender
    defending = defender >= 0 and state.in_game[defender]
    state.contest_type = Contest.WAR
    if frame.step == WarStage.OFFER_NEGATE:
        frame.step = WarStage.BLOCK
        if defending:
            state.stack.append(Negate(defender, Contest.WAR, prince))
    elif frame.step == WarStage.BLOCK:
        if frame.negated:
            state.stack.pop()
            return
        frame.step = WarStage.ARMIES
        if defending:
            state.stack.append(Block(defender))
    elif frame.step == WarStage.ARMIES:
        frame.step = WarStage.BATTLE
        if state.armies[prince] > 0:
            state.stack.append(ShadowArmies(player))
            queue = _supporters(state, player, defender) if state.game.allow_support else []
            if queue:
                state.stack.append(Support(queue[0], queue[1:]))
    else:
        state.stack.pop()
        _fight_war(state, player, prince, state.war)


def _defending_leader(state: State) -> int:
    """The King, or the strongest free Regent without one (-1: none)."""
    role = state.role
    for i in range(NUM_PRINCES):
        if role[i] == KING:
            return i
    return state.strongest_regent()


def _war_totals(state: State, player: int, prince: int, war: War, leader: int) -> tuple[int, int]:
    """Attack: the attacker's and his free exiles' Leadership, the supporters'
    exiles and the Shadow Armies; defence: the defending lords' Leadership
    and the Walls of Amber."""
    attack = state.leadership(prince) + war.shadow_bonus
    attack += sum(state.leadership(i) for i in state.free_exiles_of(player) if i != prince)
    for supporter in war.supporters:
        if state.in_game[supporter]:
            attack += sum(state.leadership(i) for i in state.free_exiles_of(supporter))
    defenders = _amber_defenders(state, player, war, leader)
    defence = war.walls_bonus + sum(state.leadership(i) for i in defenders)
    return attack, defence


def _amber_defenders(state: State, player: int, war: War, leader: int) -> list[int]:
    """The lords who defend Amber against ``player``. ``all_lords``: every free
    Lord he does not control. ``leader_only``: a held Amber's King and the
    regents of players other than him (neutral regents stand aside), a neutral
    Amber's leader alone."""
    controller, role = state.controller, state.role
    if state.game.all_lords_defend:
        return [
            i for i in range(NUM_PRINCES) if role[i] != EXILE and state.free(i) and controller[i] != player
        ]
    if war.defender >= 0:
        return [
            i
            for i in range(NUM_PRINCES)
            if role[i] == KING
            or (0 < role[i] < EXILE and state.free(i) and controller[i] >= 0 and controller[i] != player)
        ]
    return [leader] if leader >= 0 else []


def battle(state: State, prince: int, attack: int, defence: int, leader: int) -> None:
    """Rounds of 2d6 contests until the garrison or the attacking armies are
    gone; each lost round costs the loser a die of armies. A psychic hold
    weighs on the first round only."""
    first = True
    while state.garrison > 0 and state.armies[prince] > 0:
        round_attack, round_defence = attack, defence
        if first:
            if state.psychic_hold[prince]:
                round_attack -= PSYCHIC_HOLD_MALUS
                state.psychic_hold[prince] = 0
            if leader >= 0 and state.psychic_hold[leader]:
                round_defence -= PSYCHIC_HOLD_MALUS
                state.psychic_hold[leader] = 0
            first = False
        winner, history = contest_with(state.d6, round_attack, round_defence)
        state.contest_totals = list(history[-1])
        loss = state.d6()
        if winner == 0:
            state.garrison = max(0, state.garrison - loss)
        else:
            state.armies[prince] = max(0, state.armies[prince] - loss)


def _fight_war(state: State, player: int, prince: int, war: War) -> None:
    """The battle; a won war takes Amber, a lost one may bring the guards.
    Either way the winner may follow up on the losing side."""
    leader = _defending_leader(state)
    war.attack, war.defence = _war_totals(state, player, prince, war, leader)
    state.contest_totals = [war.attack, war.defence]
    battle(state, prince, war.attack, war.defence, leader)
    if state.garrison == 0 and state.armies[prince] > 0:
        war.won = 1
        war.losing = [i for i in war.lords if state.controller[i] != player]
        state.stack.append(WarFollowup(player, war.losing))
        state.garrison = state.armies[prince]
        state.armies[prince] = 0
        state.take_amber(player)
    else:
        war.won = 0
        war.losing = [prince] + [i for i in state.free_exiles_of(player) if i != prince]
        call_guards(state, war.defender, player, prince)
        if war.defender >= 0 and state.in_game[war.defender]:
            state.stack.append(WarFollowup(war.defender, war.losing))


def legal_block(state: State, frame: Block) -> list[int] | None:
    if state.armies[state.war.prince] <= 0:
        return None
    return legal_window(state, frame)


def auto_block_effect(state: State, frame: BlockEffect) -> None:
    """A blocking card takes effect unless Shadow Mastery negated it."""
    state.stack.pop()
    if not frame.negated:
        RULES[frame.card].effect(state, -1, -1, -1)


def legal_support(state: State, frame: Support) -> list[int]:
    return [A_SUPPORT, A_PASS]


def apply_support(state: State, frame: Support, action: int) -> None:
    if action == A_SUPPORT:
        state.war.supporters = state.war.supporters + [frame.player]
    state.advance_queue(frame)


def legal_war_followup(state: State, frame: WarFollowup) -> list[int] | None:
    player = frame.player
    if not state.in_game[player] or not state.prince_targets(player, Kind.BATTLE_WOUNDS, frame.losing):
        return None
    return legal_window(state, frame)
