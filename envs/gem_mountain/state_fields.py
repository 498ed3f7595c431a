"""Gem Mountain's state fields: how each attribute of a position is copied,
saved in the position dict and laid out for the compiled kernel.

``GemMountainState.fields`` is :data:`FIELDS`, and its compiled layout's
dimensions are :data:`LAYOUT_DIMS` (capacities that fit every configuration).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplezoo.envs.core.fields import Dim, Field, generator_field, saved
from meeplezoo.envs.core.positions import (
    flag_entry,
    flag_list,
    integer_entry,
    integer_list,
    integer_rows,
    seat_entry,
)
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.action_tiles import LANTERN_PEEKS
from meeplezoo.envs.gem_mountain.config import bound
from meeplezoo.envs.gem_mountain.decisions import (
    ARROWS,
    NOTHING,
    POSITIONS,
    SECTIONS,
    GrabKind,
    Phase,
    Window,
)
from meeplezoo.envs.gem_mountain.positions import (
    MOST_SUB_STEPS,
    all_peeks,
    design_list,
    highest_target,
    most_of_a_content,
    most_tiles,
    num_cells,
)
from meeplezoo.envs.gem_mountain.tiles import DESIGN_NAMES, NUM_ACTION_TYPES, NUM_GEMS


def _copied_list(value: list, _context: Any) -> list:
    return list(value)


def _copied_lists(value: list, _context: Any) -> list:
    return [list(row) for row in value]


def _design_names(designs: list[int], _state: Any) -> list[str | None]:
    return [None if d < 0 else DESIGN_NAMES[d] for d in designs]


def _list(name: str, from_json: Callable[[Any, Any], list], shape: tuple, **slot: Any) -> Field:
    return saved(name, "list", to_json=_copied_list, from_json=from_json, shape=shape, **slot)


def _lists(name: str, from_json: Callable[[Any, Any], list], shape: tuple) -> Field:
    return saved(name, "lists", to_json=_copied_lists, from_json=from_json, shape=shape)


def _designs(name: str, length: Callable[[Any], int] | None, dim: str) -> Field:
    """Tile names per cell (``length`` given: null for an empty cell) or of a pile."""
    return saved(
        name, "list", to_json=_design_names, from_json=design_list(length), shape=(dim,), fill=NOTHING
    )


def _flag(name: str) -> Field:
    return saved(name, from_json=flag_entry(), shape=(), kind="bool")


def _number(name: str, from_json: Callable[[Any, Any], int]) -> Field:
    return saved(name, from_json=from_json, shape=())


def seats(game: Any) -> int:
    return game.num_players


def _most_cells() -> int:
    return bound("map_rows") * bound("map_cols")


# the compiled layout's dimensions: capacities that fit every configuration
LAYOUT_DIMS: dict[str, Dim] = {
    "cells": Dim(_most_cells(), num_cells),
    "seats": Dim(bound("num_players"), seats),
    "arrows": Dim(ARROWS),
    "pile": Dim(len(tiles.module_pool(dict.fromkeys(tiles.MODULES, True)))),
    "layers": Dim(bound("map_rows") + bound("map_cols") - 1),
}

# the state's attributes (GemMountainState.fields), see meeplezoo.envs.core.fields
FIELDS: tuple[Field, ...] = (
    # the turn's scalars first: a kernel reads them on every step
    _number("player", seat_entry()),
    _number("turn", integer_entry(0, lambda game: game.max_turns)),
    _number("phase", integer_entry(0, len(Phase) - 1)),
    _number("window", integer_entry(Window.NONE, Window.POST)),
    # the action kind being resolved, or -1
    _number("resolving", integer_entry(NOTHING, NUM_ACTION_TYPES - 1)),
    _number("sub_step", integer_entry(0, MOST_SUB_STEPS - 1)),  # which of its sub-steps is asked
    _number("chosen_arrow", integer_entry(NOTHING, ARROWS - 1)),  # the arrow it acts on, or -1
    _number("grabs_owed", integer_entry(0, 1)),  # Greed: grabs still to come after this one
    _number("grab_kind", integer_entry(0, len(GrabKind) - 1)),
    _number("lantern_peeks_left", integer_entry(0, LANTERN_PEEKS)),
    # Turn Stone's cell, or Thief's and Gift's opponent, or -1
    _number("target", integer_entry(NOTHING, highest_target)),
    # SECTION: bit s set when section s may be chosen
    _number("section_choices", integer_entry(0, (1 << SECTIONS) - 1)),
    _flag("used_before"),  # an action tile used in this turn's PRE window
    _flag("used_after"),  # ... in its POST window
    _flag("anchored"),
    _flag("prism_used"),
    _flag("prism_active"),  # the next grab takes every section
    _number("uses_this_window", integer_entry(0, most_tiles)),
    _flag("over"),
    _flag("cut_short"),  # the turn limit was reached
    _list("arrows", integer_list(0, POSITIONS - 1), ("arrows",), fill=NOTHING),  # position 0..7 per arrow
    # SECTION: the content at each section of the grabbed tile
    _list("section_contents", integer_list(0, tiles.NUM_CONTENTS - 1, SECTIONS), (SECTIONS,)),
    # per action kind: tiles gained in the open window
    _list("taken_this_window", integer_list(0, most_of_a_content, NUM_ACTION_TYPES), (NUM_ACTION_TYPES,)),
    # per seat, per gem type
    _lists("gems", integer_rows(0, most_of_a_content, seats, NUM_GEMS), ("seats", NUM_GEMS)),
    # per seat, per action kind
    _lists(
        "action_tiles",
        integer_rows(0, most_of_a_content, seats, NUM_ACTION_TYPES),
        ("seats", NUM_ACTION_TYPES),
    ),
    # per seat: the secret start tile's content, or -1
    _list("secret_tiles", integer_list(NOTHING, tiles.NUM_CONTENTS - 1, seats), ("seats",)),
    # per content: shards every seat has seen
    _list("seen", integer_list(0, most_of_a_content, tiles.NUM_CONTENTS), (tiles.NUM_CONTENTS,)),
    generator_field(),
    _designs("cells", num_cells, "cells"),  # design per cell, -1 once taken
    _list("rotations", integer_list(0, 3, num_cells), ("cells",)),  # quarter turns per cell
    # per cell (always true without Dark Tunnels)
    _list("face_up", flag_list(num_cells), ("cells",), kind="bool"),
    # per cell: bit p set once seat p has looked at the face-down tile
    _list("peeks", integer_list(0, all_peeks, num_cells), ("cells",)),
    _designs("unused", None, "pile"),  # pool tiles not on the map
    # derived from the map (rebuilt by _recount after a load), copied by clone
    Field("gem_tiles_left", shape=()),
    Field("face_down_left", shape=()),
    # [arrow position][layer]: tiles left in that layer
    Field("layer_counts", "lists", shape=(POSITIONS, "layers")),
    Field("_usable_cache"),  # the kinds usable in the open window, or None
    Field("_mask", "reset"),
    # what the rules changed, in order, for readers that follow one state
    # move by move: map cells (tile, rotation, face, peeks) and seats
    # (gems, action tiles, secret tile). A clone or a loaded position
    # starts empty logs of its own.
    Field("changed_cells", "new_list"),
    Field("changed_seats", "new_list"),
)
