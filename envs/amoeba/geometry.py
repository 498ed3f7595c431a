"""Board tables for a half-tile grid of U x U units, built once per Game.

A unit is u = r * U + c. A port slot is s = u * 4 + d (d: N=0, E=1, S=2, W=3):
the side d of unit u. A tile lies on the 2x2 block of units whose top-left
unit is its anchor (r, c), 0 <= r, c <= U - 2; anchor index a = r * (U-1) + c.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from meeplezoo.envs.amoeba.tiles import PORT_DIR, PORT_UNIT

DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
OPP = (2, 3, 0, 1)


class Geometry:
    """Lookup tables for one board size (shared by every state of a Game)."""

    def __init__(self, units: int) -> None:
        self.U = units
        W = units - 1
        self.W = W
        self.num_anchors = W * W
        # facing slot of each port slot (the neighbour's side that touches it), -1 off board
        face = []
        for u in range(units * units):
            r, c = divmod(u, units)
            for d in range(4):
                rr, cc = r + DR[d], c + DC[d]
                face.append((rr * units + cc) * 4 + OPP[d] if 0 <= rr < units and 0 <= cc < units else -1)
        self.face: list[int] = face
        # per anchor: the 4 units of its block, and the slot of each of the 8 ports
        self.block_units: list[tuple[int, int, int, int]] = []
        self.port_slot: list[tuple[int, ...]] = []
        for a in range(W * W):
            r, c = divmod(a, W)
            self.block_units.append(
                (r * units + c, r * units + c + 1, (r + 1) * units + c + 1, (r + 1) * units + c)
            )
            self.port_slot.append(
                tuple(
                    ((r + PORT_UNIT[p][0]) * units + c + PORT_UNIT[p][1]) * 4 + PORT_DIR[p] for p in range(8)
                )
            )
        # anchors whose block contains unit u
        self.unit_anchors: list[list[int]] = [[] for _ in range(units * units)]
        for a, block in enumerate(self.block_units):
            for u in block:
                self.unit_anchors[u].append(a)
        # watchers of slot s: (anchor, port bit) pairs where port p of anchor a faces s
        self.watchers: list[list[tuple[int, int]]] = [[] for _ in range(units * units * 4)]
        for a in range(W * W):
            for p, s in enumerate(self.port_slot[a]):
                f = face[s]
                if f >= 0:
                    self.watchers[f].append((a, 1 << p))
        # slot -> its cell in a (2, U*U) port-plane pair: N/S sides are the
        # unit's V port (0), E/W sides its H port (1)
        self.slot_plane: list[int] = [
            (d & 1) * units * units + (s >> 2) for s in range(units * units * 4) for d in (s & 3,)
        ]
        self.center_anchor = (units // 2 - 1) * W + (units // 2 - 1)
        # anchors whose block overlaps the block of anchor a (a included)
        self.overlap: list[tuple[int, ...]] = [
            tuple(sorted({a2 for u in block for a2 in self.unit_anchors[u]})) for block in self.block_units
        ]
        self.contact_tables = self._contact_tables()

    def _contact_tables(self) -> list[tuple[tuple[int, tuple], ...]]:
        """Per anchor: each neighbouring anchor with the table pink8 -> (its
        ports that must be pink, that must be blue)."""
        W = self.W
        # Contacts between blocks depend only on their offset: per offset, a
        # table pink8 -> (ports of the other block that must be pink, that
        # must be blue); per anchor, its neighbours with the table of theirs.
        pairs: dict[tuple[int, int], set] = {}
        nb: list[list[tuple[int, tuple[int, int]]]] = []
        for a in range(W * W):
            r, c = divmod(a, W)
            seen: dict[int, tuple[int, int]] = {}
            for p, s in enumerate(self.port_slot[a]):
                for a2, bit in self.watchers[s]:
                    rel = (a2 // W - r, a2 % W - c)
                    pairs.setdefault(rel, set()).add((p, bit))
                    seen[a2] = rel
            nb.append(sorted(seen.items()))
        tables = {}
        for rel, pb in pairs.items():
            tables[rel] = tuple(
                (
                    sum(bit for p, bit in pb if (m >> p) & 1),
                    sum(bit for p, bit in pb if not (m >> p) & 1),
                )
                for m in range(256)
            )
        return [tuple((a2, tables[rel]) for a2, rel in row) for row in nb]

    def anchor_rc(self, anchor: int) -> tuple[int, int]:
        return divmod(anchor, self.W)

    def anchor_index(self, r: int, c: int) -> int:
        return r * self.W + c


@lru_cache(maxsize=16)
def geometry(units: int) -> Geometry:
    return Geometry(units)


def bits8() -> np.ndarray:
    return np.array([1 << p for p in range(8)], dtype=np.int64)
