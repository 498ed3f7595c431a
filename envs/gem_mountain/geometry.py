"""The diamond map: arrow positions, distances, layers and pointed sections.

Built once per map size and shared by every state of that size.
"""

from __future__ import annotations

from functools import cache

POSITION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def distance(position: int, r: int, c: int, rows: int, cols: int) -> int:
    """Layer index of cell (r, c) seen from arrow ``position``."""
    return (
        r + c,
        r,
        r + (cols - 1 - c),
        cols - 1 - c,
        (rows - 1 - r) + (cols - 1 - c),
        rows - 1 - r,
        (rows - 1 - r) + c,
        c,
    )[position]


def pointed_sections(position: int) -> tuple[int, ...]:
    """Sections of a tile that arrow ``position`` points at (sorted)."""
    if position % 2:
        return ((position - 1) // 2,)
    return tuple(sorted(((position // 2 - 1) % 4, position // 2)))


POINTED = tuple(pointed_sections(p) for p in range(8))


class Geometry:
    """Distance tables and layer lists of an R x C map."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.num_cells = rows * cols
        cells = [(i // cols, i % cols) for i in range(self.num_cells)]
        positions = range(len(POSITION_NAMES))
        # distances[p][i]: layer of cell i seen from arrow position p
        self.distances = [[distance(p, r, c, rows, cols) for r, c in cells] for p in positions]
        # depth[p]: how many layers arrow position p sees
        self.depth = [max(d) + 1 for d in self.distances]
        # cell_distances[i][p]: the same, cell first (a removal updates all 8 layer counts)
        self.cell_distances = [tuple(self.distances[p][i] for p in positions) for i in range(self.num_cells)]
        # layers[p][k]: cells (row-major) of layer k from p
        self.layers = [
            [[i for i in range(self.num_cells) if self.distances[p][i] == k] for k in range(self.depth[p])]
            for p in positions
        ]


@cache
def geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)
