"""The handlers of the turn's frames: the turn itself, the Fate discard, the
action phase and its choices (prince, act, target), and the bookkeeping
decisions (succession, appointments, a discard an effect asks for).

Automatic handlers take ``(state, frame)``; a decision's ``legal_*`` and
``apply_*`` pair is listed in ``handlers.DECISIONS``.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.turns import next_seat
from meeplezoo.envs.princes_of_amber import acts
from meeplezoo.envs.princes_of_amber.cards import (
    A_CARD,
    A_END,
    A_NONCARD,
    A_PASS,
    A_PLAYER,
    A_PRINCE,
    EXILE,
    NONCARD_BASE,
    NUM_KINDS,
    NUM_PRINCES,
)
from meeplezoo.envs.princes_of_amber.frames import (
    ActionSelect,
    Appoint,
    ChooseAction,
    EffectDiscard,
    FateDiscard,
    RegentOffer,
    Succession,
    TargetPlayer,
    TargetPrince,
    Turn,
    TurnEnd,
)
from meeplezoo.envs.princes_of_amber.windows import card_actions

State = Any  # an AmberState (state.py imports this module, not the reverse)


# ---- the turn ----------------------------------------------------------------------
def auto_turn(state: State, frame: Turn) -> None:
    """A turn begins: a win by holding Amber long enough, else draw, discard, act."""
    state.stack.pop()
    player = frame.player
    state.turn_player = player
    if state.amber == player:
        state.hold_count[player] += 1
        if state.hold_count[player] >= state.game.hold_turns:
            state.winner = player
            return
    state.stack.append(TurnEnd(player))
    state.stack.append(ActionSelect(player))
    state.draw(player)
    state.stack.append(FateDiscard(player))


def auto_turn_end(state: State, frame: TurnEnd) -> None:
    """A turn ends: amnesia wears off, the turn limit, then the next (or an extra) turn."""
    state.stack.pop()
    player = frame.player
    for i in range(NUM_PRINCES):
        if state.controller[i] == player and state.amnesia[i] > 0:
            state.amnesia[i] -= 1
    state.acted = [0] * NUM_PRINCES
    state.pending_act = -1
    state.acting_prince = state.target_prince = -1
    state.turns += 1
    if state.turns >= state.game.max_turns:
        state.turn_limit_reached = 1
        return
    if state.in_game[player] and state.extra_turns[player] > 0:
        state.extra_turns[player] -= 1
        state.stack.append(Turn(player))
    else:
        state.extra_turns[player] = 0
        state.stack.append(Turn(next_seat(player, state.num_players, state.in_game)))


def legal_fate_discard(state: State, frame: FateDiscard) -> list[int] | None:
    player = frame.player
    if not state.in_game[player] or len(state.hands[player]) <= state.wit_limit(player):
        return None
    return card_actions(state, player, range(NUM_KINDS))


def apply_fate_discard(state: State, frame: FateDiscard, action: int) -> None:
    state._take_card(frame.player, action - A_CARD)


# ---- the action phase ----------------------------------------------------------------
def legal_action_select(state: State, frame: ActionSelect) -> list[int] | None:
    player = frame.player
    if not state.in_game[player]:
        return None
    controller, alive, acted, amnesia = state.controller, state.alive, state.acted, state.amnesia
    moves = [
        i
        for i in range(NUM_PRINCES)
        if controller[i] == player and alive[i] and not acted[i] and not amnesia[i]
    ]
    counts = state.hand_kinds[player]
    for kind in acts.FREE_CARDS:
        if counts[kind] > 0 and acts.playable(state, player, -1, kind):
            moves.append(A_CARD + kind)
    if not moves and (state.game.prompt_only_if_playable or not _might_play_free_card(state, player)):
        return None  # only END_PHASE is left, and saying so shows nothing: the phase ends by itself
    moves.append(A_END)
    return moves


def _might_play_free_card(state: State, player: int) -> bool:
    """Whether, for all the others know, the player may hold a free card he could play now."""
    playable = [kind for kind in acts.FREE_CARDS if acts.playable(state, player, -1, kind)]
    return bool(playable) and state.might_hold(player, playable)


def apply_action_select(state: State, frame: ActionSelect, action: int) -> None:
    player = frame.player
    if action == A_END:
        state.stack.pop()
    elif action < A_PRINCE + NUM_PRINCES:
        state.stack.append(ChooseAction(player, action))
        state.acting_prince = action
    else:
        kind = action - A_CARD
        state._take_card(player, kind)
        state.start_act(player, -1, kind)


def legal_choose(state: State, frame: ChooseAction) -> list[int]:
    player, prince = frame.player, frame.prince
    counts = state.hand_kinds[player]
    if state.captured[prince]:
        moves = [A_NONCARD + code - NONCARD_BASE for code in acts.CAPTIVE_NONCARDS]
        return moves + [A_CARD + kind for kind in acts.CAPTIVE_CARDS if counts[kind] > 0]
    moves = [
        A_CARD + kind
        for kind in acts.PRINCE_ACTION_CARDS
        if counts[kind] > 0 and acts.playable(state, player, prince, kind)
    ]
    for code in acts.PRINCE_ACTION_NONCARDS:
        if acts.playable(state, player, prince, code):
            moves.append(A_NONCARD + code - NONCARD_BASE)
    return moves


def apply_choose(state: State, frame: ChooseAction, action: int) -> None:
    player, prince = frame.player, frame.prince
    state.stack.pop()
    state.acted[prince] = 1
    if action >= A_NONCARD:
        state.start_act(player, prince, NONCARD_BASE + action - A_NONCARD)
    else:
        kind = action - A_CARD
        state._take_card(player, kind)
        state.start_act(player, prince, kind)


def legal_target_prince(state: State, frame: TargetPrince) -> list[int]:
    return state.prince_targets(frame.player, frame.act, frame.losing)


def apply_target_prince(state: State, frame: TargetPrince, action: int) -> None:
    state.stack.pop()
    state.resolve(frame.player, frame.prince, frame.act, action)


def legal_target_player(state: State, frame: TargetPlayer) -> list[int]:
    player = frame.player
    return [
        A_PLAYER + (other - player) % state.num_players for other in state.player_targets(player, frame.act)
    ]


def apply_target_player(state: State, frame: TargetPlayer, action: int) -> None:
    state.stack.pop()
    player = frame.player
    state.resolve(player, frame.prince, frame.act, (player + action - A_PLAYER) % state.num_players)


# ---- succession, appointments, discards ---------------------------------------------------
def legal_succession(state: State, frame: Succession) -> list[int] | None:
    """A living prince of his own, else a neutral exile; with neither he is out."""
    player = frame.player
    if not state.in_game[player] or state.player_prince[player] >= 0:
        return None
    alive, controller = state.alive, state.controller
    candidates = [i for i in range(NUM_PRINCES) if alive[i] and controller[i] == player]
    if not candidates:
        candidates = [
            i for i in range(NUM_PRINCES) if alive[i] and controller[i] < 0 and state.role[i] == EXILE
        ]
    if not candidates:
        state.eliminate(player)
        return None
    return candidates


def apply_succession(state: State, frame: Succession, action: int) -> None:
    state.stack.pop()
    state.player_prince[frame.player] = action
    state.controller[action] = frame.player


def legal_appoint(state: State, frame: Appoint) -> list[int] | None:
    """Free exiles for the vacant regencies: neutral ones, or (if the game allows
    offers) those of other players who have not declined."""
    holder = frame.player
    if state.amber != holder or not state.in_game[holder] or not state.vacant_posts():
        return None
    offers = state.game.regent_offers
    candidates = []
    for i in range(NUM_PRINCES):
        if state.alive[i] and not state.captured[i] and state.role[i] == EXILE:
            owner = state.controller[i]
            if owner < 0 or (
                offers and owner != holder and state.in_game[owner] and owner not in frame.declined
            ):
                candidates.append(i)
    if not candidates:
        return None
    candidates.append(A_PASS)
    return candidates


def apply_appoint(state: State, frame: Appoint, action: int) -> None:
    if action == A_PASS:
        state.stack.pop()
    elif state.controller[action] < 0:
        state.fill_post(action)
    else:
        state.stack.append(RegentOffer(state.controller[action], action))


def legal_regent_offer(state: State, frame: RegentOffer) -> list[int]:
    return [frame.prince, A_PASS]


def apply_regent_offer(state: State, frame: RegentOffer, action: int) -> None:
    state.stack.pop()
    if action == A_PASS:
        appoint = state.stack[-1]
        appoint.declined = appoint.declined + [frame.player]
    else:
        state.fill_post(frame.prince)


def legal_effect_discard(state: State, frame: EffectDiscard) -> list[int] | None:
    player = frame.player
    if not state.in_game[player] or frame.count <= 0 or not state.hands[player]:
        return None
    return card_actions(state, player, range(NUM_KINDS))


def apply_effect_discard(state: State, frame: EffectDiscard, action: int) -> None:
    state._take_card(frame.player, action - A_CARD)
    frame.count -= 1
