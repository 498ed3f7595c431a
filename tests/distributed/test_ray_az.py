"""Expert iteration with its self-play games played as Ray tasks."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("torch")

from meeplezoo.training.az.train import train_az  # noqa: E402
from tests.core.toy_game import HighCardGame  # noqa: E402
from tests.training.test_az import TINY  # noqa: E402

pytestmark = [pytest.mark.ray, pytest.mark.slow]  # Ray workers start and import torch: minutes on 2 cores


def test_az_self_play_runs_as_ray_tasks_and_resumes(local_ray, tmp_path):
    config = {**TINY, "eval_games": 0}
    first = train_az(
        HighCardGame(), games=4, config=config, out=tmp_path, workers=2, backend="ray", progress=False
    )
    assert first["stats"]["games"] == 4 and first["stats"]["positions"] > 0
    second = train_az(HighCardGame(), games=2, resume=tmp_path, workers=2, backend="ray", progress=False)
    assert second["stats"]["games"] == 6
    assert second["stats"]["learner_steps"] > first["stats"]["learner_steps"]
