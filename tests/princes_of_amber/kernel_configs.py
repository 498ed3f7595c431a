"""Configurations and positions the kernel's differential tests share: every
player count, a small deck (the discard is reshuffled often), scripted dice,
a deck of two kinds, and the game's own test configurations."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import KIND_NAMES
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.state import AmberState

SMALL_DECK = {name: [[name.title(), 2]] for name in KIND_NAMES}  # 72 cards
CONFIGS = [
    {"num_players": 2, "dice_override": [4, 1, 6]},
    {"num_players": 3, "deck_counts": SMALL_DECK},
    {"num_players": 4, "deck_counts": SMALL_DECK, "starting_hand": 9},
    {"num_players": 5},
    {
        "num_players": 5,
        "deck_counts": {"FIGHT": [["Duel", 12]], "GOSSIP": [["Gossip", 1]]},
        "starting_hand": 2,
    },
    *AmberGame.test_configs,
]


def positions(game: AmberGame, seed: int, every: int) -> Iterator[AmberState]:
    """Copies of the positions of a random game, one every ``every`` steps (the deal first)."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not state.done:
        if step % every == 0:
            yield state.clone()
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        step += 1
