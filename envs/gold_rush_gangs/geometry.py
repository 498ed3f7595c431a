"""Board geometry of Gold Rush Gangs, built once per configuration.

Everything the rules and the observation need about the hexagon (homes,
bases, territories, store-eligible rim cells, the bank, the three seat
frames and the legal deployment triples) is computed here into plain lists
and numpy tables, so a step only indexes them.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from meeplezoo.envs.core.hexgrid import hex_board

DIR_NAMES = ("E", "NE", "NW", "W", "SW", "SE")  # the six directions, counter-clockwise from east


class Geometry:
    """Tables for one (radius, territory_radius, base_radius, spacing)."""

    def __init__(
        self,
        radius: int,
        territory_radius: int,
        base_radius: int,
        spacing: int,
        relative_frame: bool,
    ) -> None:
        hb = hex_board(radius)
        self.hex = hb
        self.radius = radius
        self.n = n = hb.n
        self.coords = [tuple(int(v) for v in c) for c in hb.coords]
        self.index = dict(hb.index)
        dist = hb.distance
        self.neighbors = [tuple(int(x) for x in row) for row in hb.neighbors]  # by abs dir, -1 off
        self.nbset = [frozenset(x for x in row if x >= 0) for row in self.neighbors]
        self.bank = self.index[(0, 0)]
        self.around_bank = self.nbset[self.bank]  # where a thief may break the bank
        self.homes = [self.index[c] for c in ((-radius, radius), (0, -radius), (radius, 0))]
        # rot(q, r) = (-q-r, q) is two 60-degree steps of the core rotation
        rot = np.asarray(hb.rotation(2), dtype=np.int64)
        rot_pow = [np.arange(n), rot, rot[rot]]
        # frame k: abs = rot^k(rel); directions abs = (rel + 4k) % 6
        frames = [0, 1, 2] if relative_frame else [0, 0, 0]
        self.rel2abs = [[int(x) for x in rot_pow[k]] for k in frames]
        self.abs2rel = []
        for k in frames:
            inv = np.empty(n, dtype=np.int64)
            inv[rot_pow[k]] = np.arange(n)
            self.abs2rel.append([int(x) for x in inv])
        self.dir_rel2abs = [[(d + 4 * k) % 6 for d in range(6)] for k in frames]
        # per seat: abs neighbour of each cell in that seat's relative direction order
        self.nbr_rel = [
            [tuple(self.neighbors[c][self.dir_rel2abs[p][d]] for d in range(6)) for c in range(n)]
            for p in range(3)
        ]
        self.base = [frozenset(int(c) for c in np.flatnonzero(dist[h] <= base_radius)) for h in self.homes]
        self.territory = [
            frozenset(int(c) for c in np.flatnonzero(dist[h] <= territory_radius)) for h in self.homes
        ]
        self.deployable = [sorted(self.territory[p] - self.base[p]) for p in range(3)]
        # cells a seat's units may never enter: the other seats' bases
        self.forbidden = [[False] * n for _ in range(3)]
        for p in range(3):
            for o in range(3):
                if o != p:
                    for c in self.base[o]:
                        self.forbidden[p][c] = True
        self.base_of = [-1] * n  # owner of a base cell
        for p in range(3):
            for c in self.base[p]:
                self.base_of[c] = p
        centre = dist[self.bank]
        self.border = [int(c) for c in np.flatnonzero(centre == radius)]
        self.neutral_border = [
            c for c in self.border if all(int(dist[c, h]) > territory_radius for h in self.homes)
        ]
        self.fixed_stores = [self.index[c] for c in ((-radius, 0), (radius, -radius), (0, radius))]
        self.dist = [[int(x) for x in row] for row in dist]
        # unordered deployment triples (pairwise distance >= spacing) per seat
        self.spacing = spacing
        self.triples: list[list[frozenset]] = []
        for p in range(3):
            cells = self.deployable[p]
            trip = [
                frozenset(t)
                for t in combinations(cells, 3)
                if all(self.dist[a][b] >= spacing for a, b in combinations(t, 2))
            ]
            self.triples.append(trip)


def deploy_candidates(geo: Geometry, player: int, placed: list[int]) -> set[int]:
    """Cells where the next unit of ``player`` may go, given its units
    already placed, such that the whole gang can still be deployed."""
    have = set(placed)
    out: set[int] = set()
    for t in geo.triples[player]:
        if have <= t:
            out |= t - have
    return out
