"""Where things live: the state row and the game row.

The state row's offsets come from ``AmberState.fields``
(:func:`~meeplezoo.envs.core.compiled.layout.layout_of`, the records' words
from :mod:`row_fields`); the game row holds one configuration, laid out from
:data:`GAME_SLOTS` the same way. Kernels read both through these module
constants, which numba folds into the machine code.
"""

from __future__ import annotations

from meeplezoo.envs.core.compiled.layout import layout_of, offsets_of
from meeplezoo.envs.princes_of_amber.cards import NUM_KINDS, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    CARD_CAPACITY,
    DECK_WORDS,
    DICE_CAPACITY,
    MOST_PLAYERS,
)
from meeplezoo.envs.princes_of_amber.state import AmberState

STATE_LAYOUT = layout_of(AmberState)
_S = STATE_LAYOUT.constants()
STATE_WIDTH, RNG = _S["WIDTH"], _S["RNG"]
# the deck: its two counts, then the draw pile from the front (top last) and the discard from the back
DRAW_COUNT, DISCARD_COUNT = _S["DECK"], _S["DECK"] + 1
CARDS, DECK_END = _S["DECK"] + 2, _S["DECK"] + DECK_WORDS  # discard k (0: the first) at DECK_END - 1 - k
# the hands: one length per seat, then the cards of seat 0, seat 1, ...
HAND_LENGTHS, HAND_CARDS = _S["HANDS"], _S["HANDS"] + MOST_PLAYERS
HAND_KINDS = _S["HAND_KINDS"]  # per seat NUM_KINDS counts
KNOWN_TOP = _S["KNOWN_TOP"]  # per seat SEEN_CAPACITY kinds, the top first, ended by EMPTY
KNOWN_HAND = _S["KNOWN_HAND"]  # per viewer and seat NUM_KINDS counts, EMPTY in each for none known
DICE, DICE_USED = _S["DICE"], _S["DICE_USED"]  # the scripted dice end at their first 0
NUM_PLAYERS = _S["NUM_PLAYERS"]
STACK = _S["STACK"]  # STACK_CAPACITY records of FRAME_WORDS words, the bottom first; unused ones all EMPTY
WAR = _S["WAR"]  # a presence word, then the war's record (row_fields.WAR_FIELD_WORDS)
ATTRIBUTES = _S["ATTRIBUTES"]  # per prince its 5 attributes
HITS, ALIVE, CONTROLLER, ROLE = _S["HITS"], _S["ALIVE"], _S["CONTROLLER"], _S["ROLE"]
CAPTURED, JAILER, ARMIES, AMNESIA = _S["CAPTURED"], _S["JAILER"], _S["ARMIES"], _S["AMNESIA"]
PSYCHIC_HOLD, ACTED = _S["PSYCHIC_HOLD"], _S["ACTED"]
PLAYER_PRINCE, HOLD_COUNT, IN_GAME = _S["PLAYER_PRINCE"], _S["HOLD_COUNT"], _S["IN_GAME"]
ELIMINATION_ORDER, EXTRA_TURNS = _S["ELIMINATION_ORDER"], _S["EXTRA_TURNS"]
AMBER, GARRISON, ELIMINATED_COUNT, WINNER = _S["AMBER"], _S["GARRISON"], _S["ELIMINATED_COUNT"], _S["WINNER"]
CONTEST_TOTALS, LEGAL, TURN_PLAYER, TURNS = _S["CONTEST_TOTALS"], _S["LEGAL"], _S["TURN_PLAYER"], _S["TURNS"]
PENDING_ACT, ACTING_PRINCE, TARGET_PRINCE = _S["PENDING_ACT"], _S["ACTING_PRINCE"], _S["TARGET_PRINCE"]
DAMAGED_PRINCE, DAMAGE_DEALER, CONTEST_TYPE = _S["DAMAGED_PRINCE"], _S["DAMAGE_DEALER"], _S["CONTEST_TYPE"]
TURN_LIMIT_REACHED, DECIDING_PLAYER = _S["TURN_LIMIT_REACHED"], _S["DECIDING_PLAYER"]

# the game row: one configuration
GAME_SLOTS = (
    ("G_NUM_PLAYERS", 1),
    ("G_NUM_CARDS", 1),
    ("G_CARD_KIND", CARD_CAPACITY),  # each card's kind
    ("G_KIND_COPIES", NUM_KINDS),  # the cards of each kind in the deck
    ("G_TABLE_ATTRIBUTES", NUM_PRINCES * 5),
    ("G_GARRISON_START", 1),
    ("G_STARTING_HAND", 1),
    ("G_HOLD_TURNS", 1),
    ("G_MAX_TURNS", 1),
    ("G_ROLLED_ATTRIBUTES", 1),
    ("G_ALLOW_SUPPORT", 1),
    ("G_REGENT_OFFERS", 1),
    ("G_PROMPT_ONLY_IF_PLAYABLE", 1),
    ("G_ALL_LORDS_DEFEND", 1),
    ("G_AMBER_FIRST", 1),
    ("G_DICE_COUNT", 1),  # the scripted dice a new game starts with
    ("G_DICE", DICE_CAPACITY),
    ("G_DECK_OVERRIDE_COUNT", 1),  # card kinds put on top of the deck, top first
    ("G_DECK_OVERRIDE", CARD_CAPACITY),
    ("G_PRINCE_ORDER", NUM_PRINCES),  # the prince deck's order (-1 in the first: shuffled)
)
_G = offsets_of(GAME_SLOTS)
GAME_WIDTH = _G["WIDTH"]
G_NUM_PLAYERS, G_NUM_CARDS, G_CARD_KIND, G_KIND_COPIES = (
    _G["G_NUM_PLAYERS"],
    _G["G_NUM_CARDS"],
    _G["G_CARD_KIND"],
    _G["G_KIND_COPIES"],
)
G_TABLE_ATTRIBUTES, G_GARRISON_START, G_STARTING_HAND = (
    _G["G_TABLE_ATTRIBUTES"],
    _G["G_GARRISON_START"],
    _G["G_STARTING_HAND"],
)
G_HOLD_TURNS, G_MAX_TURNS, G_ROLLED_ATTRIBUTES = (
    _G["G_HOLD_TURNS"],
    _G["G_MAX_TURNS"],
    _G["G_ROLLED_ATTRIBUTES"],
)
G_ALLOW_SUPPORT, G_REGENT_OFFERS = _G["G_ALLOW_SUPPORT"], _G["G_REGENT_OFFERS"]
G_PROMPT_ONLY_IF_PLAYABLE, G_ALL_LORDS_DEFEND = _G["G_PROMPT_ONLY_IF_PLAYABLE"], _G["G_ALL_LORDS_DEFEND"]
G_AMBER_FIRST = _G["G_AMBER_FIRST"]
G_DICE_COUNT, G_DICE, G_PRINCE_ORDER = _G["G_DICE_COUNT"], _G["G_DICE"], _G["G_PRINCE_ORDER"]
G_DECK_OVERRIDE_COUNT, G_DECK_OVERRIDE = _G["G_DECK_OVERRIDE_COUNT"], _G["G_DECK_OVERRIDE"]
