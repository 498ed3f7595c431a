"""Hexagonal boards in axial coordinates (q, r), as numpy tables built once.

A :class:`HexBoard` of radius R numbers its cells 0..n-1 (row by row, r
ascending, then q ascending) and precomputes neighbours, distances and the
180-degree rotation, so games index arrays instead of doing coordinate
arithmetic on every step.
"""

from __future__ import annotations

from functools import cache

import numpy as np

# Axial direction vectors, counter-clockwise starting east (pointy-top hexes).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate60(q: int, r: int, times: int = 1) -> tuple[int, int]:
    """Rotate (q, r) about the origin by ``times`` x 60 degrees counter-clockwise."""
    x, z = q, r
    y = -x - z
    for _ in range(times % 6):
        x, y, z = -z, -x, -y
    return x, z


def hexes_within(radius: int) -> list[tuple[int, int]]:
    """All (q, r) with distance <= radius from the origin, in board order."""
    cells = []
    for r in range(-radius, radius + 1):
        for q in range(max(-radius, -r - radius), min(radius, -r + radius) + 1):
            cells.append((q, r))
    return cells


def ring(radius: int) -> list[tuple[int, int]]:
    """Cells at exactly ``radius`` from the origin (in board order)."""
    return [c for c in hexes_within(radius) if hex_distance(c, (0, 0)) == radius]


class HexBoard:
    """Geometry of a hexagon-shaped board of the given radius.

    Attributes (all numpy, read-only by convention):
      coords[i] = (q, r);  index[(q, r)] = i;
      neighbors[i, d] = cell in direction d or -1 off board;
      distance[i, j];  rot180[i] = cell at (-q, -r).
    """

    def __init__(self, radius: int) -> None:
        self.radius = radius
        cells = hexes_within(radius)
        self.n = len(cells)
        self.coords = np.array(cells, dtype=np.int16)
        self.index = {c: i for i, c in enumerate(cells)}
        self.neighbors = np.full((self.n, 6), -1, dtype=np.int16)
        for i, (q, r) in enumerate(cells):
            for d, (dq, dr) in enumerate(DIRECTIONS):
                self.neighbors[i, d] = self.index.get((q + dq, r + dr), -1)
        q = self.coords[:, 0].astype(np.int32)
        r = self.coords[:, 1].astype(np.int32)
        dq = q[:, None] - q[None, :]
        dr = r[:, None] - r[None, :]
        self.distance = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).astype(np.int16)
        self.rot180 = np.array([self.index[(-a, -b)] for a, b in cells], dtype=np.int16)
        self.neighbor_lists = [tuple(int(x) for x in row if x >= 0) for row in self.neighbors]
        for arr in (self.coords, self.neighbors, self.distance, self.rot180):
            arr.setflags(write=False)

    def rotation(self, times: int) -> np.ndarray:
        """perm[i] = index of cell i rotated by ``times`` x 60 degrees."""
        return np.array([self.index[rotate60(int(q), int(r), times)] for q, r in self.coords], dtype=np.int16)

    def within(self, cell: int, dist: int) -> np.ndarray:
        """Cells at distance <= dist from ``cell``."""
        return np.flatnonzero(self.distance[cell] <= dist)

    def pixel(self, cell: int, size: float) -> tuple[float, float]:
        """Centre of a pointy-top hex of circumradius ``size`` (origin at 0,0)."""
        q, r = (int(v) for v in self.coords[cell])
        return size * np.sqrt(3) * (q + r / 2), size * 1.5 * r


@cache
def hex_board(radius: int) -> HexBoard:
    """Shared, cached board geometry: build once per radius per process."""
    return HexBoard(radius)
