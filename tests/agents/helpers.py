"""Shared helpers for the agent tests: random positions and observation dicts."""

from __future__ import annotations

import numpy as np

from meeplezoo import envs
from tests.core.toy_game import HighCardGame


def observation_dict(state, seat: int) -> dict:
    """Exactly what the AEC env hands the seat to move."""
    return {"observation": state.observation(seat), "action_mask": state.legal_action_mask().astype(np.int8)}


def random_positions(game, count: int, seed: int, max_plies: int = 120):
    """``count`` running positions reached by random play of random length."""
    rng = np.random.default_rng(seed)
    out = []
    game_seed = 0
    while len(out) < count:
        state = game.new_initial_state(seed * 1000 + game_seed)
        game_seed += 1
        plies = int(rng.integers(0, max_plies))
        for _ in range(plies):
            if state.done:
                break
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(legal.size)]))
        if not state.done:
            out.append(state)
    return out


def all_games() -> list:
    """The toy game plus every registered game (default configuration)."""
    return [("high_card", lambda: HighCardGame(num_players=3))] + [
        (name, lambda name=name: envs.make_game(name)) for name in envs.names()
    ]
