"""Settings of expert iteration: shared defaults, then one table per game.

Keys are flat, so ``--config key=value`` reaches any of them (game settings
go to the game). Self-play searches fewer simulations than evaluation play
(``sims`` against ``eval_sims``): more games per CPU minute matter more
early on than a sharper target per move.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs import strip_version

DEFAULTS: dict[str, Any] = {
    # search
    "sims": 32,  # simulations per self-play move
    "eval_sims": 64,  # simulations per move of the evaluated agent
    "c_puct": 1.25,
    "search_batch": 8,  # leaves in flight per search (virtual loss)
    "concurrent_games": 8,  # games a worker searches together (one network batch)
    "dirichlet_alpha": 0.3,
    "dirichlet_weight": 0.25,
    # weight of the game's own estimate in a leaf's value, in self-play and play (agents.puct):
    # a young network's value is noise; 0 is pure AlphaZero
    "value_mix": 0.5,
    "value_rollout": 0,  # random moves played past a leaf before the estimate is read
    # the prior ** (1 / T) in self-play and play (agents.puct): above 1 a young network's
    # confident mistakes cost less; 1 is the prior as it is
    "prior_temperature": 1.0,
    # weight of the root search's value in a position's value target, beside the final
    # result's (training.az.selfplay.blend_search_values); 0 is AlphaZero's final result alone
    "search_value_weight": 0.0,
    "temperature_moves": 20,  # moves per game sampled from the visits (then the most visited)
    "max_moves": 0,  # cut self-play games after this many moves, scored by evaluate() (0: never)
    # network
    "hidden": 128,
    "channels": 16,
    "body": "auto",  # cnn where the game declares board planes, else mlp
    # learner
    "learning_rate": 1e-3,
    "weight_decay": 1e-4,
    "batch_size": 256,
    "buffer_size": 50_000,  # positions kept
    # times each new position is used in training, on average (learning is cheap next to self-play)
    "train_ratio": 16.0,
    "value_weight": 1.0,
    "torch_threads": 1,
    # rounds, checkpoints, evaluation
    "games_per_round": 16,
    "eval_every": 64,  # self-play games between evaluations (0: only at the end)
    "eval_games": 20,
    "eval_mcts_spec": "mcts:sims=200",
    "checkpoint_every": 32,  # self-play games between network checkpoints
}

# eval_sims: about as many simulations as fit in mcts:sims=200's decision time
# on the same machine (benchmarks/results/az_<game>.md gives both times);
# max_moves: games that run to their turn limit under young networks are cut
# and scored by each mover's estimate, so a round of self-play ends in minutes.
# Amethyst and Amber's and Gold Rush Gangs' rows are the recipes of their shipped
# networks: self-play as strong as play (160 or 128 simulations over the estimate
# alone), so the prior learns from a search that already wins, and a flattened prior.
GAMES: dict[str, dict[str, Any]] = {
    "amethyst_amber": {
        "hidden": 64,
        "sims": 160,
        "eval_sims": 160,
        "value_mix": 1.0,
        "prior_temperature": 4.0,
        "max_moves": 160,
    },
    "amoeba": {"hidden": 64, "eval_sims": 160},
    "gem_mountain": {"hidden": 128, "eval_sims": 128},
    "gold_rush_gangs": {
        "hidden": 64,
        "sims": 128,
        "eval_sims": 128,
        "value_mix": 1.0,
        "prior_temperature": 4.0,
        "max_moves": 600,
    },
    "princes_of_amber": {"hidden": 128, "eval_sims": 160},
}


def play_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The search settings a network file carries for play: an ``az`` agent
    without ``sims=``, ``mix=``, ``rollout=`` or ``prior_temp=`` uses them."""
    return {
        "sims": int(settings["eval_sims"]),
        "mix": float(settings["value_mix"]),
        "rollout": int(settings["value_rollout"]),
        "prior_temperature": float(settings["prior_temperature"]),
    }


def az_settings(game: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults, then the game's table, then ``overrides`` (unknown keys fail)."""
    params = {**DEFAULTS, **GAMES.get(strip_version(game), {})}
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown az setting {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        params[key] = value
    return params
