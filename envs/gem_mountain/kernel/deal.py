"""The deal: ``GemMountainState.new`` in the row, with the same draws in the
same order (the pool's permutation, every rotation, a spare pool for the
start tiles, the first arrow)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.gem_mountain.decisions import ARROWS, CORNERS, NOTHING, POSITIONS, SECTIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.map import arrow_count, generator, recount, see_shards
from meeplezoo.envs.gem_mountain.kernel.turns import (
    MAIN_GRAB,
    NO_WINDOW,
    PRE,
    START,
    begin_turn,
    gain_to,
    offer_window,
)
from meeplezoo.envs.gem_mountain.rules import START_TILES
from meeplezoo.envs.gem_mountain.tiles import NUM_ACTION_TYPES, NUM_GEMS

CORNER_TABLE = np.array(CORNERS, dtype=np.int64)
NO_START_TILES = START_TILES.index("none")
# per START_TILES kind: only action tiles are dealt
WANTS_ACTION = np.array([kind.startswith("action") for kind in START_TILES], dtype=np.bool_)


@njit
def pad(state, game):
    """The fills of the row's lists: empty cells, arrows and pile, no secret tiles."""
    state[S.CELLS : S.CELLS + S.MOST_CELLS] = NOTHING
    state[S.ARROWS_AT : S.ARROWS_AT + ARROWS] = NOTHING
    state[S.UNUSED : S.UNUSED + S.PILE] = NOTHING
    state[S.SECRET_TILES : S.SECRET_TILES + game[S.G_NUM_PLAYERS]] = NOTHING


@njit
def fill_map(state, game):
    """``_fill_map``: the shuffled pool row by row (the rest left unused),
    random rotations (drawn even when fixed), face down with Dark Tunnels."""
    cells = game[S.G_NUM_CELLS]
    gen = generator(state)
    if game[S.G_FIXED_LAYOUT]:
        state[S.CELLS : S.CELLS + cells] = game[S.G_LAYOUT : S.G_LAYOUT + cells]
    else:
        size = game[S.G_POOL_SIZE]
        pile = game[S.G_POOL : S.G_POOL + size].copy()
        pcg64.shuffle(gen, pile, size)  # Deck.shuffled: the pool in permutation order
        state[S.CELLS : S.CELLS + cells] = pile[:cells]
        state[S.UNUSED : S.UNUSED + size - cells] = pile[cells:]
    for cell in range(cells):
        state[S.ROTATIONS + cell] = pcg64.bounded(gen, 0, 4)
    if game[S.G_FIXED_ROTATIONS]:
        state[S.ROTATIONS : S.ROTATIONS + cells] = game[S.G_ROTATION_OVERRIDE : S.G_ROTATION_OVERRIDE + cells]
    state[S.FACE_UP : S.FACE_UP + cells] = 0 if game[S.G_DARK_TUNNELS] else 1
    if not game[S.G_DARK_TUNNELS]:
        for cell in range(cells):
            if state[S.CELLS + cell] >= 0:
                see_shards(state, state[S.CELLS + cell])


@njit
def first_fit(pile, count, want_action):
    """Index of the first plain tile of ``pile[:count]`` a start tile may be (an action tile if wanted), or -1."""
    for k in range(count):
        design = pile[k]
        if S.PLAIN_TABLE[design] and (not want_action or S.SHARD_TABLE[design, 0] >= NUM_GEMS):
            return k
    return -1


@njit
def pop(pile, count, index):
    """Take ``pile[index]`` out of ``pile[:count]``, closing the gap (the end becomes a fill)."""
    design = pile[index]
    pile[index : count - 1] = pile[index + 1 : count]
    pile[count - 1] = NOTHING
    return design


@njit
def pile_size(pile):
    """Tiles in a pile padded with fills."""
    count = 0
    while count < len(pile) and pile[count] >= 0:
        count += 1
    return count


@njit
def deal_start_tiles(state, game):
    """``_deal_start_tiles``: per seat the first fitting unused tile, or one
    from a freshly shuffled copy of the base pool (kept for later seats)."""
    want_action = WANTS_ACTION[game[S.G_START_TILES]]
    rest = state[S.UNUSED : S.UNUSED + S.PILE]
    spare = np.full(S.MOST_POOL, NOTHING, np.int64)
    spare_made = False
    for seat in range(game[S.G_NUM_PLAYERS]):
        if seat == 0 and game[S.G_CHOOSES_ARROW]:
            continue
        source = spare if spare_made else rest
        k = first_fit(source, pile_size(source), want_action)
        if k < 0 and not spare_made:
            size = game[S.G_BASE_POOL_SIZE]
            spare[:size] = game[S.G_BASE_POOL : S.G_BASE_POOL + size]
            pcg64.shuffle(generator(state), spare, size)
            spare_made, source = True, spare
            k = first_fit(source, size, want_action)
        if k < 0:
            continue
        content = S.SHARD_TABLE[pop(source, pile_size(source), k), 0]
        if game[S.G_SECRET_START_TILES]:
            state[S.SECRET_TILES + seat] = content
        else:
            gain_to(state, seat, content)
            state[S.SEEN + content] += 1


@njit
def fix_holdings(state, game):
    """holdings_override: each seat's gems, action tiles and secret tile."""
    for seat in range(game[S.G_NUM_PLAYERS]):
        gems, actions = S.GEMS + seat * S.GEM_ROW, S.G_HOLDING_GEMS + seat * S.GEM_ROW
        state[gems : gems + S.GEM_ROW] = game[actions : actions + S.GEM_ROW]
        tiles, held = S.ACTION_TILES_AT + seat * S.ACTION_ROW, S.G_HOLDING_ACTIONS + seat * S.ACTION_ROW
        state[tiles : tiles + S.ACTION_ROW] = game[held : held + S.ACTION_ROW]
        state[S.SECRET_TILES + seat] = game[S.G_HOLDING_SECRETS + seat]


@njit
def reset_turn_state(state):
    """``_reset_turn_state``: seat 0's first turn, nothing chosen or resolving."""
    state[S.PLAYER] = state[S.TURN] = 0
    state[S.WINDOW], state[S.RESOLVING], state[S.SUB_STEP] = NO_WINDOW, NOTHING, 0
    state[S.CHOSEN_ARROW], state[S.TARGET] = NOTHING, NOTHING
    state[S.GRABS_OWED], state[S.GRAB_KIND], state[S.LANTERN_PEEKS_LEFT] = 0, MAIN_GRAB, 0
    state[S.SECTION_CONTENTS : S.SECTION_CONTENTS + SECTIONS] = 0
    state[S.TAKEN_THIS_WINDOW : S.TAKEN_THIS_WINDOW + NUM_ACTION_TYPES] = 0
    for flag in (S.SECTION_CHOICES, S.USED_BEFORE, S.USED_AFTER, S.ANCHORED, S.PRISM_USED):
        state[flag] = 0
    for flag in (S.PRISM_ACTIVE, S.USES_THIS_WINDOW, S.OVER, S.CUT_SHORT):
        state[flag] = 0
    state[S.PHASE] = PRE


@njit
def set_first_arrow(state, game, position):
    """The arrow at ``position`` (a second one opposite, with that module)."""
    state[S.ARROWS_AT] = position
    if game[S.G_TWO_ARROWS]:
        state[S.ARROWS_AT + 1] = (position + POSITIONS // 2) % POSITIONS


@njit
def place_arrows(state, game):
    """``_place_arrows``: the fixed arrows, none (seat 0 chooses) or a random corner."""
    fixed = game[S.G_FIXED_ARROWS]
    if fixed:
        state[S.ARROWS_AT : S.ARROWS_AT + fixed] = game[S.G_ARROW_OVERRIDE : S.G_ARROW_OVERRIDE + fixed]
    elif not game[S.G_CHOOSES_ARROW]:
        corner = pcg64.bounded(generator(state), 0, len(CORNER_TABLE))
        set_first_arrow(state, game, CORNER_TABLE[corner])


@njit
def deal(state, game, seed):
    """``GemMountainState.new(game, make_rng(seed))`` into a zeroed row."""
    state[:] = 0
    pad(state, game)
    pcg64.seed(generator(state), seed)
    fill_map(state, game)
    if game[S.G_START_TILES] != NO_START_TILES:
        deal_start_tiles(state, game)
    if game[S.G_FIXED_HOLDINGS]:
        fix_holdings(state, game)
    reset_turn_state(state)
    recount(state, game)
    place_arrows(state, game)
    if state[S.GEM_TILES_LEFT] == 0:
        state[S.OVER] = 1
    elif arrow_count(state) == 0:
        state[S.PHASE] = START
    else:
        begin_turn(state)
        offer_window(state, game)
