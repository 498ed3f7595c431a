"""What each act does, in the row (``acts.py``'s records, switched on the
small integers of ``words``): its targets, whether it is playable, its
effect, a won Will contest's effect, and the act's start and resolution."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.acts import FURY_BONUS, Contest, Target, Timing
from meeplezoo.envs.princes_of_amber.cards import EXILE, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.kernel import cards, stack, throne
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel import words as W
from meeplezoo.envs.princes_of_amber.kernel.row_fields import EMPTY, WAR_WORDS

PRINCE_TARGET, PLAYER_TARGET = int(Target.PRINCE), int(Target.PLAYER)
RESPONSE = int(Timing.RESPONSE)
NO_CONTEST = int(Contest.NONE)
assert FURY_BONUS == 5


# ---- targets ------------------------------------------------------------------------------
@njit
def prince_is_target(state, player, which, prince):
    """Whether ``prince`` is among the targets listed by predicate ``which`` (not the losing side)."""
    alive, free = state[S.ALIVE + prince] != 0, throne.free(state, prince)
    owner, role = state[S.CONTROLLER + prince], state[S.ROLE + prince]
    rival = owner >= 0 and owner != player
    own_prince_of_owner = owner >= 0 and state[S.PLAYER_PRINCE + owner] == prince
    if which == W.T_FREE_ENEMIES:
        return free and owner != player
    if which == W.T_FREE_RIVALS:
        return free and rival
    if which == W.T_DOMINABLE:
        return free and owner != player and role == EXILE and not own_prince_of_owner
    if which == W.T_NEUTRAL_EXILES:
        return alive and owner < 0 and role == EXILE
    if which == W.T_RIVAL_ALLIES:
        return alive and rival and not own_prince_of_owner
    if which == W.T_INTRIGUE:
        return alive and ((owner < 0 and role == EXILE) or (rival and not own_prince_of_owner))
    if which == W.T_OWN_CAPTIVES:
        return alive and state[S.CAPTURED + prince] != 0 and owner == player
    if which == W.T_RIVAL_EXILES:
        return alive and role == EXILE and rival
    return False


@njit
def player_is_target(state, player, which, other):
    """Whether seat ``other`` (an opponent still in) is a target of predicate ``which``."""
    if other == player or not state[S.IN_GAME + other]:
        return False
    if which == W.T_EXILED_OPPONENTS:
        own = state[S.PLAYER_PRINCE + other]
        return own >= 0 and state[S.ALIVE + own] != 0 and state[S.ROLE + own] == EXILE
    return True


@njit
def write_targets(state, player, code, losing_at, out_at):
    """Write the targets of act ``code`` (princes, or seats in order after the
    player) from word ``out_at``; ``losing_at``: a losing side's list (-1: none). Returns the count."""
    which = W.ACT_TARGETS[code]
    count = 0
    if which == W.T_LOSING_SIDE:
        for k in range(state[losing_at]):
            prince = state[losing_at + 1 + k]
            if throne.free(state, prince) and state[S.CONTROLLER + prince] != player:
                state[out_at + count] = prince
                count += 1
    elif W.ACT_TARGET[code] == PLAYER_TARGET:
        seats = state[S.NUM_PLAYERS]
        for step in range(1, seats):
            other = (player + step) % seats
            if player_is_target(state, player, which, other):
                state[out_at + count] = other
                count += 1
    else:
        for prince in range(NUM_PRINCES):
            if prince_is_target(state, player, which, prince):
                state[out_at + count] = prince
                count += 1
    return count


@njit
def has_target(state, player, code):
    """Whether act ``code`` (not aimed at a losing side) has a target now."""
    which = W.ACT_TARGETS[code]
    if W.ACT_TARGET[code] == PLAYER_TARGET:
        seats = state[S.NUM_PLAYERS]
        for step in range(1, seats):
            if player_is_target(state, player, which, (player + step) % seats):
                return True
        return False
    for prince in range(NUM_PRINCES):
        if prince_is_target(state, player, which, prince):
            return True
    return False


@njit
def playable(state, player, prince, code):
    """Whether act ``code`` may be played now by ``player`` with ``prince`` (-1: a free card)."""
    which = W.ACT_PLAYABLE[code]
    if which == W.P_CAN_CONQUER:
        own = state[S.PLAYER_PRINCE + player]
        ok = throne.free(state, prince) and state[S.ROLE + prince] == EXILE and state[S.ARMIES + prince] >= 1
        if not (ok and own >= 0 and throne.free(state, own) and state[S.AMBER] != player):
            return False
    elif which == W.P_RIVAL_HOLDS_AMBER:
        amber = state[S.AMBER]
        if not (amber >= 0 and amber != player and state[S.IN_GAME + amber]):
            return False
    elif which == W.P_DECK_HAS_CARDS:
        if state[S.DRAW_COUNT] == 0 and state[S.DISCARD_COUNT] == 0:
            return False
    elif which == W.P_IS_WOUNDED:
        if state[S.HITS + prince] >= state[S.ATTRIBUTES + prince * 5]:
            return False
    if W.ACT_TARGETS[code] != 0 and W.ACT_TIMING[code] != RESPONSE:
        return has_target(state, player, code)
    return True


# ---- pushing frames -------------------------------------------------------------------------
@njit
def push_damage(state, victim, dealer):
    """A Damage frame of a die of hits (the die is rolled as the frame is made)."""
    amount = cards.d6(state)
    at = stack.push(state, W.DAMAGE)
    state[at + W.VICTIM], state[at + W.DEALER], state[at + W.AMOUNT] = victim, dealer, amount


@njit
def push_capture(state, victim, captor):
    at = stack.push(state, W.CAPTURE)
    state[at + W.VICTIM], state[at + W.CAPTOR] = victim, captor


@njit
def discard_to(state, player, count):
    """``player`` discards ``count`` cards of his choice (fewer if his hand is smaller)."""
    held = state[S.HAND_LENGTHS + player]
    if held > 0:
        at = stack.push(state, W.EFFECT_DISCARD)
        state[at + W.PLAYER], state[at + W.DISCARD_LEFT] = player, min(count, held)


@njit
def clear_war(state):
    state[S.WAR] = 0
    for k in range(1, WAR_WORDS):
        state[S.WAR + k] = EMPTY


@njit
def start_war(state, player, prince):
    """A war record (the lords at its start) and its WAR frame."""
    war = S.WAR
    for k in range(WAR_WORDS):
        state[war + k] = EMPTY
    state[war] = 1
    state[war + W.WAR_PLAYER], state[war + W.WAR_PRINCE], state[war + W.WAR_DEFENDER] = (
        player,
        prince,
        state[S.AMBER],
    )
    state[war + W.WALLS_BONUS], state[war + W.SHADOW_BONUS] = 0, 0
    state[war + W.SUPPORTERS], state[war + W.WAR_LOSING] = 0, 0
    state[war + W.WAR_ATTACK], state[war + W.WAR_DEFENCE], state[war + W.WAR_WON] = 0, 0, -1
    lords = 0
    for lord in range(NUM_PRINCES):
        if state[S.ROLE + lord] != EXILE and throne.free(state, lord):
            state[war + W.LORDS + 1 + lords] = lord
            lords += 1
    state[war + W.LORDS] = lords
    at = stack.push(state, W.WAR)
    state[at + W.PLAYER], state[at + W.PRINCE] = player, prince


# ---- effects --------------------------------------------------------------------------------
@njit
def effect(state, game, code, player, prince, target):
    """Act ``code`` takes effect (``prince`` -1: a free card; ``target`` -1: none)."""
    which = W.ACT_EFFECT[code]
    if which == 0:  # a response card: it acts through its window, never resolves
        return
    if which == W.E_FIGHT or which == W.E_WILL:
        at = stack.push(state, W.FIGHT if which == W.E_FIGHT else W.WILL)
        state[at + W.PLAYER], state[at + W.PRINCE], state[at + W.TARGET] = player, prince, target
        state[at + W.TARGET_CONTROLLER] = state[S.CONTROLLER + target]
        if which == W.E_WILL:
            state[at + W.WILL_CARD] = state[S.PENDING_ACT]
    elif which == W.E_WAR:
        start_war(state, player, prince)
    elif which == W.E_WOUND:
        push_damage(state, target, player)
    elif which == W.E_WIN_OVER:
        state[S.CONTROLLER + target] = player
    elif which == W.E_TURN_NEUTRAL:
        state[S.CONTROLLER + target] = -1
    elif which == W.E_TAKE_PRISONER:
        push_capture(state, target, player)
    elif which == W.E_FREE_PRISONER:
        throne.escape(state, target)
    elif which == W.E_BLESSING:
        state[S.EXTRA_TURNS + player] += 1
    else:
        card_effect(state, game, which, player, prince, target)


@njit
def card_effect(state, game, which, player, prince, target):
    """The effects that move cards or roll a die."""
    if which == W.E_WALK_THE_PATTERN:
        cards.draw(state, game, player, 3)
        discard_to(state, player, 2)
    elif which == W.E_LOOK_AHEAD:
        cards.peek(state, game, player, 7)
    elif which == W.E_GOSSIP:
        cards.reveal_hand(state, player, target)
    elif which == W.E_EXILE_DISCARD:
        discard_to(state, target, 3)
    elif which == W.E_DISTRACTIONS:
        discard_to(state, state[S.AMBER], 3)
    elif which == W.E_BIDE:
        cards.draw(state, game, player, 1)
    elif which == W.E_FORTUNE:
        if state[S.DRAW_COUNT] == 0 and state[S.DISCARD_COUNT] > 0:
            cards.reshuffle(state)
        cards.peek(state, game, player, cards.d6(state))
    else:
        dice_effect(state, which, player, prince, target)


@njit
def dice_effect(state, which, player, prince, target):
    """The effects that roll a die on the table."""
    roll = cards.d6(state)
    if which == W.E_AMNESIA:
        state[S.AMNESIA + target] = max(state[S.AMNESIA + target], roll)
    elif which == W.E_RECUPERATE:
        state[S.HITS + prince] = min(state[S.ATTRIBUTES + prince * 5], state[S.HITS + prince] + roll)
    elif which == W.E_INTRIGUE:
        if roll >= 5:
            state[S.CONTROLLER + target] = player if state[S.CONTROLLER + target] < 0 else -1
    elif which == W.E_RAISE_ARMY:
        if state[S.ROLE + prince] == EXILE:
            state[S.ARMIES + prince] += roll
        else:
            state[S.GARRISON] += roll
    elif which == W.E_ESCAPE_ROLL:
        if roll >= 5:
            throne.escape(state, prince)
    elif which == W.E_WALLS_OF_AMBER:
        state[S.WAR + W.WALLS_BONUS] += roll
    elif which == W.E_ARMY_LOSS:
        attacker = state[S.WAR + W.WAR_PRINCE]
        state[S.ARMIES + attacker] = max(0, state[S.ARMIES + attacker] - roll)


@njit
def will_won(state, will):
    """A won Will contest's effect (``will``: the contest frame's first word)."""
    which = W.ACT_WINS[state[will + W.WILL_CARD]]
    player, target, target_controller = (
        state[will + W.PLAYER],
        state[will + W.TARGET],
        state[will + W.TARGET_CONTROLLER],
    )
    if which == W.W_HOLD:
        state[S.PSYCHIC_HOLD + target] = 1
    elif which == W.W_CONTEST_OF_WILLS:
        if target_controller >= 0 and state[S.IN_GAME + target_controller]:
            discard_to(state, target_controller, 3)
    elif which == W.W_DOMINATE:
        state[S.CONTROLLER + target] = player
    elif which == W.W_PSYCHIC_ATTACK:
        push_damage(state, target, player)
    elif which == W.W_PROBE_MIND:
        if target_controller >= 0 and state[S.IN_GAME + target_controller]:
            cards.reveal_hand(state, player, target_controller)


# ---- an act begins ----------------------------------------------------------------------------
@njit
def start_act(state, game, player, prince, code):
    """The act is chosen and paid for: ask for its target or resolve it."""
    state[S.PENDING_ACT], state[S.ACTING_PRINCE], state[S.TARGET_PRINCE] = code, prince, -1
    clear_war(state)
    state[S.CONTEST_TYPE] = NO_CONTEST
    state[S.DAMAGED_PRINCE], state[S.DAMAGE_DEALER] = -1, -1
    target = W.ACT_TARGET[code]
    if W.ACT_CAPTIVE[code] and prince >= 0 and state[S.CAPTURED + prince]:
        resolve(state, game, player, prince, code, prince)
    elif target == PRINCE_TARGET or target == PLAYER_TARGET:
        at = stack.push(state, W.TARGET_PRINCE if target == PRINCE_TARGET else W.TARGET_PLAYER)
        state[at + W.PLAYER], state[at + W.PRINCE], state[at + W.ACT] = player, prince, code
    else:
        resolve(state, game, player, prince, code, -1)


@njit
def resolve(state, game, player, prince, code, target):
    """The act takes effect on its target (a prince or a seat; -1: none)."""
    state[S.TARGET_PRINCE] = target if W.ACT_TARGET[code] != PLAYER_TARGET else -1
    effect(state, game, code, player, prince, target)
