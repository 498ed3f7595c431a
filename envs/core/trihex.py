"""Trihexagonal boards (hexagons touching at corners, triangles between them).

The tiling is modelled on an ordinary hex grid: trihex hexagons are the grid's
cells, trihex triangles are the cells' corners, and two triangles touch when
they are the two ends of one cell edge. Everything is laid out on a "brick
grid": hex (q, r) of a radius-R board sits at X = 2q + r + 2R + 1,
Y = 2(r + R) + 1 (odd Y), and its six corners in cyclic order N, NE, SE, S, SW,
NW sit at (X, Y-1), (X+1, Y-1), (X+1, Y+1), (X, Y+1), (X-1, Y+1),
(X-1, Y-1) (even Y). A triangle is a corner shared by at least two hexes.

The "gate" of a hex pair is the two triangles at the single vertex the two
hexes share; blocking both cuts exactly that hex-to-hex step.

Besides index tables, the board offers Python-int bitboards over the brick
grid (bit ``Y * W + X``): a neighbour step of a whole set of triangles is four
shifts, which makes bounded flood fills cheap.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from meeplezoo.envs.core.hexgrid import DIRECTIONS, hex_board

# Corner ids: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW (brick offsets below).
CORNER_OFFSETS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 1), (0, 1), (-1, 1), (-1, -1))
CORNER_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
# The two corners of a hex at the vertex it shares with its neighbour in
# hexgrid direction d (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE).
GATE_CORNERS: tuple[tuple[int, int], ...] = ((1, 2), (0, 1), (5, 0), (4, 5), (3, 4), (2, 3))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


class TrihexBoard:
    """Geometry of a radius-R trihexagonal board, built once.

    Attributes:
      hexes: the :class:`~meeplezoo.envs.core.hexgrid.HexBoard` of the cells (index,
        neighbours, distances, rot180);
      n_hex, n_tri, width (= height) of the brick grid;
      hex_xy[h] = (X, Y); tri_xy[t] = (X, Y); tri_index[(X, Y)] = t;
      hex_corner_tri[h, c] = triangle at corner c of hex h, or -1 if that
        corner touches only one board hex (not a triangle of the board);
      tri_neighbors[t] = tuple of adjacent triangles;
      gate[h, d] = (t1, t2) triangles of the gate towards the neighbour in
        direction d, or (-1, -1) off board;
      tri_rot180[t], and hex rot180 via ``hexes.rot180``;
      bit_hex[h], bit_tri[t] = brick-grid bit of a cell;
      edge_right / edge_down = bitboards of triangles whose right neighbour
        (X+1) / lower neighbour (Y+2) is adjacent to them.
    """

    def __init__(self, radius: int) -> None:
        self.radius = radius
        self.hexes = hex_board(radius)
        self.n_hex = self.hexes.n
        self.width = 4 * radius + 3
        self.hex_xy = [
            (2 * q + r + 2 * radius + 1, 2 * (r + radius) + 1) for q, r in self.hexes.coords.tolist()
        ]
        counts = Counter((x + dx, y + dy) for x, y in self.hex_xy for dx, dy in CORNER_OFFSETS)
        tris = sorted((c for c, n in counts.items() if n >= 2), key=lambda c: (c[1], c[0]))
        self.tri_xy = tris
        self.n_tri = len(tris)
        self.tri_index = {c: i for i, c in enumerate(tris)}
        self.hex_index_xy = {c: i for i, c in enumerate(self.hex_xy)}
        self.hex_corner_tri = corner = self._corner_triangles()
        self.tri_neighbors = self._triangle_neighbours(corner)
        self.gate = self._gates(corner)
        span = self.width - 1
        self.tri_rot180 = np.array([self.tri_index[(span - x, span - y)] for x, y in tris], dtype=np.int16)
        w = self.width
        self.bit_hex = [1 << (y * w + x) for x, y in self.hex_xy]
        self.bit_tri = [1 << (y * w + x) for x, y in tris]
        self.edge_right, self.edge_down = self._edges()
        # brick bit position -> triangle index (or -1)
        self.brick_to_tri = [-1] * (w * w)
        for t, (x, y) in enumerate(tris):
            self.brick_to_tri[y * w + x] = t
        for arr in (self.hex_corner_tri, self.gate, self.tri_rot180):
            arr.setflags(write=False)

    def _corner_triangles(self) -> np.ndarray:
        """hex_corner_tri: the triangle at each corner of each hex (or -1)."""
        corner = np.full((self.n_hex, 6), -1, dtype=np.int16)
        for h, (x, y) in enumerate(self.hex_xy):
            for c, (dx, dy) in enumerate(CORNER_OFFSETS):
                corner[h, c] = self.tri_index.get((x + dx, y + dy), -1)
        return corner

    def _triangle_neighbours(self, corner: np.ndarray) -> list[tuple[int, ...]]:
        """Triangles at neighbouring corners of one hex are adjacent."""
        adjacent: list[set[int]] = [set() for _ in range(self.n_tri)]
        for h in range(self.n_hex):
            for c in range(6):
                a, b = int(corner[h, c]), int(corner[h, (c + 1) % 6])
                if a >= 0 and b >= 0:
                    adjacent[a].add(b)
                    adjacent[b].add(a)
        return [tuple(sorted(s)) for s in adjacent]

    def _gates(self, corner: np.ndarray) -> np.ndarray:
        """gate[h, d]: the two triangles between hex h and its neighbour in direction d."""
        gate = np.full((self.n_hex, 6, 2), -1, dtype=np.int16)
        for h in range(self.n_hex):
            for d in range(6):
                if self.hexes.neighbors[h, d] >= 0:
                    c1, c2 = GATE_CORNERS[d]
                    gate[h, d] = (corner[h, c1], corner[h, c2])
        return gate

    def _edges(self) -> tuple[int, int]:
        """Bitboards of the triangles whose right (X+1) / lower (Y+2)
        neighbour is adjacent to them."""
        right = down = 0
        for t, (x, y) in enumerate(self.tri_xy):
            for u in self.tri_neighbors[t]:
                ux, uy = self.tri_xy[u]
                if (ux, uy) == (x + 1, y):
                    right |= self.bit_tri[t]
                elif (ux, uy) == (x, y + 2):
                    down |= self.bit_tri[t]
        return right, down

    # --- bitboards ------------------------------------------------------------
    def tri_bits(self, tris) -> int:
        out = 0
        for t in tris:
            out |= self.bit_tri[t]
        return out

    def bits_to_tris(self, bits: int) -> list[int]:
        """Triangle indices of a bitboard (ascending)."""
        b2t = self.brick_to_tri
        out = []
        while bits:
            low = bits & -bits
            out.append(b2t[low.bit_length() - 1])
            bits ^= low
        return sorted(out)

    def spread(self, bits: int) -> int:
        """All triangles adjacent to some triangle of ``bits``."""
        r, dn, w2 = self.edge_right, self.edge_down, 2 * self.width
        return ((bits & r) << 1) | ((bits >> 1) & r) | ((bits & dn) << w2) | ((bits >> w2) & dn)

    def lonely_neighbors(self, bits: int) -> int:
        """Triangles with exactly one neighbour in ``bits``."""
        r, dn, w2 = self.edge_right, self.edge_down, 2 * self.width
        a = (bits & r) << 1  # left neighbour in bits
        b = (bits >> 1) & r  # right neighbour in bits
        c = (bits & dn) << w2  # upper neighbour in bits
        d = (bits >> w2) & dn  # lower neighbour in bits
        two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
        return (a | b | c | d) & ~two

    def reach(self, start: int, free: int, steps: int) -> int:
        """Triangles reachable from triangle ``start`` in 1..steps moves
        through triangles of ``free`` (start itself excluded)."""
        r, dn, w2 = self.edge_right, self.edge_down, 2 * self.width
        front = seen = self.bit_tri[start]
        for _ in range(steps):
            front = (
                (((front & r) << 1) | ((front >> 1) & r) | ((front & dn) << w2) | ((front >> w2) & dn))
                & free
                & ~seen
            )
            if not front:
                break
            seen |= front
        return seen ^ self.bit_tri[start]

    def component(self, seed: int, pieces: int) -> int:
        """The connected group of ``pieces`` (bitboard) containing bitboard
        ``seed`` (``seed`` counts as a piece)."""
        group = seed
        pieces |= seed
        while True:
            grown = (self.spread(group) & pieces) | group
            if grown == group:
                return group
            group = grown

    def direction_of(self, a: int, b: int) -> int:
        """Hexgrid direction from hex a to its neighbour b, or -1."""
        row = self.hexes.neighbors[a]
        for d in range(6):
            if row[d] == b:
                return d
        return -1


@cache
def trihex_board(radius: int) -> TrihexBoard:
    """Shared, cached trihex geometry (build once per radius per process)."""
    return TrihexBoard(radius)


__all__ = [
    "CORNER_NAMES",
    "CORNER_OFFSETS",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "GATE_CORNERS",
    "TrihexBoard",
    "trihex_board",
]
