"""Settings of expert iteration: shared defaults, then one table per game.

Keys are flat, so ``--config key=value`` reaches any of them (game settings
go to the game). Self-play searches fewer simulations than evaluation play
(``sims`` against ``eval_sims``): more games per CPU minute matter more
early on than a sharper target per move.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.agents.registry import spec_option
from meeplezoo.envs import strip_version
from meeplezoo.envs.core.options import Option, choice, defaults_of, flag, integer, number, validated_config

# Every setting declared once (envs.core.options): its default, its range and
# what it does; az_settings checks each value against it.
SETTINGS: dict[str, Option] = {
    # search
    "sims": integer(32, 1, 100_000, "simulations per self-play move"),
    "eval_sims": integer(64, 1, 100_000, "simulations per move of the evaluated agent"),
    "c_puct": number(1.25, 0.0, 100.0, "weight of the prior in PUCT's exploration term"),
    "search_batch": integer(8, 1, 1024, "leaves in flight per search (virtual loss)"),
    "search_backend": choice(
        "auto", ("auto", "compiled", "python"), "tree and game in the kernel (auto: where the game has one)"
    ),
    "concurrent_games": integer(8, 1, 4096, "games a worker searches together (one network batch)"),
    "dirichlet_alpha": number(0.3, 1e-6, 100.0, "concentration of the root's Dirichlet noise"),
    "dirichlet_weight": number(0.25, 0.0, 1.0, "share of that noise in the root's prior"),
    # a young network's value is noise; 0 is pure AlphaZero
    "value_mix": number(
        0.5, 0.0, 1.0, "weight of the game's own estimate in a leaf's value, in self-play and play"
    ),
    "value_rollout": integer(0, 0, 10_000, "random moves played past a leaf before the estimate is read"),
    # above 1 a young network's confident mistakes cost less; 1 is the prior as it is
    "prior_temperature": number(
        1.0, 0.01, 100.0, "the prior is raised to 1 / T in self-play and play (agents.puct)"
    ),
    # training.az.selfplay.blend_search_values; 0 is AlphaZero's final result alone
    "search_value_weight": number(
        0.0, 0.0, 1.0, "weight of the root search's value in a position's value target"
    ),
    # training.az.selfplay.margin_values; KataGo's score utility beside the result
    "margin_value_weight": number(
        0.0, 0.0, 1.0, "weight of a finished game's squashed score margin in its value targets"
    ),
    "margin_scale": number(1.0, 1e-6, 1e6, "the score margin worth tanh(1) of a win in that target"),
    # training.az.ownership; KataGo's final ownership beside the result
    "ownership_weight": number(
        0.0, 0.0, 100.0, "weight of the loss on who holds each cell at the end (ownership planes)"
    ),
    "temperature_moves": integer(
        20, 0, 1_000_000, "moves per game sampled from the visits (then the most visited)"
    ),
    "max_moves": integer(
        0, 0, 1_000_000, "cut self-play games after this many moves, scored by evaluate() (0: never)"
    ),
    # network
    "hidden": integer(128, 1, 4096, "width of the network's hidden layers"),
    "channels": integer(16, 1, 1024, "channels of the convolutional body"),
    "body": choice("auto", ("auto", "cnn", "mlp"), "cnn where the game declares board planes, else mlp"),
    # learner
    "learning_rate": number(1e-3, 1e-9, 10.0, "the learner's step size (AdamW)"),
    "weight_decay": number(1e-4, 0.0, 1.0, "AdamW's weight decay"),
    "batch_size": integer(256, 1, 65_536, "positions per learner step"),
    "buffer_size": integer(50_000, 1, 10_000_000, "positions kept"),
    # learning is cheap next to self-play
    "train_ratio": number(16.0, 0.0, 10_000.0, "times each new position is used in training, on average"),
    "value_weight": number(1.0, 0.0, 1000.0, "weight of the value loss beside the policy loss"),
    "torch_threads": integer(1, 1, 256, "torch threads of the learner"),
    # AlphaGo Zero's augmentation: more positions per self-play game, for games with a symmetric board
    "augment": flag(False, "train on a random symmetry of each position (games that declare symmetries)"),
    # rounds, checkpoints, evaluation
    "games_per_round": integer(16, 1, 1_000_000, "self-play games between learner rounds"),
    "eval_every": integer(64, 0, 100_000_000, "self-play games between evaluations (0: only at the end)"),
    "eval_games": integer(20, 0, 1_000_000, "games per evaluation against the eval_mcts_spec agent"),
    "eval_mcts_spec": spec_option("mcts:sims=200", "the agent evaluations play against"),
    "checkpoint_every": integer(32, 0, 100_000_000, "self-play games between network checkpoints (0: none)"),
}
DEFAULTS: dict[str, Any] = defaults_of(SETTINGS)

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
    """The search settings a network file carries for play, by the names an
    ``az`` spec gives them: an agent that does not name one uses the file's."""
    return {
        "sims": int(settings["eval_sims"]),
        "value_mix": float(settings["value_mix"]),
        "value_rollout": int(settings["value_rollout"]),
        "prior_temperature": float(settings["prior_temperature"]),
    }


def az_settings(game: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults, then the game's table, then ``overrides``: unknown keys and
    values out of range fail with a ValueError naming them."""
    params = {**DEFAULTS, **GAMES.get(strip_version(game), {})}
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown az setting {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        params[key] = value
    return validated_config(SETTINGS, params, "az setting")
