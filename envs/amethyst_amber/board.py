"""The Amethyst and Amber board: a radius-4 trihex board with coloured tiles,
plus every table the rules, observation and names need, built once.

Seat 0 is Amethyst (home at the bottom, large Y), seat 1 is Amber (home at
the top). Seat 1's frame is the board turned 180 degrees: hex h -> 60-h,
triangle t -> 119-t, direction d -> (d+3) % 6, brick (X, Y) -> (18-X, 18-Y).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import (
    KIND_OF_ACTION,
    KINDS,
    NUM_ACTIONS,
    NUM_DIRECTIONS,
    NUM_HEXES,
    NUM_TRIANGLES,
    TARGET_OF_ACTION,
    ActionBlock,
    Target,
    rotated,
)
from meeplezoo.envs.core.trihex import DIRECTION_NAMES, trihex_board

RADIUS = 4
SEAT_NAMES = ("Amethyst", "Amber")
NEUTRAL = 2  # the owner code of a neutral resource (0 / 1: a seat; -1: no resource)


class HexColour(IntEnum):
    PLAIN = 0
    RED = 1
    GREEN = 2
    AMETHYST_ENTRY = 3  # blue, at Amethyst's home edge
    AMBER_ENTRY = 4  # blue, at Amber's home edge


@dataclass(frozen=True, slots=True)
class Tile:
    """One kind of coloured hex: where it lies (axial q, r), what it is for,
    and whether its corner triangles are yellow (closed to defenders)."""

    colour: HexColour
    coords: tuple[tuple[int, int], ...]
    role: str
    yellow_corners: bool


TILES = (
    Tile(HexColour.RED, ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
         "the centre ring: the six neutral resources start here", True),
    Tile(HexColour.GREEN, ((-3, 2), (-1, 2), (1, 2), (-4, 3), (-2, 3), (0, 3)),
         "Amethyst's half of the greens: captured resources are placed here", False),
    Tile(HexColour.GREEN, ((3, -2), (1, -2), (-1, -2), (4, -3), (2, -3), (0, -3)),
         "Amber's half of the greens", False),
    Tile(HexColour.AMETHYST_ENTRY, ((-3, 4), (-2, 4), (-1, 4)), "Amethyst's attackers enter here", True),
    Tile(HexColour.AMBER_ENTRY, ((3, -4), (2, -4), (1, -4)), "Amber's attackers enter here", True),
)  # fmt: skip


class Board:
    """Colours, bitboards and frame tables of the game board."""

    def __init__(self) -> None:
        geo = trihex_board(RADIUS)
        self.geo = geo
        self.hex_qr = [tuple(c) for c in geo.hexes.coords.tolist()]
        self._colour_tiles()
        self.black_bits = geo.tri_bits(self.black)
        self._check_sideways_steps()
        self._attacker_tables()
        self.rot_action = [rotated(a) for a in range(NUM_ACTIONS)]
        self.rot_action_np = np.array(self.rot_action, dtype=np.int64)
        self.names = [self._name(a) for a in range(NUM_ACTIONS)]
        self.name_to_action = {n.lower(): a for a, n in enumerate(self.names)}
        self._brick_tables()

    def _colour_tiles(self) -> None:
        """Hex colours from TILES; yellow triangles are the corners of red and blue hexes."""
        index = self.geo.hexes.index
        colour = [HexColour.PLAIN] * NUM_HEXES
        yellow: set[int] = set()
        for tile in TILES:
            for qr in tile.coords:
                colour[index[qr]] = tile.colour
                if tile.yellow_corners:
                    yellow.update(int(t) for t in self.geo.hex_corner_tri[index[qr]] if t >= 0)
        self.hex_colour = colour
        self.red = [h for h in range(NUM_HEXES) if colour[h] == HexColour.RED]
        self.green_half = tuple(
            sorted(index[qr] for qr in tile.coords) for tile in TILES if tile.colour == HexColour.GREEN
        )
        self.green = sorted(self.green_half[0] + self.green_half[1])
        entries = (HexColour.AMETHYST_ENTRY, HexColour.AMBER_ENTRY)
        self.blue = tuple([h for h in range(NUM_HEXES) if colour[h] == entry] for entry in entries)
        self.yellow = sorted(yellow)
        self.black = [t for t in range(NUM_TRIANGLES) if t not in yellow]
        self.is_black = [t not in yellow for t in range(NUM_TRIANGLES)]

    def _check_sideways_steps(self) -> None:
        """The rules' flood fills step sideways without the edge_right mask:
        restricted to triangles, the unmasked step must equal the real one."""
        geo = self.geo
        tri_all = geo.tri_bits(range(NUM_TRIANGLES))
        down, two_rows = geo.edge_down, 2 * geo.width
        for t in range(NUM_TRIANGLES):
            b = geo.bit_tri[t]
            step = (b << 1) | (b >> 1) | ((b & down) << two_rows) | ((b >> two_rows) & down)
            if step & tri_all != geo.spread(b):
                raise RuntimeError("trihex brick grid: sideways neighbours are not all adjacent")

    def _attacker_tables(self) -> None:
        geo = self.geo
        # attacker steps: per hex, (direction, neighbour, gate bitboard) on the board
        self.steps = []
        for h in range(NUM_HEXES):
            row = []
            for d in range(NUM_DIRECTIONS):
                n = int(geo.hexes.neighbors[h, d])
                if n >= 0:
                    t1, t2 = (int(x) for x in geo.gate[h, d])
                    row.append((d, n, geo.bit_tri[t1] | geo.bit_tri[t2]))
            self.steps.append(tuple(row))
        # per hex: neighbour hexes and own corner triangles, as bitboards
        self.neighbor_bits = [sum(geo.bit_hex[n] for _d, n, _g in self.steps[h]) for h in range(NUM_HEXES)]
        self.corner_bits = [
            geo.tri_bits(int(t) for t in geo.hex_corner_tri[h] if t >= 0) for h in range(NUM_HEXES)
        ]
        # nearest available resource: green hexes ordered by (distance from
        # the capture hex, index in the captor's frame)
        dist = geo.hexes.distance
        self.nearest_order = tuple(
            [
                sorted(
                    self.green,
                    key=lambda green_hex, capture_hex=n, seat=seat: (
                        int(dist[capture_hex, green_hex]),
                        green_hex if seat == 0 else NUM_HEXES - 1 - green_hex,
                    ),
                )
                for n in range(NUM_HEXES)
            ]
            for seat in (0, 1)
        )

    def _brick_tables(self) -> None:
        geo = self.geo
        w = geo.width
        self.hex_brick = [y * w + x for x, y in geo.hex_xy]
        self.tri_brick = [y * w + x for x, y in geo.tri_xy]
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
        for t in range(NUM_TRIANGLES):
            self.tri_nbr_bits[self.tri_brick[t]] = geo.tri_bits(geo.tri_neighbors[t])

    def _name(self, action: int) -> str:
        """The action's name from its kind's label."""
        kind, target = KIND_OF_ACTION[action], TARGET_OF_ACTION[action]
        if kind.target is Target.TRIANGLE:
            x, y = self.geo.tri_xy[target]
            return kind.label.format(x=x, y=y)
        if kind.target is Target.HEX:
            q, r = self.hex_qr[target]
            return kind.label.format(q=q, r=r)
        if kind.target is Target.HEX_STEP:
            q, r = self.hex_qr[target[0]]
            return kind.label.format(q=q, r=r, direction=DIRECTION_NAMES[target[1]])
        return kind.label


class FrameTables:
    """Action indices in one frame (0 absolute, 1 turned), keyed by what the
    rules iterate over, so that legal moves are written straight into the
    mask without converting frames:

    - ``by_brick[block]``: per brick bit position, the action of a triangle
      kind on that triangle;
    - ``attacker_entries[p]`` / ``resource_places[p]``: (hex, action) for seat p's blue
      entry hexes / the greens seat p may place a resource on;
    - ``steps[h]``: (action, neighbour hex, gate bitboard) per attacker step;
    - ``first_step[h]``: the first of hex h's six step actions, which are
      consecutive in both frames.
    """

    def __init__(self, bd: Board, frame: int, green_for) -> None:
        rot = bd.rot_action if frame else list(range(NUM_ACTIONS))
        self.by_brick = {}
        for kind in KINDS:
            if kind.target is Target.TRIANGLE:
                row = [-1] * bd.brick_cells
                for t in range(NUM_TRIANGLES):
                    row[bd.tri_brick[t]] = rot[kind.block + t]
                self.by_brick[kind.block] = row
        attacker, resource, step = ActionBlock.PLACE_ATTACKER, ActionBlock.PLACE_RESOURCE, ActionBlock.STEP
        self.attacker_entries = tuple(tuple((h, rot[attacker + h]) for h in bd.blue[p]) for p in (0, 1))
        self.resource_places = tuple(tuple((h, rot[resource + h]) for h in green_for[p]) for p in (0, 1))
        self.steps = tuple(
            tuple((rot[step + NUM_DIRECTIONS * h + d], n, gate) for d, n, gate in bd.steps[h])
            for h in range(NUM_HEXES)
        )
        self.first_step = [
            min(rot[step + NUM_DIRECTIONS * h + d] for d in range(NUM_DIRECTIONS)) for h in range(NUM_HEXES)
        ]


@cache
def board() -> Board:
    return Board()
