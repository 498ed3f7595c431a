"""The action kinds of Amethyst and Amber, each declared once.

The flat action space is eight consecutive blocks, one per kind. A kind's
record says where its block lies, what its actions target (a triangle, a
hex, a hex and a direction, or nothing), in which sub-steps it is offered,
which State methods give its legal targets and play it, and how its actions
are named. The mask, ``apply``, the names and ``encode``/``decode`` all read
these records, so adding or changing a kind touches one place.

Everything here is in the absolute frame (Amethyst's); ``Board.rot_action``
turns an action into Amber's frame and back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

NUM_TRIANGLES = 120
NUM_HEXES = 61
NUM_DIRECTIONS = 6


class Phase(IntEnum):
    PLACEMENT = 0
    MAIN = 1


class Substep(IntEnum):
    """Where a main turn stands (placement turns stay at TURN_START)."""

    TURN_START = 0
    CHOOSE_DESTINATION = 1
    CONTINUE = 2


PHASE_NAMES = ("placement", "main")  # as positions spell them
SUBSTEP_NAMES = ("turn_start", "choose_dest", "continue")


class ActionBlock(IntEnum):
    """First action index of each kind's block."""

    PLACE_DEFENDER = 0
    SELECT = 120
    DESTINATION = 240
    PLACE_ATTACKER = 360
    PLACE_RESOURCE = 421
    STEP = 482
    END_DEFENDER_MOVES = 848
    PASS = 849


NUM_ACTIONS = 850


class Target(IntEnum):
    """What one action of a kind is about."""

    TRIANGLE = 0  # argument: triangle index
    HEX = 1  # argument: hex index
    HEX_STEP = 2  # argument: (hex, direction)
    NONE = 3  # argument: None


TARGET_SIZE = {
    Target.TRIANGLE: NUM_TRIANGLES,
    Target.HEX: NUM_HEXES,
    Target.HEX_STEP: NUM_HEXES * NUM_DIRECTIONS,
    Target.NONE: 1,
}

# the situations a kind may be offered in (State.phase_name spells them so)
PLACEMENT_TURN = "placement"
TURN_START = "turn_start"
CHOOSE_DESTINATION = "choose_dest"
CONTINUE = "continue"


@dataclass(frozen=True, slots=True)
class ActionKind:
    """One kind of action.

    ``legal`` names the State method that gives the kind's legal targets now:
    for triangle kinds it returns a bitboard of triangles, for the others it
    sets their bytes in the mask buffer and says whether it set any.
    ``effect`` names the State method that plays one action, called with the
    acting seat and the action's target. ``forced``: when the kind has a
    legal action, nothing else is offered. ``label`` is the name template
    (fields ``x, y`` of a triangle, ``q, r`` of a hex, ``direction``)."""

    name: str
    block: ActionBlock
    target: Target
    offered_in: tuple[str, ...]
    legal: str
    effect: str
    label: str
    forced: bool = False

    @property
    def size(self) -> int:
        return TARGET_SIZE[self.target]


PLACE_DEFENDER = ActionKind(
    "place_defender", ActionBlock.PLACE_DEFENDER, Target.TRIANGLE, (PLACEMENT_TURN,),
    "_placeable_bits", "_place_defender", "place defender {x},{y}",
)  # fmt: skip
SELECT = ActionKind(
    "select", ActionBlock.SELECT, Target.TRIANGLE, (TURN_START, CONTINUE),
    "_selectable_bits", "_select", "select {x},{y}",
)  # fmt: skip
DESTINATION = ActionKind(
    "dest", ActionBlock.DESTINATION, Target.TRIANGLE, (CHOOSE_DESTINATION,),
    "_destination_bits", "_move_selected", "move to {x},{y}",
)  # fmt: skip
PLACE_ATTACKER = ActionKind(
    "place_attacker", ActionBlock.PLACE_ATTACKER, Target.HEX, (TURN_START,),
    "_legal_attacker_placements", "_place_attacker", "place attacker {q},{r}",
)  # fmt: skip
PLACE_RESOURCE = ActionKind(
    "place_resource", ActionBlock.PLACE_RESOURCE, Target.HEX, (TURN_START,),
    "_legal_resource_placements", "_place_resource", "place resource {q},{r}", forced=True,
)  # fmt: skip
STEP = ActionKind(
    "step", ActionBlock.STEP, Target.HEX_STEP, (TURN_START,),
    "_legal_steps", "_step", "step {q},{r} {direction}",
)  # fmt: skip
END_DEFENDER_MOVES = ActionKind(
    "end", ActionBlock.END_DEFENDER_MOVES, Target.NONE, (CONTINUE,),
    "_legal_end", "_end_defender_moves", "end defender moves",
)  # fmt: skip
PASS = ActionKind(
    "pass", ActionBlock.PASS, Target.NONE, (),  # offered wherever nothing else is legal
    "", "_pass", "pass",
)  # fmt: skip

KINDS = (PLACE_DEFENDER, SELECT, DESTINATION, PLACE_ATTACKER, PLACE_RESOURCE, STEP, END_DEFENDER_MOVES, PASS)
KIND_BY_NAME = {kind.name: kind for kind in KINDS}


def offered(situation: str) -> tuple[ActionKind, ...]:
    """The kinds offered in ``situation``, forced kinds first (pass, the
    fallback when none has a legal action, not included)."""
    found = [kind for kind in KINDS if situation in kind.offered_in]
    return tuple(sorted(found, key=lambda kind: not kind.forced))


def _target_of(kind: ActionKind, offset: int):
    if kind.target is Target.HEX_STEP:
        return divmod(offset, NUM_DIRECTIONS)
    return None if kind.target is Target.NONE else offset


# per action index: its kind and its target (the argument of the kind's effect)
KIND_OF_ACTION: tuple[ActionKind, ...] = tuple(kind for kind in KINDS for _ in range(kind.size))
TARGET_OF_ACTION: tuple = tuple(_target_of(kind, offset) for kind in KINDS for offset in range(kind.size))
if len(KIND_OF_ACTION) != NUM_ACTIONS or any(
    KIND_OF_ACTION[kind.block] is not kind or TARGET_OF_ACTION[kind.block] not in (0, (0, 0), None)
    for kind in KINDS
):
    raise RuntimeError("amethyst_amber: the action blocks do not tile the action space")


def rotated(action: int) -> int:
    """The same action in the other frame (the board turned 180 degrees): an involution."""
    kind = KIND_OF_ACTION[action]
    target = TARGET_OF_ACTION[action]
    if kind.target is Target.TRIANGLE:
        return kind.block + NUM_TRIANGLES - 1 - target
    if kind.target is Target.HEX:
        return kind.block + NUM_HEXES - 1 - target
    if kind.target is Target.HEX_STEP:
        hex_index, direction = target
        return kind.block + NUM_DIRECTIONS * (NUM_HEXES - 1 - hex_index) + (direction + 3) % NUM_DIRECTIONS
    return action
