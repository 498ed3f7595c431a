"""The run folder rules every trainer shares (training.runs): one resume
rule, no two runs in one folder, config pairs split one way, seed streams."""

from __future__ import annotations

import json

import pytest

from meeplezoo.cli import main
from meeplezoo.training import configs
from meeplezoo.training.runs import (
    RunRequest,
    SeedStream,
    plan_run,
    split_config,
    stream_seed,
)
from tests.core.toy_game import HighCardGame


def saved_run(folder, algo="ppo", seed=4, **extra):
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "algo": algo,
        "game": "amoeba_v0",
        "game_config": {},
        "overrides": {"n_steps": 64},
        "seed": seed,
    }
    (folder / "run.json").write_text(json.dumps({**record, **extra}))
    return folder


def request(**fields):
    base = {"algo": "ppo", "game": None, "players": None, "config": None, "out": None, "resume": None}
    return RunRequest(**{**base, "seed": None, **fields})


def test_a_resumed_run_keeps_its_game_and_seed_and_takes_new_settings(tmp_path):
    run = saved_run(tmp_path / "run")
    plan = plan_run(request(resume=run, config={"ent_coef": 0.02}), configs.DEFAULTS, "training setting")
    assert (plan.game, plan.seed, plan.out, plan.resumed) == ("amoeba_v0", 4, run, True)
    assert plan.overrides == {"n_steps": 64, "ent_coef": 0.02}
    assert plan_run(request(resume=run, seed=4), configs.DEFAULTS, "training setting").seed == 4


def test_a_resumed_run_refuses_another_seed_and_another_algorithm(tmp_path):
    run = saved_run(tmp_path / "run")
    with pytest.raises(ValueError, match="started with seed 4, not 9: a resumed run keeps its seed"):
        plan_run(request(resume=run, seed=9), configs.DEFAULTS, "training setting")
    with pytest.raises(ValueError, match="is not an az run"):
        plan_run(request(algo="az", resume=run), configs.DEFAULTS, "az setting")


def test_a_run_record_without_an_algorithm_is_a_ppo_run(tmp_path):
    run = tmp_path / "old"
    run.mkdir()
    (run / "run.json").write_text(
        json.dumps({"game": "amoeba_v0", "game_config": {}, "overrides": {}, "seed": 0})
    )
    assert plan_run(request(resume=run), configs.DEFAULTS, "training setting").resumed


def test_a_new_run_refuses_a_folder_that_holds_a_run_unless_asked_to_overwrite(tmp_path):
    run = saved_run(tmp_path / "run")
    with pytest.raises(ValueError, match=r"already holds a run: --resume .* --overwrite"):
        plan_run(request(game="amoeba", out=run), configs.DEFAULTS, "training setting")
    plan = plan_run(request(game="amoeba", out=run, overwrite=True), configs.DEFAULTS, "training setting")
    assert plan.overwrite and not plan.resumed
    empty = tmp_path / "empty"
    empty.mkdir()
    assert plan_run(request(game="amoeba", out=empty), configs.DEFAULTS, "training setting").out == empty


def test_train_command_refuses_an_existing_run_folder_in_one_line(tmp_path, capsys):
    from tests.cli_helpers import assert_one_error_line

    run = saved_run(tmp_path / "run")
    (run / "tb").mkdir()
    before = sorted(p.name for p in run.iterdir())
    for algo in ("ppo", "az"):
        assert main(["train", "amoeba", "--algo", algo, "--out", str(run), "--no-progress"]) == 2
        assert_one_error_line(capsys.readouterr().err, "already holds a run")
    assert sorted(p.name for p in run.iterdir()) == before


def test_config_pairs_split_the_same_way_for_every_trainer():
    game_config, overrides = split_config(
        HighCardGame(), {"max_turns": 5, "sims": 3}, {"sims": 32}, "az setting"
    )
    assert (game_config, overrides) == ({"max_turns": 5}, {"sims": 3})
    with pytest.raises(
        ValueError, match="unknown config key 'nonsense': not a game setting .* nor an az setting"
    ):
        split_config(HighCardGame(), {"nonsense": 1}, {"sims": 32}, "az setting")


def test_seed_streams_are_apart_and_follow_the_run_seed():
    seeds = {stream_seed(7, stream, 0) for stream in SeedStream}
    assert len(seeds) == len(SeedStream)
    assert stream_seed(7, SeedStream.EVALUATION, 2) != stream_seed(8, SeedStream.EVALUATION, 2)
    assert stream_seed(7, SeedStream.EVALUATION, 2) == stream_seed(7, SeedStream.EVALUATION, 2)


def test_rllib_runs_follow_the_same_rules(tmp_path):
    from meeplezoo.training.rllib import RLlibSettings, prepare_new_run, resumed_settings

    settings = RLlibSettings.from_overrides("amoeba", None, {"lr": 0.001}, 6, 1)
    with pytest.raises(ValueError, match="unknown config key 'nonsense'"):
        RLlibSettings.from_overrides("amoeba", None, {"nonsense": 1}, None, 1)
    run = tmp_path / "rllib"
    (run / "checkpoint").mkdir(parents=True)
    (run / "rllib_run.json").write_text(json.dumps({"settings": {**vars(settings), "hidden": [8]}}))
    assert resumed_settings(run, num_env_runners=2).seed == 6
    with pytest.raises(ValueError, match="started with seed 6, not 1"):
        resumed_settings(run, num_env_runners=2, seed=1)
    with pytest.raises(ValueError, match="already holds a run"):
        prepare_new_run(run)
    prepare_new_run(run, overwrite=True)
    assert list(run.iterdir()) == []


@pytest.mark.parametrize("algo", ["ppo", "az"])
def test_an_error_once_training_runs_is_a_bug_with_its_traceback(algo, tmp_path, monkeypatch, capsys):
    from meeplezoo.cli import INTERNAL_ERROR
    from meeplezoo.training.az.train import AZRun
    from meeplezoo.training.train import PPORun

    def broken(self, *args, **kwargs):
        raise ValueError("a bug inside the trainer")

    monkeypatch.setattr(AZRun if algo == "az" else PPORun, "execute", broken)
    out = tmp_path / "run"
    assert main(["train", "amoeba", "--algo", algo, "--out", str(out), "--no-progress"]) == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err and "a bug inside the trainer" in err
    assert "internal error" in err.splitlines()[-1]
    assert (out / "run.json").exists()  # the input was fine: the run folder was opened
