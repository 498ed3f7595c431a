"""Gold Rush Gangs' compiled rules over a state row and a game row: the legal
mask, apply (moves, deliveries, fights), the turn order, returns and the
game's end (``rules.py``'s ``GoldRushGangsState`` and ``actions.py`` are the
reference; the differential tests hold them equal).

Every function takes ``state`` (the int64 row of
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`, its generator words
included) and ``game`` (``kernel.game_row.game_row(game)``).
"""

from __future__ import annotations

from meeplezoo.envs.core.compiled.batch import pick_legal
from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.kernel.deck import (
    discard,
    draw,
    new_game,  # noqa: F401 - part of this module's API
    rank_of,
)
from meeplezoo.envs.gold_rush_gangs.kernel.setup import advance_setup, mark_setup, play_setup
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    BANK,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NUM_ORIGINS,
    NUM_SEATS,
    PRO,
)

NOWHERE = -1


@njit_borrowing
def is_done(state):
    """Won or cut short at the turn limit."""
    return state[S.WINNER] >= 0 or state[S.IS_TRUNCATED] != 0


@njit_borrowing
def current_player(state):
    """The seat to move, -1 once the game is over or cut short."""
    return -1 if is_done(state) else state[S.ACTING_SEAT]


@njit_borrowing
def is_terminal(state):
    """A gang has delivered the sacks that win."""
    return state[S.WINNER] >= 0


@njit_borrowing
def is_truncated(state):
    """The turn limit came before a winner."""
    return state[S.IS_TRUNCATED] != 0 and state[S.WINNER] < 0


@njit_borrowing
def bank_broken(state, game, seat):
    """bank_broken: the damage (shared, or the seat's own) has reached the threshold."""
    damage = state[S.BANK_DAMAGE + (seat if game[S.G_PER_PLAYER_BANK] else 0)]
    return damage >= game[S.G_BANK_THRESHOLD]


@njit_borrowing
def has_gold(state, cell):
    """Some sack lies on ``cell`` (the reference's ``cell in sacks``)."""
    for origin in range(NUM_ORIGINS):
        if state[S.SACKS + cell * NUM_ORIGINS + origin]:
            return True
    return False


@njit_borrowing
def mark_moves(state, game, seat, mask):
    """_move_legal: an active thief with the AP for the step onto a free on-board
    cell, not another gang's base nor a standing bank; a carrier not onto gold."""
    points = state[S.ACTION_POINTS]
    if points <= 0:
        return
    bank = NOWHERE if bank_broken(state, game, seat) else game[S.G_BANK]
    for slot in range(GANG_SIZE):
        unit = GANG_SIZE * seat + slot
        if state[S.UNIT_STATUS + unit] != ACTIVE:
            continue
        carries = state[S.UNIT_CARRYING + unit] >= 0
        if points < (2 if slot == PRO or carries else 1):
            continue
        cell = state[S.UNIT_CELL + unit]
        for direction in range(S.NUM_DIRECTIONS):
            absolute = game[S.G_DIRECTION_TO_ABSOLUTE + seat * S.NUM_DIRECTIONS + direction]
            target = game[S.G_NEIGHBORS + cell * S.NUM_DIRECTIONS + absolute]
            if target < 0 or target == bank or state[S.OCCUPANT + target] >= 0:
                continue
            owner = game[S.G_BASE_OWNER + target]
            if (owner >= 0 and owner != seat) or (carries and has_gold(state, target)):
                continue
            mask[game[S.G_BLOCK_MOVE] + S.NUM_DIRECTIONS * slot + direction] = True


@njit_borrowing
def mark_pickups_and_breaks(state, game, seat, mask):
    """_pickup_legal (free) and _break_legal (1 AP, next to a standing bank)."""
    can_break = state[S.ACTION_POINTS] > 0 and not bank_broken(state, game, seat)
    for slot in range(GANG_SIZE):
        unit = GANG_SIZE * seat + slot
        if state[S.UNIT_STATUS + unit] != ACTIVE:
            continue
        cell = state[S.UNIT_CELL + unit]
        if state[S.UNIT_CARRYING + unit] < 0:
            pile = S.SACKS + cell * NUM_ORIGINS
            total = 0
            for origin in range(NUM_ORIGINS):
                total += state[pile + origin]
            if total > state[pile + seat]:
                mask[game[S.G_BLOCK_PICKUP] + slot] = True
        if can_break and game[S.G_AROUND_BANK + cell]:
            mask[game[S.G_BLOCK_BREAK] + slot] = True


@njit_borrowing
def legal_mask(state, game, mask):
    """legal_action_mask(): none once done; a setup step with no placement offers END."""
    mask[:] = False
    if is_done(state):
        return
    seat = state[S.ACTING_SEAT]
    if state[S.PHASE] == MOVEMENT:
        mark_moves(state, game, seat, mask)
        mark_pickups_and_breaks(state, game, seat, mask)
        mask[game[S.G_BLOCK_END]] = True
    elif not mark_setup(state, game, seat, mask):
        mask[game[S.G_BLOCK_END]] = True


@njit_borrowing
def start_turn(state, game):
    """_start_turn: thieves sent home come back after missing a turn; the gang gets its AP."""
    seat = state[S.ACTING_SEAT]
    for unit in range(GANG_SIZE * seat, GANG_SIZE * seat + GANG_SIZE):
        if state[S.UNIT_STATUS + unit] == INCAPACITATED:
            if state[S.UNIT_TURNS_TO_MISS + unit] == 0:
                state[S.UNIT_STATUS + unit] = ACTIVE
            else:
                state[S.UNIT_TURNS_TO_MISS + unit] -= 1
    state[S.ACTION_POINTS] = game[S.G_BASE_AP] + state[S.DELIVERED + seat]


@njit_borrowing
def end_turn(state, game):
    """end_turn: the turn limit truncates; else the next seat starts its turn."""
    state[S.TURNS] += 1
    if state[S.TURNS] >= game[S.G_MAX_TURNS]:
        state[S.IS_TRUNCATED] = 1
        return
    state[S.ACTING_SEAT] = (state[S.ACTING_SEAT] + 1) % NUM_SEATS
    start_turn(state, game)


@njit_borrowing
def is_next_to(game, cell, other):
    """``other`` is one of the six cells around ``cell``."""
    for direction in range(S.NUM_DIRECTIONS):
        if game[S.G_NEIGHBORS + cell * S.NUM_DIRECTIONS + direction] == other:
            return True
    return False


@njit_borrowing
def support(state, game, unit):
    """_support: the thief's cards plus those of active friends next to it."""
    seat = unit // GANG_SIZE
    cell = state[S.UNIT_CELL + unit]
    cards = S.SLOT_CARDS_TABLE[unit - GANG_SIZE * seat]
    for friend in range(GANG_SIZE * seat, GANG_SIZE * seat + GANG_SIZE):
        if friend != unit and state[S.UNIT_STATUS + friend] == ACTIVE:
            if is_next_to(game, cell, state[S.UNIT_CELL + friend]):
                cards += S.SLOT_CARDS_TABLE[friend - GANG_SIZE * seat]
    return cards


@njit_borrowing
def send_home(state, game, unit):
    """_send_home: the loser drops its sack (bank gold back to the bank) and misses a turn at home."""
    cell = state[S.UNIT_CELL + unit]
    carrying = state[S.UNIT_CARRYING + unit]
    if carrying >= 0:
        spot = game[S.G_BANK] if carrying == BANK else cell
        state[S.SACKS + spot * NUM_ORIGINS + carrying] += 1
        state[S.UNIT_CARRYING + unit] = NOWHERE
    if state[S.OCCUPANT + cell] == unit:
        state[S.OCCUPANT + cell] = NOWHERE
    state[S.UNIT_CELL + unit] = game[S.G_HOMES + unit // GANG_SIZE]
    state[S.UNIT_STATUS + unit] = INCAPACITATED
    state[S.UNIT_TURNS_TO_MISS + unit] = 1


@njit_borrowing
def fight(state, game, attacker, defender, index):
    """_fight (the ``index``-th of the action): both draw, attacker first; the higher
    top rank wins, ties to the attacker; the loser goes home. True if the attacker won."""
    record = S.LAST_COMBAT + index * S.FIGHT_WORDS
    attack, defence = support(state, game, attacker), support(state, game, defender)
    best_attack, best_defence = 0, 0
    for k in range(attack):
        card = draw(state, game)
        state[record + S.FIGHT_ATTACK + k] = card
        best_attack = max(best_attack, rank_of(card))
    for k in range(defence):
        card = draw(state, game)
        state[record + S.FIGHT_DEFENCE + k] = card
        best_defence = max(best_defence, rank_of(card))
    for k in range(attack):
        discard(state, game, state[record + S.FIGHT_ATTACK + k])
    for k in range(defence):
        discard(state, game, state[record + S.FIGHT_DEFENCE + k])
    won = best_attack >= best_defence
    state[record], state[record + 1], state[record + S.FIGHT_WON] = attacker, defender, won
    send_home(state, game, defender if won else attacker)
    return won


@njit_borrowing
def fight_neighbours(state, game, unit, cell):
    """fight_neighbours: the mover fights each enemy next to it (next gang first), stopping at a loss."""
    enemies = S.ENEMY_TABLE[unit // GANG_SIZE]
    around = 0  # bit k: enemy k stood next to the new cell before the first fight
    for k in range(enemies.shape[0]):
        foe = enemies[k]
        if state[S.UNIT_STATUS + foe] == ACTIVE and is_next_to(game, cell, state[S.UNIT_CELL + foe]):
            around |= 1 << k
    fought = 0
    for k in range(enemies.shape[0]):
        if around >> k & 1 and state[S.UNIT_STATUS + enemies[k]] == ACTIVE:
            fought += 1
            if not fight(state, game, unit, enemies[k], fought - 1):
                return


@njit_borrowing
def move(state, game, index):
    """_move: pay the step, deliver on entering the own base (the last sack wins), then fight."""
    seat = state[S.ACTING_SEAT]
    slot, direction = index // S.NUM_DIRECTIONS, index % S.NUM_DIRECTIONS
    unit = GANG_SIZE * seat + slot
    cell = state[S.UNIT_CELL + unit]
    absolute = game[S.G_DIRECTION_TO_ABSOLUTE + seat * S.NUM_DIRECTIONS + direction]
    target = game[S.G_NEIGHBORS + cell * S.NUM_DIRECTIONS + absolute]
    carrying = state[S.UNIT_CARRYING + unit]
    state[S.ACTION_POINTS] -= 2 if slot == PRO or carrying >= 0 else 1
    state[S.OCCUPANT + cell] = NOWHERE
    state[S.UNIT_CELL + unit] = target
    if target != game[S.G_HOMES + seat]:  # the home cell holds the whole gang
        state[S.OCCUPANT + target] = unit
    if carrying >= 0 and game[S.G_BASE_OWNER + target] == seat:
        state[S.UNIT_CARRYING + unit] = NOWHERE
        state[S.DELIVERED + seat] += 1
        if game[S.G_DELIVERY_BONUS_NOW]:
            state[S.ACTION_POINTS] += 1
        if state[S.DELIVERED + seat] >= game[S.G_WIN_SACKS]:
            state[S.WINNER] = seat
            return
    fight_neighbours(state, game, unit, target)


@njit_borrowing
def pick_up(state, seat, slot):
    """_pick_up: the first origin of PICKUP_ORDER lying there."""
    unit = GANG_SIZE * seat + slot
    pile = S.SACKS + state[S.UNIT_CELL + unit] * NUM_ORIGINS
    for origin in S.PICKUP_TABLE[seat]:
        if state[pile + origin]:
            state[pile + origin] -= 1
            state[S.UNIT_CARRYING + unit] = origin
            return


@njit_borrowing
def apply_action(state, game, action):
    """_apply_action of a legal ``action``: the last fights are cleared, then its block's effect."""
    for k in range(S.MOST_FIGHTS * S.FIGHT_WORDS):
        state[S.LAST_COMBAT + k] = NOWHERE
    seat = state[S.ACTING_SEAT]
    if action >= game[S.G_BLOCK_END]:
        if state[S.PHASE] == MOVEMENT:
            end_turn(state, game)
        elif advance_setup(state, game):
            start_turn(state, game)
    elif action >= game[S.G_BLOCK_BREAK]:
        state[S.ACTION_POINTS] -= 1
        state[S.BANK_DAMAGE + (seat if game[S.G_PER_PLAYER_BANK] else 0)] += 1
    elif action >= game[S.G_BLOCK_PICKUP]:
        pick_up(state, seat, action - game[S.G_BLOCK_PICKUP])
    elif action >= game[S.G_BLOCK_MOVE]:
        move(state, game, action - game[S.G_BLOCK_MOVE])
    elif play_setup(state, game, action):
        start_turn(state, game)


@njit_borrowing
def returns(state, game, out):
    """returns(): the winner +1 (the others -0.5 when zero-sum, else 0); a truncated
    game 0 each, or ranked by deliveries (+1 / 0 / -1, ties averaged)."""
    out[:] = 0.0
    winner = state[S.WINNER]
    if winner >= 0:
        if game[S.G_ZERO_SUM]:
            out[:] = -0.5
        out[winner] = 1.0
    elif state[S.IS_TRUNCATED] and game[S.G_RANK_AT_TRUNCATION]:
        rank_rewards(state, out)


@njit_borrowing
def rank_rewards(state, out):
    """ranking.rank_rewards of the deliveries for three seats: values 1, 0, -1 by rank, ties share."""
    for seat in range(NUM_SEATS):
        ahead, level = 0, 0
        for other in range(NUM_SEATS):
            if state[S.DELIVERED + other] > state[S.DELIVERED + seat]:
                ahead += 1
            elif state[S.DELIVERED + other] == state[S.DELIVERED + seat]:
                level += 1
        out[seat] = 1.0 - (2 * ahead + level - 1) / 2.0


@njit_borrowing
def play_random(state, game, gen, mask, max_steps):
    """Play uniformly random legal actions (the k-th legal one, k drawn from
    ``gen``) until the game is done or ``max_steps``; returns the steps taken."""
    steps = 0
    while steps < max_steps and not is_done(state):
        legal_mask(state, game, mask)
        apply_action(state, game, pick_legal(mask, gen))
        steps += 1
    return steps
