"""Which handler each frame kind runs: ``AUTOMATIC`` (frames that do their
work and push or pop frames) and ``DECISIONS`` (frames that stop the driver
and ask a player; see ``windows.Decision``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplezoo.envs.princes_of_amber import contests, turn, wars
from meeplezoo.envs.princes_of_amber.cards import Phase
from meeplezoo.envs.princes_of_amber.frames import (
    ActionSelect,
    Appoint,
    Block,
    BlockEffect,
    CallGuards,
    Capture,
    CaptureNegate,
    ChooseAction,
    Damage,
    DamageFollowup,
    Death,
    DeathSequence,
    EffectDiscard,
    FateDiscard,
    Fight,
    Fury,
    KingRemoval,
    Negate,
    RegentOffer,
    ShadowArmies,
    ShadowMastery,
    Succession,
    Support,
    TargetPlayer,
    TargetPrince,
    Turn,
    TurnEnd,
    WarFollowup,
    WarStep,
    Will,
)
from meeplezoo.envs.princes_of_amber.windows import (
    Decision,
    apply_queued_window,
    apply_window,
    legal_queued_window,
    legal_window,
)

AUTOMATIC: dict[type, Callable[[Any, Any], None]] = {
    Turn: turn.auto_turn,
    TurnEnd: turn.auto_turn_end,
    Fight: contests.auto_fight,
    Will: contests.auto_will,
    WarStep: wars.auto_war,
    Damage: contests.auto_damage,
    DeathSequence: contests.auto_death_sequence,
    Capture: contests.auto_capture,
    KingRemoval: contests.auto_king_removal,
    BlockEffect: wars.auto_block_effect,
}
DECISIONS: dict[type, Decision] = {
    FateDiscard: Decision(turn.legal_fate_discard, turn.apply_fate_discard),
    ActionSelect: Decision(turn.legal_action_select, turn.apply_action_select),
    ChooseAction: Decision(turn.legal_choose, turn.apply_choose),
    TargetPrince: Decision(turn.legal_target_prince, turn.apply_target_prince),
    TargetPlayer: Decision(turn.legal_target_player, turn.apply_target_player),
    Negate: Decision(legal_window, apply_window),
    Fury: Decision(legal_queued_window, apply_queued_window),
    Block: Decision(wars.legal_block, apply_window),
    ShadowMastery: Decision(legal_window, apply_window),
    Support: Decision(wars.legal_support, wars.apply_support),
    ShadowArmies: Decision(legal_window, apply_window),
    DamageFollowup: Decision(contests.legal_damage_followup, apply_window),
    CallGuards: Decision(contests.legal_call_guards, apply_window),
    WarFollowup: Decision(wars.legal_war_followup, apply_window),
    CaptureNegate: Decision(legal_window, apply_window),
    Death: Decision(legal_queued_window, apply_queued_window),
    Succession: Decision(turn.legal_succession, turn.apply_succession),
    Appoint: Decision(turn.legal_appoint, turn.apply_appoint),
    EffectDiscard: Decision(turn.legal_effect_discard, turn.apply_effect_discard),
    RegentOffer: Decision(turn.legal_regent_offer, turn.apply_regent_offer),
}
assert {kind.phase for kind in DECISIONS} == set(Phase) - {Phase.GAME_OVER}
