"""Expert iteration (``meeplezoo train GAME --algo az``): self-play with the
search, a replay buffer, a learner, periodic checkpoints and evaluation.

A round: the workers play ``games_per_round`` games with the current weights,
their positions enter the buffer, and the learner makes enough gradient steps
that each new position is used ``train_ratio`` times on average; the new
weights go out with the next round's tasks. A run lives in one folder::

    run.json                      what is trained (game, config, settings, seed)
    state.pt, buffer.npz          learner (network, optimizer, counters, sampler) and replay buffer: --resume
    latest.pt2                    the newest network (an ``az:path=`` file)
    checkpoints/net_<G>_games.pt2 the network after G self-play games: each checkpoint, evaluation and run's end
    best.pt2, best.json           the best network so far (beats the previous best)
    evaluations.jsonl             one line per evaluation: against MCTS and the previous best
    tb/                           TensorBoard logs

``resume`` continues a run folder by the rule of :mod:`meeplezoo.training.runs`
(the run keeps its game and seed): the step, game and position counts go on,
and a run resumed from its last save trains the same network as one never
stopped. Self-play games, the learner's minibatches and the evaluations draw
from separate seed streams of the run's seed (:class:`~meeplezoo.training.runs.SeedStream`).
"""

from __future__ import annotations

import json
import math
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.agents.arena import tournament
from meeplezoo.envs.core.state import Game
from meeplezoo.training.az.settings import DEFAULTS, az_settings, play_settings
from meeplezoo.training.runs import (
    RunPlan,
    RunRequest,
    SeedStream,
    open_run_folder,
    plan_run,
    split_config,
    stream_seed,
)

STATE_FILE = "state.pt"
BUFFER_FILE = "buffer.npz"
LATEST_FILE = "latest.pt2"
BEST_FILE, BEST_RECORD = "best.pt2", "best.json"
EVALUATIONS_FILE = "evaluations.jsonl"
STATS_FILE = "training_stats.json"
# what an az run writes in its folder: --overwrite removes these first
RUN_ENTRIES = (STATE_FILE, BUFFER_FILE, LATEST_FILE, BEST_FILE, BEST_RECORD, EVALUATIONS_FILE, STATS_FILE)
RUN_FOLDERS = ("checkpoints", "tb")
# A new network replaces the best when it scores above this against it (draws
# count half): AlphaGo Zero's gate, and high enough that a tie in a short
# evaluation does not swap one network for an equal one.
PROMOTION_SCORE_RATE = 0.55


def split_az_config(game, pairs: dict[str, Any]) -> tuple[dict, dict]:
    """``--config`` pairs into game settings and az settings."""
    return split_config(game, pairs, DEFAULTS, "az setting")


def evaluate_network(
    rules: Game, path: Path, opponent: str, games: int, sims: int, seed: int, progress=None
) -> dict:
    """The network at ``path`` (searching ``sims`` simulations) in one seat
    against ``opponent`` in every other seat, seats rotating: win rate (alone
    best), score rate (draws half) and both openskill ordinals."""
    spec = f"az:path={path},sims={sims}"
    n = rules.num_players
    result = tournament(
        rules,
        [spec] + [opponent] * (n - 1),
        games,
        players=n,
        seed=seed,
        workers=1,
        progress=progress or False,
    )
    return {**result.first_against_rest(), "opponent": opponent}


class _Display:
    """One tqdm bar over the run's self-play games that says what runs now."""

    def __init__(self, total: int, enabled: bool, name: str) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, disable=not enabled, desc=f"{name} self-play", unit="game", leave=False)

    def status(self, text: str) -> None:
        self.bar.set_postfix_str(text, refresh=True)

    def games(self, count: int) -> None:
        self.bar.update(count)

    def close(self) -> None:
        self.bar.close()


@dataclass
class Counters:
    """A run's running totals, saved in ``state.pt`` and going on on resume."""

    games: int = 0
    positions: int = 0
    moves: int = 0
    simulations: int = 0
    worker_seconds: float = 0.0
    learn_seconds: float = 0.0
    eval_seconds: float = 0.0
    last_eval: int = 0  # games played at the last evaluation
    last_checkpoint: int = 0  # ... and at the last numbered checkpoint


def train_az(
    game: str | Game | None = None,
    players: int | None = None,
    games: int = 64,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    seed: int | None = None,
    progress: bool = True,
    log=print,
    overwrite: bool = False,
) -> dict:
    """Train (or resume) ``games`` more self-play games; returns the summary.

    ``game`` is a registry name or a rules ``Game``; ``config`` mixes game
    settings and az settings (:mod:`meeplezoo.training.az.settings`);
    ``workers`` self-play processes (0: this process), or Ray tasks with
    ``backend="ray"`` (at ``address``, or a local Ray). Resuming follows
    :mod:`meeplezoo.training.runs`' rule (the run keeps its game and seed);
    ``overwrite`` replaces a run already in ``out``."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    run = az_run(game, players, config, out, resume, seed, overwrite)
    return run.execute(games, workers, backend, address, progress, log)


def az_run(
    game: str | Game | None = None,
    players: int | None = None,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    seed: int | None = None,
    overwrite: bool = False,
) -> AZRun:
    """The run :func:`train_az` makes, with everything it was given checked
    (the game, the settings, the folder, the seed) and nothing written yet:
    a mistake in any of them stops here."""
    request = RunRequest("az", game, players, config, out, resume, seed, overwrite)
    return AZRun(plan_run(request, DEFAULTS, "az setting", folder_suffix="_az"))


class AZRun:
    """One expert-iteration run: the steps :func:`train_az` takes, in order."""

    def __init__(self, plan: RunPlan) -> None:
        from meeplezoo.training.az.buffer import ReplayBuffer

        self.plan, self.out, self.seed = plan, plan.out, plan.seed
        self.rules = (
            plan.game if isinstance(plan.game, Game) else envs.game_class(plan.game)(**plan.game_config)
        )
        self.settings = az_settings(self.rules.info.name, plan.overrides)
        self._check_margin_target()
        self.ownership_planes = self._ownership_planes()
        # built before the run folder: a setting it refuses leaves nothing behind
        self.buffer = ReplayBuffer(
            self.rules, int(self.settings["buffer_size"]), bool(self.settings["augment"]),
            bool(self.ownership_planes),
        )  # fmt: skip
        self.counters = Counters()
        self.history: list[dict] = []
        self.folder_open = False

    def _check_margin_target(self) -> None:
        weight = self.settings["margin_value_weight"]
        if weight and not hasattr(self.rules.new_initial_state(0), "scores"):
            raise ValueError(
                f"margin_value_weight={weight} needs a game that keeps scores; {self.rules.info.name} has none"
            )

    def _ownership_planes(self) -> tuple[int, ...]:
        """The planes the network learns to foresee (none without ``ownership_weight``)."""
        if not self.settings["ownership_weight"]:
            return ()
        from meeplezoo.training.az.ownership import check_ownership

        return check_ownership(self.rules, str(self.settings["body"]))

    def execute(
        self, games: int, workers: int, backend: str, address: str | None, progress: bool, log
    ) -> dict:
        """Play and learn ``games`` more self-play games, then save, evaluate and summarize."""
        self.start(workers, backend, address, games, progress)
        try:
            self.play_and_learn(games)
            self.finish()
        except BaseException:  # Ctrl-C, SIGTERM (the CLI raises it) or a failure: stop the workers now
            self.pool.close(wait=False)
            raise
        finally:
            self.close()
        return self.summary(games, log)

    def run_info(self) -> dict:
        rules, game_config = self.rules, self.plan.game_config
        if "num_players" in rules.defaults:
            game_config = {**game_config, "num_players": rules.num_players}
        return {
            "algo": "az",
            "game": rules.info.name,
            "num_players": rules.num_players,
            "game_config": game_config,
            "overrides": self.plan.overrides,
            "seed": self.seed,
        }

    def open_folder(self) -> None:
        """Create the run folder and write its record (once): the first thing
        :meth:`execute` writes, and the last step a person's mistake can stop."""
        if not self.folder_open:
            open_run_folder(self.plan, self.run_info(), RUN_ENTRIES + RUN_FOLDERS)
            self.folder_open = True

    def start(self, workers: int, backend: str, address: str | None, games: int, progress: bool) -> None:
        """Write the run record, build the network and learner (restored on
        resume), then open the logs and the self-play workers."""
        self.open_folder()
        self._build_learner()
        self._restore()
        from torch.utils.tensorboard import SummaryWriter

        from meeplezoo.training.az.selfplay import Workers

        self.writer = SummaryWriter(str(self.out / "tb"))
        self.pool = Workers(workers, backend, address)
        self.display = _Display(games, progress, self.rules.info.name)
        self.started = time.perf_counter()

    def _build_learner(self) -> None:
        import torch

        from meeplezoo.training.az.learner import Learner
        from meeplezoo.training.az.network import AZNetwork

        settings = self.settings
        torch.manual_seed(self.seed)
        torch.set_num_threads(int(settings["torch_threads"]))
        self.net = AZNetwork(
            self.rules, int(settings["hidden"]), int(settings["channels"]), str(settings["body"]),
            len(self.ownership_planes),
        )  # fmt: skip
        self.learner = Learner(self.net, settings)

    def _restore(self) -> None:
        """On resume, the learner, counters, sampler and buffer as saved;
        the sampler draws on from where the run stopped, so resume is exact."""
        sampler_state = None
        if self.plan.resumed and (self.out / STATE_FILE).exists():
            import torch

            data = torch.load(self.out / STATE_FILE, weights_only=False)
            self.learner.load_state_dict(data["learner"])
            self.counters = Counters(**data["counters"])
            sampler_state = data.get("sampler")  # absent in runs saved before it was kept
            if (self.out / BUFFER_FILE).exists():
                self.buffer.load(self.out / BUFFER_FILE)
        self.sampler = np.random.default_rng(
            stream_seed(self.seed, SeedStream.MINIBATCHES, self.counters.games)
        )
        if sampler_state is not None:
            self.sampler.bit_generator.state = sampler_state

    def play_and_learn(self, games: int) -> None:
        """Rounds of self-play then learning until ``games`` more games are played."""
        target = self.counters.games + games
        while self.counters.games < target:
            count = min(int(self.settings["games_per_round"]), target - self.counters.games)
            records = self._self_play(count)
            self._learn(records)
            self._checkpoint_if_due()
            if self._due(self.counters.last_eval, "eval_every") and self.counters.games < target:
                self.evaluate()

    def _self_play(self, count: int) -> list:
        from meeplezoo.training.az.selfplay import weights_bytes

        first = self.counters.games
        seeds = [stream_seed(self.seed, SeedStream.SELF_PLAY, first + i) for i in range(count)]
        self.display.status("self-play")
        records = self.pool.play(
            self.rules, dict(self.net.spec), weights_bytes(self.net), seeds, self.settings, self.display.games
        )
        counters = self.counters
        for record in records:
            self.buffer.add(record)
            counters.positions += len(record.policies)
            counters.moves += record.length
            counters.simulations += record.simulations
            counters.worker_seconds += record.search_seconds
        counters.games += count
        return records

    def _learn(self, records: list) -> None:
        """Enough gradient steps that each new position is used ``train_ratio`` times on average."""
        new_positions = sum(len(record.policies) for record in records)
        steps = math.ceil(
            new_positions * float(self.settings["train_ratio"]) / int(self.settings["batch_size"])
        )
        self.display.status(f"learning ({steps} steps)")
        started = time.process_time()
        losses = self.learner.train(self.buffer, steps, self.sampler) if len(self.buffer) else {}
        self.counters.learn_seconds += time.process_time() - started
        games = self.counters.games
        for key, value in losses.items():
            self.writer.add_scalar(f"train/{key}", value, games)
        self.writer.add_scalar("selfplay/mean_length", np.mean([r.length for r in records]), games)
        self.writer.add_scalar("selfplay/buffer", len(self.buffer), games)

    def _due(self, last: int, every_key: str) -> bool:
        every = int(self.settings[every_key])
        return bool(every) and self.counters.games - last >= every

    def _checkpoint_if_due(self) -> None:
        if self._due(self.counters.last_checkpoint, "checkpoint_every"):
            self.counters.last_checkpoint = self.counters.games
            self.display.status("checkpoint")
            self.save(numbered=True)  # a numbered copy too: the learning curve's points

    def trained_info(self) -> dict:
        counters = self.counters
        return {
            "games": counters.games,
            "positions": counters.positions,
            "learner_steps": self.learner.steps,
            "cpu_seconds": counters.worker_seconds + counters.learn_seconds,
        }

    def save(self, numbered: bool = False) -> None:
        """Learner, counters, sampler and buffer (what resume reads), and the latest network."""
        import torch

        from meeplezoo.training.az.network import export_network

        state = {
            "learner": self.learner.state_dict(),
            "counters": asdict(self.counters),
            "sampler": self.sampler.bit_generator.state,
        }
        torch.save(state, self.out / STATE_FILE)
        self.buffer.save(self.out / BUFFER_FILE)
        latest = export_network(
            self.net, self.rules, self.out / LATEST_FILE, self.trained_info(), play_settings(self.settings)
        )
        if numbered:  # the end of a run leaves a point for the learning curve
            (self.out / "checkpoints").mkdir(exist_ok=True)
            shutil.copyfile(latest, self.out / "checkpoints" / f"net_{self.counters.games}_games.pt2")

    def finish(self) -> None:
        """The run's last save, then its last evaluation unless one just ran."""
        self.save(numbered=True)
        if int(self.settings["eval_games"]) > 0 and self.counters.last_eval != self.counters.games:
            self.evaluate()
            self.save()

    def evaluate(self) -> None:
        self.counters.last_eval = self.counters.games
        started = time.perf_counter()
        self.history.append(Evaluation(self).run())
        self.counters.eval_seconds += time.perf_counter() - started

    def close(self) -> None:
        self.display.close()
        self.pool.close()
        self.writer.close()

    def summary(self, games: int, log) -> dict:
        """Write ``training_stats.json``, log the run and its evaluations, return the summary."""
        counters, wall = self.counters, time.perf_counter() - self.started
        stats = {
            **self.trained_info(),
            "games_this_run": games,
            "wall_seconds": wall,
            "simulations_per_second": counters.simulations / counters.worker_seconds
            if counters.worker_seconds
            else 0.0,
            "learn_seconds": counters.learn_seconds,
            "eval_seconds": counters.eval_seconds,
        }
        (self.out / STATS_FILE).write_text(json.dumps(stats, indent=2))
        log(
            f"az: {games} self-play games this run ({counters.games} in all, {counters.positions} positions, "
            f"{self.learner.steps} learner steps) in {wall:.0f}s; run folder {self.out}"
        )
        for row in self.history:
            for key in ("mcts", "best"):
                if key in row:
                    log(_evaluation_line(row["games"], row[key]))
        return {"out": str(self.out), "stats": stats, "evaluations": self.history, "run": self.run_info()}


def _evaluation_line(games: int, result: dict) -> str:
    return (
        f"  after {games} games vs {result['opponent']}: won {result['wins']}/{result['games']} "
        f"({result['win_rate']:.0%}), rating {result['rating']:.2f} vs {result['opponent_rating']:.2f}"
    )


class Evaluation:
    """One evaluation: export the network, play it against MCTS and the
    previous best, keep it as the best if it beats that one (or there is none)."""

    def __init__(self, run: AZRun) -> None:
        self.run_state = run
        self.out, self.rules, self.games_played = run.out, run.rules, run.counters.games
        self.games = int(run.settings["eval_games"])
        self.sims = int(run.settings["eval_sims"])
        # from the run's seed: two runs seeded apart are also evaluated on other deals
        self.seed = stream_seed(run.seed, SeedStream.EVALUATION, self.games_played)

    def run(self) -> dict:
        from meeplezoo.training.az.network import export_network

        run = self.run_state
        path = export_network(
            run.net,
            self.rules,
            self.out / "checkpoints" / f"net_{self.games_played}_games.pt2",
            run.trained_info(),
            play_settings(run.settings),
        )
        row: dict = {
            "games": self.games_played,
            "cpu_seconds": run.trained_info()["cpu_seconds"],
            "network": str(path),
        }
        if self.games > 0:
            row["mcts"] = self._against_mcts(path)
        best = self._best_record()
        promote = best is None
        if best is not None and self.games > 0 and (self.out / BEST_FILE).exists():
            row["best"] = self._against_best(path, best)
            promote = row["best"]["score_rate"] > PROMOTION_SCORE_RATE
        if promote:
            shutil.copyfile(path, self.out / BEST_FILE)
            record = {"games": self.games_played, "network": str(path), "evaluation": row}
            (self.out / BEST_RECORD).write_text(json.dumps(record, indent=2))
        row["promoted"] = promote
        with open(self.out / EVALUATIONS_FILE, "a") as fh:
            fh.write(json.dumps(row) + "\n")
        return row

    def _status(self, what: str):
        display = self.run_state.display
        return lambda done, total: display.status(f"evaluating vs {what} {done}/{total}")

    def _best_record(self) -> dict | None:
        path = self.out / BEST_RECORD
        return json.loads(path.read_text()) if path.exists() else None

    def _against_mcts(self, path: Path) -> dict:
        opponent = str(self.run_state.settings["eval_mcts_spec"])
        result = evaluate_network(
            self.rules, path, opponent, self.games, self.sims, self.seed, self._status(opponent)
        )
        self.run_state.writer.add_scalar("eval/mcts/win_rate", result["win_rate"], self.games_played)
        self.run_state.writer.add_scalar("eval/mcts/rating", result["rating"], self.games_played)
        return result

    def _against_best(self, path: Path, best: dict) -> dict:
        previous = f"az:path={self.out / BEST_FILE},sims={self.sims}"
        result = evaluate_network(
            self.rules, path, previous, self.games, self.sims, self.seed + 1, self._status("the best")
        )
        result["opponent"] = f"best ({best['games']} games)"
        self.run_state.writer.add_scalar("eval/best/score_rate", result["score_rate"], self.games_played)
        return result
