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

from meeplezoo.envs import strip_version

DEFAULTS: dict[str, Any] = {
    # MaskablePPO
    "learning_rate": 3e-4,
    "n_steps": 1024,  # per env, per rollout
    # 80 gradient steps per rollout: with fewer (512 x 4) the policy hardly
    # moved on Gem Mountain (approx. KL ~ 0.001 per update)
    "batch_size": 128,
    "n_epochs": 10,
    "gamma": 0.995,
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
    "net_arch": [64, 64],
    "obs_transform": "symlog",  # or "none": see training/features.py
    # "mlp" flattens the observation; "cnn" convolves over the board planes
    # of games that declare them (Game.observation_planes); "board" adds a
    # policy head shared by all cells (Game.action_cells, training/policies.py)
    "features": "mlp",
    "cnn_channels": 32,
    # torch threads per process: one is fastest for these small MLPs on a few cores
    "torch_threads": 1,
    # weight of potential-based shaping by the learner's State.evaluate(viewer=seat) (training/selfplay.py)
    "reward_shaping": 0.0,
    # play the learner's forced moves (one legal action) inside the env
    "skip_forced": True,
    # opponent pool: weights per category ("self" is the current policy)
    # a large random share early gives the sparse end-of-game reward a clear
    # signal; the policy and its snapshots keep it from overfitting random play
    "league_self": 0.25,
    "league_snapshots": 0.2,
    "league_random": 0.55,
    "league_mcts": 0.0,
    "league_mcts_spec": "mcts:sims=20",
    "league_window": 5,
    "snapshot_every": 10_000,
    # checkpoints and evaluation
    "checkpoint_every": 10_000,
    "eval_every": 10_000,
    "eval_games": 40,
    "eval_mcts_spec": "mcts:sims=25",
    # evaluate the policy as trained (sampled); the greedy argmax of a policy
    # trained by sampling can loop in long games (seen on Princes of Amber)
    "eval_deterministic": False,
    "eval_mcts_games": 10,
    "final_games": 60,  # the closing arena run: trained, random and MCTS
    "final_workers": 2,
}

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
    """Defaults, then the game's table, then ``overrides`` (unknown keys fail)."""
    params = {**DEFAULTS, **GAMES.get(strip_version(game), {})}
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown training setting {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        params[key] = value
    return params


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
