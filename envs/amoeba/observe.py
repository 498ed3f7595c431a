"""Observation encoder: compact int8 planes plus a small global block.

Every unit of a tile has exactly one outer port on a vertical side (N or S)
and one on a horizontal side (E or W); which ones follows from the unit's
quarter of its tile (planes 2 and 3). So two port channels per unit (V, H)
carry everything the four sides would, at half the size.

Planes (each U x U, row-major, plane-major), values are small integers:
  0 occupied            1 top tile (second storey)
  2 unit is in the top row of its tile   3 unit is in the left column
  4/5   piece number 1..3 within the tile of the V/H port (0 = blue/none)
  6/7   the V/H port is pink and open (faces an empty unit or the edge)
  8/9   size of the V/H port's amoeba (capped at 127)
  10/11 that amoeba is complete
  12/13 that amoeba's owner: 0 none, 1 + relative seat
  14/15 that amoeba is the one on offer (claim step)
The global block follows (see ``global_size``).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.tiles import NUM_TILES, PORT_PIECE_NUM

NUM_PLANES = 16
HAND_SLOTS = 3
SEATS = 4


def global_size() -> int:
    # hand 3 x (present + 8 ports), selection 12, die, left, phase 3,
    # first tile pending, 4 seats x 5, pile size, unknown tiles 84, turn
    return HAND_SLOTS * 9 + 12 + 1 + 1 + 3 + 1 + SEATS * 5 + 1 + NUM_TILES + 1


def _scores(st):
    """(scores, largest amoeba) per seat, capped at 127, cached per table."""
    cached = st._board_cache
    if cached is None:
        n = st.game.num_players
        scores = [0] * n
        largest = [0] * n
        comps = st.comps
        for cid in st.owned:
            members, _, own = comps[cid]
            m = len(members)
            scores[own] += m
            if m > largest[own]:
                largest[own] = m
        cached = ([min(x, 127) for x in scores], [min(x, 127) for x in largest])
        st._board_cache = cached
    return cached


_LUTS: dict = {}
OWNER_CODE = 200  # the state's owner planes hold OWNER_CODE + seat (0 = no owner)


def _lut(n: int, player: int) -> bytes:
    """Byte translation table for the owner planes: OWNER_CODE + seat ->
    1 + seat relative to the observer; every other value unchanged."""
    key = (n, player)
    lut = _LUTS.get(key)
    if lut is None:
        table = list(range(256))
        for s in range(n):
            table[OWNER_CODE + s] = 1 + (s - player) % n
        lut = bytes(table)
        _LUTS[key] = lut
    return lut


_FLIP = bytes([1, 0] + list(range(2, 256)))  # on the table (1) -> not unseen (0)
_SEL = [bytes(12)] + [bytes(i == j for j in range(12)) for i in range(12)]
_PHASE = {0: b"\x01\x00\x00", 1: b"\x00\x01\x00", 2: b"\x00\x00\x01"}
_NOPHASE = b"\x00\x00\x00"


def encode(st, player: int) -> np.ndarray:
    """The observation of ``player``, assembled as bytes from the incrementally
    kept planes (a fresh array each call; nothing the state holds is shared)."""
    game = st.game
    n = game.num_players
    planes = st.planes
    lo = 12 * game.U * game.U
    hi = lo + lo // 6
    buf = planes[:]
    buf[lo:hi] = planes[lo:hi].translate(_lut(n, player))
    hand = st.hands[player]
    for t in hand[:HAND_SLOTS]:
        buf += HAND9[t]
    if len(hand) < HAND_SLOTS:
        buf += bytes(9 * (HAND_SLOTS - len(hand)))
    phase = st.phase
    buf += _SEL[
        1 + st.sel[0] * 4 + st.sel[1] if st.sel is not None and st.cur == player and phase == 1 else 0
    ]
    left = st.left
    buf.append(st.die)
    buf.append(left if left > 0 else 0)
    buf += _PHASE.get(phase, _NOPHASE)
    buf.append(1 if st.first_pending else 0)
    sc, lg = _scores(st)
    supply = st.supply
    hands = st.hands
    for k in range(n):
        s = (player + k) % n
        buf += bytes((1, supply[s], sc[s], lg[s], len(hands[s])))
    if n < SEATS:
        buf += bytes(5 * (SEATS - n))
    buf.append(len(st.pile))
    unseen = st.on_board.translate(_FLIP)
    for t in hand:
        unseen[t] = 0
    for t in st.removed[player]:
        unseen[t] = 0
    buf += unseen
    buf.append(min(127, (100 * st.turn) // max(1, game.max_turns)))
    return np.frombuffer(buf, dtype=np.int8)


def encode_reference(st, player: int) -> np.ndarray:
    """The same observation built from scratch from the table (slow; for tests)."""
    game = st.game
    geo = game.geo
    U = game.U
    UU = U * U
    n = game.num_players
    out = np.zeros(game.observation_shape[0], dtype=np.int8)
    pl = out[: NUM_PLANES * UU].reshape(NUM_PLANES, UU)
    offer = st.offers[st.offer_i] if st.phase == 2 and st.offers else None
    for u in range(UU):
        k = st.unit_vis[u]
        if k < 0:
            continue
        a, _tile, _rot, level, _cov = st.placements[k]
        ar, ac = geo.anchor_rc(a)
        r, c = divmod(u, U)
        pl[0, u] = 1
        pl[1, u] = level == 2
        pl[2, u] = r == ar
        pl[3, u] = c == ac
        for d in range(4):
            s = u * 4 + d
            f = geo.face[s]
            if f >= 0 and st.unit_vis[f >> 2] == k:
                continue
            p = st.slot_piece[s]
            if p < 0:
                continue
            port = d & 1
            members, nopen, owner = st.comps[st.piece_comp[p]]
            pl[4 + port, u] = st.piece_num[p]
            pl[6 + port, u] = f < 0 or st.unit_vis[f >> 2] < 0
            pl[8 + port, u] = min(len(members), 127)
            pl[10 + port, u] = nopen == 0
            pl[12 + port, u] = 0 if owner < 0 else 1 + (owner - player) % n
            pl[14 + port, u] = offer is not None and st.piece_comp[p] == offer
    i = NUM_PLANES * UU
    hand = st.hands[player]
    for j in range(HAND_SLOTS):
        if j < len(hand):
            out[i] = 1
            out[i + 1 : i + 9] = PORT_PIECE_NUM[hand[j] * 4]
        i += 9
    if st.sel is not None and st.cur == player and st.phase == 1:
        out[i + st.sel[0] * 4 + st.sel[1]] = 1
    i += 12
    out[i] = st.die
    out[i + 1] = max(st.left, 0)
    if 0 <= st.phase <= 2:
        out[i + 2 + st.phase] = 1
    out[i + 5] = st.first_pending
    i += 6
    scores, largest = st.scores(), st.largest()
    for k in range(n):
        s = (player + k) % n
        out[i : i + 5] = (1, st.supply[s], min(scores[s], 127), min(largest[s], 127), len(st.hands[s]))
        i += 5
    i += 5 * (SEATS - n)
    out[i] = len(st.pile)
    i += 1
    known = {pl_[1] for pl_ in st.placements} | set(hand) | set(st.removed[player])
    for t in range(NUM_TILES):
        out[i + t] = t not in known
    i += NUM_TILES
    out[i] = min(127, (100 * st.turn) // max(1, game.max_turns))
    return out


HAND9 = [bytes([1] + PORT_PIECE_NUM[t * 4].tolist()) for t in range(NUM_TILES)]
