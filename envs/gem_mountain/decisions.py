"""The decisions of a Gem Mountain turn: phases, grab kinds and the action blocks.

The action space is flat (one ``Discrete``), cut into named blocks: a grab
or a cell choice, a section, a USE of an action tile, and the small
parameter blocks that sub-steps ask for. The offsets depend only on the map
size, so they are built once per game (:class:`ActionBlocks`) and read by
the mask, apply and the action names alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from meeplezoo.envs.gem_mountain.tiles import NUM_ACTION_TYPES, NUM_GEMS


class Phase(IntEnum):
    """What the player to move is asked (the observation's one-hot order)."""

    PRE = 0  # the action window before the grab
    GRAB = 1  # take a tile (a normal, extra or Tunnel grab)
    SECTION = 2  # choose which shard of a split tile to keep
    POST = 3  # the action window after the grab
    INFO = 4  # Dark Tunnels: peek at or flip a face-down tile
    SUB_STEP = 5  # a parameter of the action tile being resolved
    START = 6  # seat 0 picks the starting corner (variant)


PHASE_NAMES = ("PRE", "GRAB", "SECTION", "POST", "INFO", "SUB-STEP", "START")


class GrabKind(IntEnum):
    """Which grab the GRAB phase asks for."""

    MAIN = 0  # the turn's compulsory grab (the POST window follows)
    EXTRA = 1  # Pickaxe or Greed: one more tile from the top
    TUNNEL = 2  # Tunnel: a tile from a second layer


class Window(IntEnum):
    """The open action window (NONE outside PRE and POST)."""

    NONE = -1
    PRE = 0
    POST = 1


# block sizes beyond the cells
SECTIONS = 4
ARROWS = 2  # at most two arrows (the second_arrow module)
POSITIONS = 8  # arrow positions N, NE, ..., NW
STEPS_PER_QUARTER_TURN = POSITIONS // 4  # arrow positions a quarter turn moves by
DIRECTIONS = 2  # clockwise, counter-clockwise
OPPONENTS = 4  # at most five seats: the opponent 1..4 seats later
CORNERS = (0, 2, 4, 6)  # the positions a game may start from
NOTHING = -1  # no action tile, arrow or target chosen


@dataclass(frozen=True, slots=True)
class ActionBlocks:
    """First action id of each block for a map of ``cells`` cells (cell i is
    action i)."""

    cells: int
    section: int
    use: int
    arrow: int
    position: int
    clockwise: int
    counter_clockwise: int
    opponent: int
    gem: int
    done: int
    pass_turn: int
    size: int

    @classmethod
    def for_cells(cls, cells: int) -> ActionBlocks:
        section = cells
        use = section + SECTIONS
        arrow = use + NUM_ACTION_TYPES
        position = arrow + ARROWS
        clockwise = position + POSITIONS
        opponent = clockwise + DIRECTIONS
        gem = opponent + OPPONENTS
        done = gem + NUM_GEMS
        return cls(
            cells=cells,
            section=section,
            use=use,
            arrow=arrow,
            position=position,
            clockwise=clockwise,
            counter_clockwise=clockwise + 1,
            opponent=opponent,
            gem=gem,
            done=done,
            pass_turn=done + 1,
            size=done + 2,
        )

    @property
    def extra(self) -> int:
        """How many actions follow the cell block."""
        return self.size - self.cells
