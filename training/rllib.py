"""Self-play training on Ray RLlib (new API stack) for any meeplezoo game.

``train_rllib`` builds a PPO algorithm whose modules are
:class:`meeplezoo.training.rllib_module.MaskedPPOTorchRLModule` (illegal actions get
probability zero), over the game wrapped by :mod:`meeplezoo.training.rllib_env`.

Two layouts of modules, chosen by ``policy_mode``:

- ``shared`` (default): one trained module ``main`` plays the learner's seat
  (drawn per episode); every other seat plays ``main`` too with probability
  ``self_play_prob``, otherwise a frozen snapshot ``snapshot_k``. Every
  ``snapshot_every`` iterations the oldest snapshot is overwritten by the
  current ``main`` (a league window of the last ``snapshots`` versions).
- ``per_seat``: one trained module per seat, ``seat_0`` .. ``seat_{n-1}``.

It runs on a local Ray instance by default, or on an existing cluster given
its address (``auto`` or ``ray://host:port``).
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.agents.arena_ray import connect
from meeplezoo.training.runs import (
    DEFAULT_SEED,
    check_run_folder,
    clear_run_folder,
    load_run_file,
    resumed_seed,
    split_config,
)

RLLIB_RUN_FILE = "rllib_run.json"
# what an RLlib run writes in its folder: --overwrite removes these first
RUN_ENTRIES = (RLLIB_RUN_FILE, "checkpoint", "arena")


@dataclass
class RLlibSettings:
    game: str
    players: int | None = None
    game_config: dict[str, Any] = field(default_factory=dict)
    policy_mode: str = "shared"  # or "per_seat"
    snapshots: int = 3
    snapshot_every: int = 2  # training iterations
    self_play_prob: float = 0.5
    num_env_runners: int = 1
    train_batch_size: int = 1000
    minibatch_size: int = 250
    num_epochs: int = 4
    lr: float = 3e-4
    entropy_coeff: float = 0.01
    hidden: tuple[int, ...] = (128, 128)
    seed: int = 0

    def __post_init__(self) -> None:
        self.game = envs.resolve(self.game)
        if self.policy_mode not in ("shared", "per_seat"):
            raise ValueError("policy_mode must be 'shared' or 'per_seat'")
        if self.players is not None:
            self.game_config = {**self.game_config, "num_players": self.players}
        if self.snapshots < 0 or self.snapshot_every < 1:
            raise ValueError("snapshots must be >= 0 and snapshot_every >= 1")
        if not 0.0 <= self.self_play_prob <= 1.0:
            raise ValueError("self_play_prob must lie in [0, 1]")
        self.hidden = tuple(int(h) for h in self.hidden)

    @property
    def num_players(self) -> int:
        return envs.make_game(self.game, **self.game_config).num_players

    @classmethod
    def from_overrides(
        cls,
        game: str,
        players: int | None,
        overrides: dict[str, Any],
        seed: int | None,
        num_env_runners: int,
    ) -> RLlibSettings:
        """Split ``--config`` pairs into trainer settings and game config
        (:func:`meeplezoo.training.runs.split_config`: a key that is neither
        is refused, naming both lists)."""
        known = set(cls.__dataclass_fields__) - {"game", "players", "game_config", "seed", "num_env_runners"}
        game_config, trainer = split_config(game, overrides, dict.fromkeys(known), "trainer setting (RLlib)")
        return cls(
            game=game,
            players=players,
            game_config=game_config,
            seed=DEFAULT_SEED if seed is None else seed,
            num_env_runners=num_env_runners,
            **trainer,
        )


def resumed_settings(run_dir: str | Path, num_env_runners: int, seed: int | None = None) -> RLlibSettings:
    """The settings a run folder was trained with (the resume rule of
    :mod:`meeplezoo.training.runs`: its game and seed stay; only the number
    of env runners may change)."""
    saved = load_run_file(Path(run_dir) / RLLIB_RUN_FILE, ("settings",))["settings"]
    resumed_seed(saved.get("seed", DEFAULT_SEED), seed, run_dir)
    return RLlibSettings(**{**saved, "hidden": tuple(saved["hidden"]), "num_env_runners": num_env_runners})


def prepare_new_run(out: Path, overwrite: bool = False) -> None:
    """Refuse a folder that holds another RLlib run unless ``overwrite``
    (then remove what that run wrote)."""
    check_run_folder(out, RLLIB_RUN_FILE, overwrite)
    if overwrite:
        clear_run_folder(out, RUN_ENTRIES)


def trained_modules(settings: RLlibSettings) -> list[str]:
    if settings.policy_mode == "per_seat":
        return [f"seat_{i}" for i in range(settings.num_players)]
    return ["main"]


def all_modules(settings: RLlibSettings) -> list[str]:
    frozen = [f"snapshot_{k}" for k in range(settings.snapshots)] if settings.policy_mode == "shared" else []
    return trained_modules(settings) + frozen


def mapping_fn(settings: RLlibSettings) -> Callable[..., str]:
    """Seat -> module for one episode, a pure function of the episode id."""
    n, mode = settings.num_players, settings.policy_mode
    snapshots, p_self = settings.snapshots, settings.self_play_prob

    def agent_to_module(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        seat = int(str(agent_id).rsplit("_", 1)[1])
        if mode == "per_seat":
            return f"seat_{seat}"
        key = zlib.crc32(str(getattr(episode, "id_", "")).encode())
        if seat == key % n or snapshots == 0:
            return "main"
        draw = zlib.crc32(f"{key}:{seat}".encode())
        if (draw % 1000) / 1000.0 < p_self:
            return "main"
        return f"snapshot_{(draw // 1000) % snapshots}"

    return agent_to_module


def build_config(settings: RLlibSettings):
    """The PPOConfig for these settings."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from meeplezoo.training import rllib_env
    from meeplezoo.training.rllib_module import MaskedPPOTorchRLModule

    rllib_env.register()
    model_config = {
        "fcnet_hiddens": list(settings.hidden),
        "fcnet_activation": "tanh",
        "vf_share_layers": False,
    }
    specs = {
        mid: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model_config)
        for mid in all_modules(settings)
    }
    return (
        PPOConfig()
        # RLlib's env check steps random (unmasked) actions, which our env rejects.
        .environment(
            rllib_env.ENV_NAME,
            env_config={"game": settings.game, "game_config": settings.game_config},
            disable_env_checking=True,
        )
        .framework("torch")
        .env_runners(
            num_env_runners=settings.num_env_runners, num_envs_per_env_runner=1, num_cpus_per_env_runner=1
        )
        .learners(num_learners=0)
        .multi_agent(
            policies=set(all_modules(settings)),
            policy_mapping_fn=mapping_fn(settings),
            policies_to_train=trained_modules(settings),
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=settings.train_batch_size,
            minibatch_size=settings.minibatch_size,
            num_epochs=settings.num_epochs,
            lr=settings.lr,
            entropy_coeff=settings.entropy_coeff,
        )
        .debugging(seed=settings.seed)
    )


def refresh_snapshot(algo, settings: RLlibSettings, index: int) -> str:
    """Overwrite snapshot ``index`` with the current ``main`` weights, on the
    learner and on every env runner."""
    sid = f"snapshot_{index % settings.snapshots}"
    main_state = algo.learner_group.get_state(components="learner/rl_module/main")
    state = main_state["learner"]["rl_module"]["main"]
    algo.learner_group.set_state({"learner": {"rl_module": {sid: state}}})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[sid], inference_only=True
    )
    return sid


def module_checkpoint(run_dir: str | Path, module_id: str = "main") -> Path:
    """Folder of one RLModule inside an algorithm checkpoint."""
    return Path(run_dir) / "checkpoint" / "learner_group" / "learner" / "rl_module" / module_id


def env_steps(result: dict) -> int:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    return int(result.get(ENV_RUNNER_RESULTS, {}).get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))


def train_rllib(
    settings: RLlibSettings,
    timesteps: int,
    out: str | Path,
    resume: bool = False,
    address: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train until ``timesteps`` env steps have been sampled in total;
    checkpoint to ``out/checkpoint``. Returns a summary dict."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    connect(address, num_cpus=max(2, settings.num_env_runners + 1) if not address else None)
    checkpoint = out / "checkpoint"
    algo, iterations, done_steps = _start_algorithm(settings, out, resume and checkpoint.exists())
    start_steps, started = done_steps, time.perf_counter()
    iterations, done_steps = _train_until(algo, settings, timesteps, iterations, done_steps, progress)
    seconds = time.perf_counter() - started
    algo.save_to_path(str(checkpoint.resolve()))
    summary = {
        "backend": "rllib",
        "settings": {**asdict(settings), "hidden": list(settings.hidden)},
        "iterations": iterations,
        "env_steps": done_steps,
        "env_steps_this_run": done_steps - start_steps,
        "seconds": seconds,
        "env_steps_per_second": (done_steps - start_steps) / seconds if seconds > 0 else 0.0,
        "checkpoint": str(checkpoint),
        "trained_modules": trained_modules(settings),
    }
    (out / RLLIB_RUN_FILE).write_text(json.dumps(summary, indent=1))
    algo.stop()
    log(
        f"rllib: {summary['env_steps_this_run']} env steps in {seconds:.0f}s "
        f"({summary['env_steps_per_second']:.0f} steps/s); checkpoint {checkpoint}"
    )
    return summary


def _start_algorithm(settings: RLlibSettings, out: Path, from_checkpoint: bool):
    """(algorithm, iterations, env steps so far): restored from the run's
    checkpoint, or built fresh with every snapshot a copy of ``main``."""
    from ray.rllib.algorithms.algorithm import Algorithm

    if from_checkpoint:
        algo = Algorithm.from_checkpoint(str((out / "checkpoint").resolve()))
        state = json.loads((out / RLLIB_RUN_FILE).read_text())
        return algo, state["iterations"], state["env_steps"]
    algo = build_config(settings).build_algo()
    if settings.policy_mode == "shared":
        for k in range(settings.snapshots):
            refresh_snapshot(algo, settings, k)
    return algo, 0, 0


def _train_until(
    algo, settings: RLlibSettings, timesteps: int, iterations: int, done_steps: int, progress: bool
):
    """Training iterations until ``timesteps`` env steps in all, refreshing a
    snapshot every ``snapshot_every``; returns (iterations, env steps)."""
    from tqdm import tqdm

    bar = tqdm(
        total=max(timesteps, done_steps),
        initial=done_steps,
        disable=not progress,
        unit="step",
        desc=f"rllib {settings.game}",
    )
    while done_steps < timesteps:
        steps = env_steps(algo.train())
        iterations += 1
        if steps > bar.total:  # an iteration samples whole batches: end the bar at the real count
            bar.total = steps
        bar.update(max(0, steps - done_steps))
        done_steps = max(done_steps, steps)
        if (
            settings.policy_mode == "shared"
            and settings.snapshots
            and iterations % settings.snapshot_every == 0
        ):
            refresh_snapshot(algo, settings, iterations // settings.snapshot_every)
    bar.close()
    return iterations, done_steps


def evaluate_rllib(
    out: str | Path,
    settings: RLlibSettings,
    games: int = 40,
    seed: int = 0,
    mcts_spec: str = "mcts:sims=25",
    workers: int = 1,
):
    """Arena tournament of the trained ``main`` (or ``seat_0``) module against
    random and MCTS; the report is saved under ``out/arena``."""
    from meeplezoo.agents.arena import tournament

    module = trained_modules(settings)[0]
    specs = [f"rllib:path={Path(out)},module={module},deterministic=false", "random", mcts_spec]
    players = settings.num_players
    return tournament(
        settings.game,
        specs,
        games=games,
        players=players,
        seed=seed,
        workers=workers,
        config=settings.game_config or None,
        out=Path(out) / "arena",
        progress=False,
    )
