"""The decision frames in the row, as ``turn.py``, ``windows.py``,
``contests.py`` and ``wars.py`` ask and answer them: each writes its legal
actions into the row's ``legal`` list (in the reference's order), or says
the frame is skipped (-1); and applies a chosen action.

A card window offers the held response cards that fit it and PASS; it is
skipped when the player holds none and (with ``prompt_only_if_playable``, or
when public facts rule every such card out) saying so shows nothing."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.acts import FURY_BONUS, Contest
from meeplezoo.envs.princes_of_amber.cards import (
    A_CARD,
    A_END,
    A_NONCARD,
    A_PASS,
    A_PLAYER,
    A_SUPPORT,
    EXILE,
    NONCARD_BASE,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_PRINCES,
    WIT,
    Kind,
)
from meeplezoo.envs.princes_of_amber.kernel import acts, cards, stack, throne
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import words as W
from meeplezoo.envs.princes_of_amber.kernel.row_fields import EMPTY, FRAME_WORDS

SKIP = -1  # a frame the rules pass over
FIGHT_CONTEST, WILL_CONTEST, WAR_CONTEST = int(Contest.FIGHT), int(Contest.WILL), int(Contest.WAR)
BATTLE_WOUNDS = int(Kind.BATTLE_WOUNDS)
NO_PRINCE_LIMIT = 10**6  # state.NOBODY_HAS_A_PRINCE
ALL_KINDS = (1 << NUM_KINDS) - 1


# ---- the legal list ------------------------------------------------------------------------
@njit
def put(state, count, action):
    state[S.LEGAL + count] = action
    return count + 1


@njit
def finish(state, count):
    """End the legal list after ``count`` actions."""
    for k in range(count, NUM_ACTIONS):
        state[S.LEGAL + k] = EMPTY
    return count


@njit
def card_actions(state, player, kinds):
    """The card actions of the kinds (a bit per kind) ``player`` holds, in kind order; returns the count."""
    count = 0
    for kind in range(NUM_KINDS):
        if kinds >> kind & 1 and state[S.HAND_KINDS + player * NUM_KINDS + kind] > 0:
            count = put(state, count, A_CARD + kind)
    return count


@njit
def might_hold(state, game, player, kinds):
    """Whether public facts leave ``player`` possibly holding a card of ``kinds``:
    his hand is not empty and not every copy lies in the discard."""
    if state[S.HAND_LENGTHS + player] == 0:
        return False
    for kind in range(NUM_KINDS):
        if kinds >> kind & 1:
            discarded = 0
            for k in range(state[S.DISCARD_COUNT]):
                if game[S.G_CARD_KIND + state[S.DECK_END - 1 - k]] == kind:
                    discarded += 1
            if game[S.G_KIND_COPIES + kind] > discarded:
                return True
    return False


@njit
def offer_window(state, game, player, kinds):
    """A card window for ``player``: the held cards of ``kinds`` and PASS, or SKIP."""
    if player < 0 or not state[S.IN_GAME + player]:
        return SKIP
    count = card_actions(state, player, kinds)
    if count == 0 and (game[S.G_PROMPT_ONLY_IF_PLAYABLE] or not might_hold(state, game, player, kinds)):
        return SKIP
    return finish(state, put(state, count, A_PASS))


@njit
def fits(state, which, at):
    """Whether a response with fit test ``which`` answers the window at ``at``."""
    if which == 0:
        return True
    if which == W.FIT_ALLY:
        victim = state[at + W.FOLLOWUP_VICTIM]
        owner = state[S.CONTROLLER + victim]
        return owner >= 0 and owner != state[at + W.PLAYER] and state[S.PLAYER_PRINCE + owner] != victim
    against = state[at + W.AGAINST]
    if which == W.FIT_WILL:
        return against == WILL_CONTEST
    if which == W.FIT_WAR:
        return against == WAR_CONTEST
    exile = state[S.ROLE + state[at + W.NEGATE_PRINCE]] == EXILE
    if which == W.FIT_FIGHT_ON_EXILE:
        return against == FIGHT_CONTEST and exile
    if which == W.FIT_FIGHT_ON_LORD:
        return against == FIGHT_CONTEST and not exile
    return against == FIGHT_CONTEST


@njit
def answers(state, at):
    """The card kinds (a bit each) that may answer the window frame at ``at``."""
    phase = W.PHASE_OF[state[at]]
    kinds = 0
    for kind in range(NUM_KINDS):
        if W.ACT_WINDOW[kind] == phase and fits(state, W.ACT_FITS[kind], at):
            kinds |= 1 << kind
    return kinds


@njit
def legal_window(state, game, at):
    return offer_window(state, game, state[at + W.PLAYER], answers(state, at))


@njit
def advance_queue(state, at):
    """The window passes to the next player of the frame's queue, or closes."""
    length = state[at + W.QUEUE]
    if length > 0:
        state[at + W.PLAYER] = state[at + W.QUEUE + 1]
        for k in range(1, length):
            state[at + W.QUEUE + k] = state[at + W.QUEUE + k + 1]
        state[at + W.QUEUE + length] = EMPTY
        state[at + W.QUEUE] = length - 1
    else:
        stack.pop(state)


@njit
def legal_queued_window(state, game, at):
    """The first player in the queue who may answer gets the window; SKIP once it is exhausted."""
    while True:
        count = legal_window(state, game, at)
        if count != SKIP:
            return count
        if state[at + W.QUEUE] == 0:
            return SKIP
        advance_queue(state, at)


# ---- the turn's decisions ---------------------------------------------------------------------
@njit
def legal_fate_discard(state, game, player):
    if not state[S.IN_GAME + player]:
        return SKIP
    own = state[S.PLAYER_PRINCE + player]
    limit = state[S.ATTRIBUTES + own * 5 + WIT] if own >= 0 else NO_PRINCE_LIMIT
    if state[S.HAND_LENGTHS + player] <= limit:
        return SKIP
    return finish(state, card_actions(state, player, ALL_KINDS))


@njit
def legal_action_select(state, game, player):
    """Princes that may act, playable free cards held, END; SKIP when only END is left and saying so shows nothing."""
    if not state[S.IN_GAME + player]:
        return SKIP
    count = 0
    for prince in range(NUM_PRINCES):
        if (
            state[S.CONTROLLER + prince] == player
            and state[S.ALIVE + prince]
            and not state[S.ACTED + prince]
            and not state[S.AMNESIA + prince]
        ):
            count = put(state, count, prince)
    playable_kinds = 0
    for kind in W.FREE_CARDS:
        if acts.playable(state, player, -1, kind):
            playable_kinds |= 1 << kind
            if state[S.HAND_KINDS + player * NUM_KINDS + kind] > 0:
                count = put(state, count, A_CARD + kind)
    if count == 0 and (
        game[S.G_PROMPT_ONLY_IF_PLAYABLE]
        or playable_kinds == 0
        or not might_hold(state, game, player, playable_kinds)
    ):
        return SKIP
    return finish(state, put(state, count, A_END))


@njit
def legal_choose(state, game, player, prince):
    count = 0
    held = S.HAND_KINDS + player * NUM_KINDS
    if state[S.CAPTURED + prince]:
        for code in W.CAPTIVE_NONCARDS:
            count = put(state, count, A_NONCARD + code - NONCARD_BASE)
        for kind in W.CAPTIVE_CARDS:
            if state[held + kind] > 0:
                count = put(state, count, A_CARD + kind)
        return finish(state, count)
    for kind in W.PRINCE_ACTION_CARDS:
        if state[held + kind] > 0 and acts.playable(state, player, prince, kind):
            count = put(state, count, A_CARD + kind)
    for code in W.PRINCE_ACTION_NONCARDS:
        if acts.playable(state, player, prince, code):
            count = put(state, count, A_NONCARD + code - NONCARD_BASE)
    return finish(state, count)


@njit
def legal_target_player(state, player, code):
    count = acts.write_targets(state, player, code, -1, S.LEGAL)
    seats = state[S.NUM_PLAYERS]
    for k in range(count):
        state[S.LEGAL + k] = A_PLAYER + (state[S.LEGAL + k] - player) % seats
    return finish(state, count)


@njit
def legal_succession(state, player):
    """A living prince of his own, else a neutral exile; with neither he is out."""
    if not state[S.IN_GAME + player] or state[S.PLAYER_PRINCE + player] >= 0:
        return SKIP
    count = 0
    for prince in range(NUM_PRINCES):
        if state[S.ALIVE + prince] and state[S.CONTROLLER + prince] == player:
            count = put(state, count, prince)
    if count == 0:
        for prince in range(NUM_PRINCES):
            if (
                state[S.ALIVE + prince]
                and state[S.CONTROLLER + prince] < 0
                and state[S.ROLE + prince] == EXILE
            ):
                count = put(state, count, prince)
    if count == 0:
        throne.eliminate(state, player)
        return SKIP
    return finish(state, count)


@njit
def declined(state, at, player):
    for k in range(state[at + W.DECLINED]):
        if state[at + W.DECLINED + 1 + k] == player:
            return True
    return False


@njit
def legal_appoint(state, game, at):
    """Free exiles for the vacant regencies: neutral ones, or (if the game allows
    offers) those of other players who have not declined."""
    holder = state[at + W.PLAYER]
    if state[S.AMBER] != holder or not state[S.IN_GAME + holder] or throne.first_vacant_post(state) < 0:
        return SKIP
    count = 0
    for prince in range(NUM_PRINCES):
        if state[S.ALIVE + prince] and not state[S.CAPTURED + prince] and state[S.ROLE + prince] == EXILE:
            owner = state[S.CONTROLLER + prince]
            if owner < 0 or (
                game[S.G_REGENT_OFFERS]
                and owner != holder
                and state[S.IN_GAME + owner]
                and not declined(state, at, owner)
            ):
                count = put(state, count, prince)
    if count == 0:
        return SKIP
    return finish(state, put(state, count, A_PASS))


@njit
def legal(state, game, at):
    """The legal actions of the decision frame at ``at`` (written to the row), or SKIP."""
    code, player = state[at], state[at + W.PLAYER]
    if code == W.FATE_DISCARD:
        return legal_fate_discard(state, game, player)
    if code == W.ACTION_SELECT:
        return legal_action_select(state, game, player)
    if code == W.CHOOSE_ACTION:
        return legal_choose(state, game, player, state[at + W.PRINCE])
    if code == W.TARGET_PRINCE:
        return finish(state, acts.write_targets(state, player, state[at + W.ACT], at + W.TP_LOSING, S.LEGAL))
    if code == W.TARGET_PLAYER:
        return legal_target_player(state, player, state[at + W.ACT])
    if code == W.FURY or code == W.DEATH:
        return legal_queued_window(state, game, at)
    if code == W.SUPPORT:
        return finish(state, put(state, put(state, 0, A_SUPPORT), A_PASS))
    if code == W.SUCCESSION:
        return legal_succession(state, player)
    if code == W.APPOINT:
        return legal_appoint(state, game, at)
    if code == W.REGENT_OFFER:
        return finish(state, put(state, put(state, 0, state[at + W.PRINCE]), A_PASS))
    if code == W.EFFECT_DISCARD:
        return legal_effect_discard(state, at, player)
    return legal_guarded_window(state, game, at)


@njit
def legal_effect_discard(state, at, player):
    if (
        not state[S.IN_GAME + player]
        or state[at + W.DISCARD_LEFT] <= 0
        or state[S.HAND_LENGTHS + player] == 0
    ):
        return SKIP
    return finish(state, card_actions(state, player, ALL_KINDS))


@njit
def legal_guarded_window(state, game, at):
    """The windows with a condition of their own (Block, Damage follow-up, Call the Guards, War follow-up)."""
    code, player = state[at], state[at + W.PLAYER]
    if code == W.BLOCK and state[S.ARMIES + state[S.WAR + W.WAR_PRINCE]] <= 0:
        return SKIP
    if code == W.DAMAGE_FOLLOWUP and not throne.free(state, state[at + W.FOLLOWUP_VICTIM]):
        return SKIP
    if code == W.CALL_GUARDS:
        prince = state[at + W.PRINCE]
        if not (throne.free(state, prince) and state[S.ROLE + prince] == EXILE):
            return SKIP
    if code == W.WAR_FOLLOWUP:
        if not state[S.IN_GAME + player]:
            return SKIP
        if acts.write_targets(state, player, BATTLE_WOUNDS, at + W.WF_LOSING, S.LEGAL) == 0:
            return SKIP
    return legal_window(state, game, at)


# ---- answers ------------------------------------------------------------------------------------
@njit
def respond(state, game, at, kind):
    """A response card was played in the window at ``at``: what its record does."""
    which = W.ACT_RESPOND[kind]
    player = state[at + W.PLAYER]
    if which == W.R_NEGATE or which == W.R_SURVIVE:
        stack.pop(state)
        below = stack.top(state)
        word = W.NOT_REALLY_DEAD if which == W.R_SURVIVE else W.NEGATED_WORD[state[below]]
        state[below + word] = 1
    elif which == W.R_BLOCK:
        effect = stack.push(state, W.BLOCK_EFFECT)
        state[effect + W.BLOCK_CARD] = kind
        mastery = stack.push(state, W.SHADOW_MASTERY)
        state[mastery + W.PLAYER] = state[S.WAR + W.WAR_PLAYER]
    elif which == W.R_SHADOW_ARMIES:
        state[S.WAR + W.SHADOW_BONUS] += cards.d6(state)
    elif which == W.R_AIM:
        state[S.PENDING_ACT] = kind
        aim = stack.push(state, W.TARGET_PRINCE)
        state[aim + W.PLAYER], state[aim + W.PRINCE], state[aim + W.ACT] = player, -1, kind
        for k in range(1 + state[at + W.WF_LOSING]):
            state[aim + W.TP_LOSING + k] = state[at + W.WF_LOSING + k]
    elif which == W.R_FURY:
        will = at - FRAME_WORDS  # the Will contest just below its Fury window
        side = W.ATTACKER_FURY if player == state[will + W.PLAYER] else W.DEFENDER_FURY
        state[will + side] += FURY_BONUS
        advance_queue(state, at)
    elif which == W.R_MERCY:
        victim = state[at + W.FOLLOWUP_VICTIM]
        stack.pop(state)
        state[S.CONTROLLER + victim] = -1
    else:
        victim = state[at + W.FOLLOWUP_VICTIM] if which == W.R_CAPTURE_VICTIM else state[at + W.PRINCE]
        stack.pop(state)
        acts.push_capture(state, victim, player)


@njit
def apply_window(state, game, at, action, queued):
    """PASS closes the window (or passes it down its queue); a card is paid, then responds."""
    if action == A_PASS:
        if queued:
            advance_queue(state, at)
        else:
            stack.pop(state)
        return
    kind = action - A_CARD
    cards.take_card(state, game, state[at + W.PLAYER], kind)
    respond(state, game, at, kind)


@njit
def apply_turn_decision(state, game, at, action):
    """Fate discard, action select, choose action and the two targets."""
    code, player = state[at], state[at + W.PLAYER]
    if code == W.FATE_DISCARD:
        cards.take_card(state, game, player, action - A_CARD)
    elif code == W.ACTION_SELECT:
        if action == A_END:
            stack.pop(state)
        elif action < NUM_PRINCES:
            choose = stack.push(state, W.CHOOSE_ACTION)
            state[choose + W.PLAYER], state[choose + W.PRINCE] = player, action
            state[S.ACTING_PRINCE] = action
        else:
            cards.take_card(state, game, player, action - A_CARD)
            acts.start_act(state, game, player, -1, action - A_CARD)
    elif code == W.CHOOSE_ACTION:
        prince = state[at + W.PRINCE]
        stack.pop(state)
        state[S.ACTED + prince] = 1
        if action >= A_NONCARD:
            acts.start_act(state, game, player, prince, NONCARD_BASE + action - A_NONCARD)
        else:
            cards.take_card(state, game, player, action - A_CARD)
            acts.start_act(state, game, player, prince, action - A_CARD)
    else:
        prince, act = state[at + W.PRINCE], state[at + W.ACT]
        stack.pop(state)
        if code == W.TARGET_PLAYER:
            action = (player + action - A_PLAYER) % state[S.NUM_PLAYERS]
        acts.resolve(state, game, player, prince, act, action)


@njit
def apply(state, game, at, action):
    """The decision frame at ``at`` (the top) is answered with ``action``."""
    code, player = state[at], state[at + W.PLAYER]
    if code <= W.TARGET_PLAYER and code >= W.FATE_DISCARD:
        apply_turn_decision(state, game, at, action)
    elif code == W.SUPPORT:
        if action == A_SUPPORT:
            war = S.WAR + W.SUPPORTERS
            state[war + 1 + state[war]] = player
            state[war] += 1
        advance_queue(state, at)
    elif code == W.SUCCESSION:
        stack.pop(state)
        state[S.PLAYER_PRINCE + player], state[S.CONTROLLER + action] = action, player
    elif code == W.APPOINT:
        if action == A_PASS:
            stack.pop(state)
        elif state[S.CONTROLLER + action] < 0:
            throne.fill_post(state, action)
        else:
            offer = stack.push(state, W.REGENT_OFFER)
            state[offer + W.PLAYER], state[offer + W.PRINCE] = state[S.CONTROLLER + action], action
    elif code == W.REGENT_OFFER:
        prince = state[at + W.PRINCE]
        stack.pop(state)
        if action == A_PASS:
            appoint = stack.top(state)
            state[appoint + W.DECLINED + 1 + state[appoint + W.DECLINED]] = player
            state[appoint + W.DECLINED] += 1
        else:
            throne.fill_post(state, prince)
    elif code == W.EFFECT_DISCARD:
        cards.take_card(state, game, player, action - A_CARD)
        state[at + W.DISCARD_LEFT] -= 1
    else:
        apply_window(state, game, at, action, code == W.FURY or code == W.DEATH)
