"""The reference observation encoder: the vector of
:mod:`~meeplezoo.envs.princes_of_amber.observe` built from scratch, entry by
entry. It is the definition the fast ``observe.encode`` is tested against
(the same vector in every position), not the one the state uses.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import KING, NUM_KINDS, NUM_PRINCES, Phase
from meeplezoo.envs.princes_of_amber.frames import EffectDiscard, FateDiscard
from meeplezoo.envs.princes_of_amber.observe import (
    O_AMBER,
    O_CONTEST,
    O_DECK,
    O_HAND,
    O_KNOWN,
    O_MISC,
    O_PENDING,
    O_PHASE,
    O_PLAYERS,
    O_PRINCES,
    O_TOP,
    OBS_SIZE,
    PLAYER_W,
    PRINCE_W,
    TOP_W,
    attacking_group,
    declined_players,
    shown_target,
    support_leadership,
)

_AR9 = np.arange(NUM_PRINCES)


def _prince_block(state, player: int) -> np.ndarray:
    """Columns 0..28 of the prince block, from scratch."""
    lists = (
        state.hits,
        state.alive,
        state.role,
        state.controller,
        state.captured,
        state.jailer,
        state.armies,
        state.amnesia,
        state.psychic_hold,
        state.player_prince,
    )
    n = state.num_players
    hits, alive, role, ctrl, cap, jailer, armies, amnesia, hold, pp = lists
    attrs = state.attributes
    flat: list[float] = []
    for i in range(NUM_PRINCES):
        row = [0.0] * 29
        a = attrs[i]
        row[0], row[1], row[2], row[3], row[4] = (
            a[0] / 12.0,
            a[1] / 12.0,
            a[2] / 12.0,
            a[3] / 12.0,
            a[4] / 12.0,
        )
        row[5] = hits[i] / 12.0
        row[6] = alive[i]
        row[7 + role[i]] = 1.0
        cache = ctrl[i]
        row[12 + ((cache - player) % n if cache >= 0 else 5)] = 1.0
        if cache >= 0 and pp[cache] == i:
            row[18] = 1.0
        row[19] = cap[i]
        j = jailer[i]
        row[20 + ((j - player) % n if j >= 0 else 5)] = 1.0
        row[26] = min(1.0, armies[i] / 20.0)
        row[27] = min(1.0, amnesia[i] / 6.0)
        row[28] = hold[i]
        flat += row
    return np.array(flat, dtype=np.float32).reshape(NUM_PRINCES, 29)


def encode_reference(state, player: int) -> np.ndarray:
    """The observation of ``player``, built from scratch (the definition the
    fast encoder is tested against)."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    top = state.stack[-1] if state.stack and state.deciding_player >= 0 else None
    pr = obs[O_PRINCES:O_AMBER].reshape(NUM_PRINCES, PRINCE_W)
    pr[:, :29] = _prince_block(state, player)
    pr[:, 29] = state.acted
    flagged = [
        (state.acting_prince, 30),
        (shown_target(state, top), 31),
        (state.damaged_prince, 32),
    ]
    if state.war is not None:
        flagged += [(i, 33) for i in state.war.losing] + [(i, 34) for i in attacking_group(state, state.war)]
    for prince, column in flagged:
        if prince >= 0:
            pr[prince, column] = 1.0
    _reference_amber_and_players(obs, state, player, top)
    _reference_memories(obs, state, player)
    obs[O_DECK] = len(state.deck.draw_pile) / 100.0
    obs[O_DECK + 1] = len(state.deck.discard) / 100.0
    if state.deck.discard:
        obs[O_DECK + 2 : O_DECK + 2 + NUM_KINDS] = np.minimum(
            np.bincount(state.game.card_kind_array[state.deck.discard], minlength=NUM_KINDS) / 8.0, 1.0
        )
    _reference_decision(obs, state, player, top)
    np.clip(obs, 0.0, 1.0, out=obs)
    return obs


def _reference_amber_and_players(obs: np.ndarray, state, player: int, top) -> None:
    n = state.num_players
    am = state.amber
    obs[O_AMBER + ((am - player) % n if am >= 0 else 5)] = 1.0
    obs[O_AMBER + 6] = min(1.0, state.garrison / 30.0)
    if KING not in state.role:  # the throne is vacant
        obs[O_AMBER + 7] = 1.0
    declined = declined_players(state, top)
    free_count = [0] * n
    for i in range(NUM_PRINCES):
        cache = state.controller[i]
        if cache >= 0 and state.alive[i] and not state.captured[i]:
            free_count[cache] += 1
    for r in range(n):
        q = (player + r) % n
        b = O_PLAYERS + PLAYER_W * r
        obs[O_AMBER + 8 + r] = min(1.0, state.hold_count[q] / state.game.hold_turns)
        obs[b : b + PLAYER_W] = (
            state.in_game[q],
            min(1.0, len(state.hands[q]) / 10.0),
            1.0 if state.turn_player == q else 0.0,
            (state.elimination_order[q] + 1) / 5.0,
            min(1, state.extra_turns[q]),
            free_count[q] / 9.0,
            1.0 if q in declined else 0.0,
        )


def _reference_memories(obs: np.ndarray, state, player: int) -> None:
    n = state.num_players
    kt = state.known_top[player]
    for pos in range(7):
        obs[O_TOP + pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS)] = 1.0
    obs[O_HAND : O_HAND + NUM_KINDS] = state.hand_kinds[player]
    row = state.known_hand[player]
    for r in range(1, n):
        h = row[(player + r) % n]
        if h is not None:
            b = O_KNOWN + (r - 1) * NUM_KINDS
            obs[b : b + NUM_KINDS] = h
    obs[O_HAND:O_TOP] *= 0.25
    np.minimum(obs[O_HAND:O_TOP], 1.0, out=obs[O_HAND:O_TOP])


def _reference_decision(obs: np.ndarray, state, player: int, top) -> None:
    obs[O_PHASE + (top.phase if top is not None else Phase.GAME_OVER)] = 1.0
    if state.pending_act >= 0:
        obs[O_PENDING + state.pending_act] = 1.0
    if state.contest_type:
        obs[O_CONTEST + state.contest_type - 1] = 1.0
        obs[O_CONTEST + 3] = state.contest_totals[0] / 40.0
        obs[O_CONTEST + 4] = state.contest_totals[1] / 40.0
    war = state.war
    if war is not None:
        obs[O_CONTEST + 5] = state.armies[war.prince] / 20.0
        obs[O_CONTEST + 6] = state.garrison / 30.0
        obs[O_CONTEST + 7] = war.shadow_bonus / 12.0
        obs[O_CONTEST + 8] = war.walls_bonus / 12.0
        obs[O_CONTEST + 9] = support_leadership(state, war) / 30.0
    if type(top) is EffectDiscard:
        obs[O_MISC] = top.count / 3.0
    elif type(top) is FateDiscard:
        obs[O_MISC] = (len(state.hands[top.player]) - state.wit_limit(top.player)) / 3.0
    if state.damage_dealer == player:
        obs[O_MISC + 1] = 1.0
    obs[O_MISC + 2] = state.turns / state.game.max_turns
