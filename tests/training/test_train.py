"""Tiny end-to-end runs: train, save, reload, play legal moves, resume."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.cli import main
from meeplezoo.training.configs import hyperparams
from meeplezoo.training.evaluate import versus
from meeplezoo.training.league import load_policy
from meeplezoo.training.train import latest_checkpoint, split_config, train
from tests.core.toy_game import HighCardGame
from tests.training.helpers import TINY, game_names


def test_toy_run_trains_saves_reloads_and_resumes(tmp_path):
    out = tmp_path / "run"
    config = {**TINY, "eval_every": 256, "eval_games": 4, "eval_mcts_games": 2}
    first = train(HighCardGame(num_players=3), timesteps=512, config=config, out=out, seed=3, progress=False)
    assert first["stats"]["timesteps_total"] == 512
    assert (out / "best_model.zip").exists() and (out / "final_eval.json").exists()
    assert len(list((out / "league").glob("snapshot_*_steps.pt"))) >= 3
    assert len((out / "evaluations.jsonl").read_text().splitlines()) == 2
    assert {row["agent"] for row in first["final_eval"]["agents"]} == {"trained", "random", "mcts:sims=2"}
    assert (out / "arena" / "summary.json").exists()

    second = train(HighCardGame(num_players=3), timesteps=256, resume=out, progress=False, final_eval=False)
    assert second["stats"]["timesteps_total"] == 768
    assert second["stats"]["timesteps_this_run"] == 256
    assert latest_checkpoint(out).name == "model_768_steps.zip"
    record = json.loads((out / "run.json").read_text())
    assert record["overrides"]["n_steps"] == 128
    # the resume rule (training.runs): the run keeps its seed, and refuses another
    assert (record["algo"], record["seed"]) == ("ppo", 3)
    with pytest.raises(ValueError, match="started with seed 3, not 5"):
        train(HighCardGame(num_players=3), timesteps=256, resume=out, seed=5, progress=False)
    assert latest_checkpoint(out).name == "model_768_steps.zip"


def test_resume_refuses_another_game(tmp_path):
    train(HighCardGame(), timesteps=128, config=TINY, out=tmp_path, progress=False, final_eval=False)
    names = envs.names()
    if not names:
        pytest.skip("no registered game to mismatch with")
    with pytest.raises(ValueError, match="is a run of"):
        train(names[0], timesteps=128, resume=tmp_path, progress=False)


def test_config_pairs_split_into_game_and_training_settings():
    game_config, overrides = split_config(HighCardGame(), {"max_turns": 5, "ent_coef": 0.02})
    assert game_config == {"max_turns": 5} and overrides == {"ent_coef": 0.02}
    with pytest.raises(ValueError, match="unknown config key"):
        split_config(HighCardGame(), {"nonsense": 1})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("n_steps", 0),
        ("gamma", 1.5),
        ("learning_rate", "fast"),
        ("net_arch", [64, "wide"]),
        ("net_arch", {"pi": [8]}),
        ("features", "transformer"),
        ("skip_forced", "yes"),
        ("league_random", -1),
        ("league_mcts_spec", "nonsense:sims=2"),
    ],
)
def test_setting_out_of_range_is_refused_before_anything_is_written(tmp_path, key, value):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=key):
        train(HighCardGame(), timesteps=128, config={**TINY, key: value}, out=out, progress=False)
    assert not out.exists()


@pytest.mark.parametrize(("argument", "value"), [("eval_every", -1), ("eval_games", "many")])
def test_evaluation_arguments_are_checked_like_settings(tmp_path, argument, value):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=argument):
        train(HighCardGame(), timesteps=128, config=TINY, out=out, progress=False, **{argument: value})
    assert not out.exists()


def test_settings_in_range_come_back_in_canonical_form():
    params = hyperparams("amoeba", {"net_arch": (16, 16), "gamma": 1, "league_mcts": 0})
    assert params["net_arch"] == [16, 16]
    assert params["gamma"] == 1.0 and isinstance(params["gamma"], float)
    assert hyperparams("amoeba", {"net_arch": {"pi": [], "vf": [8]}})["net_arch"] == {"pi": [], "vf": [8]}
    assert hyperparams("gem_mountain")["features"] == "board"  # the game's table


@pytest.mark.parametrize("name", game_names())
def test_every_game_tiny_run_plays_legal_moves(name, tmp_path):
    summary = train(name, timesteps=128, config=TINY, out=tmp_path, progress=False, final_eval=False)
    policy = load_policy(summary["final_model"])
    game = envs.make_game(name)
    # the arena applies every move to the rules state, which refuses illegal ones
    result = versus(game, policy, "random", games=game.num_players, seed=1)
    assert result["wins"] + result["draws"] + result["losses"] == game.num_players
    # and the greedy move is legal in fresh positions too
    state = game.new_initial_state(3)
    rng = np.random.default_rng(0)
    from meeplezoo.training.league import PolicyOpponent

    agent = PolicyOpponent(policy, deterministic=True)
    for _ in range(20):
        if state.done:
            break
        p = state.current_player
        mask = state.legal_action_mask()
        a = agent.act({"observation": state.observation(p), "action_mask": mask.astype(np.int8)})
        assert mask[a]
        state.apply(int(rng.choice(np.flatnonzero(mask))))


def test_cli_trains_a_registered_game(tmp_path, capsys):
    names = envs.names()
    if not names:
        pytest.skip("no game registered yet")
    pairs = [f"{k}={json.dumps(v)}" for k, v in TINY.items()]
    code = main(
        ["train", names[0], "--timesteps", "128", "--out", str(tmp_path), "--no-progress", "--config", *pairs]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "random" in printed and "steps/s" in printed
    assert (tmp_path / "final_eval.json").exists()


def test_benchmark_writes_its_report(tmp_path):
    from meeplezoo.training.benchmark import main as benchmark

    names = envs.names()
    if not names:
        pytest.skip("no game registered yet")
    pairs = [f"{k}={json.dumps(v)}" for k, v in TINY.items()]
    code = benchmark(
        [
            names[0],
            "--timesteps",
            "128",
            "--games",
            "2",
            "--eval-every",
            "0",
            "--out",
            str(tmp_path / "run"),
            "--results",
            str(tmp_path / "results"),
            "--config",
            *pairs,
        ]
    )
    assert code == 0
    base = names[0].rsplit("_v", 1)[0]
    text = (tmp_path / "results" / f"training_{base}.md").read_text()
    assert "steps/s" in text and "| final, sampled | 2 |" in text and "| final, greedy | 2 |" in text
    record = json.loads((tmp_path / "results" / f"training_{base}.json").read_text())
    assert record["timesteps"] == 128
    assert record["command"].startswith(f"python -m meeplezoo.training.benchmark {names[0]} --timesteps 128")
    assert str(tmp_path) not in record["command"]  # where files went is not part of the result
    assert benchmark(["--summary", "--results", str(tmp_path / "results")]) == 0
    summary = (tmp_path / "results" / "training.md").read_text()
    assert f"[{base}](training_{base}.md) | " in summary and "/2 = **" in summary


def test_parallel_envs_train_in_worker_processes(tmp_path):
    summary = train(
        HighCardGame(num_players=3),
        timesteps=256,
        n_envs=2,
        config=TINY,
        out=tmp_path,
        progress=False,
        final_eval=False,
    )
    assert summary["stats"]["timesteps_total"] == 256
    assert summary["stats"]["n_envs"] == 2
    assert 0 < summary["stats"]["env_share"] <= 1.0 + 1e-9
    # both workers received the league's snapshots
    assert len(list((tmp_path / "league").glob("*.pt"))) == 2


@pytest.mark.parametrize("content", ["{not json", "[]", '{"game": "amoeba_v0"}'])
def test_resume_of_a_damaged_run_file_is_one_line(content, tmp_path, capsys):
    from tests.cli_helpers import assert_one_error_line

    (tmp_path / "run.json").write_text(content)
    assert main(["train", "--resume", str(tmp_path), "--timesteps", "8", "--no-progress"]) == 2
    assert_one_error_line(capsys.readouterr().err, str(tmp_path / "run.json"))
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_train_refuses_a_file_as_its_run_folder(tmp_path, capsys):
    from tests.cli_helpers import assert_one_error_line

    (tmp_path / "a_file").write_text("keep me")
    assert (
        main(["train", "amoeba", "--out", str(tmp_path / "a_file"), "--timesteps", "8", "--no-progress"]) == 2
    )
    assert_one_error_line(capsys.readouterr().err, "a_file")
    assert (tmp_path / "a_file").read_text() == "keep me"


def test_benchmark_mistakes_are_one_line(capsys):
    from meeplezoo.training.benchmark import main as benchmark
    from tests.cli_helpers import assert_one_error_line

    assert benchmark(["nonesuch", "--timesteps", "8"]) == 2
    assert_one_error_line(capsys.readouterr().err, "nonesuch")
