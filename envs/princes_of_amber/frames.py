"""The frames of the resolution stack, and the war record, as small records.

Resolution runs on an explicit stack of frames (see ``state.py``). Each
frame kind is a slotted dataclass with whole-word fields; ``name`` is the
kind's word in the position dict and in ``phase_name``, and decision frames
carry the ``phase`` the observation one-hots. The stack is copied on every
search step, so each record gets a ``copy()`` compiled from its fields (a
shallow copy: the lists a frame holds are replaced, never edited in place).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import Phase

FRAME_TYPES: dict[str, type] = {}


# ---- the steps of the automatic frames ----------------------------------------------
# An automatic frame that waits on windows keeps the step it runs next; the
# integers are the ``step`` entry of the position dict.
class FightStep(IntEnum):
    OFFER_NEGATE = 0  # the target's controller may negate the Fight
    CONTEST = 1  # unless negated: the contest, then damage to the loser
    CALL_GUARDS = 2  # the attacked player may call the guards on the attacker


class WillStep(IntEnum):
    OFFER_NEGATE = 0  # the target's controller may break contact
    FURY = 1  # unless negated: each side may add Emotional Fury
    CONTEST = 2  # the contest; the card's effect if the attacker wins
    CALL_GUARDS = 3  # the attacked player may call the guards on the attacker


class WarStage(IntEnum):
    OFFER_NEGATE = 0  # the defender may block the way
    BLOCK = 1  # unless negated: the defender may weaken the attack
    ARMIES = 2  # the attacker may add Shadow Armies, the others support him
    BATTLE = 3  # the battle and its outcome


class DeathStep(IntEnum):
    OFFER_SURVIVAL = 0  # each player in turn may play Not really Dead
    RESOLVE = 1  # the prince dies (or is restored), then succession and the throne


class CaptureStep(IntEnum):
    OFFER_NEGATE = 0  # the victim's controller may negate the capture
    RESOLVE = 1  # unless negated: the victim is taken prisoner


STEP_KINDS = (FightStep, WillStep, WarStage, DeathStep, CaptureStep)
LAST_STEP = int(max(max(kind) for kind in STEP_KINDS))  # the last step of the longest frame


def _compile_copy(cls: type) -> None:
    """Give ``cls`` a ``copy()`` that assigns each slot, as a hand-written one would."""
    names = [f.name for f in fields(cls)]
    lines = ["def copy(self):", "    new = new_object(cls)"]
    lines += [f"    new.{name} = self.{name}" for name in names]
    lines.append("    return new")
    namespace: dict[str, Any] = {"cls": cls, "new_object": object.__new__}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from the dataclass's own field names
    cls.copy = namespace["copy"]


def plain(value: Any, _context: Any = None) -> Any:
    """Lists as plain, independent lists, and a step or a numpy integer as a
    Python int: the position dict holds JSON data (``_context``: the state,
    when this is a field's writer)."""
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (IntEnum, np.integer)):
        return int(value)
    return value


def record(cls: type) -> type:
    """A slotted dataclass with a compiled ``copy()`` and plain-data ``to_dict``."""
    cls = dataclass(slots=True)(cls)
    _compile_copy(cls)
    return cls


def frame(name: str, phase: Phase | None = None):
    """Declare a frame kind: a :func:`record` registered under ``name``."""

    def declare(cls: type) -> type:
        cls = record(cls)
        cls.name = name
        cls.phase = phase
        FRAME_TYPES[name] = cls
        return cls

    return declare


class Frame:
    """What every frame offers: its kind's name, its phase (decision frames),
    a copy and a plain-data form for the position dict."""

    __slots__ = ()
    name: ClassVar[str]
    phase: ClassVar[Phase | None]

    def to_dict(self) -> dict:
        data = {"frame": self.name}
        for item in fields(self):
            data[item.name] = plain(getattr(self, item.name))
        return data


def frame_from_dict(data: dict) -> Frame:
    """Inverse of ``Frame.to_dict``; a ValueError names an unknown frame kind."""
    kind = FRAME_TYPES.get(data.get("frame"))
    if kind is None:
        raise ValueError(f"princes_of_amber_v1: unknown stack frame {data.get('frame')!r}")
    return kind(**{key: plain(value) for key, value in data.items() if key != "frame"})


# ---- the turn ---------------------------------------------------------------------
@frame("TURN")
class Turn(Frame):
    """A player's turn begins (a win by holding Amber long enough is checked first)."""

    player: int


@frame("TURN_END")
class TurnEnd(Frame):
    """A player's turn ends: amnesia wears off, the next turn is pushed."""

    player: int


@frame("FATE_DISCARD", Phase.FATE_DISCARD)
class FateDiscard(Frame):
    """Discard down to the Wit of one's own prince."""

    player: int


@frame("ACTION_SELECT", Phase.ACTION_SELECT)
class ActionSelect(Frame):
    """Pick a prince to act, play a free card, or end the action phase."""

    player: int


@frame("CHOOSE_ACTION", Phase.CHOOSE_ACTION)
class ChooseAction(Frame):
    """Pick the act of the chosen prince."""

    player: int
    prince: int


@frame("TARGET_PRINCE", Phase.TARGET_PRINCE)
class TargetPrince(Frame):
    """Pick the prince an act is aimed at (``losing``: the princes of a lost
    war, for the cards played after it)."""

    player: int
    prince: int
    act: int
    losing: list | None = None


@frame("TARGET_PLAYER", Phase.TARGET_PLAYER)
class TargetPlayer(Frame):
    """Pick the opponent an act is aimed at."""

    player: int
    prince: int
    act: int


# ---- fights, Will contests, wars ------------------------------------------------------
@frame("FIGHT")
class Fight(Frame):
    """A Fight in progress: negate window, contest and damage, guards."""

    player: int
    prince: int
    target: int
    target_controller: int
    step: int = FightStep.OFFER_NEGATE
    negated: bool = False


@frame("WILL")
class Will(Frame):
    """A Will contest in progress; ``card`` is its kind, the fury bonuses add 5 each."""

    player: int
    prince: int
    target: int
    target_controller: int
    card: int
    step: int = WillStep.OFFER_NEGATE
    negated: bool = False
    attacker_fury: int = 0
    defender_fury: int = 0


@frame("WAR")
class WarStep(Frame):
    """An attack on Amber in progress (its figures are in ``state.war``)."""

    player: int
    prince: int
    step: int = WarStage.OFFER_NEGATE
    negated: bool = False


@frame("NEGATE", Phase.NEGATE)
class Negate(Frame):
    """The window to negate a Fight, a Will contest or a war (``against`` is
    its Contest kind; ``prince`` the target, or the attacker of a war)."""

    player: int
    against: int
    prince: int


@frame("FURY", Phase.FURY)
class Fury(Frame):
    """Emotional Fury window, asked of each side of a Will contest in turn."""

    player: int
    queue: list


@frame("BLOCK", Phase.BLOCK)
class Block(Frame):
    """The King's controller may weaken an attack on Amber."""

    player: int


@frame("BLOCK_EFFECT")
class BlockEffect(Frame):
    """A blocking card waiting for the attacker's Shadow Mastery."""

    card: int
    negated: bool = False


@frame("SHADOW_MASTERY", Phase.SHADOW_MASTERY)
class ShadowMastery(Frame):
    """The attacker may negate a blocking card."""

    player: int


@frame("SUPPORT", Phase.SUPPORT)
class Support(Frame):
    """Each player in ``queue`` may support the attack on Amber."""

    player: int
    queue: list


@frame("SHADOW_ARMIES", Phase.SHADOW_ARMIES)
class ShadowArmies(Frame):
    """The attacker may add Shadow Armies to his side."""

    player: int


@frame("WAR_FOLLOWUP", Phase.WAR_FOLLOWUP)
class WarFollowup(Frame):
    """The winner of a war may wound or take prisoner a prince of the losing side."""

    player: int
    losing: list


# ---- damage, death, capture --------------------------------------------------------------
@frame("DAMAGE")
class Damage(Frame):
    """Hits taken by ``victim``; ``dealer`` is the player who dealt them (or -1)."""

    victim: int
    dealer: int
    amount: int


@frame("DAMAGE_FOLLOWUP", Phase.DAMAGE_FOLLOWUP)
class DamageFollowup(Frame):
    """The dealer may capture the wounded prince, or show mercy."""

    player: int
    victim: int


@frame("DEATH_SEQ")
class DeathSequence(Frame):
    """A prince at zero hits dies unless Not really Dead is played."""

    victim: int
    causer: int
    step: int = DeathStep.OFFER_SURVIVAL
    not_really_dead: bool = False


@frame("DEATH", Phase.DEATH)
class Death(Frame):
    """The Not really Dead window, asked of each player in ``queue`` in turn."""

    player: int
    queue: list


@frame("CAPTURE")
class Capture(Frame):
    """``captor`` takes ``victim`` prisoner unless it is negated."""

    victim: int
    captor: int
    step: int = CaptureStep.OFFER_NEGATE
    negated: bool = False


@frame("CAPTURE_NEGATE", Phase.CAPTURE_NEGATE)
class CaptureNegate(Frame):
    """The victim's controller may negate a capture."""

    player: int
    prince: int


@frame("CALL_GUARDS", Phase.CALL_GUARDS)
class CallGuards(Frame):
    """The attacked player may call the guards on the attacking prince."""

    player: int
    prince: int


@frame("KING_REMOVAL")
class KingRemoval(Frame):
    """The King fell: his killer or captor takes Amber, or it falls neutral."""

    causer: int


# ---- succession, appointments, discards ----------------------------------------------------
@frame("SUCCESSION", Phase.SUCCESSION)
class Succession(Frame):
    """A player who lost his own prince picks a new one (or is out)."""

    player: int


@frame("APPOINT", Phase.APPOINT)
class Appoint(Frame):
    """The King's controller fills vacant regencies; ``declined`` lists the
    players who turned an offer down."""

    player: int
    declined: list = field(default_factory=list)


@frame("REGENT_OFFER", Phase.REGENT_OFFER)
class RegentOffer(Frame):
    """A player is offered a regency for his prince."""

    player: int
    prince: int


@frame("EFFECT_DISCARD", Phase.EFFECT_DISCARD)
class EffectDiscard(Frame):
    """A card's effect makes ``player`` discard ``count`` more cards."""

    player: int
    count: int


# ---- the war record -----------------------------------------------------------------------
@record
class War:
    """The figures of the attack on Amber under way: the attacking player
    and prince, the defending Amber controller (-1: neutral Amber), the
    bonuses, the supporters, the lords at its start, the totals, the outcome
    (-1 undecided, 0 lost, 1 won) and the princes of the losing side."""

    player: int
    prince: int
    defender: int
    walls_bonus: int = 0
    shadow_bonus: int = 0
    supporters: list = field(default_factory=list)
    lords: list = field(default_factory=list)
    attack: int = 0
    defence: int = 0
    won: int = -1
    losing: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {item.name: plain(getattr(self, item.name)) for item in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> War:
        return cls(**{key: plain(value) for key, value in data.items()})
