"""Stable-Baselines3 callbacks of a self-play run: the league's feed and the
periodic evaluation that keeps the best model."""

from __future__ import annotations

import json
import time
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


class EvalCallback(BaseCallback):
    """Every ``eval_every`` steps: the policy against each opponent spec in
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
    ) -> None:
        super().__init__()
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

    def evaluate(self) -> dict:
        t0 = time.perf_counter()
        results = []
        for k, (spec, games) in enumerate(self.opponents):
            if games <= 0:
                continue
            r = versus(
                self.game,
                self.model.policy,
                spec,
                games,
                seed=self.seed + k,
                deterministic=self.deterministic,
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
        return entry


class CheckpointCallback(BaseCallback):
    """Saves ``model_<steps>_steps.zip`` into ``folder`` every ``every``
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
