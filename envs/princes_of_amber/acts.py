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

State = Any  # an AmberState (rules.py imports this module, not the reverse)
PRINCES = range(NUM_PRINCES)


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
def free_enemies(s: State, p: int, _losing=None) -> list[int]:
    """Free princes p does not control."""
    alive, cap, ctrl = s.alive, s.captured, s.controller
    return [i for i in PRINCES if alive[i] and not cap[i] and ctrl[i] != p]


def free_rivals(s: State, p: int, _losing=None) -> list[int]:
    """Free princes another player controls."""
    alive, cap, ctrl = s.alive, s.captured, s.controller
    return [i for i in PRINCES if alive[i] and not cap[i] and ctrl[i] >= 0 and ctrl[i] != p]


def dominable(s: State, p: int, _losing=None) -> list[int]:
    """Free exiles p does not control that are no player's own prince."""
    alive, cap, ctrl, role, own = s.alive, s.captured, s.controller, s.role, s.player_prince
    return [
        i
        for i in PRINCES
        if alive[i]
        and not cap[i]
        and ctrl[i] != p
        and role[i] == EXILE
        and not (ctrl[i] >= 0 and own[ctrl[i]] == i)
    ]


def neutral_exiles(s: State, p: int, _losing=None) -> list[int]:
    alive, ctrl, role = s.alive, s.controller, s.role
    return [i for i in PRINCES if alive[i] and ctrl[i] < 0 and role[i] == EXILE]


def rival_allies(s: State, p: int, _losing=None) -> list[int]:
    """Princes another player won over (not his own prince)."""
    alive, ctrl, own = s.alive, s.controller, s.player_prince
    return [i for i in PRINCES if alive[i] and ctrl[i] >= 0 and ctrl[i] != p and own[ctrl[i]] != i]


def intrigue_targets(s: State, p: int, _losing=None) -> list[int]:
    """Neutral exiles (to win over) and rival allies (to turn neutral)."""
    alive, ctrl, role, own = s.alive, s.controller, s.role, s.player_prince
    return [
        i
        for i in PRINCES
        if alive[i]
        and ((ctrl[i] < 0 and role[i] == EXILE) or (ctrl[i] >= 0 and ctrl[i] != p and own[ctrl[i]] != i))
    ]


def own_captives(s: State, p: int, _losing=None) -> list[int]:
    alive, cap, ctrl = s.alive, s.captured, s.controller
    return [i for i in PRINCES if alive[i] and cap[i] and ctrl[i] == p]


def rival_exiles(s: State, p: int, _losing=None) -> list[int]:
    alive, ctrl, role = s.alive, s.controller, s.role
    return [i for i in PRINCES if alive[i] and role[i] == EXILE and ctrl[i] >= 0 and ctrl[i] != p]


def losing_side(s: State, p: int, losing) -> list[int]:
    """Free princes of a lost war's losing side that p does not control."""
    alive, cap, ctrl = s.alive, s.captured, s.controller
    return [i for i in losing if alive[i] and not cap[i] and ctrl[i] != p]


# ---- player targets -------------------------------------------------------------------------
def opponents(s: State, p: int, _losing=None) -> list[int]:
    return s.opponents(p)


def exiled_opponents(s: State, p: int, _losing=None) -> list[int]:
    """Opponents whose own prince is alive and in exile."""
    own, alive, role = s.player_prince, s.alive, s.role
    return [o for o in s.opponents(p) if own[o] >= 0 and alive[own[o]] and role[own[o]] == EXILE]


# ---- when an act may be played -----------------------------------------------------------------
def can_conquer(s: State, p: int, a: int) -> bool:
    """A free exile with armies, while p's own prince is free and p does not hold Amber."""
    own = s.player_prince[p]
    return s.free(a) and s.role[a] == EXILE and s.armies[a] >= 1 and own >= 0 and s.free(own) and s.amber != p


def deck_has_cards(s: State, p: int, a: int) -> bool:
    return bool(s.deck.draw_pile) or bool(s.deck.discard)


def rival_holds_amber(s: State, p: int, a: int) -> bool:
    return s.amber >= 0 and s.amber != p and bool(s.in_game[s.amber])


def is_wounded(s: State, p: int, a: int) -> bool:
    return s.hits[a] < s.attributes[a][0]


# ---- effects of acts ----------------------------------------------------------------------------
def start_fight(s: State, p: int, a: int, t: int) -> None:
    s.stack.append(Fight(p, a, t, s.controller[t]))


def start_will(s: State, p: int, a: int, t: int) -> None:
    s.stack.append(Will(p, a, t, s.controller[t], s.pending_act))


def start_war(s: State, p: int, a: int, t: int) -> None:
    lords = [i for i in PRINCES if s.role[i] != EXILE and s.free(i)]
    s.war = War(p, a, s.amber, lords=lords)
    s.stack.append(WarStep(p, a))


def wound(s: State, p: int, a: int, t: int) -> None:
    s.stack.append(Damage(t, p, s.d6()))


def win_over(s: State, p: int, a: int, t: int) -> None:
    s.controller[t] = p


def turn_neutral(s: State, p: int, a: int, t: int) -> None:
    s.controller[t] = -1


def discard_to(s: State, player: int, count: int) -> None:
    """``player`` discards ``count`` cards of his choice (fewer if his hand is smaller)."""
    if s.hands[player]:
        s.stack.append(EffectDiscard(player, min(count, len(s.hands[player]))))


def walk_the_pattern(s: State, p: int, a: int, t: int) -> None:
    s.draw(p, 3)
    discard_to(s, p, 2)


def look_ahead(s: State, p: int, a: int, t: int) -> None:
    s.peek(p, 7)


def gossip(s: State, p: int, a: int, t: int) -> None:
    s.reveal_hand(p, t)


def free_prisoner(s: State, p: int, a: int, t: int) -> None:
    s.escape(t)


def exile_discard(s: State, p: int, a: int, t: int) -> None:
    discard_to(s, t, 3)


def distractions(s: State, p: int, a: int, t: int) -> None:
    discard_to(s, s.amber, 3)


def amnesia(s: State, p: int, a: int, t: int) -> None:
    s.amnesia[t] = max(s.amnesia[t], s.d6())


def blessing(s: State, p: int, a: int, t: int) -> None:
    s.extra_turns[p] += 1


def take_prisoner(s: State, p: int, a: int, t: int) -> None:
    s.stack.append(Capture(t, p))


def bide(s: State, p: int, a: int, t: int) -> None:
    s.draw(p)


def recuperate(s: State, p: int, a: int, t: int) -> None:
    s.hits[a] = min(s.attributes[a][0], s.hits[a] + s.d6())


def fortune(s: State, p: int, a: int, t: int) -> None:
    if not s.deck.draw_pile and s.deck.discard:
        s.reshuffle()
    s.peek(p, s.d6())


def intrigue(s: State, p: int, a: int, t: int) -> None:
    if s.d6() >= 5:
        s.controller[t] = p if s.controller[t] < 0 else -1


def raise_army(s: State, p: int, a: int, t: int) -> None:
    x = s.d6()
    if s.role[a] == EXILE:
        s.armies[a] += x
    else:
        s.garrison += x


def escape_roll(s: State, p: int, a: int, t: int) -> None:
    if s.d6() >= 5:
        s.escape(a)


def walls_of_amber(s: State, p: int, a: int, t: int) -> None:
    s.war.walls_bonus += s.d6()


def army_loss(s: State, p: int, a: int, t: int) -> None:
    a = s.war.prince
    s.armies[a] = max(0, s.armies[a] - s.d6())


# ---- won Will contests ---------------------------------------------------------------------------
def hold_target(s: State, f: Will) -> None:
    s.psychic_hold[f.target] = 1


def contest_of_wills(s: State, f: Will) -> None:
    tc = f.target_controller
    if tc >= 0 and s.in_game[tc]:
        discard_to(s, tc, 3)


def dominate(s: State, f: Will) -> None:
    s.controller[f.target] = f.player


def psychic_attack(s: State, f: Will) -> None:
    s.stack.append(Damage(f.target, f.player, s.d6()))


def probe_mind(s: State, f: Will) -> None:
    tc = f.target_controller
    if tc >= 0 and s.in_game[tc]:
        s.reveal_hand(f.player, tc)


# ---- responses: which window they fit, what playing them does -----------------------------------
def against_fight(s: State, f) -> bool:
    return f.against == Contest.FIGHT


def against_fight_on_exile(s: State, f) -> bool:
    return f.against == Contest.FIGHT and s.role[f.prince] == EXILE


def against_fight_on_lord(s: State, f) -> bool:
    return f.against == Contest.FIGHT and s.role[f.prince] != EXILE


def against_will(s: State, f) -> bool:
    return f.against == Contest.WILL


def against_war(s: State, f) -> bool:
    return f.against == Contest.WAR


def victim_is_an_ally(s: State, f) -> bool:
    """Show Mercy: the wounded prince is another player's ally, not his own prince."""
    c = s.controller[f.victim]
    return c >= 0 and c != f.player and s.player_prince[c] != f.victim


def negate_parent(s: State, f, card: int) -> None:
    """The window closes and the act below it is negated."""
    s.stack.pop()
    s.stack[-1].negated = True


def block_the_attack(s: State, f, card: int) -> None:
    """The block waits below a Shadow Mastery window; the Block window stays open."""
    s.stack.append(BlockEffect(card))
    s.stack.append(ShadowMastery(s.war.player))


def add_shadow_armies(s: State, f, card: int) -> None:
    s.war.shadow_bonus += s.d6()


def aim_at_losing_side(s: State, f, card: int) -> None:
    s.pending_act = card
    s.stack.append(TargetPrince(f.player, -1, card, f.losing))


def add_fury(s: State, f, card: int) -> None:
    contest = s.stack[-2]
    if f.player == contest.player:
        contest.attacker_fury += 5
    else:
        contest.defender_fury += 5
    s.advance_queue(f)


def capture_victim(s: State, f, card: int) -> None:
    s.stack.pop()
    s.stack.append(Capture(f.victim, f.player))


def show_mercy(s: State, f, card: int) -> None:
    s.stack.pop()
    s.controller[f.victim] = -1


def capture_attacker(s: State, f, card: int) -> None:
    s.stack.pop()
    s.stack.append(Capture(f.prince, f.player))


def survive(s: State, f, card: int) -> None:
    s.stack.pop()
    s.stack[-1].not_really_dead = True


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


def playable(s: State, p: int, a: int, code: int) -> bool:
    """Whether act ``code`` may be played now by p with acting prince a (-1: a free card)."""
    rule = RULES[code]
    if rule.playable is not None and not rule.playable(s, p, a):
        return False
    if rule.targets is not None and rule.timing != RESPONSE:
        return bool(rule.targets(s, p, None))
    return True


def answers(s: State, f) -> list[int]:
    """The card kinds that may answer the window frame ``f`` (held or not)."""
    return [code for code, fits in RESPONSES[f.phase] if fits is None or fits(s, f)]


def action_name(a: int) -> str:
    """Static words for an action index (the same in every position)."""
    if a < A_PLAYER + 1:
        return "prince " + PRINCE_NAMES[a].lower()
    if a < A_CARD:
        return f"player +{a - A_PLAYER}"
    if a < A_NONCARD:
        return RULES[a - A_CARD].name
    if a < A_END:
        return RULES[NONCARD_BASE + a - A_NONCARD].name
    return ("end phase", "pass", "support")[a - A_END]
