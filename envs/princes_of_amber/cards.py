"""Game data: the nine princes, the Fate card kinds and the action layout.

Cards with the same effect share a *kind*; actions, masks and observations
use kinds, and names only decorate the pictures and logs.
"""

from __future__ import annotations

PRINCE_NAMES = ("Corwin", "Eric", "Benedict", "Bleys", "Julian", "Gerard", "Random", "Caine", "Brand")
NUM_PRINCES = 9
# attribute columns: Hits, Fight, Wit, Will, Leadership
HITS, FIGHT_ATTR, WIT, WILL, LEAD = range(5)
ATTR_NAMES = ("Hits", "Fight", "Wit", "Will", "Leadership")
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

# roles
KING, GUARDIAN, NORTH, SOUTH, EXILE = range(5)
ROLE_NAMES = ("King", "Guardian of Arden", "Admiral North", "Admiral South", "Exile")
REGENT_POSTS = (GUARDIAN, NORTH, SOUTH)

# card kinds (index = kind id)
KIND_NAMES = (
    "FIGHT",
    "CAPTURE",
    "CALL_THE_GUARDS",
    "PRISONER_OF_WAR",
    "GET_AWAY",
    "HIDE_IN_SHADOW",
    "LORDS_IN_AMBER",
    "NEGATE_CAPTURE",
    "BLOCK_THE_WAY",
    "SHADOW_MASTERY",
    "BREAK_CONTACT",
    "CONQUER",
    "WALLS_OF_AMBER",
    "ARMY_LOSS",
    "SHADOW_ARMIES",
    "BATTLE_WOUNDS",
    "EXILE",
    "DISTRACTIONS",
    "TRUMP_TRAVEL",
    "EMOTIONAL_FURY",
    "SHOW_MERCY",
    "AMNESIA",
    "BLESSING",
    "NOT_REALLY_DEAD",
    "SHADOW_ASSASSINS",
    "GAIN_NEUTRAL",
    "BETRAYAL",
    "WALK_THE_PATTERN",
    "LOOK_AHEAD",
    "GOSSIP",
    "ESCAPE_ACTION",
    "PSYCHIC_HOLD",
    "CONTEST_OF_WILLS",
    "MENTAL_DOMINATION",
    "PSYCHIC_ATTACK",
    "MIND_PROBE",
)
NUM_KINDS = len(KIND_NAMES)
K = {name: i for i, name in enumerate(KIND_NAMES)}

# (kind, card type letter, timing) ; timing: "action", "free" or the response window name
KIND_TYPE = {
    K["FIGHT"]: "F",
    K["CAPTURE"]: "C",
    K["CALL_THE_GUARDS"]: "C",
    K["PRISONER_OF_WAR"]: "C",
    K["GET_AWAY"]: "N",
    K["HIDE_IN_SHADOW"]: "N",
    K["LORDS_IN_AMBER"]: "N",
    K["NEGATE_CAPTURE"]: "N",
    K["BLOCK_THE_WAY"]: "N",
    K["SHADOW_MASTERY"]: "N",
    K["BREAK_CONTACT"]: "N",
    K["CONQUER"]: "L",
    K["WALLS_OF_AMBER"]: "B",
    K["ARMY_LOSS"]: "B",
    K["SHADOW_ARMIES"]: "X",
    K["BATTLE_WOUNDS"]: "X",
    K["EXILE"]: "X",
    K["DISTRACTIONS"]: "X",
    K["TRUMP_TRAVEL"]: "X",
    K["EMOTIONAL_FURY"]: "X",
    K["SHOW_MERCY"]: "X",
    K["AMNESIA"]: "X",
    K["BLESSING"]: "X",
    K["NOT_REALLY_DEAD"]: "X",
    K["SHADOW_ASSASSINS"]: "A",
    K["GAIN_NEUTRAL"]: "A",
    K["BETRAYAL"]: "A",
    K["WALK_THE_PATTERN"]: "A",
    K["LOOK_AHEAD"]: "A",
    K["GOSSIP"]: "A",
    K["ESCAPE_ACTION"]: "A",
    K["PSYCHIC_HOLD"]: "W",
    K["CONTEST_OF_WILLS"]: "W",
    K["MENTAL_DOMINATION"]: "W",
    K["PSYCHIC_ATTACK"]: "W",
    K["MIND_PROBE"]: "W",
}
ACTION_KINDS = (
    K["FIGHT"],
    K["CONQUER"],
    K["SHADOW_ASSASSINS"],
    K["GAIN_NEUTRAL"],
    K["BETRAYAL"],
    K["WALK_THE_PATTERN"],
    K["LOOK_AHEAD"],
    K["GOSSIP"],
    K["ESCAPE_ACTION"],
    K["PSYCHIC_HOLD"],
    K["CONTEST_OF_WILLS"],
    K["MENTAL_DOMINATION"],
    K["PSYCHIC_ATTACK"],
    K["MIND_PROBE"],
)
FREE_KINDS = (K["EXILE"], K["DISTRACTIONS"], K["TRUMP_TRAVEL"], K["AMNESIA"], K["BLESSING"])
WILL_KINDS = (
    K["PSYCHIC_HOLD"],
    K["CONTEST_OF_WILLS"],
    K["MENTAL_DOMINATION"],
    K["PSYCHIC_ATTACK"],
    K["MIND_PROBE"],
)
BLOCK_KINDS = (K["WALLS_OF_AMBER"], K["ARMY_LOSS"])
KIND_TIMING = {}
for _k in range(NUM_KINDS):
    KIND_TIMING[_k] = "action" if _k in ACTION_KINDS else "free" if _k in FREE_KINDS else "response"
del _k

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


# non-card actions
BIDE, RECUPERATE, FORTUNE, INTRIGUE, RAISE_ARMY, ESCAPE = range(6)
NONCARD_NAMES = ("BIDE", "RECUPERATE", "FORTUNE", "INTRIGUE", "RAISE_ARMY", "ESCAPE")
NONCARD_BASE = 36  # an "act" code: 0..35 a card kind, 36 + m a non-card action

# flat action layout (58)
A_PRINCE = 0
A_PLAYER = 8  # PLAYER(j) = 8 + j, j = 1..4 seats after me
A_CARD = 13
A_NONCARD = 49
A_END = 55
A_PASS = 56
A_SUPPORT = 57
NUM_ACTIONS = 58

PHASES = (
    "FATE_DISCARD",
    "ACTION_SELECT",
    "CHOOSE_ACTION",
    "TARGET_PRINCE",
    "TARGET_PLAYER",
    "NEGATE",
    "FURY",
    "BLOCK",
    "SHADOW_MASTERY",
    "SUPPORT",
    "SHADOW_ARMIES",
    "DAMAGE_FOLLOWUP",
    "CALL_GUARDS",
    "WAR_FOLLOWUP",
    "CAPTURE_NEGATE",
    "DEATH",
    "SUCCESSION",
    "APPOINT",
    "EFFECT_DISCARD",
    "REGENT_OFFER",
    "GAME_OVER",
)
PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}


def action_name(a: int) -> str:
    """Static words for an action index (same in every position)."""
    if a < A_PLAYER + 1:
        return "prince " + PRINCE_NAMES[a].lower()
    if a < A_CARD:
        return f"player +{a - A_PLAYER}"
    if a < A_NONCARD:
        return "card " + KIND_NAMES[a - A_CARD].lower()
    if a < A_END:
        return NONCARD_NAMES[a - A_NONCARD].lower()
    return ("end phase", "pass", "support")[a - A_END]
