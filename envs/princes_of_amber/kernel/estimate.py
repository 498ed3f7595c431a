"""The estimate of a position in the row (``AmberState._evaluate``): exact
returns once the game is over, else ``estimate.estimated_returns`` with the
same weights and the same float operations in the same order. Strength reads
only the table and the hand sizes, so every viewer gets the same estimate."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber import estimate as E
from meeplezoo.envs.princes_of_amber.cards import NUM_PRINCES
from meeplezoo.envs.princes_of_amber.kernel import rules
from meeplezoo.envs.princes_of_amber.kernel import slots as S

AMBER_HELD, AMBER_HOLD_GROWTH, FREE_PRINCE = E.AMBER_HELD, E.AMBER_HOLD_GROWTH, E.FREE_PRINCE
CAPTIVE_PRINCE, ARMY, CARD = E.CAPTIVE_PRINCE, E.ARMY, E.CARD
SHIFT_SHARE, STRENGTH_SPREAD_FLOOR = E.SHIFT_SHARE, E.STRENGTH_SPREAD_FLOOR
STILL_IN = 10  # rules.rank_values' key of a player still in


@njit
def strength(state, game, player):
    """Holding Amber (more the longer), free princes by health, captives, armies, cards."""
    total = 0.0
    if state[S.AMBER] == player:
        total += AMBER_HELD + AMBER_HOLD_GROWTH * state[S.HOLD_COUNT + player] / game[S.G_HOLD_TURNS]
    for prince in range(NUM_PRINCES):
        if state[S.CONTROLLER + prince] == player and state[S.ALIVE + prince]:
            health = max(state[S.HITS + prince], 0) / max(state[S.ATTRIBUTES + prince * 5], 1)
            value = CAPTIVE_PRINCE if state[S.CAPTURED + prince] else FREE_PRINCE + health
            total += value + ARMY * state[S.ARMIES + prince]
    return total + CARD * state[S.HAND_LENGTHS + player]


@njit
def evaluate(state, game, viewer, out):
    """Estimated returns per seat (``viewer`` plays no part: nothing hidden is read)."""
    if state[S.WINNER] >= 0 or state[S.TURN_LIMIT_REACHED]:
        rules.returns(state, game, out)
        return
    seats = state[S.NUM_PLAYERS]
    keys = np.zeros(seats, dtype=rules.KEY_TYPE)
    alive, first = 0, -1
    for player in range(seats):
        keys[player] = STILL_IN if state[S.IN_GAME + player] else state[S.ELIMINATION_ORDER + player]
        if state[S.IN_GAME + player]:
            alive += 1
            first = player if first < 0 else first
    rules.rank_values(keys, seats, out)
    if alive < 2:
        return
    shared = out[first]
    lowest = 1.0 - 2.0 * (alive - 1) / (seats - 1)
    room = SHIFT_SHARE * min(1.0 - shared, shared - lowest)
    total = 0.0
    for player in range(seats):
        if state[S.IN_GAME + player]:
            total += strength(state, game, player)
    mean = total / alive
    scale = 0.0
    for player in range(seats):
        if state[S.IN_GAME + player]:
            scale = max(scale, abs(strength(state, game, player) - mean))
    scale += STRENGTH_SPREAD_FLOOR
    for player in range(seats):
        if state[S.IN_GAME + player]:
            out[player] = shared + room * (strength(state, game, player) - mean) / scale
