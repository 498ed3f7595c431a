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

    def encode(self, s, player: int) -> np.ndarray:
        game = self.game
        geo = game.board.geo
        cells = self.cells
        f = 1 if player == 1 and game.relative_frame else 0
        last = self.last
        obs = self.templates[player].copy()
        idx: list[int] = []
        me, opp = player, 1 - player

        def bits(x: int, base: int) -> None:
            while x:
                low = x & -x
                b = low.bit_length() - 1
                idx.append(base + (last - b if f else b))
                x ^= low

        mine, theirs = s.dbits[me], s.dbits[opp]
        bits(mine, 7 * cells)
        bits(theirs, 8 * cells)
        bits(mine & geo.spread(mine), 16 * cells)
        bits(theirs & geo.spread(theirs), 17 * cells)
        bits(s.moved, 18 * cells)
        if s.sel >= 0:
            bits(geo.bit_tri[s.sel], 19 * cells)
        hb = self.hex_at[f]
        for h in s.apos[me]:
            idx.append(9 * cells + hb[h])
        for h in s.apos[opp]:
            idx.append(10 * cells + hb[h])
        res, under = s.res, s.under
        cap = game.resource_capacity
        held = [0, 0]
        avail = [0.0, 0.0]
        for h in s.rhex:
            o = res[h]
            if o == me:
                idx.append(12 * cells + hb[h])
                if under[h]:
                    obs[14 * cells + hb[h]] = under[h] / cap
            elif o == opp:
                idx.append(13 * cells + hb[h])
                if under[h]:
                    obs[15 * cells + hb[h]] = under[h] / cap
            else:
                idx.append(11 * cells + hb[h])
                continue
            held[1 - o] += under[h]
            if under[h] < cap:
                avail[0 if o == me else 1] = 1.0
        obs[idx] = 1.0
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
