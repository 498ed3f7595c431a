"""A seat's observation from the row, entry for entry as
``observe_reference.encode_reference`` defines it (and ``observe.encode``
computes it): only public facts, the seat's own hand and its own memories.
Values are computed in float64 and stored in the float32 vector, as the
reference's numpy assignments round them."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.cards import EXILE, KING, LEADERSHIP, NUM_KINDS, NUM_PRINCES, WIT, Phase
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import stack
from meeplezoo.envs.princes_of_amber.kernel import words as W
from meeplezoo.envs.princes_of_amber.kernel.row_fields import FRAME_WORDS, MOST_PLAYERS, SEEN_CAPACITY
from meeplezoo.envs.princes_of_amber.observe import (
    O_AMBER,
    O_CONTEST,
    O_DECK,
    O_HAND,
    O_KNOWN,
    O_MISC,
    O_PENDING,
    O_PHASE,
    O_PLAYERS,
    O_TOP,
    OBS_SIZE,
    PLAYER_W,
    PRINCE_W,
    TOP_W,
)

GAME_OVER = int(Phase.GAME_OVER)
NO_PRINCE_LIMIT = 10**6


@njit
def relative(seat, viewer, seats):
    """A seat as the viewer numbers them (5: nobody)."""
    return (seat - viewer) % seats if seat >= 0 else 5


@njit
def prince_block(state, viewer, out):
    seats = state[S.NUM_PLAYERS]
    for prince in range(NUM_PRINCES):
        at = prince * PRINCE_W
        for column in range(5):
            out[at + column] = state[S.ATTRIBUTES + prince * 5 + column] / 12.0
        out[at + 5] = state[S.HITS + prince] / 12.0
        out[at + 6] = state[S.ALIVE + prince]
        out[at + 7 + state[S.ROLE + prince]] = 1.0
        owner = state[S.CONTROLLER + prince]
        out[at + 12 + relative(owner, viewer, seats)] = 1.0
        if owner >= 0 and state[S.PLAYER_PRINCE + owner] == prince:
            out[at + 18] = 1.0
        out[at + 19] = state[S.CAPTURED + prince]
        out[at + 20 + relative(state[S.JAILER + prince], viewer, seats)] = 1.0
        out[at + 26] = min(1.0, state[S.ARMIES + prince] / 20.0)
        out[at + 27] = min(1.0, state[S.AMNESIA + prince] / 6.0)
        out[at + 28] = state[S.PSYCHIC_HOLD + prince]
        out[at + 29] = state[S.ACTED + prince]


@njit
def free_exile_of(state, player, prince):
    return (
        state[S.CONTROLLER + prince] == player
        and state[S.ALIVE + prince]
        and not state[S.CAPTURED + prince]
        and state[S.ROLE + prince] == EXILE
    )


@njit
def prince_flags(state, top, out):
    """Columns 30..34: the acting prince, the target shown, the damaged prince, a war's losing and attacking sides."""
    shown = state[S.TARGET_PRINCE]
    if top >= 0 and state[top] == W.REGENT_OFFER:
        shown = state[top + W.PRINCE]
    if state[S.ACTING_PRINCE] >= 0:
        out[state[S.ACTING_PRINCE] * PRINCE_W + 30] = 1.0
    if shown >= 0:
        out[shown * PRINCE_W + 31] = 1.0
    if state[S.DAMAGED_PRINCE] >= 0:
        out[state[S.DAMAGED_PRINCE] * PRINCE_W + 32] = 1.0
    if state[S.WAR] == 0:
        return
    losing = S.WAR + W.WAR_LOSING
    for k in range(state[losing]):
        out[state[losing + 1 + k] * PRINCE_W + 33] = 1.0
    attacker, player = state[S.WAR + W.WAR_PRINCE], state[S.WAR + W.WAR_PLAYER]
    for prince in range(NUM_PRINCES):
        if prince == attacker or free_exile_of(state, player, prince):
            out[prince * PRINCE_W + 34] = 1.0


@njit
def declined(state, top, seat):
    """Whether ``seat`` turned down a regency in the appointment under way."""
    appoint = -1
    if top >= 0 and state[top] == W.APPOINT:
        appoint = top
    elif top >= 0 and state[top] == W.REGENT_OFFER and stack.depth(state) > 1:
        appoint = top - FRAME_WORDS
    if appoint < 0:
        return False
    for k in range(state[appoint + W.DECLINED]):
        if state[appoint + W.DECLINED + 1 + k] == seat:
            return True
    return False


@njit
def amber_and_players(state, game, viewer, top, out):
    seats = state[S.NUM_PLAYERS]
    out[O_AMBER + relative(state[S.AMBER], viewer, seats)] = 1.0
    out[O_AMBER + 6] = min(1.0, state[S.GARRISON] / 30.0)
    vacant = True
    for prince in range(NUM_PRINCES):
        vacant = vacant and state[S.ROLE + prince] != KING
    if vacant:
        out[O_AMBER + 7] = 1.0
    for step in range(seats):
        seat = (viewer + step) % seats
        free = 0
        for prince in range(NUM_PRINCES):
            if (
                state[S.CONTROLLER + prince] == seat
                and state[S.ALIVE + prince]
                and not state[S.CAPTURED + prince]
            ):
                free += 1
        at = O_PLAYERS + PLAYER_W * step
        out[O_AMBER + 8 + step] = min(1.0, state[S.HOLD_COUNT + seat] / game[S.G_HOLD_TURNS])
        out[at] = state[S.IN_GAME + seat]
        out[at + 1] = min(1.0, state[S.HAND_LENGTHS + seat] / 10.0)
        out[at + 2] = 1.0 if state[S.TURN_PLAYER] == seat else 0.0
        out[at + 3] = (state[S.ELIMINATION_ORDER + seat] + 1) / 5.0
        out[at + 4] = min(1, state[S.EXTRA_TURNS + seat])
        out[at + 5] = free / 9.0
        out[at + 6] = 1.0 if declined(state, top, seat) else 0.0


@njit
def memories_and_deck(state, game, viewer, out):
    seats = state[S.NUM_PLAYERS]
    for depth in range(SEEN_CAPACITY):
        kind = state[S.KNOWN_TOP + viewer * SEEN_CAPACITY + depth]
        out[O_TOP + depth * TOP_W + (kind if kind >= 0 else NUM_KINDS)] = 1.0
    for kind in range(NUM_KINDS):
        out[O_HAND + kind] = min(1.0, state[S.HAND_KINDS + viewer * NUM_KINDS + kind] * 0.25)
    for step in range(1, seats):
        known = S.KNOWN_HAND + (viewer * MOST_PLAYERS + (viewer + step) % seats) * NUM_KINDS
        if state[known] >= 0:
            for kind in range(NUM_KINDS):
                out[O_KNOWN + (step - 1) * NUM_KINDS + kind] = min(1.0, state[known + kind] * 0.25)
    out[O_DECK] = state[S.DRAW_COUNT] / 100.0
    out[O_DECK + 1] = state[S.DISCARD_COUNT] / 100.0
    for k in range(state[S.DISCARD_COUNT]):
        out[O_DECK + 2 + game[S.G_CARD_KIND + state[S.DECK_END - 1 - k]]] += 1.0
    for kind in range(NUM_KINDS):
        out[O_DECK + 2 + kind] = min(out[O_DECK + 2 + kind] / 8.0, 1.0)


@njit
def support_leadership(state):
    """The Leadership the supporters of the war add (their free exiles')."""
    total = 0
    supporters = S.WAR + W.SUPPORTERS
    for k in range(state[supporters]):
        for prince in range(NUM_PRINCES):
            if free_exile_of(state, state[supporters + 1 + k], prince):
                total += state[S.ATTRIBUTES + prince * 5 + LEADERSHIP]
    return total


@njit
def decision(state, game, viewer, top, out):
    """The phase, the pending act, the contest and the war, the discard owed, the dealer, the turn count."""
    out[O_PHASE + (W.PHASE_OF[state[top]] if top >= 0 else GAME_OVER)] = 1.0
    if state[S.PENDING_ACT] >= 0:
        out[O_PENDING + state[S.PENDING_ACT]] = 1.0
    contest = state[S.CONTEST_TYPE]
    if contest:
        out[O_CONTEST + contest - 1] = 1.0
        out[O_CONTEST + 3] = state[S.CONTEST_TOTALS] / 40.0
        out[O_CONTEST + 4] = state[S.CONTEST_TOTALS + 1] / 40.0
    if state[S.WAR]:
        out[O_CONTEST + 5] = state[S.ARMIES + state[S.WAR + W.WAR_PRINCE]] / 20.0
        out[O_CONTEST + 6] = state[S.GARRISON] / 30.0
        out[O_CONTEST + 7] = state[S.WAR + W.SHADOW_BONUS] / 12.0
        out[O_CONTEST + 8] = state[S.WAR + W.WALLS_BONUS] / 12.0
        out[O_CONTEST + 9] = support_leadership(state) / 30.0
    if top >= 0 and state[top] == W.EFFECT_DISCARD:
        out[O_MISC] = state[top + W.DISCARD_LEFT] / 3.0
    elif top >= 0 and state[top] == W.FATE_DISCARD:
        player = state[top + W.PLAYER]
        own = state[S.PLAYER_PRINCE + player]
        limit = state[S.ATTRIBUTES + own * 5 + WIT] if own >= 0 else NO_PRINCE_LIMIT
        out[O_MISC] = (state[S.HAND_LENGTHS + player] - limit) / 3.0
    if state[S.DAMAGE_DEALER] == viewer:
        out[O_MISC + 1] = 1.0
    out[O_MISC + 2] = state[S.TURNS] / game[S.G_MAX_TURNS]


@njit
def observe(state, game, viewer, out):
    """Write ``viewer``'s observation (OBS_SIZE float32) into ``out``."""
    for k in range(OBS_SIZE):
        out[k] = 0.0
    top = stack.top(state) if state[S.DECIDING_PLAYER] >= 0 else -1
    prince_block(state, viewer, out)
    prince_flags(state, top, out)
    amber_and_players(state, game, viewer, top, out)
    memories_and_deck(state, game, viewer, out)
    decision(state, game, viewer, top, out)
    for k in range(OBS_SIZE):
        out[k] = min(max(out[k], 0.0), 1.0)
