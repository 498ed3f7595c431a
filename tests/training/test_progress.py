"""The training progress bar ends at the steps the run really made, and the
periodic evaluation says what it is playing while the steps stand still."""

from __future__ import annotations

import io

from rich.console import Console

from meeplezoo.training.callbacks import ProgressCallback, planned_steps
from meeplezoo.training.train import train
from tests.core.toy_game import HighCardGame
from tests.training.helpers import TINY


def test_planned_steps_round_up_to_whole_rollouts():
    assert planned_steps(20_000, 1024, 1) == 20_480
    assert planned_steps(2048, 1024, 2) == 2048
    assert planned_steps(1, 128, 2) == 256


def test_progress_bar_ends_at_the_steps_done(tmp_path, monkeypatch):
    statuses = []
    status = ProgressCallback.status
    monkeypatch.setattr(
        ProgressCallback, "status", lambda self, text: (statuses.append(text), status(self, text))
    )
    console = Console(file=io.StringIO(), width=120)
    config = {**TINY, "eval_every": 128, "eval_games": 2, "eval_mcts_games": 0}
    summary = train(
        HighCardGame(num_players=2),
        timesteps=200,  # not a whole number of rollouts of 128
        config=config,
        out=tmp_path,
        console=console,
        final_eval=False,
    )
    done = summary["stats"]["timesteps_this_run"]
    assert done == 256
    text = console.file.getvalue()
    assert "200 steps asked" in text and "makes 256" in text
    assert f"{done:,}/{done:,} steps" in text
    assert "evaluating against random: 2/2 games" in statuses
    assert statuses[-1] == "training"
