"""Amethyst and Amber's compiled rules over a state row and a game row: the
deal, the legal mask, apply, returns and the game's end (``rules.py``'s
``AmethystAmberState`` is the reference; the differential tests hold them
equal). Actions come in and masks go out in the acting seat's frame, as
the reference's do (``ROT_ACTION`` turns them).

Every function takes ``state`` (the int64 row of
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`) and ``game``
(``kernel.game_row.game_row(game)``).

The helpers under ``legal_mask`` and ``apply_action`` are inlined
(``inline="always"``): a numba call that passes the row pays reference
counting on each array, which cost more than most of these helpers do.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import (
    NUM_DIRECTIONS,
    NUM_HEXES,
    ActionBlock,
    Phase,
    Substep,
)
from meeplezoo.envs.amethyst_amber.board import NEUTRAL
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.pieces import (
    brick_triangles,
    can_move,
    clear_bit,
    contains,
    destinations,
    placeable,
    read_defence,
    set_bit,
    without,
)
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.bits import trailing_zeros
from meeplezoo.envs.core.compiled.jit import njit

PLACEMENT, MAIN = int(Phase.PLACEMENT), int(Phase.MAIN)
TURN_START, CHOOSE_DESTINATION, CONTINUE = (
    int(Substep.TURN_START),
    int(Substep.CHOOSE_DESTINATION),
    int(Substep.CONTINUE),
)
PLACE_DEFENDER, SELECT, DESTINATION = (
    int(ActionBlock.PLACE_DEFENDER),
    int(ActionBlock.SELECT),
    int(ActionBlock.DESTINATION),
)
PLACE_ATTACKER, PLACE_RESOURCE, STEP = (
    int(ActionBlock.PLACE_ATTACKER),
    int(ActionBlock.PLACE_RESOURCE),
    int(ActionBlock.STEP),
)
END_DEFENDER_MOVES, PASS = int(ActionBlock.END_DEFENDER_MOVES), int(ActionBlock.PASS)


@njit
def generator(state):
    """The state's PCG64 words (a uint64 view of the row)."""
    return state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)


@njit
def new_game(state, game, seed):
    """``new_initial_state(seed)`` into ``state``."""
    state[:] = 0
    pcg64.seed(generator(state), seed)
    state[S.SELECTED] = -1
    state[S.WINNER] = -1
    state[S.ATTACKER_AT : S.ATTACKER_AT + NUM_HEXES] = -1
    state[S.ATTACKER_HEXES : S.ATTACKER_HEXES + 2 * S.MOST_ATTACKERS] = -1
    state[S.RESOURCE_AT : S.RESOURCE_AT + NUM_HEXES] = -1
    state[S.RESOURCE_HEXES : S.RESOURCE_HEXES + S.MOST_RESOURCES] = -1
    for k in range(S.RED.shape[0]):
        h = S.RED[k]
        state[S.RESOURCE_AT + h] = NEUTRAL
        state[S.RESOURCE_HEXES + k] = h
        set_bit(state, S.RESOURCE_BITS + NEUTRAL * S.WORDS, S.HEX_BRICK[h])
    for seat in range(2):
        state[S.UNPLACED + seat] = game[S.G_DEFENDERS]
        state[S.RESERVE + seat] = game[S.G_ATTACKERS]
    if game[S.G_DEFENDERS] == 0:
        state[S.PHASE] = MAIN
        state[S.ACTING_SEAT] = game[S.G_MAIN_FIRST]
        start_turn(state, game)


@njit(inline="always")
def is_done(state):
    """The game is won or cut short."""
    return state[S.TERMINAL] != 0 or state[S.TRUNCATED] != 0


@njit
def current_player(state):
    """The seat to move, -1 once the game is done."""
    return -1 if is_done(state) else state[S.ACTING_SEAT]


@njit
def is_terminal(state):
    return state[S.TERMINAL] != 0


@njit
def is_truncated(state):
    return state[S.TRUNCATED] != 0


@njit
def returns(state, game, out):
    """``returns()``: +-1 to a winner; a cut-short game is a draw, or goes
    to whoever has more placed with truncation_result "resources"."""
    out[:] = 0.0
    winner = state[S.WINNER]
    if state[S.TERMINAL] and winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0
    elif state[S.TRUNCATED] and game[S.G_BY_RESOURCES]:
        amethyst, amber = state[S.PLACED], state[S.PLACED + 1]
        if amethyst != amber:
            out[0] = 1.0 if amethyst > amber else -1.0
            out[1] = -out[0]


# ------------------------------------------------------------------ lists in the row
@njit(inline="always")
def list_length(state, at, capacity):
    """Entries of the list at ``at`` (it ends at its first -1)."""
    for k in range(capacity):
        if state[at + k] < 0:
            return k
    return capacity


@njit(inline="always")
def list_remove(state, at, capacity, value):
    """``list.remove(value)``: the first ``value`` goes, the rest move up."""
    length = list_length(state, at, capacity)
    found = False
    for k in range(length):
        if not found and state[at + k] == value:
            found = True
        if found:
            state[at + k] = state[at + k + 1] if k + 1 < length else -1


@njit(inline="always")
def has_room(state, game, seat):
    """``_has_available``: seat has a placed resource with room for a prisoner."""
    for k in range(S.MOST_RESOURCES):
        h = state[S.RESOURCE_HEXES + k]
        if h < 0:
            break
        if state[S.RESOURCE_AT + h] == seat and state[S.PRISONERS_UNDER + h] < game[S.G_CAPACITY]:
            return True
    return False


# ------------------------------------------------------------------ the mask
@njit(inline="always")
def mark(mask, turned, action):
    """Set ``action`` (absolute frame) in the acting seat's frame; counts one."""
    mask[S.ROT_ACTION[action] if turned else action] = True
    return 1


@njit(inline="always")
def mark_triangles(mask, turned, block, triangles):
    """Mark ``block + t`` for each triangle t of the set ``triangles``; returns how many."""
    found = 0
    for k in range(2):
        word = triangles[k]
        while word != 0:
            found += mark(mask, turned, block + S.TRI_WORD_BITS * k + trailing_zeros(word))
            word &= word - 1
    return found


@njit(inline="always")
def mark_resource_places(state, game, seat, turned, mask):
    """place_resource (forced): a resource in hand goes on a free green."""
    found = 0
    if state[S.HAND + seat] == 0:
        return found
    greens = S.GREEN_HALF[seat] if game[S.G_GREEN_OWN_HALF] else S.GREEN
    for k in range(greens.shape[0]):
        h = greens[k]
        if state[S.RESOURCE_AT + h] < 0 and state[S.ATTACKER_AT + h] < 0:
            found += mark(mask, turned, PLACE_RESOURCE + h)
    return found


@njit(inline="always")
def mark_attacker_entries(state, seat, turned, mask):
    """place_attacker: a reserve attacker enters on a free own blue hex."""
    found = 0
    if state[S.RESERVE + seat] == 0:
        return found
    for k in range(S.BLUE.shape[1]):
        h = S.BLUE[seat, k]
        if state[S.ATTACKER_AT + h] < 0 and state[S.RESOURCE_AT + h] < 0:
            found += mark(mask, turned, PLACE_ATTACKER + h)
    return found


@njit(inline="always")
def mark_steps(state, game, seat, walls, turned, mask):
    """step: an attacker moves (or captures) one hex over, unless an enemy
    wall (``walls``: the enemy's defenders) closes the gate, its own piece
    stands there, or a prisoner has nowhere to go."""
    opponent = 1 - seat
    room = -1  # has_room, found when first needed
    base = S.ATTACKER_HEXES + seat * S.MOST_ATTACKERS
    found = 0
    for k in range(S.MOST_ATTACKERS):
        h = state[base + k]
        if h < 0:
            break
        for d in range(NUM_DIRECTIONS):
            n = S.STEP_TO[h, d]
            if n < 0 or (contains(walls, S.GATE[h, d, 0]) and contains(walls, S.GATE[h, d, 1])):
                continue
            owner = state[S.ATTACKER_AT + n]
            if owner == seat or (owner < 0 and state[S.RESOURCE_AT + n] == seat):
                continue
            if owner == opponent:
                if room < 0:
                    room = 1 if has_room(state, game, seat) else 0
                if room == 0:
                    continue
            found += mark(mask, turned, STEP + NUM_DIRECTIONS * h + d)
    return found


@njit(inline="always")
def unmoved(state, defence):
    """The acting seat's defenders not moved this turn."""
    return without(defence.own, brick_triangles(state, S.MOVED_DEFENDERS))


@njit(inline="always")
def mark_selectable(state, defence, turned, mask):
    """select: own defenders (not moved this turn) with a legal destination."""
    found = 0
    candidates = unmoved(state, defence)
    for k in range(2):
        word = candidates[k]
        while word != 0:
            t = S.TRI_WORD_BITS * k + trailing_zeros(word)
            word &= word - 1
            if can_move(defence, t):
                found += mark(mask, turned, SELECT + t)
    return found


@njit(inline="always")
def any_movable(state, defence):
    """Whether an own defender not moved this turn has a legal destination."""
    candidates = unmoved(state, defence)
    for k in range(2):
        word = candidates[k]
        while word != 0:
            if can_move(defence, S.TRI_WORD_BITS * k + trailing_zeros(word)):
                return True
            word &= word - 1
    return False


@njit(inline="always")
def mark_legal(state, game, mask):
    """The legal actions of the situation (before the fallback pass); returns how many."""
    seat = state[S.ACTING_SEAT]
    turned = seat == 1 and game[S.G_RELATIVE_FRAME] != 0
    substep = state[S.SUBSTEP]
    defence = read_defence(state, game, seat)
    found = 0
    if substep == CHOOSE_DESTINATION:
        selected = state[S.SELECTED]
        if selected >= 0 and contains(defence.own, selected):
            found = mark_triangles(mask, turned, DESTINATION, destinations(defence, selected))
    elif state[S.PHASE] == PLACEMENT:
        found = mark_triangles(mask, turned, PLACE_DEFENDER, placeable(defence))
    elif substep == CONTINUE:
        found = mark_selectable(state, defence, turned, mask)
        found += mark(mask, False, END_DEFENDER_MOVES)
    else:
        found = mark_resource_places(state, game, seat, turned, mask)
        if found == 0:  # placing a resource in hand is forced
            found = mark_selectable(state, defence, turned, mask)
            found += mark_attacker_entries(state, seat, turned, mask)
            found += mark_steps(state, game, seat, defence.enemy, turned, mask)
    return found


@njit
def legal_mask(state, game, mask):
    """``legal_action_mask()``: none once done, pass alone when nothing else is legal."""
    mask[:] = False
    if is_done(state):
        return
    if mark_legal(state, game, mask) == 0:
        mask[PASS] = True


# ------------------------------------------------------------------ apply
@njit
def apply_action(state, game, action):
    """``_apply_action`` of a legal ``action`` (in the acting seat's frame)."""
    seat = state[S.ACTING_SEAT]
    if seat == 1 and game[S.G_RELATIVE_FRAME]:
        action = S.ROT_ACTION[action]
    if action < SELECT:
        set_bit(state, S.DEFENDER_BITS + seat * S.WORDS, S.TRI_BRICK[action - PLACE_DEFENDER])
        state[S.UNPLACED + seat] -= 1
        after_placement(state, game, seat)
    elif action < DESTINATION:
        state[S.SELECTED] = action - SELECT
        state[S.SUBSTEP] = CHOOSE_DESTINATION
    elif action < PLACE_ATTACKER:
        move_selected(state, game, seat, action - DESTINATION)
    elif action < PLACE_RESOURCE:
        place_attacker(state, seat, action - PLACE_ATTACKER)
        end_turn(state, game)
    elif action < STEP:
        place_resource(state, seat, action - PLACE_RESOURCE)
        end_turn(state, game)
    elif action < END_DEFENDER_MOVES:
        step(state, game, seat, (action - STEP) // NUM_DIRECTIONS, (action - STEP) % NUM_DIRECTIONS)
        end_turn(state, game)
    elif action == PASS and state[S.PHASE] == PLACEMENT:
        after_placement(state, game, seat)
    else:
        end_turn(state, game)


@njit(inline="always")
def move_selected(state, game, seat, target):
    """``_move_selected``: the selected defender goes to ``target``; the turn
    goes on while another unmoved defender can move and moves are left."""
    at = S.DEFENDER_BITS + seat * S.WORDS
    clear_bit(state, at, S.TRI_BRICK[state[S.SELECTED]])
    set_bit(state, at, S.TRI_BRICK[target])
    set_bit(state, S.MOVED_DEFENDERS, S.TRI_BRICK[target])
    state[S.MOVES_THIS_TURN] += 1
    state[S.SELECTED] = -1
    if state[S.MOVES_THIS_TURN] >= game[S.G_MAX_MOVES]:
        end_turn(state, game)
        return
    if any_movable(state, read_defence(state, game, seat)):
        state[S.SUBSTEP] = CONTINUE
    else:
        end_turn(state, game)  # no unmoved defender can move: stopping is the only answer


@njit(inline="always")
def place_attacker(state, seat, hex_index):
    state[S.ATTACKER_AT + hex_index] = seat
    base = S.ATTACKER_HEXES + seat * S.MOST_ATTACKERS
    state[base + list_length(state, base, S.MOST_ATTACKERS)] = hex_index
    set_bit(state, S.ATTACKER_BITS + seat * S.WORDS, S.HEX_BRICK[hex_index])
    state[S.RESERVE + seat] -= 1


@njit(inline="always")
def place_resource(state, seat, hex_index):
    state[S.RESOURCE_AT + hex_index] = seat
    state[S.PRISONERS_UNDER + hex_index] = 0
    state[S.RESOURCE_HEXES + list_length(state, S.RESOURCE_HEXES, S.MOST_RESOURCES)] = hex_index
    set_bit(state, S.RESOURCE_BITS + seat * S.WORDS, S.HEX_BRICK[hex_index])
    state[S.HAND + seat] -= 1
    state[S.PLACED + seat] += 1


@njit(inline="always")
def toggle_bit(state, at, brick):
    state[at + (brick >> 6)] ^= S.BIT[brick & 63]


@njit(inline="always")
def step(state, game, seat, hex_index, direction):
    """``_step``: the attacker on ``hex_index`` steps in ``direction``, taking what stands there."""
    n = S.STEP_TO[hex_index, direction]
    opponent = 1 - seat
    if state[S.ATTACKER_AT + n] == opponent:
        for k in range(S.NEAREST.shape[2]):  # the prisoner goes under seat's nearest resource with room
            r = S.NEAREST[seat, n, k]
            if state[S.RESOURCE_AT + r] == seat and state[S.PRISONERS_UNDER + r] < game[S.G_CAPACITY]:
                state[S.PRISONERS_UNDER + r] += 1
                break
        list_remove(state, S.ATTACKER_HEXES + opponent * S.MOST_ATTACKERS, S.MOST_ATTACKERS, n)
        toggle_bit(state, S.ATTACKER_BITS + opponent * S.WORDS, S.HEX_BRICK[n])
    elif state[S.RESOURCE_AT + n] >= 0:
        take_resource(state, seat, n)
    state[S.ATTACKER_AT + hex_index] = -1
    state[S.ATTACKER_AT + n] = seat
    at = S.ATTACKER_BITS + seat * S.WORDS
    toggle_bit(state, at, S.HEX_BRICK[hex_index])
    toggle_bit(state, at, S.HEX_BRICK[n])
    base = S.ATTACKER_HEXES + seat * S.MOST_ATTACKERS
    for k in range(S.MOST_ATTACKERS):
        if state[base + k] == hex_index:
            state[base + k] = n
            break


@njit(inline="always")
def take_resource(state, seat, hex_index):
    """``_take_resource``: to seat's hand; an enemy one frees seat's prisoners under it."""
    owner = state[S.RESOURCE_AT + hex_index]
    if owner == 1 - seat:
        state[S.RESERVE + seat] += state[S.PRISONERS_UNDER + hex_index]
        state[S.PLACED + owner] -= 1
    state[S.PRISONERS_UNDER + hex_index] = 0
    toggle_bit(state, S.RESOURCE_BITS + owner * S.WORDS, S.HEX_BRICK[hex_index])
    state[S.RESOURCE_AT + hex_index] = -1
    list_remove(state, S.RESOURCE_HEXES, S.MOST_RESOURCES, hex_index)
    state[S.HAND + seat] += 1


@njit(inline="always")
def after_placement(state, game, seat):
    """Placement turns alternate while both seats have defenders to place; then the main phase."""
    if state[S.UNPLACED] <= 0 and state[S.UNPLACED + 1] <= 0:
        state[S.PHASE] = MAIN
        state[S.ACTING_SEAT] = game[S.G_MAIN_FIRST]
        start_turn(state, game)
    elif state[S.UNPLACED + 1 - seat] > 0:
        state[S.ACTING_SEAT] = 1 - seat


@njit(inline="always")
def end_turn(state, game):
    if state[S.PHASE] == MAIN:
        state[S.MAIN_TURNS] += 1
    state[S.ACTING_SEAT] = 1 - state[S.ACTING_SEAT]
    state[S.SUBSTEP] = TURN_START
    state[S.SELECTED] = -1
    state[S.MOVED_DEFENDERS : S.MOVED_DEFENDERS + S.WORDS] = 0
    state[S.MOVES_THIS_TURN] = 0
    start_turn(state, game)


@njit(inline="always")
def start_turn(state, game):
    """Win check, then the turn limit, at the start of a main turn."""
    if state[S.PHASE] != MAIN or state[S.SUBSTEP] != TURN_START:
        return
    seat = state[S.ACTING_SEAT]
    if state[S.PLACED + seat] >= game[S.G_WIN_RESOURCES]:
        state[S.TERMINAL] = 1
        state[S.WINNER] = seat
    elif state[S.MAIN_TURNS] >= game[S.G_MAX_MAIN_TURNS]:
        state[S.TRUNCATED] = 1
