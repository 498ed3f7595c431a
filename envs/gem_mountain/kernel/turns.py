"""Turn flow in the row: windows, grabs, gains and the end of a turn
(``GemMountainState``'s turn-flow and grab sections).

The reference's ``_offer_window`` -> ``_close_window`` -> ``_end_turn`` ->
``_begin_turn`` -> ``_offer_window`` chain is a loop here
(:func:`offer_window`): a function that opens a new turn's window returns
True and leaves the offer to its caller, so no kernel calls itself.
"""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gem_mountain.decisions import (
    NOTHING,
    POSITIONS,
    SECTIONS,
    STEPS_PER_QUARTER_TURN,
    GrabKind,
    Phase,
    Window,
)
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.conditions import any_usable
from meeplezoo.envs.gem_mountain.kernel.map import arrow_count, distance, remove, second_layer, top_layer
from meeplezoo.envs.gem_mountain.rules import ACTION_LIMITS
from meeplezoo.envs.gem_mountain.tiles import NUM_ACTION_TYPES, NUM_GEMS

PRE, GRAB, SECTION, POST, INFO, SUB_STEP, START = (int(phase) for phase in Phase)
NO_WINDOW, PRE_WINDOW, POST_WINDOW = (int(window) for window in Window)
MAIN_GRAB, EXTRA_GRAB, TUNNEL_GRAB = (int(kind) for kind in GrabKind)
PER_WINDOW, PER_TURN = ACTION_LIMITS.index("per_window"), ACTION_LIMITS.index("per_turn")


@njit_borrowing
def gain_to(state, seat, content):
    """``_gain_to``: a gem or an action tile joins ``seat``'s public collection."""
    if content < NUM_GEMS:
        state[S.GEMS + seat * S.GEM_ROW + content] += 1
    else:
        state[S.ACTION_TILES_AT + seat * S.ACTION_ROW + content - NUM_GEMS] += 1


@njit_borrowing
def gain(state, content):
    """``_gain``: the player gains ``content``; an action tile taken in a window is counted."""
    gain_to(state, state[S.PLAYER], content)
    if content >= NUM_GEMS and state[S.WINDOW] != NO_WINDOW:
        state[S.TAKEN_THIS_WINDOW + content - NUM_GEMS] += 1


@njit_borrowing
def open_window(state, window):
    """``_open_window`` without the offer: the window opens with nothing used or taken."""
    state[S.WINDOW] = window
    state[S.TAKEN_THIS_WINDOW : S.TAKEN_THIS_WINDOW + NUM_ACTION_TYPES] = 0
    state[S.USES_THIS_WINDOW] = 0


@njit_borrowing
def begin_turn(state):
    """``_begin_turn`` without the offer: the turn's flags clear and PRE opens."""
    for flag in (S.USED_BEFORE, S.USED_AFTER, S.ANCHORED, S.PRISM_USED, S.PRISM_ACTIVE):
        state[flag] = 0
    open_window(state, PRE_WINDOW)


@njit_borrowing
def end_turn(state, game):
    """``_end_turn``: the arrows turn (unless anchored), the next seat moves;
    True when its PRE window opened (the caller offers it)."""
    if not state[S.ANCHORED]:
        for arrow in range(arrow_count(state)):
            position = state[S.ARROWS_AT + arrow]
            state[S.ARROWS_AT + arrow] = (position + STEPS_PER_QUARTER_TURN) % POSITIONS
    state[S.TURN] += 1
    state[S.PLAYER] = (state[S.PLAYER] + 1) % game[S.G_NUM_PLAYERS]
    state[S.RESOLVING], state[S.SUB_STEP], state[S.CHOSEN_ARROW] = NOTHING, 0, NOTHING
    if state[S.TURN] >= game[S.G_MAX_TURNS]:
        state[S.CUT_SHORT] = 1
        return False
    begin_turn(state)
    return True


@njit_borrowing
def close_window(state, game):
    """``_close_window``: PRE leads to the grab, POST to INFO or the end of the
    turn; True when a new turn's window opened."""
    window = state[S.WINDOW]
    state[S.WINDOW] = NO_WINDOW
    if window == PRE_WINDOW:
        state[S.GRAB_KIND], state[S.GRABS_OWED] = MAIN_GRAB, 0
        state[S.PHASE] = GRAB
        return False
    if game[S.G_DARK_TUNNELS] and state[S.FACE_DOWN_LEFT]:
        state[S.PHASE] = INFO
        return False
    return end_turn(state, game)


@njit_borrowing
def window_closes(state, game):
    """``_offer_window``'s test: the action limit is reached, or (public start
    tiles) no held tile is usable; else the window's phase is set."""
    limit = game[S.G_ACTION_LIMIT]
    if limit == PER_WINDOW and state[S.USES_THIS_WINDOW]:
        return True
    if limit == PER_TURN and (state[S.USED_BEFORE] or state[S.USED_AFTER]):
        return True
    state[S.PHASE] = PRE if state[S.WINDOW] == PRE_WINDOW else POST
    if game[S.G_SECRET_START_TILES]:
        return False
    return not any_usable(state, game)


@njit_borrowing
def offer_window(state, game):
    """``_offer_window``: the open window asks the player, or closes (and the
    next turn's window is offered in its turn)."""
    while window_closes(state, game):
        if not close_window(state, game):
            return


@njit_borrowing
def finish_action(state, game):
    """The action tile is resolved: back to its window."""
    state[S.RESOLVING], state[S.SUB_STEP], state[S.CHOSEN_ARROW] = NOTHING, 0, NOTHING
    state[S.TARGET], state[S.LANTERN_PEEKS_LEFT] = NOTHING, 0
    offer_window(state, game)


@njit_borrowing
def after_grab(state, game):
    """``_after_grab``: the game ends with the last gem tile; else a grab still
    owed (Greed), the POST window (a main grab), or back to the window."""
    state[S.SECTION_CHOICES] = 0
    if state[S.GEM_TILES_LEFT] == 0:
        state[S.OVER] = 1
        return
    if state[S.GRABS_OWED]:
        state[S.GRABS_OWED] -= 1
        state[S.PHASE] = GRAB
        return
    if state[S.GRAB_KIND] == MAIN_GRAB:
        open_window(state, POST_WINDOW)
        offer_window(state, game)
        return
    finish_action(state, game)


@njit_borrowing
def pointed_sections(state, game, cell):
    """Bit s set when an arrow whose top (second, for Tunnel) layer holds ``cell`` points at section s."""
    tunnel = state[S.GRAB_KIND] == TUNNEL_GRAB
    pointed = 0
    for arrow in range(arrow_count(state)):
        position = state[S.ARROWS_AT + arrow]
        layer = second_layer(state, game, position) if tunnel else top_layer(state, game, position)
        if distance(game, position, cell) == layer:
            for k in range(S.POINTED_COUNT[position]):
                pointed |= 1 << S.POINTED_TABLE[position, k]
    return pointed


@njit_borrowing
def section_choices(state, game, cell):
    """``grab_options``: bit s set for the lowest pointed section of each content."""
    design, rotation = state[S.CELLS + cell], state[S.ROTATIONS + cell]
    pointed, choices = pointed_sections(state, game, cell), 0
    for section in range(SECTIONS):
        if not pointed >> section & 1:
            continue
        fresh = True
        for earlier in range(section):
            if choices >> earlier & 1 and (
                S.SECTION_CONTENT_TABLE[design, rotation, earlier]
                == S.SECTION_CONTENT_TABLE[design, rotation, section]
            ):
                fresh = False
        if fresh:
            choices |= 1 << section
    return choices


@njit_borrowing
def grab(state, game, cell):
    """``_grab``: take tile ``cell``; Prism takes every shard, a plain tile its
    content, a split one its only pointed content or asks for a SECTION."""
    design, rotation = state[S.CELLS + cell], state[S.ROTATIONS + cell]
    if state[S.PRISM_ACTIVE] or S.PLAIN_TABLE[design]:
        prism = state[S.PRISM_ACTIVE]
        state[S.PRISM_ACTIVE] = 0
        remove(state, game, cell)
        for k in range(S.SHARD_COUNT[design] if prism else 1):
            gain(state, S.SHARD_TABLE[design, k])
        after_grab(state, game)
        return
    choices = section_choices(state, game, cell)
    remove(state, game, cell)
    if choices & (choices - 1) == 0:  # one content: no question
        section = 0
        while not choices >> section & 1:
            section += 1
        gain(state, S.SECTION_CONTENT_TABLE[design, rotation, section])
        after_grab(state, game)
        return
    for section in range(SECTIONS):
        state[S.SECTION_CONTENTS + section] = S.SECTION_CONTENT_TABLE[design, rotation, section]
    state[S.SECTION_CHOICES] = choices
    state[S.PHASE] = SECTION
