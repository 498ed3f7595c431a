"""Observation encoder: 20 brick-grid planes (19 x 19) plus 21 scalars, flat
int8, in the observer's frame (the board turned 180 degrees for Amber unless
``relative_frame`` is off).

Every plane is a bitboard written as 46 bytes (368 bits); the seven static
planes (tile shapes and colours) are precomputed as bytes per observer, the
thirteen piece planes are written per call, and numpy unpacks all twenty in
one call, keeping 361 bits per plane. Amber's half turn costs nothing: the brick grid turned 180
degrees is the bit order reversed, so her planes are written most
significant byte first and unpacked most significant bit first.

``encode_reference`` builds the same vector cell by cell; tests compare the
two on random positions.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES
from meeplezoo.envs.amethyst_amber.board import HexColour

N_PLANES = 20
N_SCALARS = 21
PLANE_BYTES = 46  # 361 bits rounded up to whole bytes
SCALAR_HIGH = 100  # largest value anywhere: the turn-limit percentage


class ObservationTables:
    def __init__(self, game) -> None:
        self.game = game
        bd = game.board
        geo = bd.geo
        self.cells = geo.width * geo.width  # 361
        self.last = self.cells - 1
        self.shift = PLANE_BYTES * 8 - self.cells  # 7: pads a plane to whole bytes
        self.scalar_at = N_PLANES * self.cells
        self.size = self.scalar_at + N_SCALARS
        game.observation_shape = (self.size,)
        game.observation_planes = (N_PLANES, geo.width, geo.width)
        game.observation_dtype = np.int8
        game.observation_low = 0
        game.observation_high = SCALAR_HIGH
        self.frames = [0, 1 if game.relative_frame else 0]
        self.static_bytes = []
        for observer in (0, 1):
            planes = [
                sum(geo.bit_hex[h] for h in range(NUM_HEXES)),
                geo.tri_bits(bd.black),
                geo.tri_bits(bd.yellow),
                sum(geo.bit_hex[h] for h in range(NUM_HEXES) if bd.hex_colour[h] == HexColour.RED),
                sum(geo.bit_hex[h] for h in range(NUM_HEXES) if bd.hex_colour[h] == HexColour.GREEN),
                sum(geo.bit_hex[h] for h in bd.blue[observer]),
                sum(geo.bit_hex[h] for h in bd.blue[1 - observer]),
            ]
            self.static_bytes.append(b"".join(self._plane_bytes(x, self.frames[observer]) for x in planes))
        # index of hex h's cell in plane 0, in frame f
        self.hex_at = [bd.hex_brick, [self.last - b for b in bd.hex_brick]]
        self.bit_hex = geo.bit_hex
        self.zero_plane = bytes(PLANE_BYTES)

    def _plane_bytes(self, bits: int, frame: int) -> bytes:
        """One plane as the bytes :meth:`encode` unpacks (turned in frame 1)."""
        if frame:
            return (bits << self.shift).to_bytes(PLANE_BYTES, "big")
        return bits.to_bytes(PLANE_BYTES, "little")

    def encode(self, s, player: int) -> np.ndarray:
        game = self.game
        geo = game.board.geo
        cells = self.cells
        f = self.frames[player]
        me, opp = player, 1 - player
        mine, theirs = s.defender_bits[me], s.defender_bits[opp]
        am, ao = s.attacker_bits[me], s.attacker_bits[opp]
        rm, ro, neutral = s.resource_bits[me], s.resource_bits[opp], s.resource_bits[2]
        # prisoners: every attacker not on the board nor in reserve is held
        na = game.attackers_per_player
        held_m = na - s.reserve[me] - len(s.attacker_hexes[me])
        held_t = na - s.reserve[opp] - len(s.attacker_hexes[opp])
        unders = ()
        if held_m or held_t:
            # some resource holds prisoners: look at each one
            res, under = s.resource_at, s.prisoners_under
            cap = game.resource_capacity
            avail_m = avail_t = 0
            unders = []
            for h in s.resource_hexes:
                o = res[h]
                if o == 2:
                    continue
                u = under[h]
                if u:
                    unders.append((14 if o == me else 15, h, u))
                if u < cap:
                    if o == me:
                        avail_m = 1
                    else:
                        avail_t = 1
        else:
            avail_m = 1 if s.placed[me] else 0
            avail_t = 1 if s.placed[opp] else 0
        r, dn, w2 = geo.edge_right, geo.edge_down, 2 * geo.width
        wall_m = mine & (((mine & r) << 1) | ((mine >> 1) & r) | ((mine & dn) << w2) | ((mine >> w2) & dn))
        wall_t = theirs & (
            ((theirs & r) << 1) | ((theirs >> 1) & r) | ((theirs & dn) << w2) | ((theirs >> w2) & dn)
        )
        sel = geo.bit_tri[s.selected] if s.selected >= 0 else 0
        z = self.zero_plane
        nb = PLANE_BYTES
        if f:
            k = self.shift
            raw = b"".join(
                (
                    self.static_bytes[player],
                    (mine << k).to_bytes(nb, "big"),
                    (theirs << k).to_bytes(nb, "big"),
                    (am << k).to_bytes(nb, "big"),
                    (ao << k).to_bytes(nb, "big"),
                    (neutral << k).to_bytes(nb, "big"),
                    (rm << k).to_bytes(nb, "big"),
                    (ro << k).to_bytes(nb, "big"),
                    z,
                    z,
                    (wall_m << k).to_bytes(nb, "big"),
                    (wall_t << k).to_bytes(nb, "big"),
                    (s.moved_defenders << k).to_bytes(nb, "big"),
                    (sel << k).to_bytes(nb, "big"),
                )
            )
            order = "big"
        else:
            raw = b"".join(
                (
                    self.static_bytes[player],
                    mine.to_bytes(nb, "little"),
                    theirs.to_bytes(nb, "little"),
                    am.to_bytes(nb, "little"),
                    ao.to_bytes(nb, "little"),
                    neutral.to_bytes(nb, "little"),
                    rm.to_bytes(nb, "little"),
                    ro.to_bytes(nb, "little"),
                    z,
                    z,
                    wall_m.to_bytes(nb, "little"),
                    wall_t.to_bytes(nb, "little"),
                    s.moved_defenders.to_bytes(nb, "little"),
                    sel.to_bytes(nb, "little"),
                )
            )
            order = "little"
        planes = np.unpackbits(
            np.frombuffer(raw, dtype=np.uint8).reshape(N_PLANES, nb), axis=1, count=cells, bitorder=order
        )
        obs = np.empty(self.size, dtype=np.int8)
        obs[: self.scalar_at] = planes.reshape(-1)
        hb = self.hex_at[f]
        for c, h, u in unders:
            obs[c * cells + hb[h]] = u
        main = s.phase == 1
        sub = s.substep
        obs[self.scalar_at :] = (
            s.reserve[me], s.reserve[opp], s.unplaced[me], s.unplaced[opp], s.hand[me], s.hand[opp],
            s.placed[me], s.placed[opp], held_m, held_t,
            0 if main else 1, 1 if main else 0,
            1 if main and sub == 0 else 0, 1 if sub == 1 else 0, 1 if sub == 2 else 0,
            s.moves_this_turn, 1 if me == 0 else 0, s.main_turns * 100 // game.max_main_turns,
            avail_m, avail_t, 1 if s.current_player == me else 0,
        )  # fmt: skip
        return obs


def encode_reference(s, player: int) -> np.ndarray:
    """The observation built cell by cell from the state's lists (slow; the
    specification of :meth:`ObservationTables.encode`)."""
    game = s.game
    bd = game.board
    geo = bd.geo
    w = geo.width
    planes = np.zeros((N_PLANES, w, w), dtype=np.int8)
    me, opp = player, 1 - player

    def hex_cell(c: int, h: int, v: int = 1) -> None:
        x, y = geo.hex_xy[h]
        planes[c, y, x] = v

    def tri_cell(c: int, t: int) -> None:
        x, y = geo.tri_xy[t]
        planes[c, y, x] = 1

    for h in range(NUM_HEXES):
        hex_cell(0, h)
        if bd.hex_colour[h] == HexColour.RED:
            hex_cell(3, h)
        elif bd.hex_colour[h] == HexColour.GREEN:
            hex_cell(4, h)
    for t in range(len(geo.tri_xy)):
        tri_cell(1 if bd.is_black[t] else 2, t)
    for h in bd.blue[me]:
        hex_cell(5, h)
    for h in bd.blue[opp]:
        hex_cell(6, h)
    own = [geo.bits_to_tris(s.defender_bits[0]), geo.bits_to_tris(s.defender_bits[1])]
    for seat, c, wall in ((me, 7, 16), (opp, 8, 17)):
        mine = set(own[seat])
        for t in mine:
            tri_cell(c, t)
            if any(u in mine for u in geo.tri_neighbors[t]):
                tri_cell(wall, t)
    held = [0, 0]
    avail = [0, 0]
    for h in range(NUM_HEXES):
        if s.attacker_at[h] >= 0:
            hex_cell(9 if s.attacker_at[h] == me else 10, h)
        if s.resource_at[h] == 2:
            hex_cell(11, h)
        elif s.resource_at[h] in (0, 1):
            mine_res = s.resource_at[h] == me
            hex_cell(12 if mine_res else 13, h)
            if s.prisoners_under[h]:
                hex_cell(14 if mine_res else 15, h, s.prisoners_under[h])
            held[1 - s.resource_at[h]] += s.prisoners_under[h]
            if s.prisoners_under[h] < game.resource_capacity:
                avail[0 if mine_res else 1] = 1
    for t in geo.bits_to_tris(s.moved_defenders):
        tri_cell(18, t)
    if s.selected >= 0:
        tri_cell(19, s.selected)
    if s.frame_of(player):
        planes = planes[:, ::-1, ::-1]
    main = s.phase == 1
    scalars = [
        s.reserve[me], s.reserve[opp], s.unplaced[me], s.unplaced[opp], s.hand[me], s.hand[opp],
        s.placed[me], s.placed[opp], held[me], held[opp],
        int(not main), int(main), int(main and s.substep == 0), int(s.substep == 1), int(s.substep == 2),
        s.moves_this_turn, int(me == 0), s.main_turns * 100 // game.max_main_turns,
        avail[0], avail[1], int(s.current_player == me),
    ]  # fmt: skip
    return np.concatenate([planes.reshape(-1), np.array(scalars, dtype=np.int8)])
