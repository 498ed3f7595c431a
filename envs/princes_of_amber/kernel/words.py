"""The kernel's names for the row's records and the rules' table.

Frame kinds by code, the words of the fields the kernel reads (every
decision frame keeps its player in word 1), the war's words, and
``acts.RULES`` as flat arrays: per act code its timing, target kind, the
predicate that lists its targets, what makes it playable, its effect, the
window a response answers (with the test that it fits and what playing it
does) and a won Will contest's effect, each named by a small integer the
kernel switches on. The arrays are built from the table itself, so a rule
that changes there changes here.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber import acts as A
from meeplezoo.envs.princes_of_amber import frames as F
from meeplezoo.envs.princes_of_amber.kernel.row_fields import FRAME_CODE, FRAME_FIELD_WORDS, FRAME_KINDS
from meeplezoo.envs.princes_of_amber.kernel.row_fields import WAR_FIELD_WORDS as _W

assert all(FRAME_FIELD_WORDS[kind.name]["player"] == 1 for kind in FRAME_KINDS if kind.phase is not None)
PLAYER = 1  # a decision frame's player

# frame codes
TURN, TURN_END, FATE_DISCARD, ACTION_SELECT = (
    FRAME_CODE[k] for k in (F.Turn, F.TurnEnd, F.FateDiscard, F.ActionSelect)
)
CHOOSE_ACTION, TARGET_PRINCE, TARGET_PLAYER = (
    FRAME_CODE[k] for k in (F.ChooseAction, F.TargetPrince, F.TargetPlayer)
)
FIGHT, WILL, WAR, NEGATE, FURY = (FRAME_CODE[k] for k in (F.Fight, F.Will, F.WarStep, F.Negate, F.Fury))
BLOCK, BLOCK_EFFECT, SHADOW_MASTERY = (FRAME_CODE[k] for k in (F.Block, F.BlockEffect, F.ShadowMastery))
SUPPORT, SHADOW_ARMIES, WAR_FOLLOWUP = (FRAME_CODE[k] for k in (F.Support, F.ShadowArmies, F.WarFollowup))
DAMAGE, DAMAGE_FOLLOWUP, DEATH_SEQ, DEATH = (
    FRAME_CODE[k] for k in (F.Damage, F.DamageFollowup, F.DeathSequence, F.Death)
)
CAPTURE, CAPTURE_NEGATE, CALL_GUARDS = (FRAME_CODE[k] for k in (F.Capture, F.CaptureNegate, F.CallGuards))
KING_REMOVAL, SUCCESSION, APPOINT = (FRAME_CODE[k] for k in (F.KingRemoval, F.Succession, F.Appoint))
REGENT_OFFER, EFFECT_DISCARD = FRAME_CODE[F.RegentOffer], FRAME_CODE[F.EffectDiscard]
# the turn's decisions are codes FATE_DISCARD..TARGET_PLAYER (decisions.apply reads them as a range)
assert (FATE_DISCARD, ACTION_SELECT, CHOOSE_ACTION, TARGET_PRINCE, TARGET_PLAYER) == tuple(
    range(FATE_DISCARD, FATE_DISCARD + 5)
)

# each frame kind's phase (-1: automatic), and the word of its "negated" flag (-1: none)
PHASE_OF = np.array([-1 if kind.phase is None else int(kind.phase) for kind in FRAME_KINDS], dtype=np.int64)
NEGATED_WORD = np.array(
    [FRAME_FIELD_WORDS[kind.name].get("negated", -1) for kind in FRAME_KINDS], dtype=np.int64
)

# the fields of frames by word (one name per word where kinds share it)
PRINCE = 2  # CHOOSE_ACTION, TARGET_PRINCE, TARGET_PLAYER, FIGHT, WILL, WAR, CAPTURE_NEGATE, CALL_GUARDS, REGENT_OFFER
ACT = 3  # TARGET_PRINCE, TARGET_PLAYER
TP_LOSING = 4  # TARGET_PRINCE
TARGET, TARGET_CONTROLLER = 3, 4  # FIGHT, WILL
FIGHT_STEP, WILL_CARD, WILL_STEP, ATTACKER_FURY, DEFENDER_FURY = 5, 5, 6, 8, 9
WAR_STEP = 3
AGAINST, NEGATE_PRINCE = 2, 3  # NEGATE
QUEUE = 2  # FURY, SUPPORT, DEATH
WF_LOSING = 2  # WAR_FOLLOWUP
VICTIM, DEALER, AMOUNT = 1, 2, 3  # DAMAGE (DAMAGE_FOLLOWUP: its victim in word 2)
FOLLOWUP_VICTIM = 2
CAUSER, DEATH_STEP, NOT_REALLY_DEAD = 2, 3, 4  # DEATH_SEQ (victim in word 1)
CAPTOR, CAPTURE_STEP = 2, 3  # CAPTURE (victim in word 1)
BLOCK_CARD = 1
KING_CAUSER = 1
DECLINED = 2  # APPOINT
DISCARD_LEFT = 2  # EFFECT_DISCARD's count
_EXPECTED = {
    "TARGET_PRINCE": {"prince": PRINCE, "act": ACT, "losing": TP_LOSING},
    "FIGHT": {"target": TARGET, "target_controller": TARGET_CONTROLLER, "step": FIGHT_STEP},
    "WILL": {
        "card": WILL_CARD,
        "step": WILL_STEP,
        "attacker_fury": ATTACKER_FURY,
        "defender_fury": DEFENDER_FURY,
    },
    "WAR": {"prince": PRINCE, "step": WAR_STEP},
    "NEGATE": {"against": AGAINST, "prince": NEGATE_PRINCE},
    "FURY": {"queue": QUEUE},
    "SUPPORT": {"queue": QUEUE},
    "DEATH": {"queue": QUEUE},
    "WAR_FOLLOWUP": {"losing": WF_LOSING},
    "DAMAGE": {"victim": VICTIM, "dealer": DEALER, "amount": AMOUNT},
    "DAMAGE_FOLLOWUP": {"victim": FOLLOWUP_VICTIM},
    "DEATH_SEQ": {"victim": VICTIM, "causer": CAUSER, "step": DEATH_STEP, "not_really_dead": NOT_REALLY_DEAD},
    "CAPTURE": {"victim": VICTIM, "captor": CAPTOR, "step": CAPTURE_STEP},
    "CAPTURE_NEGATE": {"prince": PRINCE},
    "CALL_GUARDS": {"prince": PRINCE},
    "REGENT_OFFER": {"prince": PRINCE},
    "BLOCK_EFFECT": {"card": BLOCK_CARD},
    "KING_REMOVAL": {"causer": KING_CAUSER},
    "APPOINT": {"declined": DECLINED},
    "EFFECT_DISCARD": {"count": DISCARD_LEFT},
    "CHOOSE_ACTION": {"prince": PRINCE},
    "TARGET_PLAYER": {"prince": PRINCE, "act": ACT},
}
assert all(
    FRAME_FIELD_WORDS[kind][name] == word for kind, words in _EXPECTED.items() for name, word in words.items()
)

# the war's record (after its presence word)
WAR_PLAYER, WAR_PRINCE, WAR_DEFENDER = _W["player"], _W["prince"], _W["defender"]
WALLS_BONUS, SHADOW_BONUS, SUPPORTERS, LORDS = (
    _W["walls_bonus"],
    _W["shadow_bonus"],
    _W["supporters"],
    _W["lords"],
)
WAR_ATTACK, WAR_DEFENCE, WAR_WON, WAR_LOSING = _W["attack"], _W["defence"], _W["won"], _W["losing"]


# ---- the rules' table, flat ------------------------------------------------------------------
def _ids(functions) -> dict:
    return {function: index + 1 for index, function in enumerate(functions)}


TARGETS = _ids(
    (
        A.free_enemies,
        A.free_rivals,
        A.dominable,
        A.neutral_exiles,
        A.rival_allies,
        A.intrigue_targets,
        A.own_captives,
        A.rival_exiles,
        A.losing_side,
        A.opponents,
        A.exiled_opponents,
    )
)
(
    T_FREE_ENEMIES,
    T_FREE_RIVALS,
    T_DOMINABLE,
    T_NEUTRAL_EXILES,
    T_RIVAL_ALLIES,
    T_INTRIGUE,
    T_OWN_CAPTIVES,
    T_RIVAL_EXILES,
    T_LOSING_SIDE,
    T_OPPONENTS,
    T_EXILED_OPPONENTS,
) = range(1, 12)
PLAYABLE = _ids((A.can_conquer, A.rival_holds_amber, A.deck_has_cards, A.is_wounded))
P_CAN_CONQUER, P_RIVAL_HOLDS_AMBER, P_DECK_HAS_CARDS, P_IS_WOUNDED = range(1, 5)
EFFECTS = _ids(
    (
        A.start_fight,
        A.start_will,
        A.start_war,
        A.wound,
        A.win_over,
        A.turn_neutral,
        A.walk_the_pattern,
        A.look_ahead,
        A.gossip,
        A.free_prisoner,
        A.exile_discard,
        A.distractions,
        A.amnesia,
        A.blessing,
        A.take_prisoner,
        A.bide,
        A.recuperate,
        A.fortune,
        A.intrigue,
        A.raise_army,
        A.escape_roll,
        A.walls_of_amber,
        A.army_loss,
    )
)
(
    E_FIGHT,
    E_WILL,
    E_WAR,
    E_WOUND,
    E_WIN_OVER,
    E_TURN_NEUTRAL,
    E_WALK_THE_PATTERN,
    E_LOOK_AHEAD,
    E_GOSSIP,
    E_FREE_PRISONER,
    E_EXILE_DISCARD,
    E_DISTRACTIONS,
    E_AMNESIA,
    E_BLESSING,
    E_TAKE_PRISONER,
    E_BIDE,
    E_RECUPERATE,
    E_FORTUNE,
    E_INTRIGUE,
    E_RAISE_ARMY,
    E_ESCAPE_ROLL,
    E_WALLS_OF_AMBER,
    E_ARMY_LOSS,
) = range(1, 24)
FITS = _ids(
    (
        A.against_fight,
        A.against_fight_on_exile,
        A.against_fight_on_lord,
        A.against_will,
        A.against_war,
        A.victim_is_an_ally,
    )
)
FIT_FIGHT, FIT_FIGHT_ON_EXILE, FIT_FIGHT_ON_LORD, FIT_WILL, FIT_WAR, FIT_ALLY = range(1, 7)
RESPONDS = _ids(
    (
        A.negate_parent,
        A.block_the_attack,
        A.add_shadow_armies,
        A.aim_at_losing_side,
        A.add_fury,
        A.capture_victim,
        A.show_mercy,
        A.capture_attacker,
        A.survive,
    )
)
(
    R_NEGATE,
    R_BLOCK,
    R_SHADOW_ARMIES,
    R_AIM,
    R_FURY,
    R_CAPTURE_VICTIM,
    R_MERCY,
    R_CAPTURE_ATTACKER,
    R_SURVIVE,
) = range(1, 10)
WINS = _ids((A.hold_target, A.contest_of_wills, A.dominate, A.psychic_attack, A.probe_mind))
W_HOLD, W_CONTEST_OF_WILLS, W_DOMINATE, W_PSYCHIC_ATTACK, W_PROBE_MIND = range(1, 6)


def _column(ids: dict, attribute: str) -> np.ndarray:
    return np.array([ids.get(getattr(rule, attribute), 0) for rule in A.RULES], dtype=np.int64)


ACT_TIMING = np.array([int(rule.timing) for rule in A.RULES], dtype=np.int64)
ACT_TARGET = np.array([int(rule.target) for rule in A.RULES], dtype=np.int64)
ACT_CAPTIVE = np.array([int(rule.captive) for rule in A.RULES], dtype=np.int64)
ACT_WINDOW = np.array([-1 if rule.window is None else int(rule.window) for rule in A.RULES], dtype=np.int64)
ACT_TARGETS, ACT_PLAYABLE, ACT_EFFECT = (
    _column(TARGETS, "targets"),
    _column(PLAYABLE, "playable"),
    _column(EFFECTS, "effect"),
)
ACT_FITS, ACT_RESPOND, ACT_WINS = _column(FITS, "fits"), _column(RESPONDS, "respond"), _column(WINS, "wins")
assert all(rule.targets is None or rule.targets in TARGETS for rule in A.RULES)
assert all(
    getattr(rule, name) is None or getattr(rule, name) in ids
    for rule in A.RULES
    for name, ids in (
        ("playable", PLAYABLE),
        ("effect", EFFECTS),
        ("fits", FITS),
        ("respond", RESPONDS),
        ("wins", WINS),
    )
)
NUM_ACTS = len(A.RULES)
PRINCE_ACTION_CARDS = np.array(A.PRINCE_ACTION_CARDS, dtype=np.int64)
PRINCE_ACTION_NONCARDS = np.array(A.PRINCE_ACTION_NONCARDS, dtype=np.int64)
FREE_CARDS = np.array(A.FREE_CARDS, dtype=np.int64)
CAPTIVE_CARDS = np.array(A.CAPTIVE_CARDS, dtype=np.int64)
CAPTIVE_NONCARDS = np.array(A.CAPTIVE_NONCARDS, dtype=np.int64)
