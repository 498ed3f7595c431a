"""Observation encoder: 30 planes over the (2R+1)^2 grid plus 47 scalars.

The static planes (board, bases, territories, rim, bank) are baked into one
template per viewer at Game build time; a call copies the template and
writes only the pieces that move. Gangs appear as me / next / prev.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.gold_rush_gangs.geometry import Geometry

ACTIVE, INCAP = 1, 2


class Encoder:
    def __init__(self, game) -> None:
        geo: Geometry = game.geo
        R = geo.radius
        side = 2 * R + 1
        self.A = A = side * side
        self.game = game
        self.S0 = 30 * A  # first scalar
        self.size = 30 * A + 47
        # pos[v][abs cell] = offset of that cell in viewer v's plane
        self.pos = []
        for v in range(3):
            p = []
            for c in range(geo.n):
                q, r = geo.coords[geo.abs2rel[v][c]]
                p.append((r + R) * side + (q + R))
            self.pos.append(p)
        self.templates = []
        for v in range(3):
            t = np.zeros(self.size, dtype=np.float32)
            pos = self.pos[v]
            for c in range(geo.n):
                t[pos[c]] = 1.0
            for rel in range(3):
                seat = (v + rel) % 3
                for c in geo.base[seat]:
                    t[(1 + rel) * A + pos[c]] = 1.0
                for c in geo.territory[seat]:
                    t[(4 + rel) * A + pos[c]] = 1.0
            for c in geo.neutral_border:
                t[7 * A + pos[c]] = 1.0
            t[8 * A + pos[geo.bank]] = 1.0
            t.setflags(write=False)
            self.templates.append(t)
        # origin o seen by viewer v: me/next/prev/store/bank
        self.orel = [[(o - v) % 3 if o < 3 else o for o in range(5)] for v in range(3)]

    def encode(self, s, v: int) -> np.ndarray:
        g = self.game
        A = self.A
        o = self.templates[v].copy()
        m = memoryview(o)  # item writes through a memoryview are cheaper
        pos = self.pos[v]
        orel = self.orel[v]
        homes = g.geo.homes
        S0 = self.S0
        for c in s.stores:
            m[9 * A + pos[c]] = 1.0
        ustate, ucell, ucarry, umiss = s.ustate, s.ucell, s.ucarry, s.umiss
        for rel in range(3):
            seat = (v + rel) % 3
            for slot in range(3):
                u = 3 * seat + slot
                st = ustate[u]
                k = 3 * rel + slot
                if st == ACTIVE:
                    at = pos[ucell[u]]
                    if rel == 0:
                        m[(10 + slot) * A + at] = 1.0
                    elif slot == 0:
                        m[(11 + 2 * rel) * A + at] = 1.0
                    else:  # two amateurs may share their home cell
                        m[(12 + 2 * rel) * A + at] += 0.5
                    carry = ucarry[u]
                    if carry >= 0:
                        m[(17 + orel[carry]) * A + at] = 1.0
                    m[S0 + 15 + k] = 1.0
                elif st == INCAP:
                    m[(27 + rel) * A + pos[homes[seat]]] += 1.0 / 3.0
                    m[S0 + 6 + k] = (umiss[u] + 1) / 2.0
                    m[S0 + 15 + k] = 1.0
        for c, sk in s.sacks.items():
            at = pos[c]
            for org in range(5):
                if sk[org]:
                    m[(22 + orel[org]) * A + at] = sk[org] / 3.0
        # scalars
        over = s.winner >= 0 or s.is_truncated
        if s.cur == v and not over:
            m[S0] = 1.0
            if s.phase == 2:
                m[S0 + 1] = min(s.ap / g.ap_scale, 1.0)
        delivered = s.delivered
        m[S0 + 2] = min((g.base_ap + delivered[v]) / g.ap_scale, 1.0)
        win = g.win_sacks
        for rel in range(3):
            m[S0 + 3 + rel] = min(delivered[(v + rel) % 3] / win, 1.0)
        m[S0 + 24 + s.phase] = 1.0
        thr = g.threshold
        dmg = s.damage[v if g.per_player_bank else 0]
        m[S0 + 27] = min(dmg / thr, 1.0) if thr else 1.0
        m[S0 + 28] = 1.0 if dmg >= thr else 0.0
        if g.iid:
            for i in range(S0 + 29, S0 + 43):
                m[i] = 1.0
        else:
            dc = s.draw_counts()
            for r in range(1, 14):
                m[S0 + 28 + r] = dc[r] * 0.25
            m[S0 + 42] = len(s.deck.draw_pile) / 52.0
        m[S0 + 43] = min(s.turns / g.max_turns, 1.0)
        m[S0 + 44 + (s.first - v) % 3] = 1.0
        return o
