"""Amoeba's named records: phases, the action layout, placements, amoebas
and split plans (shared by the rules' modules and read by the observer)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple


class Phase(IntEnum):
    """The decision the mover faces (OVER once the game has ended)."""

    SELECT = 0  # choose a hand tile and its rotation
    ANCHOR = 1  # choose where the selected tile goes
    CLAIM = 2  # claim or decline the amoeba on offer
    OVER = -1


SELECT, ANCHOR, CLAIM, OVER = Phase.SELECT, Phase.ANCHOR, Phase.CLAIM, Phase.OVER
PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}

# The action space, block by block: hand slot x rotation, then one action per
# anchor, then claim and decline (the anchor block's size depends on the board).
HAND_SLOTS = 3
ROTATIONS = 4
FIRST_ANCHOR_ACTION = HAND_SLOTS * ROTATIONS


class ActionBlock(IntEnum):
    """The kinds of action, in the order of their blocks in the action space."""

    SELECT = 0
    ANCHOR = 1
    CLAIM = 2
    DECLINE = 3


class Placement(NamedTuple):
    """One tile laid on the table (immutable, so clones share it)."""

    anchor: int
    tile: int
    rotation: int
    level: int  # 1 ground, 2 top


class Amoeba(NamedTuple):
    """One amoeba: its pieces, how many of its pink ports are open, its owner
    (-1: none). Replaced on change, so clones share it."""

    members: tuple[int, ...]
    open_ports: int
    owner: int


# A record built on a hot path: ``record(Amoeba, (members, open_ports, owner))``
# is tuple.__new__ itself, with no Python-level __new__ (the NamedTuple's) in
# between; it builds the same record as ``Amoeba(members, open_ports, owner)``.
record = tuple.__new__


@dataclass(slots=True)
class SplitPlan:
    """A legal top placement worked out: the covered tile, the new amoebas
    (piece groups, open ports, owners) and what the split does to supplies."""

    ground_index: int
    oriented: int
    new_slots: list[tuple[int, ...]]
    old: list[int]
    groups: list[list[int]]
    opens: list[int]
    owners: list[int]
    keeper: int
    parts: list[int]
    merged: int
    merged_owner: int
    target_owner: int
