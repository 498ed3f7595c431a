"""Stable-Baselines3 callbacks of a self-play run: the league's feed, the
periodic evaluation that keeps the best model, and the progress display."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from meeplezoo.training.evaluate import versus
from meeplezoo.training.league import policy_payload


class LeagueCallback(BaseCallback):
    """Pushes the learner's weights to every env's league at each rollout
    (the ``self`` opponent) and freezes a snapshot every ``snapshot_every``
    steps into ``folder`` (the ``snapshots`` opponents)."""

    def __init__(self, folder: Path, snapshot_every: int) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.snapshot_every = int(snapshot_every)
        self.last_snapshot = 0

    def _on_training_start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.last_snapshot = (
            (self.num_timesteps // self.snapshot_every) * self.snapshot_every if self.snapshot_every else 0
        )

    def _on_rollout_start(self) -> None:
        self.training_env.env_method("set_current", policy_payload(self.model.policy))

    def _on_step(self) -> bool:
        if self.snapshot_every and self.num_timesteps - self.last_snapshot >= self.snapshot_every:
            self.last_snapshot = self.num_timesteps
            path = self.folder / f"snapshot_{self.num_timesteps}_steps.pt"
            self.model.policy.save(str(path))
            self.training_env.env_method("add_snapshot", str(path))
        return True


class ArenaEvalCallback(BaseCallback):
    """Not Stable-Baselines3's ``EvalCallback`` (hence the name): it plays
    arena matches instead of episodes of an eval env.

    Every ``eval_every`` steps: the policy against each opponent spec in
    the arena, logged as ``eval/<opponent>/win_rate``, ``score_rate``,
    ``mean_return`` and ``rating`` (openskill ordinal); saves
    ``best_model.zip`` when the mean score rate beats the best so far."""

    def __init__(
        self,
        game,
        out: Path,
        eval_every: int,
        opponents: list[tuple[str, int]],
        seed: int = 0,
        deterministic: bool = False,
        on_status: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_status = on_status
        self.deterministic = deterministic
        self.game = game
        self.out = Path(out)
        self.eval_every = int(eval_every)
        self.opponents = opponents
        self.seed = seed
        self.last_eval = 0
        self.best_path = self.out / "best.json"
        self.best = json.loads(self.best_path.read_text()) if self.best_path.exists() else {"score": -1.0}
        self.history: list[dict] = []
        self.seconds = 0.0  # wall time spent evaluating

    def _on_training_start(self) -> None:
        self.last_eval = self.num_timesteps

    def _on_step(self) -> bool:
        if self.eval_every and self.num_timesteps - self.last_eval >= self.eval_every:
            self.last_eval = self.num_timesteps
            self.evaluate()
        return True

    def _say(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    def evaluate(self) -> dict:
        t0 = time.perf_counter()
        results = []
        for k, (spec, games) in enumerate(self.opponents):
            if games <= 0:
                continue
            self._say(f"evaluating against {spec}: 0/{games} games")
            r = versus(
                self.game,
                self.model.policy,
                spec,
                games,
                seed=self.seed + k,
                deterministic=self.deterministic,
                progress=lambda done, total, spec=spec: self._say(
                    f"evaluating against {spec}: {done}/{total} games"
                ),
            )
            name = spec.split(":")[0]
            for key in ("win_rate", "score_rate", "mean_return", "rating"):
                if key in r:
                    self.logger.record(f"eval/{name}/{key}", r[key])
            results.append(r)
        score = sum(r["score_rate"] for r in results) / max(len(results), 1)
        entry = {"timesteps": int(self.num_timesteps), "score": score, "results": results}
        self.history.append(entry)
        with open(self.out / "evaluations.jsonl", "a") as fh:
            fh.write(json.dumps(entry) + "\n")
        if score > self.best["score"]:
            self.best = {"score": score, "timesteps": int(self.num_timesteps)}
            self.model.save(str(self.out / "best_model.zip"))
            self.best_path.write_text(json.dumps(self.best))
        self.logger.record("eval/score", score)
        self.logger.dump(self.num_timesteps)
        self.seconds += time.perf_counter() - t0
        self._say("training")
        return entry


def planned_steps(timesteps: int, n_steps: int, n_envs: int) -> int:
    """The learner steps ``learn(timesteps)`` really makes: PPO collects
    whole rollouts of ``n_steps`` per env, so it rounds up to a multiple of
    ``n_steps * n_envs`` (20,000 asked with rollouts of 1,024 are 20,480)."""
    rollout = n_steps * n_envs
    return math.ceil(timesteps / rollout) * rollout


class ProgressCallback(BaseCallback):
    """A rich progress bar of this run's learner steps, sized to what the
    run will really make (``planned_steps``) so it ends full, at the true
    count. ``status`` replaces its label, which the evaluation uses to say
    what it is playing while the steps stand still."""

    def __init__(self, total: int, console=None) -> None:
        super().__init__()
        self.total = int(total)
        self.console = console
        self.progress = None
        self.task = None
        self.start = 0

    def _on_training_start(self) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.start = self.num_timesteps
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:,.0f}/{task.total:,.0f} steps"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=self.console,
        )
        self.task = self.progress.add_task("training", total=self.total)
        self.progress.start()

    def status(self, text: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=text)

    def _on_step(self) -> bool:
        self.progress.update(self.task, completed=self.num_timesteps - self.start)
        return True

    def _on_training_end(self) -> None:
        done = self.num_timesteps - self.start
        # a run stopped early (or sized otherwise) still ends at the steps it made
        self.progress.update(self.task, total=done, completed=done, description="trained")
        self.progress.stop()


class RunCheckpointCallback(BaseCallback):
    """Not Stable-Baselines3's ``CheckpointCallback`` (hence the name): it
    counts steps on the whole run, resumes included.

    Saves ``model_<steps>_steps.zip`` into ``folder`` every ``every``
    learner steps, counted on the run's total so a resumed run keeps the
    cadence."""

    def __init__(self, folder: Path, every: int) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.every = int(every)
        self.last = 0

    def _on_training_start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.last = (self.num_timesteps // self.every) * self.every if self.every else 0

    def _on_step(self) -> bool:
        if self.every and self.num_timesteps - self.last >= self.every:
            self.last = self.num_timesteps
            self.model.save(str(self.folder / f"model_{self.num_timesteps}_steps.zip"))
        return True
