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


_AR9 = np.arange(NUM_PRINCES)


def _prince_block(s, player: int) -> np.ndarray:
    """The slow-changing part of the prince block (columns 0..28), cached per
    viewer on the state and reused while the prince lists are unchanged."""
    cache = s.__dict__.setdefault("_obs_cache", {})
    lists = (s.hits, s.alive, s.role, s.ctrl, s.captured, s.jailer, s.armies, s.amnesia, s.hold, s.pp)
    hit = cache.get(player)
    if hit is not None:
        old = hit[0]
        if (old[0] == lists[0] and old[1] == lists[1] and old[2] == lists[2] and old[3] == lists[3]
                and old[4] == lists[4] and old[5] == lists[5] and old[6] == lists[6] and old[7] == lists[7]
                and old[8] == lists[8] and old[9] == lists[9]):
            return hit[1]
    n = s.n
    hits, alive, role, ctrl, cap, jailer, armies, amnesia, hold, pp = lists
    attrs = s.attrs
    flat: list[float] = []
    for i in range(NUM_PRINCES):
        row = [0.0] * 29
        a = attrs[i]
        row[0], row[1], row[2], row[3], row[4] = a[0] / 12.0, a[1] / 12.0, a[2] / 12.0, a[3] / 12.0, a[4] / 12.0
        row[5] = hits[i] / 12.0
        row[6] = alive[i]
        row[7 + role[i]] = 1.0
        c = ctrl[i]
        row[12 + ((c - player) % n if c >= 0 else 5)] = 1.0
        if c >= 0 and pp[c] == i:
            row[18] = 1.0
        row[19] = cap[i]
        j = jailer[i]
        row[20 + ((j - player) % n if j >= 0 else 5)] = 1.0
        row[26] = min(1.0, armies[i] / 20.0)
        row[27] = min(1.0, amnesia[i] / 6.0)
        row[28] = hold[i]
        flat += row
    pr = np.array(flat, dtype=np.float32).reshape(NUM_PRINCES, 29)
    cache[player] = ([lst[:] for lst in lists], pr)
    return pr


def encode(s, player: int) -> np.ndarray:
    n = s.n
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    ctrl, role = s.ctrl, s.role
    pr = obs[O_PRINCES:O_AMBER].reshape(NUM_PRINCES, PRINCE_W)
    pr[:, :29] = _prince_block(s, player)
    pr[:, 29] = s.acted
    top = s.stack[-1] if s.stack and s.cur >= 0 else None
    t_target = s.c_t
    if top is not None and top["t"] == "REGENT_OFFER":
        t_target = top["v"]
    idx = []
    val = []
    if s.c_a >= 0:
        idx.append(O_PRINCES + PRINCE_W * s.c_a + 30)
    if t_target >= 0:
        idx.append(O_PRINCES + PRINCE_W * t_target + 31)
    if s.c_dmg >= 0:
        idx.append(O_PRINCES + PRINCE_W * s.c_dmg + 32)
    war = s.war
    if war is not None:
        for i in war["lose"]:
            idx.append(O_PRINCES + PRINCE_W * i + 33)
        wa, wp = war["a"], war["p"]
        for i in range(NUM_PRINCES):
            if i == wa or (ctrl[i] == wp and s.alive[i] and not s.captured[i] and role[i] == EXILE):
                idx.append(O_PRINCES + PRINCE_W * i + 34)
    val = [1.0] * len(idx)
    # Amber
    am = s.amber
    idx.append(O_AMBER + ((am - player) % n if am >= 0 else 5))
    val.append(1.0)
    idx.append(O_AMBER + 6)
    val.append(min(1.0, s.G / 30.0))
    if 0 not in role:  # KING == 0: the throne is vacant
        idx.append(O_AMBER + 7)
        val.append(1.0)
    ht = s.game.hold_turns
    declined = ()
    if top is not None:
        if top["t"] == "APPOINT":
            declined = top["dec"]
        elif top["t"] == "REGENT_OFFER" and len(s.stack) > 1:
            declined = s.stack[-2].get("dec", ())
    free_count = [0] * n
    for i in range(NUM_PRINCES):
        ci = ctrl[i]
        if ci >= 0 and s.alive[i] and not s.captured[i]:
            free_count[ci] += 1
    for r in range(n):
        q = (player + r) % n
        b = O_PLAYERS + PLAYER_W * r
        idx += (O_AMBER + 8 + r, b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6)
        val += (min(1.0, s.hold_count[q] / ht), s.in_game[q], min(1.0, len(s.hands[q]) / 10.0),
                1.0 if s.turn_player == q else 0.0, (s.elim_order[q] + 1) / 5.0, min(1, s.extra[q]),
                free_count[q] / 9.0, 1.0 if q in declined else 0.0)
    kt = s.known_top[player]
    for pos in range(7):
        idx.append(O_TOP + pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS))
        val.append(1.0)
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
    np.minimum(obs[O_HAND:O_TOP], 1.0, out=obs[O_HAND:O_TOP])
    obs[O_DECK] = len(s.deck.draw_pile) / 100.0
    obs[O_DECK + 1] = len(s.deck.discard) / 100.0
    if s.deck.discard:
        obs[O_DECK + 2:O_DECK + 2 + NUM_KINDS] = np.minimum(np.bincount(
            s.game.card_kind_arr[s.deck.discard], minlength=NUM_KINDS) / 8.0, 1.0)
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
