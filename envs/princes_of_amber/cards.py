"""Game data: the nine princes, the Fate card kinds and the action layout.

Cards with the same effect share a *kind*; actions, masks and observations
use kinds, and names only decorate the pictures and logs. What each kind
does (when it may be played, its targets, its effect) is its record in
:mod:`meeplezoo.envs.princes_of_amber.acts`.

The IntEnums name the ids; the hot paths compare plain ints, so the few
constants they use are bound as ints below their enum.
"""

from __future__ import annotations

from enum import IntEnum

PRINCE_NAMES = ("Corwin", "Eric", "Benedict", "Bleys", "Julian", "Gerard", "Random", "Caine", "Brand")
NUM_PRINCES = 9


class Attribute(IntEnum):
    """The columns of a prince's attribute row."""

    HITS = 0
    FIGHT = 1
    WIT = 2
    WILL = 3
    LEADERSHIP = 4


HITS, FIGHT_ATTRIBUTE, WIT, WILL, LEADERSHIP = (int(column) for column in Attribute)
ATTRIBUTE_NAMES = ("Hits", "Fight", "Wit", "Will", "Leadership")
PRINCE_TABLE = (
    (12, 9, 10, 11, 8),
    (8, 8, 9, 9, 9),
    (9, 11, 7, 7, 11),
    (8, 10, 7, 7, 10),
    (9, 7, 7, 8, 7),
    (10, 12, 6, 7, 7),
    (7, 7, 8, 7, 6),
    (7, 7, 7, 7, 8),
    (7, 7, 11, 10, 7),
)


class Role(IntEnum):
    """What a prince is: the King, one of the three Regents, or an exile."""

    KING = 0
    GUARDIAN = 1
    NORTH = 2
    SOUTH = 3
    EXILE = 4


KING, GUARDIAN, NORTH, SOUTH, EXILE = (int(role) for role in Role)
ROLE_NAMES = ("King", "Guardian of Arden", "Admiral North", "Admiral South", "Exile")
REGENT_POSTS = (GUARDIAN, NORTH, SOUTH)


# card kinds
class Kind(IntEnum):
    """The 36 Fate card kinds (the id is the kind's index in CARD(k) actions
    and observations). What each kind does is its record in ``acts.RULES``."""

    FIGHT = 0
    CAPTURE = 1
    CALL_THE_GUARDS = 2
    PRISONER_OF_WAR = 3
    GET_AWAY = 4
    HIDE_IN_SHADOW = 5
    LORDS_IN_AMBER = 6
    NEGATE_CAPTURE = 7
    BLOCK_THE_WAY = 8
    SHADOW_MASTERY = 9
    BREAK_CONTACT = 10
    CONQUER = 11
    WALLS_OF_AMBER = 12
    ARMY_LOSS = 13
    SHADOW_ARMIES = 14
    BATTLE_WOUNDS = 15
    EXILE = 16
    DISTRACTIONS = 17
    TRUMP_TRAVEL = 18
    EMOTIONAL_FURY = 19
    SHOW_MERCY = 20
    AMNESIA = 21
    BLESSING = 22
    NOT_REALLY_DEAD = 23
    SHADOW_ASSASSINS = 24
    GAIN_NEUTRAL = 25
    BETRAYAL = 26
    WALK_THE_PATTERN = 27
    LOOK_AHEAD = 28
    GOSSIP = 29
    ESCAPE_ACTION = 30
    PSYCHIC_HOLD = 31
    CONTEST_OF_WILLS = 32
    MENTAL_DOMINATION = 33
    PSYCHIC_ATTACK = 34
    MIND_PROBE = 35


KIND_NAMES = tuple(kind.name for kind in Kind)
NUM_KINDS = len(Kind)

# the default Fate deck: kind name -> [(card name, copies), ...]; 100 cards
DEFAULT_DECK = {
    "FIGHT": [["Assassination", 3], ["Duel", 3], ["Swordfight", 3], ["Grapple", 3]],
    "CAPTURE": [["Capture", 3], ["Imprison", 2]],
    "CALL_THE_GUARDS": [["Call the Guards", 2]],
    "PRISONER_OF_WAR": [["Prisoner of War", 2]],
    "GET_AWAY": [["Get Away", 2]],
    "HIDE_IN_SHADOW": [["Hide in Shadow", 2]],
    "LORDS_IN_AMBER": [["Lords in Amber", 2]],
    "NEGATE_CAPTURE": [["Secret Passages", 2], ["Narrow Escape", 2]],
    "BLOCK_THE_WAY": [["Block the Way", 2]],
    "SHADOW_MASTERY": [["Shadow Mastery", 2]],
    "BREAK_CONTACT": [["Break Contact", 2]],
    "CONQUER": [
        ["Invade Amber", 2],
        ["Attack by Sea", 2],
        ["Scale Mount Kolvir", 2],
        ["Storm Castle Amber", 2],
    ],
    "WALLS_OF_AMBER": [["Walls of Amber", 3]],
    "ARMY_LOSS": [
        ["Monsters & Storms", 1],
        ["Raiding Parties", 1],
        ["Jewel of Justice", 1],
        ["Ambush", 1],
        ["Shadow Obstacles", 1],
    ],
    "SHADOW_ARMIES": [["Shadow Armies", 3]],
    "BATTLE_WOUNDS": [["Battle Wounds", 2]],
    "EXILE": [["Exile", 2]],
    "DISTRACTIONS": [["Distractions of Court", 2]],
    "TRUMP_TRAVEL": [["Trump Travel", 2]],
    "EMOTIONAL_FURY": [["Emotional Fury", 2]],
    "SHOW_MERCY": [["Show Mercy", 2]],
    "AMNESIA": [["Amnesia", 2]],
    "BLESSING": [["Blessing of Oberon", 1]],
    "NOT_REALLY_DEAD": [["Not really Dead", 1]],
    "SHADOW_ASSASSINS": [["Shadow Assassins", 2]],
    "GAIN_NEUTRAL": [["Influence", 1], ["Promises", 1], ["Go with the Winner", 1], ["Mutual Hatred", 1]],
    "BETRAYAL": [["Betrayal", 1], ["Mistrust", 1], ["Manipulation", 1], ["Keep Options Open", 1]],
    "WALK_THE_PATTERN": [["Walk the Pattern", 2]],
    "LOOK_AHEAD": [["Plan Ahead", 1], ["Guile and Cunning", 1]],
    "GOSSIP": [["Family Gossip", 1], ["Speak to Sister", 1]],
    "ESCAPE_ACTION": [["Dworkin", 1], ["Rescued", 1]],
    "PSYCHIC_HOLD": [["Psychic Hold", 2]],
    "CONTEST_OF_WILLS": [["Contest of Wills", 2]],
    "MENTAL_DOMINATION": [["Mental Domination", 2]],
    "PSYCHIC_ATTACK": [["Psychic Attack", 2]],
    "MIND_PROBE": [["Mind Probe", 2]],
}


def build_card_list(deck_counts: dict) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Card ids in canonical order (kind order, copies consecutive):
    returns (kind of each card, name of each card)."""
    kinds, names = [], []
    for k, kname in enumerate(KIND_NAMES):
        for name, copies in deck_counts.get(kname, []):
            kinds.extend([k] * int(copies))
            names.extend([str(name)] * int(copies))
    return tuple(kinds), tuple(names)


class Noncard(IntEnum):
    """The actions a prince takes without a card."""

    BIDE = 0
    RECUPERATE = 1
    FORTUNE = 2
    INTRIGUE = 3
    RAISE_ARMY = 4
    ESCAPE = 5


NONCARD_NAMES = tuple(action.name for action in Noncard)
NONCARD_BASE = NUM_KINDS  # an "act code": 0..35 a card kind, NONCARD_BASE + m a non-card action
NUM_ACTS = NONCARD_BASE + len(Noncard)


class ActionBlock(IntEnum):
    """Where each block of the flat action layout (58 actions) starts."""

    PRINCE = 0  # PRINCE(i) = i, i = 0..8
    PLAYER = 8  # PLAYER(j) = 8 + j, j = 1..4 seats after me
    CARD = 13  # CARD(k) = 13 + k
    NONCARD = 49  # NONCARD(m) = 49 + m
    END = 55
    PASS = 56
    SUPPORT = 57


A_PRINCE, A_PLAYER, A_CARD, A_NONCARD, A_END, A_PASS, A_SUPPORT = (int(start) for start in ActionBlock)
NUM_ACTIONS = A_SUPPORT + 1


class Phase(IntEnum):
    """The decisions a player can be asked (a decision frame on top of the
    stack), plus the end of the game; the observation one-hots it."""

    FATE_DISCARD = 0
    ACTION_SELECT = 1
    CHOOSE_ACTION = 2
    TARGET_PRINCE = 3
    TARGET_PLAYER = 4
    NEGATE = 5
    FURY = 6
    BLOCK = 7
    SHADOW_MASTERY = 8
    SUPPORT = 9
    SHADOW_ARMIES = 10
    DAMAGE_FOLLOWUP = 11
    CALL_GUARDS = 12
    WAR_FOLLOWUP = 13
    CAPTURE_NEGATE = 14
    DEATH = 15
    SUCCESSION = 16
    APPOINT = 17
    EFFECT_DISCARD = 18
    REGENT_OFFER = 19
    GAME_OVER = 20


PHASES = tuple(phase.name for phase in Phase)
