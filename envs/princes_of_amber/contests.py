"""The handlers of fights, Will contests, damage, death and capture.

A Fight or a Will contest is an automatic frame that steps through its
windows (``frames.FightStep``, ``frames.WillStep``): a chance to negate it,
the Fury window (Will), the 2d6 contest, then the attacked player's chance
to call the guards. The loser's damage, a death and a capture are frames
of their own, so a chain such as Fight -> death -> the King falls -> take
Amber resolves top first.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.dice import contest_with
from meeplezoo.envs.core.turns import relative_seats
from meeplezoo.envs.princes_of_amber.acts import RULES, Contest
from meeplezoo.envs.princes_of_amber.cards import EXILE, FIGHT_ATTRIBUTE, KING, WILL
from meeplezoo.envs.princes_of_amber.frames import (
    CallGuards,
    Capture,
    CaptureNegate,
    CaptureStep,
    Damage,
    DamageFollowup,
    Death,
    DeathSequence,
    DeathStep,
    Fight,
    FightStep,
    Fury,
    KingRemoval,
    Negate,
    Succession,
    Will,
    WillStep,
)
from meeplezoo.envs.princes_of_amber.windows import legal_window

State = Any  # an AmberState (state.py imports this module, not the reverse)
PSYCHIC_HOLD_MALUS = 7  # a held prince's next contest total is 7 lower


def responder(state: State, attacked_player: int, attacker: int) -> int:
    """The attacked player, if he is another player still in the game, else -1."""
    if attacked_player >= 0 and attacked_player != attacker and state.in_game[attacked_player]:
        return attacked_player
    return -1


def contest(
    state: State, prince: int, target: int, attribute: int, prince_bonus: int = 0, target_bonus: int = 0
) -> int:
    """2d6 + attribute contest between ``prince`` and ``target``; returns the winner's id."""
    hold = state.psychic_hold
    prince_total = (
        state.attributes[prince][attribute] + prince_bonus - (PSYCHIC_HOLD_MALUS if hold[prince] else 0)
    )
    target_total = (
        state.attributes[target][attribute] + target_bonus - (PSYCHIC_HOLD_MALUS if hold[target] else 0)
    )
    hold[prince] = 0
    hold[target] = 0
    winner, history = contest_with(state.d6, prince_total, target_total)
    state.contest_totals = list(history[-1])
    return prince if winner == 0 else target


def call_guards(state: State, attacked_player: int, attacker: int, prince: int) -> None:
    """The attacked player may call the guards on a free exiled attacking prince."""
    guard_caller = responder(state, attacked_player, attacker)
    if guard_caller >= 0 and state.free(prince) and state.role[prince] == EXILE:
        state.stack.append(CallGuards(guard_caller, prince))


def auto_fight(state: State, frame: Fight) -> None:
    player, prince, target = frame.player, frame.prince, frame.target
    state.contest_type = Contest.FIGHT
    if frame.step == FightStep.OFFER_NEGATE:
        frame.step = FightStep.CONTEST
        negator = responder(state, frame.target_controller, player)
        if negator >= 0:
            state.stack.append(Negate(negator, Contest.FIGHT, target))
    elif frame.step == FightStep.CONTEST:
        if frame.negated:
            state.stack.pop()
            return
        frame.step = FightStep.CALL_GUARDS
        winner = contest(state, prince, target, FIGHT_ATTRIBUTE)
        loser = target if winner == prince else prince
        state.stack.append(Damage(loser, state.controller[winner], state.d6()))
    else:
        state.stack.pop()
        call_guards(state, frame.target_controller, player, prince)


def auto_will(state: State, frame: Will) -> None:
    player, prince, target, target_controller = (
        frame.player,
        frame.prince,
        frame.target,
        frame.target_controller,
    )
    state.contest_type = Contest.WILL
    if frame.step == WillStep.OFFER_NEGATE:
        frame.step = WillStep.FURY
        negator = responder(state, target_controller, player)
        if negator >= 0:
            state.stack.append(Negate(negator, Contest.WILL, target))
    elif frame.step == WillStep.FURY:
        if frame.negated:
            state.stack.pop()
            return
        frame.step = WillStep.CONTEST
        defender = responder(state, target_controller, player)
        state.stack.append(Fury(player, [defender] if defender >= 0 else []))
    elif frame.step == WillStep.CONTEST:
        frame.step = WillStep.CALL_GUARDS
        if contest(state, prince, target, WILL, frame.attacker_fury, frame.defender_fury) == prince:
            RULES[frame.card].wins(state, frame)
    else:
        state.stack.pop()
        call_guards(state, target_controller, player, prince)


# ---- damage, death, capture ----------------------------------------------------------
def auto_damage(state: State, frame: Damage) -> None:
    """Hits are taken: at zero the prince is dying, else the dealer may follow up."""
    state.stack.pop()
    victim, dealer = frame.victim, frame.dealer
    state.hits[victim] -= frame.amount
    state.damaged_prince = victim
    state.damage_dealer = dealer
    if state.hits[victim] <= 0:
        state.hits[victim] = 0
        state.stack.append(DeathSequence(victim, dealer))
    elif dealer >= 0 and state.in_game[dealer] and state.free(victim) and state.controller[victim] != dealer:
        state.stack.append(DamageFollowup(dealer, victim))


def legal_damage_followup(state: State, frame: DamageFollowup) -> list[int] | None:
    if not state.free(frame.victim):
        return None
    return legal_window(state, frame)


def _death_queue(state: State, victim: int) -> list[int]:
    """Who may save a dying prince, in order: his controller, then the
    players in turn order from the turn player."""
    owner = state.controller[victim]
    queue = [owner] if owner >= 0 and state.in_game[owner] else []
    seats = relative_seats(state.turn_player, state.num_players)
    return queue + [player for player in seats if state.in_game[player] and player != owner]


def auto_death_sequence(state: State, frame: DeathSequence) -> None:
    victim = frame.victim
    if frame.step == DeathStep.OFFER_SURVIVAL:
        frame.step = DeathStep.RESOLVE
        queue = _death_queue(state, victim)
        state.stack.append(Death(queue[0], queue[1:]))
        return
    state.stack.pop()
    old_controller, old_role = state.controller[victim], state.role[victim]
    was_own_prince = old_controller >= 0 and state.player_prince[old_controller] == victim
    if frame.not_really_dead:
        state.hits[victim] = state.attributes[victim][0]
    else:
        state.alive[victim] = 0
        state.hits[victim] = 0
    state.controller[victim] = -1
    state.role[victim] = EXILE
    for name in ("armies", "amnesia", "psychic_hold", "captured"):
        getattr(state, name)[victim] = 0
    state.jailer[victim] = -1
    if was_own_prince:
        state.player_prince[old_controller] = -1
        state.stack.append(Succession(old_controller))
    if old_role == KING:
        state.stack.append(KingRemoval(frame.causer))


def auto_capture(state: State, frame: Capture) -> None:
    victim, captor = frame.victim, frame.captor
    if frame.step == CaptureStep.OFFER_NEGATE:
        frame.step = CaptureStep.RESOLVE
        negator = responder(state, state.controller[victim], captor)
        if negator >= 0:
            state.stack.append(CaptureNegate(negator, victim))
        return
    state.stack.pop()
    if frame.negated or not state.free(victim):
        return
    old_role = state.role[victim]
    state.captured[victim] = 1
    state.jailer[victim] = captor
    state.role[victim] = EXILE
    if old_role == KING:
        state.stack.append(KingRemoval(captor))


def legal_call_guards(state: State, frame: CallGuards) -> list[int] | None:
    prince = frame.prince
    if not (state.free(prince) and state.role[prince] == EXILE):
        return None
    return legal_window(state, frame)


def auto_king_removal(state: State, frame: KingRemoval) -> None:
    """The King fell: a player still in, not holding Amber, with his own prince
    free, takes Amber; otherwise it falls neutral."""
    state.stack.pop()
    causer = frame.causer
    own = state.player_prince[causer] if causer >= 0 else -1
    if causer >= 0 and state.in_game[causer] and causer != state.amber and own >= 0 and state.free(own):
        state.take_amber(causer)
    else:
        state.fall_neutral()
