"""Self-play training of a MaskablePPO agent on any meeplezoo game.

A run lives in one folder::

    run.json                     what was trained (game, players, config, seed)
    checkpoints/model_<N>_steps.zip   every ``checkpoint_every`` steps and at the end
    league/snapshot_<N>_steps.pt      frozen policies for the opponent pool
    best_model.zip, best.json    the best model by evaluation so far
    evaluations.jsonl            one line per evaluation
    tb/                          TensorBoard logs
    final_eval.json, training_stats.json

``resume`` reloads the newest checkpoint and the league of a run folder and
continues the step count (``timesteps`` more steps), by the resume rule of
:mod:`meeplezoo.training.runs` (the run keeps its game and seed).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.state import Game
from meeplezoo.training import configs
from meeplezoo.training.league import League, PolicyOpponent, load_policy
from meeplezoo.training.runs import RunPlan, RunRequest, open_run_folder, plan_run
from meeplezoo.training.runs import split_config as split_run_config
from meeplezoo.training.selfplay import SelfPlayEnv, make_game

_CHECKPOINT = re.compile(r"^model_(\d+)_steps\.zip$")
_SNAPSHOT = re.compile(r"^snapshot_(\d+)_steps\.pt$")
# what a PPO run writes in its folder: --overwrite removes these first
RUN_ENTRIES = (
    "checkpoints",
    "league",
    "tb",
    "arena",
    "best_model.zip",
    "best.json",
    "evaluations.jsonl",
    "final_eval.json",
    "training_stats.json",
)
# the periodic evaluations' games and the closing tournament's are seeded
# from the run's seed, apart from each other and from the self-play envs'
EVALUATION_SEED_OFFSET = 1000
FINAL_EVALUATION_SEED_OFFSET = 2000


def split_config(game: str | Game, pairs: dict[str, Any]) -> tuple[dict, dict]:
    """Split ``--config`` pairs into the game's config keys and training
    settings (keys of :data:`meeplezoo.training.configs.DEFAULTS`)."""
    return split_run_config(game, pairs, configs.DEFAULTS, "training setting")


def _numbered(folder: Path, pattern: re.Pattern) -> list[tuple[int, Path]]:
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := pattern.match(p.name))]
    return sorted(found)


def latest_checkpoint(run_dir: str | Path) -> Path:
    found = _numbered(Path(run_dir) / "checkpoints", _CHECKPOINT)
    if not found:
        raise ValueError(f"no checkpoint to resume in {run_dir}/checkpoints")
    return found[-1][1]


def _env_factory(game, game_config: dict, params: dict):
    def make():
        import torch

        torch.set_num_threads(int(params["torch_threads"]))
        league = League(
            weights=configs.league_weights(params),
            window=int(params["league_window"]),
            bots={"mcts": params["league_mcts_spec"]},
        )
        return SelfPlayEnv(
            game,
            None if isinstance(game, Game) else game_config,
            league=league,
            skip_forced=bool(params["skip_forced"]),
            reward_shaping=float(params["reward_shaping"]),
            gamma=float(params["gamma"]),
        )

    return make


def make_vec_env(game, game_config: dict, params: dict, n_envs: int, seed: int):
    """``n_envs`` self-play envs: in worker processes when more than one."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if n_envs > 1:
        venv = SubprocVecEnv([_env_factory(game, game_config, params) for _ in range(n_envs)])
    else:
        venv = DummyVecEnv([_env_factory(game, game_config, params)])
    venv.seed(seed)
    return VecMonitor(venv)


def train(
    game: str | Game | None = None,
    players: int | None = None,
    timesteps: int = 20_000,
    n_envs: int = 1,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    eval_every: int | None = None,
    eval_games: int | None = None,
    seed: int | None = None,
    progress: bool = True,
    final_eval: bool = True,
    console=None,
    overwrite: bool = False,
) -> dict:
    """Train (or resume) a self-play run; returns its summary dict.

    ``game`` is a registry name or a rules ``Game`` (then ``players`` and the
    game part of ``config`` must be set on the Game itself). ``config`` mixes
    game settings and training settings (:mod:`meeplezoo.training.configs`).
    Resuming follows :mod:`meeplezoo.training.runs`' rule (the run keeps its
    game and seed); ``overwrite`` replaces a run already in ``out``.
    """
    run = ppo_run(game, players, n_envs, config, out, resume, eval_every, eval_games, seed, overwrite)
    return run.execute(int(timesteps), progress, final_eval, console)


def ppo_run(
    game: str | Game | None = None,
    players: int | None = None,
    n_envs: int = 1,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    eval_every: int | None = None,
    eval_games: int | None = None,
    seed: int | None = None,
    overwrite: bool = False,
) -> PPORun:
    """The run :func:`train` makes, with everything it was given checked (the
    game, the settings, the folder, the seed, the checkpoint to resume) and
    nothing written yet: a mistake in any of them stops here."""
    request = RunRequest("ppo", game, players, config, out, resume, seed, overwrite)
    # the command line's --eval-every/--eval-games are checked like --config's,
    # but stay out of the saved overrides: a resumed run takes its own
    arguments = {
        key: value
        for key, value in (("eval_every", eval_every), ("eval_games", eval_games))
        if value is not None
    }
    return PPORun(plan_run(request, configs.DEFAULTS, "training setting"), arguments, n_envs)


class PPORun:
    """One MaskablePPO self-play run: the steps :func:`train` takes, in order."""

    def __init__(self, plan: RunPlan, arguments: dict[str, Any], n_envs: int) -> None:
        self.plan, self.out, self.seed, self.n_envs = plan, plan.out, plan.seed, n_envs
        self.game = envs.resolve(plan.game) if isinstance(plan.game, str) else plan.game
        self.rules = make_game(self.game, None if isinstance(self.game, Game) else plan.game_config)
        self.params = configs.hyperparams(plan.name, {**plan.overrides, **arguments})
        self.run_info = {
            "algo": "ppo",
            "game": plan.name,
            "num_players": self.rules.num_players,
            "game_config": plan.game_config,
            "overrides": plan.overrides,
            "seed": self.seed,
            "n_envs": n_envs,
        }
        self.checkpoint = latest_checkpoint(plan.resume_from) if plan.resumed else None
        self.folder_open = False

    def execute(self, timesteps: int, progress: bool = True, final_eval: bool = True, console=None) -> dict:
        """Train ``timesteps`` steps, save, then the closing tournament; the run's summary."""
        from rich.console import Console

        console = console or Console()
        self.start()
        self.learn(timesteps, progress, console)
        summary = self.save_final()
        if final_eval:
            summary["final_eval"] = final_evaluation(
                self.rules, self.out, self.final_path, self.params, self.seed, console, progress
            )
        return summary

    def open_folder(self) -> None:
        """Create the run folder and write its record (once): the first thing
        :meth:`execute` writes, and the last step a person's mistake can stop."""
        if not self.folder_open:
            open_run_folder(self.plan, self.run_info, RUN_ENTRIES)
            self.folder_open = True

    def start(self) -> None:
        """Write the run record, then build the envs and the model (reloaded on resume)."""
        import torch

        self.open_folder()
        torch.set_num_threads(int(self.params["torch_threads"]))
        self.venv = make_vec_env(self.game, self.plan.game_config, self.params, self.n_envs, self.seed)
        self.model = self._resumed_model() if self.plan.resumed else self._new_model()

    def _new_model(self):
        from sb3_contrib import MaskablePPO

        return MaskablePPO(
            env=self.venv,
            seed=self.seed,
            device="cpu",
            verbose=0,
            tensorboard_log=str(self.out / "tb"),
            **configs.ppo_kwargs(self.params, self.rules),
        )

    def _resumed_model(self):
        """The newest checkpoint, and the league's last snapshots back in every env."""
        from sb3_contrib import MaskablePPO

        run_dir = Path(self.plan.resume_from)
        model = MaskablePPO.load(
            str(self.checkpoint), env=self.venv, device="cpu", tensorboard_log=str(self.out / "tb")
        )
        window = int(self.params["league_window"])
        for _, path in _numbered(run_dir / "league", _SNAPSHOT)[-window:]:
            self.venv.env_method("add_snapshot", str(path))
        return model

    def learn(self, timesteps: int, progress: bool, console) -> None:
        """``model.learn`` with the league, checkpoint, evaluation and progress callbacks."""
        from meeplezoo.training.callbacks import planned_steps

        model = self.model
        self.start_steps = int(model.num_timesteps)
        planned = planned_steps(timesteps, int(model.n_steps), self.n_envs)
        if planned != timesteps:
            console.print(
                f"{timesteps:,} steps asked: PPO learns in whole rollouts of "
                f"{model.n_steps * self.n_envs:,} steps, so this run makes {planned:,}",
                soft_wrap=True,
            )
        callbacks = self._callbacks(planned, progress, console)
        env_before = self.venv.env_method("timing")
        started = time.perf_counter()
        model.learn(
            total_timesteps=timesteps,
            callback=callbacks,
            reset_num_timesteps=not self.plan.resumed,
            tb_log_name="selfplay",
        )
        self.wall = time.perf_counter() - started
        env_after = self.venv.env_method("timing")
        self.env_seconds = sum(a[0] - b[0] for a, b in zip(env_after, env_before)) / len(env_after)

    def _callbacks(self, planned: int, progress: bool, console) -> list:
        from meeplezoo.training.callbacks import (
            ArenaEvalCallback,
            LeagueCallback,
            ProgressCallback,
            RunCheckpointCallback,
        )

        params = self.params
        bar = ProgressCallback(planned, console) if progress else None
        opponents = [
            ("random", int(params["eval_games"])),
            (params["eval_mcts_spec"], int(params["eval_mcts_games"])),
        ]
        self.evaluator = ArenaEvalCallback(
            self.rules,
            self.out,
            int(params["eval_every"]),
            opponents,
            seed=self.seed + EVALUATION_SEED_OFFSET,
            deterministic=bool(params["eval_deterministic"]),
            on_status=bar.status if bar else None,
        )
        return [
            LeagueCallback(self.out / "league", int(params["snapshot_every"])),
            RunCheckpointCallback(self.out / "checkpoints", int(params["checkpoint_every"])),
            self.evaluator,
            *([bar] if bar else []),
        ]

    def save_final(self) -> dict:
        """Save the final checkpoint and ``training_stats.json``; the run's summary."""
        import torch

        model = self.model
        steps = int(model.num_timesteps) - self.start_steps
        (self.out / "checkpoints").mkdir(exist_ok=True)
        self.final_path = self.out / "checkpoints" / f"model_{model.num_timesteps}_steps.zip"
        model.save(str(self.final_path))
        self.venv.close()
        eval_seconds = self.evaluator.seconds
        train_wall = self.wall - eval_seconds
        stats = {
            "timesteps_total": int(model.num_timesteps),
            "timesteps_this_run": steps,
            "learn_seconds": self.wall,
            "eval_seconds": eval_seconds,
            # throughput and env share leave the periodic evaluation out
            "steps_per_second": steps / train_wall if train_wall > 0 else 0.0,
            "env_share": self.env_seconds / train_wall if train_wall > 0 else 0.0,
            "n_envs": self.n_envs,
            "torch_threads": torch.get_num_threads(),
        }
        (self.out / "training_stats.json").write_text(json.dumps(stats, indent=2))
        return {
            "out": str(self.out),
            "final_model": str(self.final_path),
            "stats": stats,
            "run": self.run_info,
        }


def final_evaluation(
    rules: Game,
    out: Path,
    final_path: Path,
    params: dict,
    seed: int,
    console=None,
    progress: bool = False,
) -> dict:
    """A short arena tournament of the best model by evaluation (else the
    final one) with random and MCTS; prints its tables and saves the report
    under ``arena/`` (plus ``final_eval.json``). With ``progress`` a status
    line counts the games, which take a while on the long games."""
    from rich.console import Console

    console = console or Console()
    best = out / "best_model.zip"
    chosen = best if best.exists() else final_path
    policy = load_policy(str(chosen))
    games = int(params["final_games"])
    if games <= 0:
        return {"model": str(chosen), "agents": []}
    from meeplezoo.agents.arena import tournament

    trained = PolicyOpponent(policy, deterministic=bool(params["eval_deterministic"]), label="trained")
    console.print(
        f"[bold]{rules.info.title}[/bold], {rules.num_players} players: {chosen.name} against random and MCTS"
    )
    entrants = [trained, "random", params["eval_mcts_spec"]]
    with console.status(f"closing games: 0/{games}") if progress else contextlib.nullcontext() as status:
        result = tournament(
            rules,
            entrants,
            games,
            players=rules.num_players,
            seed=seed + FINAL_EVALUATION_SEED_OFFSET,
            workers=int(params["final_workers"]),
            out=out / "arena",
            progress=(lambda done, total: status.update(f"closing games: {done}/{total}"))
            if progress
            else False,
        )
    result.print(console)
    report = {"model": str(chosen), "agents": result.agent_rows(), "pairs": result.pairwise_rows()}
    (out / "final_eval.json").write_text(json.dumps(report, indent=2))
    return report
