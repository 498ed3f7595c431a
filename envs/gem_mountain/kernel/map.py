"""The map in the row: layers seen from the arrows, and what takes, flips,
peeks at, turns or shuffles a tile (``GemMountainState``'s map section)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.gem_mountain.decisions import ARROWS, POSITIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S


@njit(inline="always")
def generator(state):
    """The state's PCG64 words (a uint64 view of the row)."""
    return state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)


@njit_borrowing
def arrow_count(state):
    """How many arrows stand on the board (none before the START choice)."""
    count = 0
    for j in range(ARROWS):
        if state[S.ARROWS_AT + j] >= 0:
            count += 1
    return count


@njit_borrowing
def distance(game, position, cell):
    """Layer index of ``cell`` seen from arrow ``position``."""
    return game[S.G_DISTANCES + position * S.MOST_CELLS + cell]


@njit_borrowing
def layer_size(game, position, layer):
    """Cells (taken or not) in ``layer`` seen from ``position``."""
    return game[S.G_LAYER_SIZES + position * S.MOST_LAYERS + layer]


@njit_borrowing
def layer_cell(game, position, layer, nth):
    """The ``nth`` cell (row-major) of ``layer`` seen from ``position``."""
    return game[S.G_LAYER_CELLS + (position * S.MOST_LAYERS + layer) * S.MOST_IN_A_LAYER + nth]


@njit_borrowing
def top_layer(state, game, position):
    """Index of the top layer of arrow position p (-1 on an empty map)."""
    for layer in range(game[S.G_DEPTH + position]):
        if state[S.LAYER_COUNTS + position * S.MOST_LAYERS + layer]:
            return layer
    return -1


@njit_borrowing
def second_layer(state, game, position):
    """Index of the layer under the top one from arrow position p, or -1."""
    found = False
    for layer in range(game[S.G_DEPTH + position]):
        if state[S.LAYER_COUNTS + position * S.MOST_LAYERS + layer]:
            if found:
                return layer
            found = True
    return -1


@njit_borrowing
def mark_layer(state, game, position, layer, mask):
    """Set ``mask`` at the occupied cells of ``layer`` from ``position`` (none for -1)."""
    if layer < 0:
        return
    for k in range(layer_size(game, position, layer)):
        cell = layer_cell(game, position, layer, k)
        if state[S.CELLS + cell] >= 0:
            mask[cell] = True


@njit_borrowing
def mark_grab_cells(state, game, tunnel, mask):
    """Cells a grab may take: the arrows' top layers (``available``), or their
    second layers for Tunnel (``tunnel_cells``)."""
    for j in range(arrow_count(state)):
        position = state[S.ARROWS_AT + j]
        layer = second_layer(state, game, position) if tunnel else top_layer(state, game, position)
        mark_layer(state, game, position, layer, mask)


@njit_borrowing
def is_face_down(state, cell):
    """An occupied cell whose tile lies face down."""
    return state[S.CELLS + cell] >= 0 and not state[S.FACE_UP + cell]


@njit_borrowing
def mark_face_down_cells(state, game, mask):
    """``face_down_cells``: every occupied face-down cell."""
    for cell in range(game[S.G_NUM_CELLS]):
        if is_face_down(state, cell):
            mask[cell] = True


@njit_borrowing
def mark_peek_cells(state, game, mask):
    """``peek_cells``: face-down cells the player has not looked at, or all if it knows every one."""
    bit = 1 << state[S.PLAYER]
    fresh = False
    for cell in range(game[S.G_NUM_CELLS]):
        if is_face_down(state, cell) and not state[S.PEEKS + cell] & bit:
            mask[cell] = True
            fresh = True
    if not fresh:
        mark_face_down_cells(state, game, mask)


@njit_borrowing
def see_shards(state, design):
    """Every seat has now seen the shards of ``design``."""
    for k in range(S.SHARD_COUNT[design]):
        state[S.SEEN + S.SHARD_TABLE[design, k]] += 1


@njit_borrowing
def remove(state, game, cell):
    """Take tile ``cell`` off the map (revealing it if face down)."""
    design = state[S.CELLS + cell]
    for position in range(POSITIONS):
        state[S.LAYER_COUNTS + position * S.MOST_LAYERS + distance(game, position, cell)] -= 1
    if S.HAS_GEM_TABLE[design]:
        state[S.GEM_TILES_LEFT] -= 1
    if not state[S.FACE_UP + cell]:
        state[S.FACE_DOWN_LEFT] -= 1
        see_shards(state, design)
    state[S.CELLS + cell] = -1
    state[S.FACE_UP + cell] = 1
    state[S.PEEKS + cell] = 0


@njit_borrowing
def flip(state, cell):
    """Turn the face-down tile ``cell`` face up for everyone."""
    state[S.FACE_UP + cell] = 1
    state[S.PEEKS + cell] = 0
    state[S.FACE_DOWN_LEFT] -= 1
    see_shards(state, state[S.CELLS + cell])


@njit_borrowing
def peek_at(state, cell):
    """The player looks at face-down tile ``cell`` (which cell is public)."""
    state[S.PEEKS + cell] |= 1 << state[S.PLAYER]


@njit_borrowing
def rotate(state, cell, quarters):
    """Turn tile ``cell`` by ``quarters`` quarter turns clockwise."""
    state[S.ROTATIONS + cell] = (state[S.ROTATIONS + cell] + quarters) % 4


@njit_borrowing
def shuffle_map(state, game):
    """Earthquake: the tiles left move over the occupied cells with their face
    state and rotation (one ``rng.permutation``); every peek is forgotten.
    The permutation's swaps move the tiles themselves (the same result as
    permuting copies), and the forgotten peeks hold the occupied cells
    meanwhile, so nothing is allocated."""
    cells = game[S.G_NUM_CELLS]
    occupied = state[S.PEEKS : S.PEEKS + cells]
    count = 0
    for cell in range(cells):
        if state[S.CELLS + cell] >= 0:
            occupied[count] = cell
            count += 1
    gen = generator(state)
    for i in range(count - 1, 0, -1):
        swap_tiles(state, occupied[i], occupied[pcg64.swap_partner(gen, i)])
    occupied[:] = 0


@njit_borrowing
def swap_tiles(state, cell, other):
    """Exchange two cells' tiles with their rotation and face state."""
    for field in (S.CELLS, S.ROTATIONS, S.FACE_UP):
        state[field + cell], state[field + other] = state[field + other], state[field + cell]


@njit_borrowing
def recount(state, game):
    """``_recount``: the layer counts, gem tiles and face-down tiles left, from the map."""
    state[S.LAYER_COUNTS : S.LAYER_COUNTS + POSITIONS * S.MOST_LAYERS] = 0
    state[S.GEM_TILES_LEFT] = state[S.FACE_DOWN_LEFT] = 0
    for cell in range(game[S.G_NUM_CELLS]):
        design = state[S.CELLS + cell]
        if design < 0:
            continue
        for position in range(POSITIONS):
            state[S.LAYER_COUNTS + position * S.MOST_LAYERS + distance(game, position, cell)] += 1
        if S.HAS_GEM_TABLE[design]:
            state[S.GEM_TILES_LEFT] += 1
        if not state[S.FACE_UP + cell]:
            state[S.FACE_DOWN_LEFT] += 1
