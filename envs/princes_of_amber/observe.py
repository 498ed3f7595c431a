"""Observation encoder: one float32 vector of 916 entries in [0, 1], from one
player's point of view (players are numbered relative to the viewer).

Only public facts, the viewer's own hand and the viewer's own memories (deck
tops it has seen, hands it has looked at) enter the vector.
"""

from __future__ import annotations

import numpy as np

from envs.princes_of_amber.cards import EXILE, NUM_KINDS, NUM_PRINCES, PHASE_INDEX

PRINCE_W = 35
O_PRINCES = 0
O_AMBER = O_PRINCES + NUM_PRINCES * PRINCE_W  # 315
O_PLAYERS = O_AMBER + 13  # 328
PLAYER_W = 7
O_HAND = O_PLAYERS + 5 * PLAYER_W  # 363
O_KNOWN = O_HAND + NUM_KINDS  # 399
O_TOP = O_KNOWN + 4 * NUM_KINDS  # 543
TOP_W = NUM_KINDS + 1
O_DECK = O_TOP + 7 * TOP_W  # 802
O_PHASE = O_DECK + 2 + NUM_KINDS  # 840
O_PENDING = O_PHASE + len(PHASE_INDEX)  # 861
O_CONTEST = O_PENDING + NUM_KINDS + 6  # 903
O_MISC = O_CONTEST + 10  # 913
OBS_SIZE = O_MISC + 3  # 916


def encode(s, player: int) -> np.ndarray:
    n = s.n
    idx: list[int] = []
    val: list[float] = []
    ap_i = idx.append
    ap_v = val.append
    ctrl, pp, role = s.ctrl, s.pp, s.role
    war = s.war
    lose = war["lose"] if war is not None else ()
    attackers = ()
    if war is not None:
        wa, wp = war["a"], war["p"]
        attackers = [i for i in range(NUM_PRINCES) if i == wa or (ctrl[i] == wp and s.alive[i]
                                                                  and not s.captured[i] and role[i] == EXILE)]
    top = s.stack[-1] if s.stack and s.cur >= 0 else None
    t_target = s.c_t
    if top is not None and top["t"] == "REGENT_OFFER":
        t_target = top["v"]
    for i in range(NUM_PRINCES):
        b = O_PRINCES + PRINCE_W * i
        at = s.attrs[i]
        for j in range(5):
            ap_i(b + j)
            ap_v(at[j] / 12.0)
        ap_i(b + 5)
        ap_v(s.hits[i] / 12.0)
        if s.alive[i]:
            ap_i(b + 6)
            ap_v(1.0)
        ap_i(b + 7 + role[i])
        ap_v(1.0)
        c = ctrl[i]
        ap_i(b + 12 + ((c - player) % n if c >= 0 else 5))
        ap_v(1.0)
        if c >= 0 and pp[c] == i:
            ap_i(b + 18)
            ap_v(1.0)
        if s.captured[i]:
            ap_i(b + 19)
            ap_v(1.0)
        jl = s.jailer[i]
        ap_i(b + 20 + ((jl - player) % n if jl >= 0 else 5))
        ap_v(1.0)
        if s.armies[i]:
            ap_i(b + 26)
            ap_v(s.armies[i] / 20.0)
        if s.amnesia[i]:
            ap_i(b + 27)
            ap_v(s.amnesia[i] / 6.0)
        if s.hold[i]:
            ap_i(b + 28)
            ap_v(1.0)
        if s.acted[i]:
            ap_i(b + 29)
            ap_v(1.0)
        if s.c_a == i:
            ap_i(b + 30)
            ap_v(1.0)
        if t_target == i:
            ap_i(b + 31)
            ap_v(1.0)
        if s.c_dmg == i:
            ap_i(b + 32)
            ap_v(1.0)
        if i in lose:
            ap_i(b + 33)
            ap_v(1.0)
        if i in attackers:
            ap_i(b + 34)
            ap_v(1.0)
    # Amber
    am = s.amber
    ap_i(O_AMBER + ((am - player) % n if am >= 0 else 5))
    ap_v(1.0)
    ap_i(O_AMBER + 6)
    ap_v(s.G / 30.0)
    if 0 not in role:  # KING == 0
        ap_i(O_AMBER + 7)
        ap_v(1.0)
    ht = s.game.hold_turns
    for r in range(n):
        q = (player + r) % n
        if s.hold_count[q]:
            ap_i(O_AMBER + 8 + r)
            ap_v(s.hold_count[q] / ht)
    # players
    declined = ()
    if top is not None:
        if top["t"] == "APPOINT":
            declined = top["dec"]
        elif top["t"] == "REGENT_OFFER" and len(s.stack) > 1:
            declined = s.stack[-2].get("dec", ())
    free_count = [0] * n
    for i in range(NUM_PRINCES):
        c = ctrl[i]
        if c >= 0 and s.alive[i] and not s.captured[i]:
            free_count[c] += 1
    for r in range(n):
        q = (player + r) % n
        b = O_PLAYERS + PLAYER_W * r
        if s.in_game[q]:
            ap_i(b)
            ap_v(1.0)
        ap_i(b + 1)
        ap_v(len(s.hands[q]) / 10.0)
        if s.turn_player == q:
            ap_i(b + 2)
            ap_v(1.0)
        if s.elim_order[q] >= 0:
            ap_i(b + 3)
            ap_v((s.elim_order[q] + 1) / 5.0)
        if s.extra[q]:
            ap_i(b + 4)
            ap_v(s.extra[q])
        ap_i(b + 5)
        ap_v(free_count[q] / 9.0)
        if q in declined:
            ap_i(b + 6)
            ap_v(1.0)
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    obs[idx] = val
    # my hand and what I know of the others
    obs[O_HAND:O_HAND + NUM_KINDS] = s.hk[player]
    row = s.known_hand[player]
    for r in range(1, n):
        h = row[(player + r) % n]
        if h is not None:
            b = O_KNOWN + (r - 1) * NUM_KINDS
            obs[b:b + NUM_KINDS] = h
    obs[O_HAND:O_TOP] *= 0.25
    kt = s.known_top[player]
    for pos in range(7):
        obs[O_TOP + pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS)] = 1.0
    obs[O_DECK] = len(s.deck.draw_pile) / 100.0
    obs[O_DECK + 1] = len(s.deck.discard) / 100.0
    if s.deck.discard:
        obs[O_DECK + 2:O_DECK + 2 + NUM_KINDS] = np.bincount(
            s.game.card_kind_arr[s.deck.discard], minlength=NUM_KINDS) / 8.0
    obs[O_PHASE + (PHASE_INDEX[top["t"]] if top is not None else PHASE_INDEX["GAME_OVER"])] = 1.0
    if s.act >= 0:
        obs[O_PENDING + s.act] = 1.0
    if s.c_type:
        obs[O_CONTEST + s.c_type - 1] = 1.0
        obs[O_CONTEST + 3] = s.c_tot[0] / 40.0
        obs[O_CONTEST + 4] = s.c_tot[1] / 40.0
    if war is not None:
        obs[O_CONTEST + 5] = s.armies[war["a"]] / 20.0
        obs[O_CONTEST + 6] = s.G / 30.0
        obs[O_CONTEST + 7] = war["sb"] / 12.0
        obs[O_CONTEST + 8] = war["wb"] / 12.0
        sup = 0
        for bq in war["sup"]:
            sup += sum(s.attrs[i][4] for i in range(NUM_PRINCES)
                       if ctrl[i] == bq and s.alive[i] and not s.captured[i] and role[i] == EXILE)
        obs[O_CONTEST + 9] = sup / 30.0
    if top is not None:
        if top["t"] == "EFFECT_DISCARD":
            obs[O_MISC] = top["n"] / 3.0
        elif top["t"] == "FATE_DISCARD":
            obs[O_MISC] = (len(s.hands[top["p"]]) - s.wit_limit(top["p"])) / 3.0
    if s.c_dealer == player:
        obs[O_MISC + 1] = 1.0
    obs[O_MISC + 2] = s.turns / s.game.max_turns
    np.clip(obs, 0.0, 1.0, out=obs)
    return obs
