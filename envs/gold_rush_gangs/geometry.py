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
from meeplezoo.envs.gold_rush_gangs.pieces import NUM_SEATS

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
        board = hex_board(radius)
        self.board = board
        self.radius = radius
        self.num_cells = board.n
        self.coords = [tuple(int(v) for v in c) for c in board.coords]
        self.index = dict(board.index)
        self.neighbors = [tuple(int(x) for x in row) for row in board.neighbors]  # by abs dir, -1 off
        self.adjacent = [frozenset(x for x in row if x >= 0) for row in self.neighbors]
        self.bank = self.index[(0, 0)]
        self.around_bank = self.adjacent[self.bank]  # where a thief may break the bank
        self.homes = [self.index[c] for c in ((-radius, radius), (0, -radius), (radius, 0))]
        self._build_frames(relative_frame)
        self._build_regions(board.distance, territory_radius, base_radius)
        self.dist = [[int(x) for x in row] for row in board.distance]
        self.spacing = spacing
        self.triples = [self._deploy_triples(seat, spacing) for seat in range(NUM_SEATS)]

    def _build_frames(self, relative_frame: bool) -> None:
        """Each seat's frame: its cells and directions turned so that its home
        is the bottom-left corner (all seats share frame 0 when not relative)."""
        n = self.num_cells
        # rot(q, r) = (-q-r, q) is two 60-degree steps of the core rotation
        rot = np.asarray(self.board.rotation(2), dtype=np.int64)
        rot_pow = [np.arange(n), rot, rot[rot]]
        # frame k: abs = rot^k(rel); directions abs = (rel + 4k) % 6
        frames = [0, 1, 2] if relative_frame else [0, 0, 0]
        self.to_absolute = [[int(x) for x in rot_pow[k]] for k in frames]
        self.to_relative = []
        for k in frames:
            inv = np.empty(n, dtype=np.int64)
            inv[rot_pow[k]] = np.arange(n)
            self.to_relative.append([int(x) for x in inv])
        self.direction_to_absolute = [[(d + 4 * k) % 6 for d in range(6)] for k in frames]
        # per seat: abs neighbour of each cell in that seat's relative direction order
        self.step_targets = [
            [tuple(self.neighbors[c][self.direction_to_absolute[p][d]] for d in range(6)) for c in range(n)]
            for p in range(NUM_SEATS)
        ]

    def _build_regions(self, dist: np.ndarray, territory_radius: int, base_radius: int) -> None:
        """Bases, territories, the cells each seat may not enter, and the rim."""
        n = self.num_cells
        self.base = [frozenset(int(c) for c in np.flatnonzero(dist[h] <= base_radius)) for h in self.homes]
        self.territory = [
            frozenset(int(c) for c in np.flatnonzero(dist[h] <= territory_radius)) for h in self.homes
        ]
        self.deployable = [sorted(self.territory[p] - self.base[p]) for p in range(NUM_SEATS)]
        # cells a seat's units may never enter: the other seats' bases
        self.forbidden = [[False] * n for _ in range(NUM_SEATS)]
        self.base_owner = [-1] * n  # owner of a base cell
        for p in range(NUM_SEATS):
            for c in self.base[p]:
                self.base_owner[c] = p
                for other in range(NUM_SEATS):
                    if other != p:
                        self.forbidden[other][c] = True
        self.border = [int(c) for c in np.flatnonzero(dist[self.bank] == self.radius)]
        self.neutral_border = [
            c for c in self.border if all(int(dist[c, h]) > territory_radius for h in self.homes)
        ]
        radius = self.radius
        self.fixed_stores = [self.index[c] for c in ((-radius, 0), (radius, -radius), (0, radius))]

    def _deploy_triples(self, seat: int, spacing: int) -> list[frozenset]:
        """Unordered triples of deployable cells pairwise at least ``spacing`` apart."""
        return [
            frozenset(t)
            for t in combinations(self.deployable[seat], 3)
            if all(self.dist[a][b] >= spacing for a, b in combinations(t, 2))
        ]


def deploy_candidates(geo: Geometry, player: int, placed: list[int]) -> set[int]:
    """Cells where the next unit of ``player`` may go, given its units
    already placed, such that the whole gang can still be deployed."""
    have = set(placed)
    out: set[int] = set()
    for t in geo.triples[player]:
        if have <= t:
            out |= t - have
    return out
