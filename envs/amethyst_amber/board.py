"""The Amethyst and Amber board: a radius-4 trihex board with coloured tiles,
plus every table the rules, observation and names need, built once.

Seat 0 is Amethyst (home at the bottom, large Y), seat 1 is Amber (home at
the top). Seat 1's frame is the board turned 180 degrees: hex h -> 60-h,
triangle t -> 119-t, direction d -> (d+3) % 6, brick (X, Y) -> (18-X, 18-Y).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from meeplezoo.envs.core.trihex import DIRECTION_NAMES, trihex_board

RADIUS = 4
SEAT_NAMES = ("Amethyst", "Amber")

# action layout (T = 120 triangles, H = 61 hexes)
T = 120
H = 61
A_PLACE_DEF = 0
A_SELECT = 120
A_DEST = 240
A_PLACE_ATT = 360
A_PLACE_RES = 421
A_STEP = 482
A_END = 848
A_PASS = 849
NUM_ACTIONS = 850

RED_QR = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
GREEN_QR = (
    ((-3, 2), (-1, 2), (1, 2), (-4, 3), (-2, 3), (0, 3)),  # Amethyst half
    ((3, -2), (1, -2), (-1, -2), (4, -3), (2, -3), (0, -3)),  # Amber half
)
BLUE_QR = (((-3, 4), (-2, 4), (-1, 4)), ((3, -4), (2, -4), (1, -4)))

# hex colour codes
PLAIN, RED, GREEN, BLUE0, BLUE1 = 0, 1, 2, 3, 4


class Board:
    """Colours, bitboards and frame tables of the game board."""

    def __init__(self) -> None:
        g = trihex_board(RADIUS)
        self.geo = g
        idx = g.hexes.index
        self.hex_qr = [tuple(c) for c in g.hexes.coords.tolist()]
        self.red = sorted(idx[c] for c in RED_QR)
        self.green_half = tuple(sorted(idx[c] for c in half) for half in GREEN_QR)
        self.green = sorted(self.green_half[0] + self.green_half[1])
        self.blue = tuple(sorted(idx[c] for c in side) for side in BLUE_QR)
        colour = [PLAIN] * H
        for h in self.red:
            colour[h] = RED
        for h in self.green:
            colour[h] = GREEN
        for h in self.blue[0]:
            colour[h] = BLUE0
        for h in self.blue[1]:
            colour[h] = BLUE1
        self.hex_colour = colour
        yellow = set()
        for h in self.red + self.blue[0] + self.blue[1]:
            yellow.update(int(t) for t in g.hex_corner_tri[h] if t >= 0)
        self.yellow = sorted(yellow)
        self.black = [t for t in range(T) if t not in yellow]
        self.is_black = [t not in yellow for t in range(T)]
        self.black_bits = g.tri_bits(self.black)
        # The rules' flood fills step sideways without the edge_right mask:
        # restricted to triangles, the unmasked step must equal the real one.
        tri_all = g.tri_bits(range(T))
        dn, w2 = g.edge_down, 2 * g.width
        for t in range(T):
            b = g.bit_tri[t]
            if ((b << 1) | (b >> 1) | ((b & dn) << w2) | ((b >> w2) & dn)) & tri_all != g.spread(b):
                raise RuntimeError("trihex brick grid: sideways neighbours are not all adjacent")
        # attacker steps: per hex, (d, neighbour, gate bitboard) on the board
        self.steps = []
        for h in range(H):
            row = []
            for d in range(6):
                n = int(g.hexes.neighbors[h, d])
                if n >= 0:
                    t1, t2 = (int(x) for x in g.gate[h, d])
                    row.append((d, n, g.bit_tri[t1] | g.bit_tri[t2]))
            self.steps.append(tuple(row))
        # per hex: neighbour hexes and own corner triangles, as bitboards
        self.neighbor_bits = [sum(g.bit_hex[n] for _d, n, _g in self.steps[h]) for h in range(H)]
        self.corner_bits = [g.tri_bits(int(t) for t in g.hex_corner_tri[h] if t >= 0) for h in range(H)]
        # nearest available resource: green hexes ordered by (distance from
        # the capture hex, index in the captor's frame)
        dist = g.hexes.distance
        self.nearest_order = tuple(
            [
                sorted(self.green, key=lambda r, n=n, s=seat: (int(dist[n, r]), r if s == 0 else H - 1 - r))
                for n in range(H)
            ]
            for seat in (0, 1)
        )
        # action rotation (an involution) between a seat-1 frame and absolute
        rot = list(range(NUM_ACTIONS))
        for t in range(T):
            rot[A_PLACE_DEF + t] = A_PLACE_DEF + T - 1 - t
            rot[A_SELECT + t] = A_SELECT + T - 1 - t
            rot[A_DEST + t] = A_DEST + T - 1 - t
        for h in range(H):
            rot[A_PLACE_ATT + h] = A_PLACE_ATT + H - 1 - h
            rot[A_PLACE_RES + h] = A_PLACE_RES + H - 1 - h
            for d in range(6):
                rot[A_STEP + 6 * h + d] = A_STEP + 6 * (H - 1 - h) + (d + 3) % 6
        self.rot_action = rot
        self.rot_action_np = np.array(rot, dtype=np.int64)
        self.names = [self._name(a) for a in range(NUM_ACTIONS)]
        self.name_to_action = {n.lower(): a for a, n in enumerate(self.names)}
        w = g.width
        self.hex_brick = [y * w + x for x, y in g.hex_xy]
        self.tri_brick = [y * w + x for x, y in g.tri_xy]
        self.brick_cells = w * w
        self.brick_bytes = (w * w + 7) // 8
        # where triangle t's bit lands when a brick bitboard is written
        # big-endian and unpacked most significant bit first (numpy's
        # fastest order), in the absolute and in the turned frame
        top = 8 * self.brick_bytes - 1
        self.tri_unpack = (
            np.array([top - b for b in self.tri_brick], dtype=np.int64),
            np.array([top - b for b in reversed(self.tri_brick)], dtype=np.int64),
        )
        # brick bit position -> bitboard of the triangle's neighbours
        self.tri_nbr_bits = [0] * self.brick_cells
        for t in range(T):
            self.tri_nbr_bits[self.tri_brick[t]] = g.tri_bits(g.tri_neighbors[t])

    def _name(self, a: int) -> str:
        g = self.geo
        if a < A_SELECT:
            return "place defender {},{}".format(*g.tri_xy[a])
        if a < A_DEST:
            return "select {},{}".format(*g.tri_xy[a - A_SELECT])
        if a < A_PLACE_ATT:
            return "move to {},{}".format(*g.tri_xy[a - A_DEST])
        if a < A_PLACE_RES:
            return "place attacker {},{}".format(*self.hex_qr[a - A_PLACE_ATT])
        if a < A_STEP:
            return "place resource {},{}".format(*self.hex_qr[a - A_PLACE_RES])
        if a < A_END:
            h, d = divmod(a - A_STEP, 6)
            q, r = self.hex_qr[h]
            return f"step {q},{r} {DIRECTION_NAMES[d]}"
        return "end defender moves" if a == A_END else "pass"


class FrameTables:
    """Action indices in one frame (0 absolute, 1 turned), keyed by what the
    rules iterate over, so that legal moves are written straight into the
    mask without converting frames:

    - ``select``: select action per brick bit position (triangles only);
    - ``place_att[p]`` / ``place_res[p]``: (hex, action) for seat p's blue
      entry hexes / the greens seat p may place a resource on;
    - ``steps[h]``: (action, neighbour hex, gate bitboard) per attacker step;
    - ``step_lo[h]``: the first of hex h's six step actions, which are
      consecutive in both frames.
    """

    def __init__(self, bd: Board, frame: int, green_for) -> None:
        rot = bd.rot_action if frame else list(range(NUM_ACTIONS))
        self.select = [-1] * bd.brick_cells
        for t in range(T):
            self.select[bd.tri_brick[t]] = rot[A_SELECT + t]
        self.place_att = tuple(tuple((h, rot[A_PLACE_ATT + h]) for h in bd.blue[p]) for p in (0, 1))
        self.place_res = tuple(tuple((h, rot[A_PLACE_RES + h]) for h in green_for[p]) for p in (0, 1))
        self.steps = tuple(
            tuple((rot[A_STEP + 6 * h + d], n, gate) for d, n, gate in bd.steps[h]) for h in range(H)
        )
        self.step_lo = [min(rot[A_STEP + 6 * h + d] for d in range(6)) for h in range(H)]


@cache
def board() -> Board:
    return Board()
