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


def _scores(st):
    """(scores, largest amoeba) per seat, capped at 127, cached per table."""
    cached = st._board_cache
    if cached is None:
        n = st.game.num_players
        scores = [0] * n
        largest = [0] * n
        for members, _, own in st.comps.values():
            if own >= 0:
                m = len(members)
                scores[own] += m
                if m > largest[own]:
                    largest[own] = m
        cached = ([min(x, 127) for x in scores], [min(x, 127) for x in largest])
        st._board_cache = cached
    return cached


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
    UU = game.U * game.U
    bl = NUM_PLANES * UU
    out = np.zeros(game.observation_shape[0], dtype=np.int8)
    planes = st.planes
    out[:bl] = planes
    out[12 * UU : 14 * UU] = _lut(n, player)[planes[12 * UU : 14 * UU]]
    glob = []
    hand = st.hands[player]
    for t in hand[:HAND_SLOTS]:
        glob.append(1)
        glob.extend(HAND_CODES[t])
    glob.extend(_ZEROS[: 9 * (HAND_SLOTS - len(hand))])
    sel = [0] * 12
    if st.sel is not None and st.cur == player and st.phase == 1:
        sel[st.sel[0] * 4 + st.sel[1]] = 1
    glob.extend(sel)
    ph = [0, 0, 0]
    if 0 <= st.phase <= 2:
        ph[st.phase] = 1
    glob.append(st.die)
    glob.append(max(st.left, 0))
    glob.extend(ph)
    glob.append(1 if st.first_pending else 0)
    sc, lg = _scores(st)
    for k in range(n):
        s = (player + k) % n
        glob.extend((1, st.supply[s], sc[s], lg[s], len(st.hands[s])))
    glob.extend(_ZEROS[: 5 * (SEATS - n)])
    glob.append(len(st.pile))
    i = bl + len(glob)
    out[bl:i] = glob
    unseen = out[i : i + NUM_TILES]
    unseen[:] = 1
    unseen -= st.on_board
    if hand:
        unseen[hand] = 0
    if st.removed[player]:
        unseen[st.removed[player]] = 0
    out[i + NUM_TILES] = min(127, (100 * st.turn) // max(1, game.max_turns))
    return out


HAND_CODES = [PORT_PIECE_NUM[t * 4].tolist() for t in range(NUM_TILES)]
_ZEROS = [0] * 64
