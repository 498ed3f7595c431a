"""Shared machinery of every meeplezoo game: the rules-state contract, the one
AEC env, replays, and helpers for boards, cards, dice, turns and pictures."""

from meeplezoo.envs.core.ranking import rank_rewards, ranks
from meeplezoo.envs.core.state import (
    Game,
    GameInfo,
    State,
    clone_rng,
    derive_rng,
    make_rng,
    rng_from_dict,
    rng_to_dict,
)

__all__ = [
    "Game",
    "GameInfo",
    "State",
    "clone_rng",
    "derive_rng",
    "make_rng",
    "rng_from_dict",
    "rng_to_dict",
    "rank_rewards",
    "ranks",
]
