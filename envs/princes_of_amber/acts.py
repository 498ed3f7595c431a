"""What every card kind and non-card action does: one record each, in ``RULES``.

A record says when the act may be played (its ``timing`` and ``playable``
predicate), what it aims at (``target`` and the ``targets`` predicate), what
it does once resolved (``effect``), and, for a response card, the window it
answers (``window``, ``fits``) and what playing it there does (``respond``).
The masks, the moves and the action names all read this table, so one card's
rules live in one place. Act codes: 0..35 the card kinds, NONCARD_BASE + m
the non-card actions.

Predicates and effects take the state first; they use only its public
helpers (``draw``, ``peek``, ``d6``, ``escape``...) and push the frames of
:mod:`meeplezoo.envs.princes_of_amber.frames`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from meeplezoo.envs.princes_of_amber.cards import (
    A_CARD,
    A_END,
    A_NONCARD,
    A_PLAYER,
    EXILE,
    NONCARD_BASE,
    NUM_PRINCES,
    PRINCE_NAMES,
    Kind,
    Noncard,
    Phase,
)
from meeplezoo.envs.princes_of_amber.frames import (
    BlockEffect,
    Capture,
    Damage,
    EffectDiscard,
    Fight,
    ShadowMastery,
    TargetPrince,
    War,
    WarStep,
    Will,
)

State = Any  # an AmberState (state.py imports this module, not the reverse)
PRINCES = range(NUM_PRINCES)
FURY_BONUS = 5  # what one Emotional Fury adds to its side's Will total


class Timing(IntEnum):
    """When an act may be chosen."""

    PRINCE_ACTION = 0  # as the action of a free prince in his player's action phase
    FREE_PLAY = 1  # on its own in the action phase (no prince acts)
    RESPONSE = 2  # in the window another act opens (``window``)
    CAPTIVE_ACTION = 3  # as the action of a captured prince


class Target(IntEnum):
    """What an act is aimed at, chosen after it is paid for."""

    NOTHING = 0
    PRINCE = 1
    PLAYER = 2


class Contest(IntEnum):
    """The contest under way (observed), also what a Negate window negates."""

    NONE = 0
    FIGHT = 1
    WILL = 2
    WAR = 3


@dataclass(frozen=True, slots=True)
class ActRule:
    """One card kind or non-card action (see the module docstring)."""

    code: int
    name: str  # the words of its action
    timing: Timing
    target: Target = Target.NOTHING
    targets: Callable[[State, int, Any], list[int]] | None = None  # (state, player, losing side)
    playable: Callable[[State, int, int], bool] | None = None  # (state, player, prince), besides a target
    effect: Callable[[State, int, int, int], None] | None = None  # (state, player, prince, target)
    window: Phase | None = None  # the decision a response card answers
    fits: Callable[[State, Any], bool] | None = None  # whether it answers this window frame
    respond: Callable[[State, Any, int], None] | None = None  # (state, window frame, card kind)
    captive: bool = False  # a captured prince may play it too: he escapes himself
    wins: Callable[[State, Will], None] | None = None  # a won Will contest's effect


# ---- prince targets ------------------------------------------------------------------------
def free_enemies(state: State, player: int, _losing=None) -> list[int]:
    """Free princes the player does not control."""
    alive, cap, ctrl = state.alive, state.captured, state.controller
    return [i for i in PRINCES if alive[i] and not cap[i] and ctrl[i] != player]


def free_rivals(state: State, player: int, _losing=None) -> list[int]:
    """Free princes another player controls."""
    alive, cap, ctrl = state.alive, state.captured, state.controller
    return [i for i in PRINCES if alive[i] and not cap[i] and ctrl[i] >= 0 and ctrl[i] != player]


def dominable(state: State, player: int, _losing=None) -> list[int]:
    """Free exiles the player does not control that are no player's own prince."""
    alive, cap, ctrl, role, own = (
        state.alive,
        state.captured,
        state.controller,
        state.role,
        state.player_prince,
    )
    return [
        i
        for i in PRINCES
        if alive[i]
        and not cap[i]
        and ctrl[i] != player
        and role[i] == EXILE
        and not (ctrl[i] >= 0 and own[ctrl[i]] == i)
    ]


def neutral_exiles(state: State, player: int, _losing=None) -> list[int]:
    alive, ctrl, role = state.alive, state.controller, state.role
    return [i for i in PRINCES if alive[i] and ctrl[i] < 0 and role[i] == EXILE]


def rival_allies(state: State, player: int, _losing=None) -> list[int]:
    """Princes another player won over (not his own prince)."""
    alive, ctrl, own = state.alive, state.controller, state.player_prince
    return [i for i in PRINCES if alive[i] and ctrl[i] >= 0 and ctrl[i] != player and own[ctrl[i]] != i]


def intrigue_targets(state: State, player: int, _losing=None) -> list[int]:
    """Neutral exiles (to win over) and rival allies (to turn neutral)."""
    alive, ctrl, role, own = state.alive, state.controller, state.role, state.player_prince
    return [
        i
        for i in PRINCES
        if alive[i]
        and ((ctrl[i] < 0 and role[i] == EXILE) or (ctrl[i] >= 0 and ctrl[i] != player and own[ctrl[i]] != i))
    ]


def own_captives(state: State, player: int, _losing=None) -> list[int]:
    alive, cap, ctrl = state.alive, state.captured, state.controller
    return [i for i in PRINCES if alive[i] and cap[i] and ctrl[i] == player]


def rival_exiles(state: State, player: int, _losing=None) -> list[int]:
    alive, ctrl, role = state.alive, state.controller, state.role
    return [i for i in PRINCES if alive[i] and role[i] == EXILE and ctrl[i] >= 0 and ctrl[i] != player]


def losing_side(state: State, player: int, losing) -> list[int]:
    """Free princes of a lost war's losing side that the player does not control."""
    alive, cap, ctrl = state.alive, state.captured, state.controller
    return [i for i in losing if alive[i] and not cap[i] and ctrl[i] != player]


# ---- player targets -------------------------------------------------------------------------
def opponents(state: State, player: int, _losing=None) -> list[int]:
    return state.opponents(player)


def exiled_opponents(state: State, player: int, _losing=None) -> list[int]:
    """Opponents whose own prince is alive and in exile."""
    own, alive, role = state.player_prince, state.alive, state.role
    return [
        other
        for other in state.opponents(player)
        if own[other] >= 0 and alive[own[other]] and role[own[other]] == EXILE
    ]


# ---- when an act may be played -----------------------------------------------------------------
def can_conquer(state: State, player: int, prince: int) -> bool:
    """A free exile with armies, while the player's own prince is free and he does not hold Amber."""
    own = state.player_prince[player]
    return (
        state.free(prince)
        and state.role[prince] == EXILE
        and state.armies[prince] >= 1
        and own >= 0
        and state.free(own)
        and state.amber != player
    )


def deck_has_cards(state: State, player: int, prince: int) -> bool:
    return bool(state.deck.draw_pile) or bool(state.deck.discard)


def rival_holds_amber(state: State, player: int, prince: int) -> bool:
    return state.amber >= 0 and state.amber != player and bool(state.in_game[state.amber])


def is_wounded(state: State, player: int, prince: int) -> bool:
    return state.hits[prince] < state.attributes[prince][0]


# ---- effects of acts ----------------------------------------------------------------------------
def start_fight(state: State, player: int, prince: int, target: int) -> None:
    state.stack.append(Fight(player, prince, target, state.controller[target]))


def start_will(state: State, player: int, prince: int, target: int) -> None:
    state.stack.append(Will(player, prince, target, state.controller[target], state.pending_act))


def start_war(state: State, player: int, prince: int, target: int) -> None:
    lords = [i for i in PRINCES if state.role[i] != EXILE and state.free(i)]
    state.war = War(player, prince, state.amber, lords=lords)
    state.stack.append(WarStep(player, prince))


def wound(state: State, player: int, prince: int, target: int) -> None:
    state.stack.append(Damage(target, player, state.d6()))


def win_over(state: State, player: int, prince: int, target: int) -> None:
    state.controller[target] = player


def turn_neutral(state: State, player: int, prince: int, target: int) -> None:
    state.controller[target] = -1


def discard_to(state: State, player: int, count: int) -> None:
    """``player`` discards ``count`` cards of his choice (fewer if his hand is smaller)."""
    if state.hands[player]:
        state.stack.append(EffectDiscard(player, min(count, len(state.hands[player]))))


def walk_the_pattern(state: State, player: int, prince: int, target: int) -> None:
    state.draw(player, 3)
    discard_to(state, player, 2)


def look_ahead(state: State, player: int, prince: int, target: int) -> None:
    state.peek(player, 7)


def gossip(state: State, player: int, prince: int, target: int) -> None:
    state.reveal_hand(player, target)


def free_prisoner(state: State, player: int, prince: int, target: int) -> None:
    state.escape(target)


def exile_discard(state: State, player: int, prince: int, target: int) -> None:
    discard_to(state, target, 3)


def distractions(state: State, player: int, prince: int, target: int) -> None:
    discard_to(state, state.amber, 3)


def amnesia(state: State, player: int, prince: int, target: int) -> None:
    state.amnesia[target] = max(state.amnesia[target], state.d6())


def blessing(state: State, player: int, prince: int, target: int) -> None:
    state.extra_turns[player] += 1


def take_prisoner(state: State, player: int, prince: int, target: int) -> None:
    state.stack.append(Capture(target, player))


def bide(state: State, player: int, prince: int, target: int) -> None:
    state.draw(player)


def recuperate(state: State, player: int, prince: int, target: int) -> None:
    state.hits[prince] = min(state.attributes[prince][0], state.hits[prince] + state.d6())


def fortune(state: State, player: int, prince: int, target: int) -> None:
    if not state.deck.draw_pile and state.deck.discard:
        state.reshuffle()
    state.peek(player, state.d6())


def intrigue(state: State, player: int, prince: int, target: int) -> None:
    if state.d6() >= 5:
        state.controller[target] = player if state.controller[target] < 0 else -1


def raise_army(state: State, player: int, prince: int, target: int) -> None:
    raised = state.d6()
    if state.role[prince] == EXILE:
        state.armies[prince] += raised
    else:
        state.garrison += raised


def escape_roll(state: State, player: int, prince: int, target: int) -> None:
    if state.d6() >= 5:
        state.escape(prince)


def walls_of_amber(state: State, player: int, prince: int, target: int) -> None:
    state.war.walls_bonus += state.d6()


def army_loss(state: State, player: int, prince: int, target: int) -> None:
    """A blocking card: the attacking prince of the war loses a die of armies."""
    attacker = state.war.prince
    state.armies[attacker] = max(0, state.armies[attacker] - state.d6())


# ---- won Will contests ---------------------------------------------------------------------------
def hold_target(state: State, contest: Will) -> None:
    state.psychic_hold[contest.target] = 1


def contest_of_wills(state: State, contest: Will) -> None:
    target_controller = contest.target_controller
    if target_controller >= 0 and state.in_game[target_controller]:
        discard_to(state, target_controller, 3)


def dominate(state: State, contest: Will) -> None:
    state.controller[contest.target] = contest.player


def psychic_attack(state: State, contest: Will) -> None:
    state.stack.append(Damage(contest.target, contest.player, state.d6()))


def probe_mind(state: State, contest: Will) -> None:
    target_controller = contest.target_controller
    if target_controller >= 0 and state.in_game[target_controller]:
        state.reveal_hand(contest.player, target_controller)


# ---- responses: which window they fit, what playing them does -----------------------------------
def against_fight(state: State, frame) -> bool:
    return frame.against == Contest.FIGHT


def against_fight_on_exile(state: State, frame) -> bool:
    return frame.against == Contest.FIGHT and state.role[frame.prince] == EXILE


def against_fight_on_lord(state: State, frame) -> bool:
    return frame.against == Contest.FIGHT and state.role[frame.prince] != EXILE


def against_will(state: State, frame) -> bool:
    return frame.against == Contest.WILL


def against_war(state: State, frame) -> bool:
    return frame.against == Contest.WAR


def victim_is_an_ally(state: State, frame) -> bool:
    """Show Mercy: the wounded prince is another player's ally, not his own prince."""
    owner = state.controller[frame.victim]
    return owner >= 0 and owner != frame.player and state.player_prince[owner] != frame.victim


def negate_parent(state: State, frame, card: int) -> None:
    """The window closes and the act below it is negated."""
    state.stack.pop()
    state.stack[-1].negated = True


def block_the_attack(state: State, frame, card: int) -> None:
    """The block waits below a Shadow Mastery window; the Block window stays open."""
    state.stack.append(BlockEffect(card))
    state.stack.append(ShadowMastery(state.war.player))


def add_shadow_armies(state: State, frame, card: int) -> None:
    state.war.shadow_bonus += state.d6()


def aim_at_losing_side(state: State, frame, card: int) -> None:
    state.pending_act = card
    state.stack.append(TargetPrince(frame.player, -1, card, frame.losing))


def add_fury(state: State, frame, card: int) -> None:
    """Emotional Fury: +FURY_BONUS to the player's side of the Will contest below the window."""
    contest = state.stack[-2]
    if frame.player == contest.player:
        contest.attacker_fury += FURY_BONUS
    else:
        contest.defender_fury += FURY_BONUS
    state.advance_queue(frame)


def capture_victim(state: State, frame, card: int) -> None:
    state.stack.pop()
    state.stack.append(Capture(frame.victim, frame.player))


def show_mercy(state: State, frame, card: int) -> None:
    state.stack.pop()
    state.controller[frame.victim] = -1


def capture_attacker(state: State, frame, card: int) -> None:
    state.stack.pop()
    state.stack.append(Capture(frame.prince, frame.player))


def survive(state: State, frame, card: int) -> None:
    state.stack.pop()
    state.stack[-1].not_really_dead = True


# ---- the table -------------------------------------------------------------------------------------
ACTION, FREE, RESPONSE, CAPTIVE = (
    Timing.PRINCE_ACTION,
    Timing.FREE_PLAY,
    Timing.RESPONSE,
    Timing.CAPTIVE_ACTION,
)
PRINCE, PLAYER = Target.PRINCE, Target.PLAYER


def _card(kind: Kind, timing: Timing, **rule: Any) -> ActRule:
    return ActRule(int(kind), "card " + kind.name.lower(), timing, **rule)


def _noncard(action: Noncard, timing: Timing, **rule: Any) -> ActRule:
    return ActRule(NONCARD_BASE + int(action), action.name.lower(), timing, **rule)


def _answer(kind: Kind, window: Phase, respond, fits=None, **rule: Any) -> ActRule:
    return _card(kind, RESPONSE, window=window, respond=respond, fits=fits, **rule)


_RULE_LIST = (
    _card(Kind.FIGHT, ACTION, target=PRINCE, targets=free_enemies, effect=start_fight),
    _answer(Kind.CAPTURE, Phase.DAMAGE_FOLLOWUP, capture_victim),
    _answer(Kind.CALL_THE_GUARDS, Phase.CALL_GUARDS, capture_attacker),
    _answer(
        Kind.PRISONER_OF_WAR,
        Phase.WAR_FOLLOWUP,
        aim_at_losing_side,
        target=PRINCE,
        targets=losing_side,
        effect=take_prisoner,
    ),
    _answer(Kind.GET_AWAY, Phase.NEGATE, negate_parent, against_fight),
    _answer(Kind.HIDE_IN_SHADOW, Phase.NEGATE, negate_parent, against_fight_on_exile),
    _answer(Kind.LORDS_IN_AMBER, Phase.NEGATE, negate_parent, against_fight_on_lord),
    _answer(Kind.NEGATE_CAPTURE, Phase.CAPTURE_NEGATE, negate_parent),
    _answer(Kind.BLOCK_THE_WAY, Phase.NEGATE, negate_parent, against_war),
    _answer(Kind.SHADOW_MASTERY, Phase.SHADOW_MASTERY, negate_parent),
    _answer(Kind.BREAK_CONTACT, Phase.NEGATE, negate_parent, against_will),
    _card(Kind.CONQUER, ACTION, playable=can_conquer, effect=start_war),
    _answer(Kind.WALLS_OF_AMBER, Phase.BLOCK, block_the_attack, effect=walls_of_amber),
    _answer(Kind.ARMY_LOSS, Phase.BLOCK, block_the_attack, effect=army_loss),
    _answer(Kind.SHADOW_ARMIES, Phase.SHADOW_ARMIES, add_shadow_armies),
    _answer(
        Kind.BATTLE_WOUNDS,
        Phase.WAR_FOLLOWUP,
        aim_at_losing_side,
        target=PRINCE,
        targets=losing_side,
        effect=wound,
    ),
    _card(Kind.EXILE, FREE, target=PLAYER, targets=exiled_opponents, effect=exile_discard),
    _card(Kind.DISTRACTIONS, FREE, playable=rival_holds_amber, effect=distractions),
    _card(Kind.TRUMP_TRAVEL, FREE, target=PRINCE, targets=own_captives, effect=free_prisoner),
    _answer(Kind.EMOTIONAL_FURY, Phase.FURY, add_fury),
    _answer(Kind.SHOW_MERCY, Phase.DAMAGE_FOLLOWUP, show_mercy, victim_is_an_ally),
    _card(Kind.AMNESIA, FREE, target=PRINCE, targets=rival_exiles, effect=amnesia),
    _card(Kind.BLESSING, FREE, effect=blessing),
    _answer(Kind.NOT_REALLY_DEAD, Phase.DEATH, survive),
    _card(Kind.SHADOW_ASSASSINS, ACTION, target=PRINCE, targets=free_enemies, effect=wound),
    _card(Kind.GAIN_NEUTRAL, ACTION, target=PRINCE, targets=neutral_exiles, effect=win_over),
    _card(Kind.BETRAYAL, ACTION, target=PRINCE, targets=rival_allies, effect=turn_neutral),
    _card(Kind.WALK_THE_PATTERN, ACTION, effect=walk_the_pattern),
    _card(Kind.LOOK_AHEAD, ACTION, playable=deck_has_cards, effect=look_ahead),
    _card(Kind.GOSSIP, ACTION, target=PLAYER, targets=opponents, effect=gossip),
    _card(
        Kind.ESCAPE_ACTION, ACTION, target=PRINCE, targets=own_captives, effect=free_prisoner, captive=True
    ),
    _card(
        Kind.PSYCHIC_HOLD, ACTION, target=PRINCE, targets=free_enemies, effect=start_will, wins=hold_target
    ),
    _card(
        Kind.CONTEST_OF_WILLS,
        ACTION,
        target=PRINCE,
        targets=free_rivals,
        effect=start_will,
        wins=contest_of_wills,
    ),
    _card(Kind.MENTAL_DOMINATION, ACTION, target=PRINCE, targets=dominable, effect=start_will, wins=dominate),
    _card(
        Kind.PSYCHIC_ATTACK,
        ACTION,
        target=PRINCE,
        targets=free_enemies,
        effect=start_will,
        wins=psychic_attack,
    ),
    _card(Kind.MIND_PROBE, ACTION, target=PRINCE, targets=free_rivals, effect=start_will, wins=probe_mind),
    _noncard(Noncard.BIDE, ACTION, effect=bide),
    _noncard(Noncard.RECUPERATE, ACTION, playable=is_wounded, effect=recuperate),
    _noncard(Noncard.FORTUNE, ACTION, playable=deck_has_cards, effect=fortune),
    _noncard(Noncard.INTRIGUE, ACTION, target=PRINCE, targets=intrigue_targets, effect=intrigue),
    _noncard(Noncard.RAISE_ARMY, ACTION, effect=raise_army),
    _noncard(Noncard.ESCAPE, CAPTIVE, effect=escape_roll),
)
RULES: tuple[ActRule, ...] = _RULE_LIST
assert [rule.code for rule in RULES] == list(range(len(RULES))), "RULES is indexed by act code"

# The table's views the hot paths read (act codes, in code order).
PRINCE_ACTION_CARDS = tuple(r.code for r in RULES if r.code < NONCARD_BASE and r.timing == ACTION)
PRINCE_ACTION_NONCARDS = tuple(r.code for r in RULES if r.code >= NONCARD_BASE and r.timing == ACTION)
FREE_CARDS = tuple(r.code for r in RULES if r.timing == FREE)
CAPTIVE_CARDS = tuple(r.code for r in RULES if r.captive)
CAPTIVE_NONCARDS = tuple(r.code for r in RULES if r.code >= NONCARD_BASE and r.timing == CAPTIVE)
RESPONSES: dict[Phase, tuple[tuple[int, Any], ...]] = {}
for _rule in RULES:
    if _rule.window is not None:
        RESPONSES[_rule.window] = (*RESPONSES.get(_rule.window, ()), (_rule.code, _rule.fits))
del _rule


def playable(state: State, player: int, prince: int, code: int) -> bool:
    """Whether act ``code`` may be played now by ``player`` with acting ``prince`` (-1: a free card)."""
    rule = RULES[code]
    if rule.playable is not None and not rule.playable(state, player, prince):
        return False
    if rule.targets is not None and rule.timing != RESPONSE:
        return bool(rule.targets(state, player, None))
    return True


def answers(state: State, frame) -> list[int]:
    """The card kinds that may answer the window ``frame`` (held or not)."""
    return [code for code, fits in RESPONSES[frame.phase] if fits is None or fits(state, frame)]


def action_name(action: int) -> str:
    """Static words for an action index (the same in every position)."""
    if action < A_PLAYER + 1:
        return "prince " + PRINCE_NAMES[action].lower()
    if action < A_CARD:
        return f"player +{action - A_PLAYER}"
    if action < A_NONCARD:
        return RULES[action - A_CARD].name
    if action < A_END:
        return RULES[NONCARD_BASE + action - A_NONCARD].name
    return ("end phase", "pass", "support")[action - A_END]
