"""The estimate of an unfinished position (``AmberState.evaluate``), for
search bots that stop their rollouts early (the rules page's "Position
estimate").

Each player still in gets a material *strength*; the players still in share
what their final ranks leave, shifted by how their strength compares. The
weights below were set by hand to follow that ranking of what matters (Amber
most, then free princes by health, then captives, armies and cards); they
were not fitted to play. Strength reads only the table and the hand sizes,
never a card in a hand or the deck, so every viewer gets the same estimate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.princes_of_amber.cards import NUM_PRINCES

AMBER_HELD = 6.0  # holding Amber at all
AMBER_HOLD_GROWTH = 4.0  # more, in proportion to the turns held towards a win
FREE_PRINCE = 1.5  # a free prince he controls, plus his health (0..1)
CAPTIVE_PRINCE = 0.4  # a captured prince he still controls
ARMY = 0.2  # each army on one of his living princes
CARD = 0.15  # each card in his hand
SHIFT_SHARE = 0.8  # how much of the room to the nearest rank value the shift may use
STRENGTH_SPREAD_FLOOR = 4.0  # keeps small strength gaps from moving the estimate far


def strength(state: Any, player: int) -> float:
    """Heuristic material of an in-game player: holding Amber (more the
    longer it is held), his free princes (weighted by health), captured
    princes a little, armies and cards in hand a little."""
    total = 0.0
    if state.amber == player:
        total += AMBER_HELD + AMBER_HOLD_GROWTH * state.hold_count[player] / state.game.hold_turns
    attributes, hits = state.attributes, state.hits
    for i in range(NUM_PRINCES):
        if state.controller[i] == player and state.alive[i]:
            health = max(hits[i], 0) / max(attributes[i][0], 1)
            total += (CAPTIVE_PRINCE if state.captured[i] else FREE_PRINCE + health) + ARMY * state.armies[i]
    return total + CARD * len(state.hands[player])


def estimated_returns(state: Any) -> np.ndarray:
    """Eliminated players keep their certain rank value and the players still
    in share the rest, shifted by how their strength compares (linear,
    zero-sum, kept inside the values their final ranks could take)."""
    num_players = state.num_players
    in_game, eliminated = state.in_game, state.elimination_order
    base = rank_rewards([(1, 0) if in_game[p] else (0, eliminated[p]) for p in range(num_players)])
    alive = [p for p in range(num_players) if in_game[p]]
    if len(alive) < 2:
        return base
    shared = float(base[alive[0]])
    lowest = 1.0 - 2.0 * (len(alive) - 1) / (num_players - 1)
    room = SHIFT_SHARE * min(1.0 - shared, shared - lowest)
    strengths = {p: strength(state, p) for p in alive}
    mean = sum(strengths.values()) / len(alive)
    deviation = {p: strengths[p] - mean for p in alive}
    scale = max(abs(gap) for gap in deviation.values()) + STRENGTH_SPREAD_FLOOR
    estimate = np.array(base, dtype=float)
    for p in alive:
        estimate[p] = shared + room * deviation[p] / scale
    return estimate
