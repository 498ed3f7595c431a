"""Observation encoder: 20 brick-grid planes (19 x 19) plus 21 scalars, flat
float32, in the observer's frame (the board turned 180 degrees for Amber
unless ``relative_frame`` is off).

The seven static planes (tile shapes and colours) are precomputed per
observer; each call copies that template and writes the pieces with one
fancy-index assignment.
"""

from __future__ import annotations

import numpy as np

from envs.amethyst_amber.board import H, RED, GREEN

N_PLANES = 20
N_SCALARS = 21


class ObservationTables:
    def __init__(self, game) -> None:
        self.game = game
        bd = game.board
        geo = bd.geo
        self.cells = geo.width * geo.width  # 361
        self.last = self.cells - 1
        self.scalar_at = N_PLANES * self.cells
        size = self.scalar_at + N_SCALARS
        self.templates = []
        for observer in (0, 1):
            f = 1 if observer == 1 and game.relative_frame else 0
            obs = np.zeros(size, dtype=np.float32)

            def put(c: int, brick: int) -> None:
                obs[c * self.cells + (self.last - brick if f else brick)] = 1.0

            for h in range(H):
                put(0, bd.hex_brick[h])
                if bd.hex_colour[h] == RED:
                    put(3, bd.hex_brick[h])
                elif bd.hex_colour[h] == GREEN:
                    put(4, bd.hex_brick[h])
            for t in bd.black:
                put(1, bd.tri_brick[t])
            for t in bd.yellow:
                put(2, bd.tri_brick[t])
            for h in bd.blue[observer]:
                put(5, bd.hex_brick[h])
            for h in bd.blue[1 - observer]:
                put(6, bd.hex_brick[h])
            obs.setflags(write=False)
            self.templates.append(obs)
        # brick of hex h in frame f
        self.hex_at = [bd.hex_brick, [self.last - b for b in bd.hex_brick]]

        # static planes 0-6 as one big bitboard per observer (absolute frame)
        self.static_bits = []
        for observer in (0, 1):
            tmpl = self.templates[observer].reshape(-1)[: self.scalar_at].reshape(N_PLANES, self.cells)
            if observer == 1 and game.relative_frame:
                tmpl = tmpl[:, ::-1]
            flat = np.ascontiguousarray(tmpl).reshape(-1).astype(np.uint8)
            self.static_bits.append(int.from_bytes(np.packbits(flat, bitorder="little").tobytes(), "little"))
        self.nbytes = (self.scalar_at + 7) // 8
        self.bit_hex = bd.geo.bit_hex

    def encode(self, s, player: int) -> np.ndarray:
        """All 0/1 planes are OR-ed into one Python int (plane c shifted by
        c * 361 bits), unpacked by numpy in one go, and turned for Amber."""
        game = self.game
        geo = game.board.geo
        cells = self.cells
        f = 1 if player == 1 and game.relative_frame else 0
        me, opp = player, 1 - player
        mine, theirs = s.dbits[me], s.dbits[opp]
        bh = self.bit_hex
        am = ao = 0
        for h in s.apos[me]:
            am |= bh[h]
        for h in s.apos[opp]:
            ao |= bh[h]
        neutral = rm = ro = 0
        res, under = s.res, s.under
        cap = game.resource_capacity
        held = [0, 0]
        avail = [0.0, 0.0]
        unders = []
        for h in s.rhex:
            o = res[h]
            if o == me:
                rm |= bh[h]
                if under[h]:
                    unders.append((14, h, under[h]))
            elif o == opp:
                ro |= bh[h]
                if under[h]:
                    unders.append((15, h, under[h]))
            else:
                neutral |= bh[h]
                continue
            held[1 - o] += under[h]
            if under[h] < cap:
                avail[0 if o == me else 1] = 1.0
        sel = geo.bit_tri[s.sel] if s.sel >= 0 else 0
        big = (
            self.static_bits[player]
            | mine << (7 * cells)
            | theirs << (8 * cells)
            | am << (9 * cells)
            | ao << (10 * cells)
            | neutral << (11 * cells)
            | rm << (12 * cells)
            | ro << (13 * cells)
            | (mine & geo.spread(mine)) << (16 * cells)
            | (theirs & geo.spread(theirs)) << (17 * cells)
            | s.moved << (18 * cells)
            | sel << (19 * cells)
        )
        raw = np.frombuffer(big.to_bytes(self.nbytes, "little"), dtype=np.uint8)
        planes = np.unpackbits(raw, bitorder="little", count=self.scalar_at).reshape(N_PLANES, cells)
        if f:
            planes = planes[:, ::-1]
        obs = np.empty(self.scalar_at + N_SCALARS, dtype=np.float32)
        obs[: self.scalar_at].reshape(N_PLANES, cells)[:] = planes
        hb = self.hex_at[f]
        for c, h, u in unders:
            obs[c * cells + hb[h]] = u / cap
        na = game.attackers_per_player
        nd = max(1, game.defenders_per_player)
        win = game.win_resources
        main = s.phase == 1
        sc = [
            s.reserve[me] / na,
            s.reserve[opp] / na,
            s.unplaced[me] / nd,
            s.unplaced[opp] / nd,
            s.hand[me] / 6.0,
            s.hand[opp] / 6.0,
            min(1.0, s.placed[me] / win),
            min(1.0, s.placed[opp] / win),
            min(1.0, held[me] / na),
            min(1.0, held[opp] / na),
            0.0 if main else 1.0,
            1.0 if main else 0.0,
            1.0 if main and s.sub == 0 else 0.0,
            1.0 if s.sub == 1 else 0.0,
            1.0 if s.sub == 2 else 0.0,
            s.n_moved / game.max_defenders_per_turn,
            1.0 if me == 0 else 0.0,
            min(1.0, s.main_turns / game.max_main_turns),
            avail[0],
            avail[1],
            1.0 if s.current_player == me else 0.0,
        ]
        obs[self.scalar_at :] = sc
        return obs
