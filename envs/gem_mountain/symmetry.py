"""Quarter turns of the mountain as index maps on observations and actions.

Turning the whole map a quarter turn clockwise, its arrows and every tile
with it, gives a position that plays exactly as the first: every rule is
stated in distances from the arrows, arrows move clockwise, and a tile's
sections turn with it. A square map has three such turns, any other map
only the half turn. Reflections are not symmetries: arrows always move
clockwise. (See :mod:`meeplezoo.envs.core.symmetry` for what the maps mean.)
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.symmetry import Symmetry
from meeplezoo.envs.gem_mountain.decisions import ARROWS, POSITIONS, SECTIONS, STEPS_PER_QUARTER_TURN
from meeplezoo.envs.gem_mountain.observe import ARROW_SLOTS, CONTENT_SLOTS, GLOBAL, P_SECTIONS, PLANES


def turned_cells(geometry, quarter_turns: int) -> list[int] | None:
    """Where each cell goes when the map turns ``quarter_turns`` quarter
    turns clockwise (its distance from every arrow position moves with the
    arrows), or None when the map's shape does not allow that turn."""
    shift = STEPS_PER_QUARTER_TURN * quarter_turns
    by_distances = {}
    for cell in range(geometry.num_cells):
        key = tuple(geometry.distances[p][cell] for p in range(POSITIONS))
        by_distances[key] = cell
    destinations = []
    for cell in range(geometry.num_cells):
        # the turned cell is seen from position p + shift as this one is from p
        key = tuple(geometry.distances[(p - shift) % POSITIONS][cell] for p in range(POSITIONS))
        if key not in by_distances:
            return None
        destinations.append(by_distances[key])
    return destinations


def quarter_turn_symmetries(game) -> tuple[Symmetry, ...]:
    """The map's turns other than the identity, as gather maps."""
    symmetries = []
    for quarter_turns in (1, 2, 3):
        destinations = turned_cells(game.geometry, quarter_turns)
        if destinations is not None:
            symmetries.append(
                Symmetry(
                    f"{90 * quarter_turns} degrees",
                    observation_gather(game, destinations, quarter_turns),
                    action_gather(game, destinations, quarter_turns),
                )
            )
    return tuple(symmetries)


def observation_gather(game, destinations: list[int], quarter_turns: int) -> np.ndarray:
    """turned[j] = observation[index[j]]: cells move, section planes and
    arrow positions turn, everything else stays."""
    cells = game.num_cells
    plane_of = np.arange(PLANES)
    for section in range(SECTIONS):
        source = (section - quarter_turns) % SECTIONS
        for content in range(CONTENT_SLOTS):
            plane_of[P_SECTIONS + CONTENT_SLOTS * section + content] = (
                P_SECTIONS + CONTENT_SLOTS * source + content
            )
    index = np.arange(PLANES * cells + GLOBAL)
    for plane in range(PLANES):
        for cell, destination in enumerate(destinations):
            index[plane * cells + destination] = plane_of[plane] * cells + cell
    board = PLANES * cells
    for arrow in range(ARROWS):
        first = board + ARROW_SLOTS * arrow + 1
        for position in range(POSITIONS):
            index[first + (position + STEPS_PER_QUARTER_TURN * quarter_turns) % POSITIONS] = first + position
    return index


def action_gather(game, destinations: list[int], quarter_turns: int) -> np.ndarray:
    """turned_mask[a] = mask[index[a]]: cell actions move with their cells,
    section and position choices turn, the rest stay."""
    blocks = game.blocks
    index = np.arange(blocks.size)
    for cell, destination in enumerate(destinations):
        index[destination] = cell
    for section in range(SECTIONS):
        index[blocks.section + (section + quarter_turns) % SECTIONS] = blocks.section + section
    for position in range(POSITIONS):
        index[blocks.position + (position + STEPS_PER_QUARTER_TURN * quarter_turns) % POSITIONS] = (
            blocks.position + position
        )
    return index
