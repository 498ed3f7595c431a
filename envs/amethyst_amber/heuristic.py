"""Position estimate for unfinished games (``State.evaluate``).

Random play rarely finishes a game of Amethyst and Amber (captures need an
attacker walked several hexes to a target), so a search that stops its
rollouts early needs a value for the position it stops in. Each seat gets a
material score counted in "resource equivalents":

* placed resources of its colour (the win condition) and resources in hand
  (their placement is forced on the next turn);
* attackers still in play (on the board or in reserve; prisoners are lost);
* threats: for every resource the seat may take (neutral, or the
  opponent's), the hex distance from the seat's nearest attacker on the
  board, worth more the closer it is.

The value is ``tanh`` of the score difference, scaled, and capped below 1,
so a finished game (+-1) always counts more than any estimate. The two
seats get exact opposites, and the score reads the same for either seat
under the board's 180-degree rotation, so neither colour is favoured.
"""

from __future__ import annotations

import math

import numpy as np

W_PLACED = 1.0
W_HAND = 0.9
W_ATTACKER = 0.25
# threat on one capturable resource by the nearest attacker at distance d
# (1 = it can take it next turn), counted once per resource
W_THREAT = (0.0, 0.4, 0.2, 0.1, 0.05, 0.025)
SCALE = 0.4  # tanh slope per resource equivalent of lead
CAP = 0.95  # estimates stay inside (-CAP, CAP)


def seat_scores(state) -> tuple[float, float]:
    """Material-and-threat score of each seat (resource equivalents)."""
    dist = state.game.hex_distance
    resource_at, attackers = state.resource_at, state.attacker_hexes
    out = []
    for p in (0, 1):
        score = W_PLACED * state.placed[p] + W_HAND * state.hand[p]
        score += W_ATTACKER * (state.reserve[p] + len(attackers[p]))
        mine = attackers[p]
        if mine:
            for h in state.resource_hexes:
                if resource_at[h] == p:
                    continue
                row = dist[h]
                d = min(row[a] for a in mine)
                if d < len(W_THREAT):
                    score += W_THREAT[d]
        out.append(score)
    return out[0], out[1]


def evaluate(state) -> np.ndarray:
    if state.done:
        return np.asarray(state.returns(), dtype=np.float64)
    s0, s1 = seat_scores(state)
    v = CAP * math.tanh(SCALE * (s0 - s1))
    return np.array([v, -v], dtype=np.float64)
