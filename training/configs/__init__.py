"""Hyper-parameters for self-play training: shared defaults, then one
override table per game. Keys are flat so ``--config key=value`` reaches any.

PPO keys go to MaskablePPO; ``net_arch``, ``features`` and ``cnn_channels``
shape the policy network; the ``league_*`` keys shape the opponent pool
(weights per category, snapshot cadence and window, the MCTS spec);
``reward_shaping`` and ``skip_forced`` go to the self-play env; the rest drive
checkpoints and evaluation. Rewards arrive only at the end of a game, hence
gamma close to 1 unless a game's table shapes them (then a shorter horizon
credits each move with its own effect).
"""

from __future__ import annotations

from typing import Any

from meeplezoo.agents.registry import spec_option
from meeplezoo.envs import strip_version
from meeplezoo.envs.core.options import (
    Option,
    choice,
    custom,
    defaults_of,
    flag,
    integer,
    number,
    validated_config,
)


def _layer_widths(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(width, int) and not isinstance(width, bool) and 1 <= width <= 65_536 for width in value
    )


def _net_arch(value: Any, key: str, owner: str) -> list | dict:
    """Hidden layer widths shared by policy and value, or split as {"pi": [...], "vf": [...]}."""
    if _layer_widths(value):
        return list(value)
    if isinstance(value, dict) and set(value) == {"pi", "vf"} and all(map(_layer_widths, value.values())):
        return {part: list(widths) for part, widths in value.items()}
    raise ValueError(
        f'{owner}: {key} must be a list of layer widths or {{"pi": [...], "vf": [...]}}, got {value!r}'
    )


def _weight(default: float, doc: str) -> Option:
    return number(default, 0.0, 1000.0, doc)


# Every setting declared once (envs.core.options): its default, its range and
# what it does; hyperparams checks each value against it.
SETTINGS: dict[str, Option] = {
    # MaskablePPO
    "learning_rate": number(3e-4, 1e-9, 10.0, "Adam's step size"),
    "n_steps": integer(1024, 1, 1_000_000, "steps per env, per rollout"),
    # 80 gradient steps per rollout: with fewer (512 x 4) the policy hardly
    # moved on Gem Mountain (approx. KL ~ 0.001 per update)
    "batch_size": integer(128, 1, 1_000_000, "samples per gradient step"),
    "n_epochs": integer(10, 1, 1000, "passes over each rollout"),
    "gamma": number(0.995, 0.0, 1.0, "discount"),
    "gae_lambda": number(0.95, 0.0, 1.0, "GAE's bias-variance trade-off"),
    "clip_range": number(0.2, 1e-6, 10.0, "PPO's clip on the probability ratio"),
    "ent_coef": number(0.01, 0.0, 10.0, "weight of the entropy bonus"),
    "vf_coef": number(0.5, 0.0, 100.0, "weight of the value loss"),
    "max_grad_norm": number(0.5, 1e-6, 1e6, "gradient clipping norm"),
    "net_arch": custom([64, 64], "hidden layers", 'widths, or {"pi": [...], "vf": [...]}', _net_arch),
    "obs_transform": choice("symlog", ("symlog", "none"), "see training/features.py"),
    # "mlp" flattens the observation; "cnn" convolves over the board planes
    # of games that declare them (Game.observation_planes); "board" adds a
    # policy head shared by all cells (Game.action_cells, training/policies.py)
    "features": choice("mlp", ("mlp", "cnn", "board"), "the policy's feature extractor"),
    "cnn_channels": integer(32, 1, 1024, "channels of the convolutional features"),
    # one is fastest for these small MLPs on a few cores
    "torch_threads": integer(1, 1, 256, "torch threads per process"),
    # training/selfplay.py
    "reward_shaping": _weight(
        0.0, "weight of potential-based shaping by the learner's State.evaluate(viewer=seat)"
    ),
    "skip_forced": flag(True, "play the learner's forced moves (one legal action) inside the env"),
    # opponent pool: weights per category ("self" is the current policy)
    # a large random share early gives the sparse end-of-game reward a clear
    # signal; the policy and its snapshots keep it from overfitting random play
    "league_self": _weight(0.25, "share of games against the current policy"),
    "league_snapshots": _weight(0.2, "share against frozen snapshots of it"),
    "league_random": _weight(0.55, "share against random play"),
    "league_mcts": _weight(0.0, "share against league_mcts_spec"),
    "league_mcts_spec": spec_option("mcts:sims=20", "the search bot of the opponent pool"),
    "league_window": integer(5, 1, 10_000, "snapshots kept in the pool"),
    "snapshot_every": integer(10_000, 0, 10**12, "steps between snapshots (0: none)"),
    # checkpoints and evaluation
    "checkpoint_every": integer(10_000, 0, 10**12, "steps between checkpoints (0: none)"),
    "eval_every": integer(10_000, 0, 10**12, "steps between evaluations (0: none)"),
    "eval_games": integer(40, 0, 1_000_000, "games against random per evaluation"),
    "eval_mcts_spec": spec_option("mcts:sims=25", "the search bot evaluations play"),
    # evaluate the policy as trained (sampled); the greedy argmax of a policy
    # trained by sampling can loop in long games (seen on Princes of Amber)
    "eval_deterministic": flag(False, "evaluate the policy's most likely action instead of a sample"),
    "eval_mcts_games": integer(10, 0, 1_000_000, "games against eval_mcts_spec per evaluation"),
    "final_games": integer(60, 0, 1_000_000, "games of the closing arena run: trained, random and MCTS"),
    "final_workers": integer(2, 0, 256, "worker processes of that run"),
}
DEFAULTS: dict[str, Any] = defaults_of(SETTINGS)

GAMES: dict[str, dict[str, Any]] = {
    # Which tile to grab is the whole game against weak play, and it is a
    # per-cell choice: the board policy scores all cells with shared weights.
    # Shaping by the position estimate with a short horizon (gamma, lambda)
    # credits each grab with its own effect instead of the noise of the
    # whole rest of the game.
    "gem_mountain": {
        "features": "board",
        "reward_shaping": 1.0,
        "gamma": 0.9,
        "gae_lambda": 0.5,
    },
    "amethyst_amber": {},
    # games run to thousands of moves: shaping by the position estimate
    # (sacks delivered and carried home) gives a signal long before the end
    "gold_rush_gangs": {"reward_shaping": 1.0},
    "amoeba": {},
    "princes_of_amber": {},
}

PPO_KEYS = (
    "learning_rate",
    "n_steps",
    "batch_size",
    "n_epochs",
    "gamma",
    "gae_lambda",
    "clip_range",
    "ent_coef",
    "vf_coef",
    "max_grad_norm",
)


def hyperparams(game: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults, then the game's table, then ``overrides``: unknown keys and
    values out of range fail with a ValueError naming them."""
    params = {**DEFAULTS, **GAMES.get(strip_version(game), {})}
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown training setting {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        params[key] = value
    return validated_config(SETTINGS, params, "training setting")


def ppo_kwargs(params: dict[str, Any], game=None) -> dict[str, Any]:
    """The MaskablePPO constructor arguments among ``params``, the policy
    class included; ``game`` (a rules Game) supplies the board layout that
    ``features="cnn"`` and ``"board"`` need."""
    kwargs = {k: params[k] for k in PPO_KEYS}
    kwargs["policy"] = "MlpPolicy"
    arch = params["net_arch"]
    # a list is shared by policy and value; {"pi": [...], "vf": [...]} splits them
    arch = {k: list(v) for k, v in arch.items()} if isinstance(arch, dict) else list(arch)
    kwargs["policy_kwargs"] = {"net_arch": arch}
    features = params["features"]
    if features in ("cnn", "board"):
        planes = getattr(game, "observation_planes", None)
        if planes is None:
            raise ValueError(f"features={features!r} needs a game whose observation starts with board planes")
        from meeplezoo.training.features import PlanesCNN

        kwargs["policy_kwargs"]["features_extractor_class"] = PlanesCNN
        kwargs["policy_kwargs"]["features_extractor_kwargs"] = {
            "planes": tuple(planes),
            "channels": int(params["cnn_channels"]),
        }
        if features == "board":
            cells = getattr(game, "action_cells", None)
            if cells is None:
                raise ValueError("features='board' needs a game that declares action_cells")
            from meeplezoo.training.policies import BoardPolicy

            kwargs["policy"] = BoardPolicy
            kwargs["policy_kwargs"]["action_cells"] = [int(c) for c in cells]
            value_arch = arch.get("vf", []) if isinstance(arch, dict) else arch
            kwargs["policy_kwargs"]["net_arch"] = {"pi": [], "vf": list(value_arch)}
    elif features != "mlp":
        raise ValueError(f"features must be 'mlp', 'cnn' or 'board', got {features!r}")
    elif params["obs_transform"] == "symlog":
        from meeplezoo.training.features import SymlogFlatten

        kwargs["policy_kwargs"]["features_extractor_class"] = SymlogFlatten
    elif params["obs_transform"] != "none":
        raise ValueError(f"obs_transform must be 'symlog' or 'none', got {params['obs_transform']!r}")
    return kwargs


def league_weights(params: dict[str, Any]) -> dict[str, float]:
    return {
        "self": float(params["league_self"]),
        "snapshots": float(params["league_snapshots"]),
        "random": float(params["league_random"]),
        "mcts": float(params["league_mcts"]),
    }
