"""The pieces of Gold Rush Gangs and the numbers the rules give them.

Three gangs of three thieves: unit ``u = GANG_SIZE * seat + slot`` (slot 0
the pro, 1 and 2 the amateurs A and B). A sack is counted by its origin (a
gang's own gold, a store's, the bank's). The state keeps these as plain ints
in flat lists, because a step is a handful of list operations and an enum
member costs a class lookup each time; the enums below name the values, and
the plain-int aliases next to them are what the hot paths compare against.
"""

from __future__ import annotations

from enum import IntEnum

from meeplezoo.envs.core.turns import next_seat

NUM_SEATS = 3
GANG_SIZE = 3  # thieves per gang: the pro and the amateurs A and B
NUM_UNITS = NUM_SEATS * GANG_SIZE
SEATS = tuple(range(NUM_SEATS))
SLOTS = tuple(range(GANG_SIZE))
NOWHERE = -1  # a unit not on the board yet, an empty cell, an empty hand


class Slot(IntEnum):
    """A thief's place in its gang (and in the action names: ``move A NE``)."""

    PRO = 0
    A = 1
    B = 2


PRO = int(Slot.PRO)
SLOT_NAMES = ("pro", "A", "B")
SLOT_CARDS = (2, 1, 1)  # cards a thief brings to a fight (and to a friend's)
DEPLOY_SACKS = (3, 2, 2)  # sacks of its gang's gold a thief is deployed with


class UnitStatus(IntEnum):
    """Where a thief is in its life: not deployed, on the board, or sent home."""

    UNDEPLOYED = 0
    ACTIVE = 1
    INCAPACITATED = 2


UNDEPLOYED, ACTIVE, INCAPACITATED = (int(status) for status in UnitStatus)
STATUS_NAMES = tuple(status.name.lower() for status in UnitStatus)


class Origin(IntEnum):
    """Whose gold a sack is: a gang's (by seat), a store's or the bank's."""

    SEAT_0 = 0
    SEAT_1 = 1
    SEAT_2 = 2
    STORE = 3
    BANK = 4


NUM_ORIGINS = len(Origin)
STORE, BANK = int(Origin.STORE), int(Origin.BANK)
ORIGIN_NAMES = ("p0", "p1", "p2", "store", "bank")


class Phase(IntEnum):
    """Setup steps (a store, then three thieves per seat) and the movement turns."""

    STORE = 0
    DEPLOY = 1
    MOVEMENT = 2


STORE_PHASE, DEPLOY_PHASE, MOVEMENT = (int(phase) for phase in Phase)
PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)

# The two other gangs of each seat, the next one first: the order a thief
# takes gold from a pile and the order a mover's fights are fought in.
OTHER_SEATS = tuple(
    (next_seat(seat, NUM_SEATS), next_seat(next_seat(seat, NUM_SEATS), NUM_SEATS)) for seat in SEATS
)
# Which sack a thief picks up from a pile: store gold, then the next gang's,
# then the previous gang's, then the bank's (never its own).
PICKUP_ORDER = tuple((STORE, *OTHER_SEATS[seat], BANK) for seat in SEATS)


def unit_id(seat: int, slot: int) -> int:
    return GANG_SIZE * seat + slot


def gang_units(seat: int) -> range:
    """The unit ids of a seat's gang, pro first."""
    return range(GANG_SIZE * seat, GANG_SIZE * seat + GANG_SIZE)


# Action points one step costs, STEP_COST[slot][carrying]: 2 for the pro or
# any carrier, 1 for an empty-handed amateur (a table: read on every mask).
STEP_COST = tuple((2, 2) if slot == PRO else (1, 2) for slot in Slot)


# The units of each seat's two enemy gangs, in the order a mover fights them.
ENEMY_UNITS = tuple(
    tuple(unit for other in OTHER_SEATS[seat] for unit in gang_units(other)) for seat in SEATS
)


def empty_pile() -> list[int]:
    """Sacks lying on one cell, counted by origin."""
    return [0] * NUM_ORIGINS
