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

from envs.amoeba.tiles import NUM_TILES, PORT_PIECE_NUM

NUM_PLANES = 16
HAND_SLOTS = 3
SEATS = 4


def global_size() -> int:
    # hand 3 x (present + 8 ports), selection 12, die, left, phase 3,
    # first tile pending, 4 seats x 5, pile size, unknown tiles 84, turn
    return HAND_SLOTS * 9 + 12 + 1 + 1 + 3 + 1 + SEATS * 5 + 1 + NUM_TILES + 1


class _BoardView:
    """Viewer-independent part of an observation, cached on the state until
    the table, an owner or the claim offer changes."""

    __slots__ = ("planes", "scores", "largest", "unseen")


def _board(st) -> _BoardView:
    cached = st._board_cache
    if cached is not None:
        return cached
    game = st.game
    U = game.U
    UU = U * U
    n = game.num_players
    out = np.zeros((NUM_PLANES, UU), dtype=np.int8)
    h = st.height
    out[0] = h > 0
    out[1] = h == 2
    out[2:4] = st.quad
    comps = st.comps
    scores = [0] * n
    largest = [0] * n
    if st.piece_comp:
        # per amoeba: size, complete, owner + 1, on offer; a zero row for "no amoeba"
        offer = st.offers[st.offer_i] if st.phase == 2 and st.offers else -1
        table = [0] * (4 * (st.next_cid + 1))
        for cid, (members, nopen, own) in comps.items():
            m = len(members)
            j = 4 * cid
            table[j] = m if m < 127 else 127
            table[j + 1] = 1 if nopen == 0 else 0
            table[j + 2] = own + 1
            if cid == offer:
                table[j + 3] = 1
            if own >= 0:
                scores[own] += m
                if m > largest[own]:
                    largest[own] = m
        T = np.array(table, dtype=np.int8).reshape(-1, 4).T.copy()  # (4 fields, amoebas + 1)
        vh = st.vhslot
        pid = st.slot_piece[vh]
        cidx = np.array(st.piece_comp + [-1], dtype=np.int64)[pid]
        occx = np.zeros(UU + 1, dtype=np.int8)
        occx[:UU] = out[0]
        out[4:6] = st.piece_num_arr()[pid].reshape(2, UU)
        out[6:8] = ((cidx >= 0) & (occx[game.obs_face_unit[vh]] == 0)).reshape(2, UU)
        out[8:16] = T[:, cidx].reshape(8, UU)
    unseen = np.ones(NUM_TILES, dtype=np.int8)
    if st.placements:
        unseen[[pl[1] for pl in st.placements]] = 0
    view = _BoardView()
    view.planes = out.reshape(-1)
    view.scores = [min(x, 127) for x in scores]
    view.largest = [min(x, 127) for x in largest]
    view.unseen = unseen
    st._board_cache = view
    return view


_LUTS: dict = {}


def _lut(n: int, player: int) -> np.ndarray:
    key = (n, player)
    lut = _LUTS.get(key)
    if lut is None:
        lut = np.zeros(6, dtype=np.int8)
        for s in range(n):
            lut[s + 1] = 1 + (s - player) % n
        _LUTS[key] = lut
    return lut


def encode(st, player: int) -> np.ndarray:
    game = st.game
    n = game.num_players
    view = _board(st)
    UU = game.U * game.U
    bl = NUM_PLANES * UU
    out = np.zeros(game.observation_shape[0], dtype=np.int8)
    out[:bl] = view.planes
    out[12 * UU : 14 * UU] = _lut(n, player)[view.planes[12 * UU : 14 * UU]]
    i = bl
    hand = st.hands[player]
    for t in hand[:HAND_SLOTS]:
        out[i] = 1
        out[i + 1 : i + 9] = PORT_PIECE_NUM[t * 4]
        i += 9
    i = bl + HAND_SLOTS * 9
    if st.sel is not None and st.cur == player and st.phase == 1:
        out[i + st.sel[0] * 4 + st.sel[1]] = 1
    i += 12
    out[i] = st.die
    out[i + 1] = max(st.left, 0)
    if 0 <= st.phase <= 2:
        out[i + 2 + st.phase] = 1
    out[i + 5] = st.first_pending
    i += 6
    sc, lg = view.scores, view.largest
    for k in range(n):
        s = (player + k) % n
        out[i : i + 5] = (1, st.supply[s], sc[s], lg[s], len(st.hands[s]))
        i += 5
    i += 5 * (SEATS - n)
    out[i] = len(st.pile)
    i += 1
    unseen = view.unseen.copy()
    if hand:
        unseen[hand] = 0
    if st.removed[player]:
        unseen[st.removed[player]] = 0
    out[i : i + NUM_TILES] = unseen
    i += NUM_TILES
    out[i] = min(127, (100 * st.turn) // max(1, game.max_turns))
    return out
