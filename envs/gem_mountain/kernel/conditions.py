"""When an action tile may be used, and the legal answers of each sub-step
(the ``usable`` and ``choices`` of ``action_tiles.ACTION_TILES``), as mask writes."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gem_mountain.decisions import POSITIONS, Phase
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.map import (
    arrow_count,
    is_face_down,
    layer_cell,
    layer_size,
    mark_peek_cells,
    second_layer,
    top_layer,
)
from meeplezoo.envs.gem_mountain.tiles import NUM_ACTION_TYPES, NUM_GEMS, ActionKind

PRE = int(Phase.PRE)
# the action kinds by name, in ActionKind's order
GUST, COMPASS, PICKAXE, TUNNEL, ANCHOR, LANTERN, FLARE, TURN_STONE = range(8)
PRISM, THIEF, GIFT, AVALANCHE, EARTHQUAKE, GREED, TWISTER, RESERVED = range(8, NUM_ACTION_TYPES)
assert all(globals()[kind.name] == kind for kind in ActionKind), "the names must follow ActionKind"


@njit_borrowing
def holds_gems(state, seat):
    """Seat ``seat`` holds a public gem."""
    for gem in range(NUM_GEMS):
        if state[S.GEMS + seat * S.GEM_ROW + gem]:
            return True
    return False


@njit_borrowing
def opponent(state, game, offset):
    """The seat ``offset + 1`` seats after the player."""
    return (state[S.PLAYER] + 1 + offset) % game[S.G_NUM_PLAYERS]


@njit_borrowing
def top_has_face_down(state, game, arrow):
    """``flare_arrows``: the arrow's top layer holds a face-down tile."""
    position = state[S.ARROWS_AT + arrow]
    layer = top_layer(state, game, position)
    if layer < 0:
        return False
    for k in range(layer_size(game, position, layer)):
        if is_face_down(state, layer_cell(game, position, layer, k)):
            return True
    return False


@njit_borrowing
def top_is_occupied(state, game, arrow):
    """``arrows_with_a_top``: the arrow sees a tile."""
    return top_layer(state, game, state[S.ARROWS_AT + arrow]) >= 0


@njit_borrowing
def any_arrow(state, game, kind):
    """Some arrow fits Tunnel (a second layer) or Flare (a face-down top tile)."""
    for arrow in range(arrow_count(state)):
        if kind == TUNNEL and second_layer(state, game, state[S.ARROWS_AT + arrow]) >= 0:
            return True
        if kind == FLARE and top_has_face_down(state, game, arrow):
            return True
    return False


@njit_borrowing
def any_thief_target(state, game):
    """``thief_targets``: an opponent holds a public gem."""
    for offset in range(game[S.G_NUM_PLAYERS] - 1):
        if holds_gems(state, opponent(state, game, offset)):
            return True
    return False


@njit_borrowing
def usable(state, game, kind):
    """The tile's condition beyond holding one (``USABLE``)."""
    if kind == TUNNEL or kind == FLARE:
        return any_arrow(state, game, kind)
    if kind == ANCHOR:
        return not state[S.ANCHORED]
    if kind == LANTERN:
        return state[S.FACE_DOWN_LEFT] > 0
    if kind == PRISM:
        return state[S.PHASE] == PRE and not state[S.PRISM_USED]
    if kind == THIEF:
        return any_thief_target(state, game)
    if kind == GIFT:
        return holds_gems(state, state[S.PLAYER])
    return kind != RESERVED


@njit_borrowing
def held(state, kind):
    """The player holds a public copy not taken in this window, or the secret tile, of ``kind``."""
    player = state[S.PLAYER]
    if state[S.ACTION_TILES_AT + player * S.ACTION_ROW + kind] > state[S.TAKEN_THIS_WINDOW + kind]:
        return True
    return state[S.SECRET_TILES + player] == NUM_GEMS + kind


@njit_borrowing
def holds_any(state):
    """The player holds some tile :func:`held` would count: one pass without
    a branch per kind, which settles most checks at once (most of the time
    the seat to move holds no action tile)."""
    player = state[S.PLAYER]
    row = S.ACTION_TILES_AT + player * S.ACTION_ROW
    found = False
    for kind in range(NUM_ACTION_TYPES):
        found |= state[row + kind] > state[S.TAKEN_THIS_WINDOW + kind]
    secret = state[S.SECRET_TILES + player]
    return found or NUM_GEMS <= secret < NUM_GEMS + NUM_ACTION_TYPES


@njit_borrowing
def any_usable(state, game):
    """``_usable()`` is not empty."""
    if not holds_any(state):
        return False
    for kind in range(NUM_ACTION_TYPES):
        if held(state, kind) and usable(state, game, kind):
            return True
    return False


@njit_borrowing
def mark_window(state, game, mask):
    """PRE and POST: USE of each usable kind, and DONE."""
    if holds_any(state):
        for kind in range(NUM_ACTION_TYPES):
            if held(state, kind) and usable(state, game, kind):
                mask[game[S.G_BLOCK_USE] + kind] = True
    mask[game[S.G_BLOCK_DONE]] = True


@njit_borrowing
def mark_arrows(state, game, kind, mask):
    """The ARROW sub-step: every arrow (Gust, Compass), or those Flare or Avalanche can act on."""
    for arrow in range(arrow_count(state)):
        if kind == FLARE and not top_has_face_down(state, game, arrow):
            continue
        if kind == AVALANCHE and not top_is_occupied(state, game, arrow):
            continue
        mask[game[S.G_BLOCK_ARROW] + arrow] = True


@njit_borrowing
def mark_directions(game, mask):
    """Clockwise and counter-clockwise."""
    mask[game[S.G_BLOCK_CLOCKWISE]] = True
    mask[game[S.G_BLOCK_CLOCKWISE] + 1] = True


@njit_borrowing
def mark_other_positions(state, game, mask):
    """Compass: every position but the chosen arrow's."""
    current = state[S.ARROWS_AT + state[S.CHOSEN_ARROW]]
    for position in range(POSITIONS):
        if position != current:
            mask[game[S.G_BLOCK_POSITION] + position] = True


@njit_borrowing
def mark_opponents(state, game, thief, mask):
    """Thief: opponents holding a public gem; Gift: every opponent."""
    for offset in range(game[S.G_NUM_PLAYERS] - 1):
        if not thief or holds_gems(state, opponent(state, game, offset)):
            mask[game[S.G_BLOCK_OPPONENT] + offset] = True


@njit_borrowing
def mark_gems(state, game, seat, mask):
    """``gems_of``: the gem kinds ``seat`` holds publicly."""
    for gem in range(NUM_GEMS):
        if state[S.GEMS + seat * S.GEM_ROW + gem]:
            mask[game[S.G_BLOCK_GEM] + gem] = True


@njit_borrowing
def mark_occupied(state, game, mask):
    """Turn Stone: every tile on the map."""
    for cell in range(game[S.G_NUM_CELLS]):
        if state[S.CELLS + cell] >= 0:
            mask[cell] = True


@njit_borrowing
def mark_sub_step(state, game, mask):
    """The legal answers of the resolving tile's current sub-step (none past its last)."""
    kind, step = state[S.RESOLVING], state[S.SUB_STEP]
    if step == 0 and (kind == GUST or kind == COMPASS or kind == FLARE or kind == AVALANCHE):
        mark_arrows(state, game, kind, mask)
    elif step == 1 and (kind == GUST or kind == TURN_STONE):
        mark_directions(game, mask)
    elif step == 1 and kind == COMPASS:
        mark_other_positions(state, game, mask)
    elif step <= 1 and kind == LANTERN:
        mark_peek_cells(state, game, mask)
        if step == 1:
            mask[game[S.G_BLOCK_DONE]] = True
    elif step == 0 and kind == TURN_STONE:
        mark_occupied(state, game, mask)
    elif step == 0 and (kind == THIEF or kind == GIFT):
        mark_opponents(state, game, kind == THIEF, mask)
    elif step == 1 and (kind == THIEF or kind == GIFT):
        mark_gems(state, game, state[S.TARGET] if kind == THIEF else state[S.PLAYER], mask)
