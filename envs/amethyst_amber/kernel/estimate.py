"""Amethyst and Amber's position estimate over a state row
(``AmethystAmberState.evaluate``, :mod:`meeplezoo.envs.amethyst_amber.heuristic`).

Nothing is hidden, so every viewer (and the whole state, viewer -1) gets
the same estimate: returns once the game is done, else ``CAP * tanh`` of
the scaled material-and-threat lead, summed in the reference's order.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.amethyst_amber.heuristic import CAP, SCALE, W_ATTACKER, W_HAND, W_PLACED, W_THREAT
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.rules import is_done, returns
from meeplezoo.envs.core.compiled.jit import njit

THREAT = np.array(W_THREAT, dtype=np.float64)


@njit
def seat_score(state, seat):
    """``seat_scores`` of one seat (resource equivalents)."""
    base = S.ATTACKER_HEXES + seat * S.MOST_ATTACKERS
    walking = 0
    while walking < S.MOST_ATTACKERS and state[base + walking] >= 0:
        walking += 1
    score = W_PLACED * state[S.PLACED + seat] + W_HAND * state[S.HAND + seat]
    score += W_ATTACKER * (state[S.RESERVE + seat] + walking)
    if walking == 0:
        return score
    for k in range(S.MOST_RESOURCES):
        h = state[S.RESOURCE_HEXES + k]
        if h < 0:
            break
        if state[S.RESOURCE_AT + h] == seat:
            continue
        nearest = S.HEX_DISTANCE[h, state[base]]
        for i in range(1, walking):
            nearest = min(nearest, S.HEX_DISTANCE[h, state[base + i]])
        if nearest < THREAT.shape[0]:
            score += THREAT[nearest]
    return score


@njit
def evaluate(state, game, viewer, out):
    """evaluate(viewer): returns once done, else the estimate (the same for every viewer)."""
    if is_done(state):
        returns(state, game, out)
        return
    lead = CAP * math.tanh(SCALE * (seat_score(state, 0) - seat_score(state, 1)))
    out[0] = lead
    out[1] = -lead
