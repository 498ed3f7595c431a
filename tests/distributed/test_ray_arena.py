"""Arena games as Ray tasks give exactly the local table for the same seed."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")

from meeplezoo import envs  # noqa: E402
from meeplezoo.agents.arena import tournament  # noqa: E402

pytestmark = pytest.mark.ray


def table(result) -> list:
    return [(m.index, m.seating, list(m.returns), m.length) for m in result.matches]


# Gem Mountain (compiled) in the default run; Princes of Amber (the Python rules) is the long one.
@pytest.mark.parametrize(
    "name", ["gem_mountain_v0", pytest.param("princes_of_amber_v1", marks=pytest.mark.slow)]
)
def test_ray_tournament_equals_local(local_ray, name):
    if name not in envs.names():
        pytest.skip(f"{name} not registered")
    specs = ["random", "mcts:sims=8"]
    local = tournament(name, specs, games=6, players=2, seed=11, progress=False)
    remote = tournament(name, specs, games=6, players=2, seed=11, workers=2, progress=False, backend="ray")
    assert table(remote) == table(local)
    assert remote.ratings == local.ratings


def test_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="backend"):
        tournament("gem_mountain_v0", ["random", "random"], games=1, progress=False, backend="spark")


def test_train_cli_on_rllib_trains_and_plays_the_closing_table(local_ray, tmp_path, capsys):
    from meeplezoo.cli import main

    out = tmp_path / "run"
    code = main(
        [
            "train",
            "amethyst_amber",
            "--backend",
            "rllib",
            "--num-env-runners",
            "0",
            "--timesteps",
            "100",
            "--config",
            "train_batch_size=100",
            "minibatch_size=50",
            "num_epochs=1",
            "hidden=[16]",
            "--eval-games",
            "2",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    assert (out / "checkpoint").is_dir() and (out / "arena").is_dir()
    assert "rllib" in capsys.readouterr().out
