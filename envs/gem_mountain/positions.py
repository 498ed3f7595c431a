"""Checks for Gem Mountain positions handed in from outside (``state_from_dict``).

The ``from_json`` converters check each entry's type, length and range as it
is read; :func:`check_position` then checks the rules that tie entries
together: no tile or shard more often than the game has it (the map, the
unused pool, the seats' collections and secret tiles), the map's face and
peek marks, the arrows, the end flags, and a turn step that fits the
pending decision. Every state reached by play passes them; a position that
fails raises a ValueError naming the entry and the rule.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.positions import PositionError, as_integer, as_list, check_conservation, require
from meeplezoo.envs.core.state import integer_index
from meeplezoo.envs.gem_mountain.action_tiles import ACTION_TILES
from meeplezoo.envs.gem_mountain.decisions import NOTHING, GrabKind, Phase, Window
from meeplezoo.envs.gem_mountain.tiles import (
    CONTENT_NAMES,
    DESIGN_NAMES,
    NUM_CONTENTS,
    NUM_DESIGNS,
    NUM_GEMS,
    SHARDS,
    ActionKind,
)

NAME = "gem_mountain_v0"
# the action tiles whose sub-steps act on a chosen arrow or a chosen target
ARROW_SECOND_STEP = (ActionKind.GUST, ActionKind.COMPASS)
CELL_TARGET = (ActionKind.TURN_STONE,)
SEAT_TARGET = (ActionKind.THIEF, ActionKind.GIFT)
GRAB_TILES = {
    ActionKind.PICKAXE: GrabKind.EXTRA,
    ActionKind.GREED: GrabKind.EXTRA,
    ActionKind.TUNNEL: GrabKind.TUNNEL,
}
MOST_SUB_STEPS = max(len(tile.sub_steps) for tile in ACTION_TILES)


# ------------------------------------------------------------------ converters
def design_list(length=None):
    """A ``from_json`` for tile names (``null``: an empty cell, with ``length``
    given), stored as design ids (-1 for empty). Design ids are read too."""

    def convert(value: Any, game: Any) -> list[int]:
        size = None if length is None else length(game)
        designs = []
        for i, entry in enumerate(as_list(value, size)):
            if entry is None and size is not None:
                designs.append(-1)
            elif isinstance(entry, str) and entry in DESIGN_NAMES:
                designs.append(DESIGN_NAMES.index(entry))
            elif integer_index(entry) is not None:
                designs.append(as_integer(entry, 0, NUM_DESIGNS - 1, f"entry {i}"))
            else:
                empty = " (or null for an empty cell)" if size is not None else ""
                raise PositionError(f"entry {i} must be a tile name{empty}, got {entry!r}")
        return designs

    return convert


def num_cells(game: Any) -> int:
    return game.num_cells


def most_of_a_content(game: Any) -> int:
    return max(game.content_limits)


def most_tiles(game: Any) -> int:
    return sum(game.content_limits)


def all_peeks(game: Any) -> int:
    return (1 << game.num_players) - 1


def highest_target(game: Any) -> int:
    return max(game.num_cells, game.num_players) - 1


# ------------------------------------------------------------------ the rules
def fail(message: str) -> None:
    raise PositionError(f"{NAME}: {message}")


def check(condition: bool, message: str) -> None:
    require(condition, f"{NAME}: {message}")


def check_position(state: Any) -> None:
    """Every rule a position reached by play keeps (see the module docstring)."""
    _check_map(state)
    _check_tiles(state)
    _check_arrows(state)
    _check_ending(state)
    if not (state.over or state.cut_short):
        _check_turn_step(state)


def _check_map(state: Any) -> None:
    game = state.game
    for i, (design, up, peek) in enumerate(zip(state.cells, state.face_up, state.peeks, strict=True)):
        if design < 0:
            check(up and not peek, f"cell {i} is empty, so 'face_up' must be true and 'peeks' 0 there")
        elif up:
            check(not peek, f"cell {i} is face up, so its 'peeks' entry must be 0 (got {peek})")
        else:
            check(game.dark_tunnels, f"cell {i} is face down, which needs the dark_tunnels module")


def _check_tiles(state: Any) -> None:
    """No tile and no shard more often than the game has it."""
    game = state.game
    may_hold_secret = game.secret_start_tiles or game.fixed_holdings is not None
    for p, secret in enumerate(state.secret_tiles):
        if secret < 0:
            continue
        check(may_hold_secret, f"'secret_tiles' seat {p} holds a secret tile, but this game deals none")
        if game.config["start_tiles"] == "action_secret" and game.fixed_holdings is None:
            check(
                secret >= NUM_GEMS,
                f"'secret_tiles' seat {p} must be an action tile, got {CONTENT_NAMES[secret]}",
            )
    on_map = [d for d in state.cells if d >= 0]
    # a start tile from beyond the pool may change places with a hidden one (a
    # determinized position), so the plain tiles the game adds count as tiles too
    extra = [
        c
        for c, k in enumerate(game.content_limits[: NUM_CONTENTS - 1])
        for _ in range(k - game.pool_counts[c])
    ]
    check_conservation(
        {"cells": [DESIGN_NAMES[d] for d in on_map], "unused": [DESIGN_NAMES[d] for d in state.unused]},
        [DESIGN_NAMES[d] for d in game.pool + extra],
        f"{NAME}: tile",
        complete=False,
    )
    zones: dict[str, list[str]] = {
        "cells": [CONTENT_NAMES[c] for d in on_map for c in SHARDS[d]],
        "unused": [CONTENT_NAMES[c] for d in state.unused for c in SHARDS[d]],
    }
    for p in range(game.num_players):
        held = state.gems[p] + state.action_tiles[p]
        zones[f"gems/action_tiles of seat {p}"] = [
            CONTENT_NAMES[c] for c, k in enumerate(held) for _ in range(k)
        ]
        if state.secret_tiles[p] >= 0:
            zones[f"secret_tiles of seat {p}"] = [CONTENT_NAMES[state.secret_tiles[p]]]
    expected = [CONTENT_NAMES[c] for c, k in enumerate(game.content_limits) for _ in range(k)]
    check_conservation(zones, expected, f"{NAME}: gem or action tile", complete=False)
    face_up_shards = [0] * NUM_CONTENTS
    for design, up in zip(state.cells, state.face_up, strict=True):
        if design >= 0 and up:
            for c in SHARDS[design]:
                face_up_shards[c] += 1
    for c, (seen, shown) in enumerate(zip(state.seen, face_up_shards, strict=True)):
        check(
            seen >= shown,
            f"'seen' entry {c} ({CONTENT_NAMES[c]}) is {seen}, fewer than the {shown} face up on the map",
        )


def _check_arrows(state: Any) -> None:
    game = state.game
    arrows = 2 if game.two_arrows else 1
    may_be_unplaced = game.start_player_chooses_arrow and game.fixed_arrows is None and state.turn == 0
    allowed = (0, arrows) if may_be_unplaced else (arrows,)
    check(len(state.arrows) in allowed, f"'arrows' must have {arrows} entries, got {len(state.arrows)}")
    running = not (state.over or state.cut_short)
    if running:
        check(
            (state.phase == Phase.START) == (not state.arrows),
            "'phase' must be START exactly when no arrow is placed yet",
        )
    check(
        state.chosen_arrow < len(state.arrows),
        f"'chosen_arrow' {state.chosen_arrow} is not one of the {len(state.arrows)} arrows",
    )


def _check_ending(state: Any) -> None:
    game = state.game
    # the last gem tile's shard may still be chosen (phase SECTION) before the game is over
    choosing = not (state.over or state.cut_short) and state.phase == Phase.SECTION
    check(
        state.over == (state.gem_tiles_left == 0) or choosing,
        f"'over' must be true exactly when no gem tile is left on the map ({state.gem_tiles_left} left)",
    )
    check(
        state.cut_short == (state.turn == game.max_turns),
        f"'cut_short' must be true exactly when 'turn' reaches max_turns {game.max_turns}",
    )
    check(not (state.over and state.cut_short), "'over' and 'cut_short' cannot both be true")


def _check_turn_step(state: Any) -> None:
    """The phase, window, tile being resolved and its sub-step fit together."""
    game = state.game
    phase, window, resolving = state.phase, state.window, state.resolving
    phase_name = Phase(phase).name
    held = state.action_tiles[state.player]
    for kind, taken in enumerate(state.taken_this_window):
        check(
            taken <= held[kind],
            f"'taken_this_window' entry {kind} is {taken}, more than seat {state.player} holds ({held[kind]})",
        )
    if game.action_limit == 0:  # per_window
        check(state.uses_this_window <= 1, "'uses_this_window' must be 0 or 1 with action_limit per_window")
    if window == Window.PRE:
        check(not state.used_after, "'used_after' cannot be true before the grab (window PRE)")
    check(not state.prism_active or state.prism_used, "'prism_active' needs 'prism_used'")
    check(
        (phase == Phase.SECTION) == (state.section_choices != 0),
        f"'section_choices' must be non-zero exactly in phase SECTION (phase {phase_name})",
    )
    if resolving == NOTHING:
        _check_no_tile_resolving(state, phase_name)
    else:
        _check_tile_resolving(state, phase_name)
    if phase == Phase.START:
        check(state.turn == 0 and state.player == 0, "phase START is seat 0's choice before the first turn")
    if phase == Phase.INFO:
        check(game.dark_tunnels, "phase INFO needs the dark_tunnels module")
        check(state.face_down_left > 0, "phase INFO needs a face-down tile on the map")


def _check_no_tile_resolving(state: Any, phase_name: str) -> None:
    phase, window = state.phase, state.window
    wanted = {Phase.PRE: Window.PRE, Phase.POST: Window.POST}.get(phase, Window.NONE)
    check(phase != Phase.SUB_STEP, "phase SUB-STEP needs an action tile being resolved ('resolving')")
    check(window == wanted, f"'window' must be {wanted.name} in phase {phase_name}, got {window}")
    check(state.sub_step == 0, "'sub_step' must be 0 while no action tile is resolved")
    check(state.chosen_arrow == NOTHING, "'chosen_arrow' must be -1 while no action tile is resolved")
    check(state.target == NOTHING, "'target' must be -1 while no action tile is resolved")
    check(state.lantern_peeks_left == 0, "'lantern_peeks_left' must be 0 while no Lantern is resolved")
    check(state.grabs_owed == 0, "'grabs_owed' must be 0 while no Greed is resolved")
    if phase in (Phase.GRAB, Phase.SECTION):
        check(
            state.grab_kind == GrabKind.MAIN, f"the turn's own grab must be 'grab_kind' MAIN in {phase_name}"
        )


def _check_tile_resolving(state: Any, phase_name: str) -> None:
    game = state.game
    phase, kind, sub_step = state.phase, ActionKind(state.resolving), state.sub_step
    tile = ACTION_TILES[kind]
    check(
        state.window in (Window.PRE, Window.POST),
        f"'resolving' {tile.name} needs an open action window, 'window' is {state.window}",
    )
    if phase in (Phase.GRAB, Phase.SECTION):
        check(
            kind in GRAB_TILES, f"{tile.name} does not grab, so it cannot be resolved in phase {phase_name}"
        )
        wanted = GRAB_TILES[kind]
        check(state.grab_kind == wanted, f"{tile.name} grabs with 'grab_kind' {wanted.name}")
    elif phase == Phase.SUB_STEP:
        check(tile.sub_steps != (), f"{tile.name} asks nothing, so it cannot be resolved in phase SUB-STEP")
    else:
        fail(f"an action tile ('resolving' {tile.name}) cannot be resolved in phase {phase_name}")
    last_step = max(len(tile.sub_steps) - 1, 0)
    check(sub_step <= last_step, f"'sub_step' of {tile.name} must be from 0 to {last_step}, got {sub_step}")
    check(
        state.grabs_owed == 0 or kind == ActionKind.GREED, "'grabs_owed' must be 0 unless Greed is resolved"
    )
    lantern = phase == Phase.SUB_STEP and kind == ActionKind.LANTERN
    if lantern:
        check(state.lantern_peeks_left >= 1, "'lantern_peeks_left' must be 1 or 2 while a Lantern peeks")
    else:
        check(state.lantern_peeks_left == 0, "'lantern_peeks_left' must be 0 while no Lantern is resolved")
    asks_second = phase == Phase.SUB_STEP and sub_step == 1
    if asks_second and kind in ARROW_SECOND_STEP:
        check(state.chosen_arrow >= 0, f"{tile.name}'s second sub-step needs a 'chosen_arrow'")
    else:
        check(state.chosen_arrow == NOTHING, f"'chosen_arrow' must be -1 at this step of {tile.name}")
    if asks_second and kind in CELL_TARGET:
        target = state.target
        check(
            0 <= target < game.num_cells and state.cells[target] >= 0,
            f"'target' of {tile.name} must be a cell holding a tile, got {target}",
        )
    elif asks_second and kind in SEAT_TARGET:
        target = state.target
        check(
            0 <= target < game.num_players and target != state.player,
            f"'target' of {tile.name} must be another seat, got {target}",
        )
    else:
        check(state.target == NOTHING, f"'target' must be -1 at this step of {tile.name}")


def content_limits(game: Any) -> list[int]:
    """Per content: the most shards of it a game of this config can hold
    (the pool as built, a start tile per seat, the holdings override)."""
    limits = list(game.pool_counts)
    start_tiles = game.config["start_tiles"]
    if start_tiles != "none":
        # every content but the reserved one is a plain tile whose design id is its content id
        for c in range(NUM_CONTENTS - 1):
            if start_tiles.startswith("any") or c >= NUM_GEMS:
                limits[c] += game.num_players
    if game.fixed_holdings is not None:
        for gems, actions, secret in game.fixed_holdings:
            for c, k in enumerate(gems + actions):
                limits[c] += k
            if secret >= 0:
                limits[secret] += 1
    return limits
