"""Gem Mountain's compiled rules over a state row and a game row: the deal,
the legal mask, apply, returns and the game's end (``rules.py``'s
``GemMountainState`` is the reference; the differential tests hold them equal).

Every function takes ``state`` (the int64 row of
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`, its generator words
included) and ``game`` (``kernel.game_row.game_row(game)``).
"""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.core.compiled.masks import any_legal
from meeplezoo.envs.gem_mountain.decisions import SECTIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.action_tiles import answer_sub_step, use
from meeplezoo.envs.gem_mountain.kernel.conditions import mark_sub_step, mark_window
from meeplezoo.envs.gem_mountain.kernel.deal import CORNER_TABLE, deal, set_first_arrow
from meeplezoo.envs.gem_mountain.kernel.map import (
    flip,
    mark_face_down_cells,
    mark_grab_cells,
    mark_peek_cells,
    peek_at,
)
from meeplezoo.envs.gem_mountain.kernel.scores import returns  # noqa: F401 - part of this module's API
from meeplezoo.envs.gem_mountain.kernel.turns import (
    GRAB,
    INFO,
    POST,
    PRE,
    SECTION,
    START,
    TUNNEL_GRAB,
    after_grab,
    begin_turn,
    close_window,
    end_turn,
    gain,
    grab,
    offer_window,
)


@njit
def new_game(state, game, seed):
    """``new_initial_state(seed)``: deal a new game into ``state``."""
    deal(state, game, seed)


@njit_borrowing
def is_done(state):
    """The game is over or cut short."""
    return state[S.OVER] != 0 or state[S.CUT_SHORT] != 0


@njit_borrowing
def current_player(state):
    """The seat to move, -1 once the game is over or cut short."""
    return -1 if is_done(state) else state[S.PLAYER]


@njit_borrowing
def is_terminal(state):
    """The last gem tile is gone."""
    return state[S.OVER] != 0


@njit_borrowing
def is_truncated(state):
    """The turn limit was reached before the end."""
    return state[S.CUT_SHORT] != 0 and state[S.OVER] == 0


@njit_borrowing
def mark_legal(state, game, mask):
    """``_legal``: the legal actions of the phase (before the forced pass)."""
    phase = state[S.PHASE]
    if phase == GRAB:
        mark_grab_cells(state, game, state[S.GRAB_KIND] == TUNNEL_GRAB, mask)
    elif phase == SECTION:
        for section in range(SECTIONS):
            if state[S.SECTION_CHOICES] >> section & 1:
                mask[game[S.G_BLOCK_SECTION] + section] = True
    elif phase == PRE or phase == POST:
        mark_window(state, game, mask)
    elif phase == INFO:
        if state[S.USED_BEFORE] or state[S.USED_AFTER]:
            mark_face_down_cells(state, game, mask)
        else:
            mark_peek_cells(state, game, mask)
    elif phase == START:
        for corner in CORNER_TABLE:
            mask[game[S.G_BLOCK_POSITION] + corner] = True
    else:
        mark_sub_step(state, game, mask)


@njit_borrowing
def legal_mask(state, game, mask):
    """``legal_action_mask()``: none once done, PASS alone when nothing else is legal."""
    mask[:] = False
    if is_done(state):
        return
    mark_legal(state, game, mask)
    if not any_legal(mask):
        mask[game[S.G_BLOCK_PASS]] = True


@njit_borrowing
def apply_action(state, game, action):
    """``_apply_action`` of a legal ``action``."""
    phase = state[S.PHASE]
    if action == game[S.G_BLOCK_PASS]:
        if end_turn(state, game):
            offer_window(state, game)
    elif phase == GRAB:
        grab(state, game, action)
    elif phase == SECTION:
        gain(state, state[S.SECTION_CONTENTS + action - game[S.G_BLOCK_SECTION]])
        after_grab(state, game)
    elif phase == PRE or phase == POST:
        if action != game[S.G_BLOCK_DONE]:
            use(state, game, action - game[S.G_BLOCK_USE])
        elif close_window(state, game):
            offer_window(state, game)
    elif phase == INFO:
        if state[S.USED_BEFORE] or state[S.USED_AFTER]:
            flip(state, action)
        else:
            peek_at(state, action)
        if end_turn(state, game):
            offer_window(state, game)
    elif phase == START:
        set_first_arrow(state, game, action - game[S.G_BLOCK_POSITION])
        begin_turn(state)
        offer_window(state, game)
    else:
        answer_sub_step(state, game, action)
