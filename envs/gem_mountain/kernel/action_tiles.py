"""What USE of each action tile does, and what an answer to each of its
sub-steps does (the ``use`` and ``step`` of ``action_tiles.ACTION_TILES``)."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gem_mountain.action_tiles import LANTERN_PEEKS
from meeplezoo.envs.gem_mountain.decisions import NOTHING, POSITIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.conditions import (
    ANCHOR,
    AVALANCHE,
    COMPASS,
    EARTHQUAKE,
    FLARE,
    GIFT,
    GREED,
    GUST,
    LANTERN,
    PICKAXE,
    PRISM,
    THIEF,
    TUNNEL,
    TURN_STONE,
    TWISTER,
    opponent,
)
from meeplezoo.envs.gem_mountain.kernel.map import (
    arrow_count,
    flip,
    is_face_down,
    layer_cell,
    layer_size,
    peek_at,
    remove,
    rotate,
    shuffle_map,
    top_layer,
)
from meeplezoo.envs.gem_mountain.kernel.turns import (
    EXTRA_GRAB,
    GRAB,
    PRE_WINDOW,
    SUB_STEP,
    TUNNEL_GRAB,
    finish_action,
)
from meeplezoo.envs.gem_mountain.tiles import NUM_GEMS


@njit_borrowing
def spend(state, kind):
    """``_use``'s cost: a public copy not taken in this window, else the secret tile (now revealed)."""
    player = state[S.PLAYER]
    public = S.ACTION_TILES_AT + player * S.ACTION_ROW + kind
    if state[public] - state[S.TAKEN_THIS_WINDOW + kind] > 0:
        state[public] -= 1
    else:
        state[S.SECRET_TILES + player] = NOTHING
        state[S.SEEN + NUM_GEMS + kind] += 1
    state[S.USES_THIS_WINDOW] += 1
    state[S.USED_BEFORE if state[S.WINDOW] == PRE_WINDOW else S.USED_AFTER] = 1


@njit_borrowing
def use(state, game, kind):
    """``_use``: spend a tile of ``kind`` and start its effect."""
    spend(state, kind)
    state[S.RESOLVING], state[S.SUB_STEP], state[S.CHOSEN_ARROW] = kind, 0, NOTHING
    if kind == GUST or kind == COMPASS or kind == FLARE or kind == AVALANCHE:
        if arrow_count(state) == 2:  # ask_arrow: which arrow?
            state[S.PHASE] = SUB_STEP
        else:
            state[S.CHOSEN_ARROW] = 0
            act_on_arrow(state, game, kind)
    elif kind == PICKAXE or kind == GREED or kind == TUNNEL:  # open_grab
        state[S.GRAB_KIND] = TUNNEL_GRAB if kind == TUNNEL else EXTRA_GRAB
        state[S.GRABS_OWED] = 1 if kind == GREED else 0
        state[S.PHASE] = GRAB
    elif kind == LANTERN:
        state[S.LANTERN_PEEKS_LEFT] = LANTERN_PEEKS
        state[S.PHASE] = SUB_STEP
    elif kind == TURN_STONE or kind == THIEF or kind == GIFT:  # ask_sub_steps
        state[S.PHASE] = SUB_STEP
    else:
        use_at_once(state, game, kind)


@njit_borrowing
def use_at_once(state, game, kind):
    """The tiles that ask nothing: Anchor, Prism, Earthquake and Twister."""
    if kind == ANCHOR:
        state[S.ANCHORED] = 1
    elif kind == PRISM:
        state[S.PRISM_ACTIVE] = state[S.PRISM_USED] = 1
    elif kind == EARTHQUAKE:
        shuffle_map(state, game)
    elif kind == TWISTER:
        for arrow in range(arrow_count(state)):
            state[S.ARROWS_AT + arrow] = (state[S.ARROWS_AT + arrow] + POSITIONS // 2) % POSITIONS
    finish_action(state, game)


@njit_borrowing
def act_on_arrow(state, game, kind):
    """The chosen arrow is known: Gust and Compass ask on, Flare and Avalanche act."""
    if kind == GUST or kind == COMPASS:  # continue_to_next_sub_step
        state[S.SUB_STEP] += 1
        state[S.PHASE] = SUB_STEP
        return
    position = state[S.ARROWS_AT + state[S.CHOSEN_ARROW]]
    layer = top_layer(state, game, position)
    if layer >= 0:
        for k in range(layer_size(game, position, layer)):
            cell = layer_cell(game, position, layer, k)
            if kind == FLARE and is_face_down(state, cell):
                flip(state, cell)
            elif kind == AVALANCHE and state[S.CELLS + cell] >= 0:
                remove(state, game, cell)
    if kind == AVALANCHE and state[S.GEM_TILES_LEFT] == 0:
        state[S.OVER] = 1
        return
    finish_action(state, game)


@njit_borrowing
def quarter_step(game, action):
    """+1 for clockwise, -1 for counter-clockwise."""
    return 1 if action == game[S.G_BLOCK_CLOCKWISE] else -1


@njit_borrowing
def lantern_peek(state, game, action):
    """Lantern: look at a face-down tile (or stop after the first)."""
    if action == game[S.G_BLOCK_DONE]:
        finish_action(state, game)
        return
    peek_at(state, action)
    state[S.LANTERN_PEEKS_LEFT] -= 1
    if state[S.LANTERN_PEEKS_LEFT] == 0:
        finish_action(state, game)
        return
    state[S.SUB_STEP] = 1


@njit_borrowing
def move_gem(state, game, action, thief):
    """Thief moves a gem from the target to the player, Gift the other way."""
    gem = action - game[S.G_BLOCK_GEM]
    giver, taker = state[S.TARGET], state[S.PLAYER]
    if not thief:
        giver, taker = taker, giver
    state[S.GEMS + giver * S.GEM_ROW + gem] -= 1
    state[S.GEMS + taker * S.GEM_ROW + gem] += 1
    finish_action(state, game)


@njit_borrowing
def answer_sub_step(state, game, action):
    """The answer ``action`` to the resolving tile's current sub-step."""
    kind, step = state[S.RESOLVING], state[S.SUB_STEP]
    if kind == LANTERN:
        lantern_peek(state, game, action)
    elif step == 0 and (kind == GUST or kind == COMPASS or kind == FLARE or kind == AVALANCHE):
        state[S.CHOSEN_ARROW] = action - game[S.G_BLOCK_ARROW]
        act_on_arrow(state, game, kind)
    elif kind == GUST:  # step_arrow
        arrow = S.ARROWS_AT + state[S.CHOSEN_ARROW]
        state[arrow] = (state[arrow] + quarter_step(game, action)) % POSITIONS
        finish_action(state, game)
    elif kind == COMPASS:  # set_arrow
        state[S.ARROWS_AT + state[S.CHOSEN_ARROW]] = action - game[S.G_BLOCK_POSITION]
        finish_action(state, game)
    elif kind == TURN_STONE and step == 0:  # choose_tile
        state[S.TARGET], state[S.SUB_STEP] = action, 1
    elif kind == TURN_STONE:  # turn_tile
        rotate(state, state[S.TARGET], quarter_step(game, action))
        finish_action(state, game)
    elif step == 0:  # Thief or Gift: choose_opponent
        state[S.TARGET] = opponent(state, game, action - game[S.G_BLOCK_OPPONENT])
        state[S.SUB_STEP] = 1
    else:
        move_gem(state, game, action, kind == THIEF)
