"""Expert iteration end to end on tiny budgets: train, save, reload, resume,
and legal self-play in every game at two and at the most players."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")

import torch  # noqa: E402

from meeplezoo import envs  # noqa: E402
from meeplezoo.agents.arena import play_match  # noqa: E402
from meeplezoo.agents.az import AZAgent, NetworkEvaluator, load_network  # noqa: E402
from meeplezoo.agents.base import SeatView  # noqa: E402
from meeplezoo.cli import main  # noqa: E402
from meeplezoo.training.az.network import AZNetwork, TorchEvaluator, export_network  # noqa: E402
from meeplezoo.training.az.selfplay import play_games  # noqa: E402
from meeplezoo.training.az.settings import az_settings  # noqa: E402
from meeplezoo.training.az.train import train_az  # noqa: E402
from tests.agents.helpers import random_positions  # noqa: E402
from tests.core.toy_game import HighCardGame  # noqa: E402

TINY = {
    "sims": 3,
    "eval_sims": 3,
    "search_batch": 2,
    "concurrent_games": 2,
    "games_per_round": 2,
    "batch_size": 16,
    "hidden": 16,
    "channels": 4,
    "eval_every": 2,
    "eval_games": 2,
    "eval_mcts_spec": "mcts:sims=2",
    "checkpoint_every": 2,
}


def test_toy_run_trains_saves_reloads_and_resumes(tmp_path):
    out = tmp_path / "run"
    first = train_az(
        HighCardGame(num_players=3), games=4, config=TINY, out=out, workers=0, seed=3, progress=False
    )
    assert first["stats"]["games"] == 4
    steps = first["stats"]["learner_steps"]
    assert steps > 0
    for name in ("latest.pt2", "best.pt2", "state.pt", "buffer.npz", "checkpoints/net_2_games.pt2"):
        assert (out / name).exists(), name
    rows = [json.loads(line) for line in (out / "evaluations.jsonl").read_text().splitlines()]
    assert [row["games"] for row in rows] == [2, 4]
    assert rows[0]["mcts"]["opponent"] == "mcts:sims=2" and "best" in rows[1]
    assert list((out / "tb").iterdir())

    second = train_az(HighCardGame(num_players=3), games=2, resume=out, workers=0, progress=False)
    assert second["stats"]["games"] == 6
    assert second["stats"]["learner_steps"] > steps
    assert second["stats"]["positions"] > first["stats"]["positions"]
    record = json.loads((out / "run.json").read_text())
    assert record["overrides"]["sims"] == 3
    # the resume rule (training.runs): the run keeps its seed, and refuses another
    assert record["seed"] == 3
    with pytest.raises(ValueError, match="started with seed 3, not 5"):
        train_az(HighCardGame(num_players=3), games=2, resume=out, seed=5, workers=0, progress=False)

    evaluator = load_network(out / "latest.pt2")
    assert evaluator.meta["trained"]["games"] == 6
    result = play_match(
        HighCardGame(num_players=3), [AZAgent(path=str(out / "latest.pt2"), sims=4), "random", "random"], 1
    )
    assert result.length > 0  # the arena refuses an illegal move


def test_a_resumed_run_trains_the_same_network_as_one_never_stopped(tmp_path):
    config = {**TINY, "eval_every": 0, "eval_games": 0, "checkpoint_every": 2}
    whole, halves = tmp_path / "whole", tmp_path / "halves"
    train_az(HighCardGame(num_players=3), games=6, config=config, out=whole, workers=0, progress=False)
    train_az(HighCardGame(num_players=3), games=2, config=config, out=halves, workers=0, progress=False)
    train_az(HighCardGame(num_players=3), games=4, resume=halves, workers=0, progress=False)
    saved = [torch.load(folder / "state.pt", weights_only=False) for folder in (whole, halves)]
    assert saved[0]["counters"]["games"] == saved[1]["counters"]["games"] == 6
    weights = [entry["learner"]["net"] for entry in saved]
    assert weights[0].keys() == weights[1].keys()
    for key in weights[0]:
        assert torch.equal(weights[0][key], weights[1][key]), key


def test_every_checkpoint_keeps_a_numbered_network_for_the_learning_curve(tmp_path):
    config = {**TINY, "eval_every": 0, "eval_games": 0, "checkpoint_every": 2, "games_per_round": 2}
    train_az(HighCardGame(), games=6, config=config, out=tmp_path, workers=0, progress=False)
    names = sorted(p.name for p in (tmp_path / "checkpoints").iterdir())
    assert names == ["net_2_games.pt2", "net_4_games.pt2", "net_6_games.pt2"]
    assert load_network(tmp_path / "checkpoints" / "net_4_games.pt2").meta["trained"]["games"] == 4


def test_evaluations_are_seeded_from_the_run_seed(tmp_path, monkeypatch):
    from meeplezoo.training.az import train as az_train
    from meeplezoo.training.runs import SeedStream, stream_seed

    seeds = []

    def record_seed(rules, path, opponent, games, sims, seed, progress=None):
        seeds.append(seed)
        rates = {"win_rate": 0.5, "score_rate": 0.5, "rating": 0.0, "opponent_rating": 0.0}
        return {**rates, "wins": 1, "games": games, "opponent": opponent}

    monkeypatch.setattr(az_train, "evaluate_network", record_seed)
    config = {**TINY, "eval_every": 0, "checkpoint_every": 0}
    for seed in (1, 2):
        train_az(
            HighCardGame(),
            games=2,
            config=config,
            out=tmp_path / str(seed),
            workers=0,
            seed=seed,
            progress=False,
        )
    assert seeds == [stream_seed(seed, SeedStream.EVALUATION, 2) for seed in (1, 2)]


def test_overwrite_replaces_the_run_in_a_folder(tmp_path):
    config = {**TINY, "eval_every": 0, "eval_games": 0, "checkpoint_every": 0}
    train_az(HighCardGame(), games=2, config=config, out=tmp_path, workers=0, progress=False)
    (tmp_path / "checkpoints" / "net_98_games.pt2").write_bytes(b"an earlier run's")
    with pytest.raises(ValueError, match="already holds a run"):
        train_az(HighCardGame(), games=2, config=config, out=tmp_path, workers=0, progress=False)
    again = train_az(
        HighCardGame(), games=2, config=config, out=tmp_path, workers=0, progress=False, overwrite=True
    )
    assert again["stats"]["games"] == 2
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == ["net_2_games.pt2"]
    assert len(list((tmp_path / "tb").iterdir())) == 1


def test_resume_refuses_another_game_and_a_ppo_run(tmp_path):
    train_az(
        HighCardGame(), games=2, config={**TINY, "eval_games": 0}, out=tmp_path, workers=0, progress=False
    )
    with pytest.raises(ValueError, match="is a run of"):
        train_az("princes_of_amber", games=2, resume=tmp_path, workers=0, progress=False)
    (tmp_path / "run.json").write_text(
        json.dumps({"algo": "ppo", "game": "x", "game_config": {}, "overrides": {}, "seed": 0})
    )
    with pytest.raises(ValueError, match="not an az run"):
        train_az(games=2, resume=tmp_path, workers=0, progress=False)


def test_unknown_setting_is_refused():
    with pytest.raises(ValueError, match="unknown config key 'nonsense'"):
        train_az(HighCardGame(), games=1, config={"nonsense": 1}, workers=0, progress=False)
    with pytest.raises(ValueError, match="unknown az setting"):
        az_settings("amoeba", {"nonsense": 1})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("sims", 0),
        ("sims", "many"),
        ("sims", 32.5),
        ("search_value_weight", 1.5),
        ("margin_value_weight", 1.5),
        ("margin_value_weight", 0.5),  # the toy game keeps no scores
        ("margin_scale", 0),
        ("value_mix", -0.1),
        ("prior_temperature", 0),
        ("body", "rnn"),
        ("eval_mcts_spec", "nonsense:sims=2"),
        ("eval_games", True),
    ],
)
def test_setting_out_of_range_is_refused_before_anything_is_written(tmp_path, key, value):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=key):
        train_az(HighCardGame(), games=1, config={key: value}, out=out, workers=0, progress=False)
    assert not out.exists()


def test_settings_in_range_come_back_in_canonical_form():
    settings = az_settings("amoeba", {"sims": 8, "value_mix": 1, "search_value_weight": 0.5})
    assert settings["sims"] == 8 and settings["value_mix"] == 1.0
    assert isinstance(settings["value_mix"], float)
    assert settings["eval_sims"] == 160  # the game's table


def table_sizes():
    out = []
    for name in envs.names():
        cls = envs.game_class(name)
        for players in sorted({max(2, cls.info.min_players), cls.info.max_players}):
            out.append(pytest.param(name, players, id=f"{name}-{players}"))
    return out


@pytest.mark.parametrize("name,players", table_sizes())
def test_self_play_plays_legal_moves_at_two_and_the_most_players(name, players):
    config = {"num_players": players} if "num_players" in envs.game_class(name).defaults else {}
    game = envs.make_game(name, **config)
    net = AZNetwork(game, hidden=8, channels=4)
    settings = {**az_settings(name, {**TINY, "max_moves": 30}), "sims": 2}
    records = play_games(game, TorchEvaluator(net), [1, 2], settings)  # every move is checked by apply()
    for record in records:
        assert 0 < record.length <= 30 and len(record.returns) == game.num_players
        assert record.masks.shape[0] == record.policies.shape[0] == record.values.shape[0]
        # the visit distribution lies on legal moves and sums to one
        assert np.all(record.policies[~record.masks] == 0)
        assert np.allclose(record.policies.sum(axis=1), 1.0)


@pytest.mark.parametrize("name", ["princes_of_amber_v1", "gem_mountain_v0"])
def test_batched_evaluation_equals_one_position_at_a_time(name, tmp_path):
    game = envs.make_game(name)
    net = AZNetwork(game, hidden=16, channels=4)
    positions = random_positions(game, 5, seed=3, max_plies=40)
    obs = np.stack([s.observation(s.current_player) for s in positions])
    masks = np.stack([s.legal_action_mask() for s in positions])
    exported = load_network(export_network(net, game, tmp_path / "net.pt2", {}))
    # the loaded file, which skips torch's per-call input checks, computes what the network does
    for ours, theirs in zip(exported.evaluate(obs, masks), TorchEvaluator(net).evaluate(obs, masks)):
        np.testing.assert_allclose(ours, theirs, atol=1e-6)
    for evaluator in (TorchEvaluator(net), exported):
        priors, values = evaluator.evaluate(obs, masks)
        for i in range(len(positions)):
            one_prior, one_value = evaluator.evaluate(obs[i : i + 1], masks[i : i + 1])
            assert np.allclose(one_prior[0], priors[i], atol=1e-6)
            assert np.allclose(one_value[0], values[i], atol=1e-6)
        assert np.all(priors[~masks] == 0) and np.allclose(priors.sum(axis=1), 1.0)
        lo, hi = game.reward_range
        assert np.all((values >= lo) & (values <= hi))


def test_agent_takes_its_search_settings_from_the_network_file(tmp_path):
    game = envs.make_game("gem_mountain")
    play = {"sims": 5, "value_mix": 0.25, "prior_temperature": 2.0}
    path = export_network(AZNetwork(game, hidden=8), game, tmp_path / "net.pt2", {}, play)
    agent = AZAgent(path=str(path))
    assert (agent.sims, agent.value_mix, agent.prior_temperature) == (5, 0.25, 2.0)
    assert agent.params == {"path": str(path), "sims": 5, "value_mix": 0.25, "prior_temperature": 2.0}
    assert agent.search(SeatView(game.new_initial_state(0), 0)).prior_power == 0.5
    explicit = AZAgent(path=str(path), sims=9, value_mix=0, prior_temperature=1)
    assert (explicit.sims, explicit.value_mix, explicit.prior_temperature) == (9, 0.0, 1.0)
    bare = export_network(AZNetwork(game, hidden=8), game, tmp_path / "bare.pt2", {})
    defaults = AZAgent(path=str(bare))
    assert (defaults.sims, defaults.value_mix, defaults.prior_temperature) == (64, 0.0, 1.0)


def test_a_file_written_before_the_settings_were_renamed_plays_with_its_settings(tmp_path, recwarn):
    game = envs.make_game("gem_mountain")
    play = {"sims": 5, "mix": 0.5, "rollout": 2, "prior_temperature": 2.0, "batch": 4}
    path = export_network(AZNetwork(game, hidden=8), game, tmp_path / "old.pt2", {}, play)
    agent = AZAgent(path=str(path))
    assert (agent.value_mix, agent.value_rollout, agent.search_batch) == (0.5, 2, 4)
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]  # nobody typed them


def test_network_of_an_earlier_version_plays_with_a_warning(tmp_path):
    game = envs.make_game("princes_of_amber")
    loaded = load_network(export_network(AZNetwork(game, hidden=8), game, tmp_path / "net.pt2", {}))
    earlier = NetworkEvaluator(loaded.module, {**loaded.meta, "game": "princes_of_amber_v0"})
    with pytest.warns(UserWarning, match="trained on princes_of_amber_v0, an earlier version"):
        earlier.check(game)
    other = NetworkEvaluator(loaded.module, {**loaded.meta, "game": "gem_mountain_v0"})
    with pytest.raises(ValueError, match="is for gem_mountain_v0"):
        other.check(game)


def test_network_of_another_table_is_refused(tmp_path):
    game = envs.make_game("princes_of_amber", num_players=3)
    path = export_network(AZNetwork(game, hidden=8), game, tmp_path / "three.pt2", {})
    with pytest.raises(ValueError, match="princes_of_amber_v1 with 3 players"):
        play_match("princes_of_amber", [f"az:path={path},sims=2", "random"], 0)


def test_train_command_runs_az(tmp_path, capsys):
    out = tmp_path / "cli"
    pairs = [f"{k}={v}" for k, v in {**TINY, "eval_games": 0}.items()]
    code = main(
        [
            "train",
            "princes_of_amber",
            "--algo",
            "az",
            "--games",
            "2",
            "--workers",
            "0",
            "--out",
            str(out),
            "--no-progress",
            "--config",
            *pairs,
        ]
    )
    assert code == 0
    assert (out / "latest.pt2").exists()
    assert "2 self-play games this run" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("name,players", table_sizes())
def test_tiny_run_per_game_saves_reloads_and_resumes(name, players, tmp_path):
    config = {**TINY, "max_moves": 40, "eval_games": 0}
    first = train_az(name, players=players, games=2, config=config, out=tmp_path, workers=0, progress=False)
    second = train_az(name, games=2, resume=tmp_path, workers=0, progress=False)
    assert (first["stats"]["games"], second["stats"]["games"]) == (2, 4)
    assert second["stats"]["learner_steps"] > first["stats"]["learner_steps"]
    assert load_network(tmp_path / "latest.pt2").meta["num_players"] == players


def test_search_over_a_ppo_checkpoint_plays_legal_moves(tmp_path):
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.training.train import train
    from tests.agents.helpers import observation_dict
    from tests.training.helpers import TINY as TINY_PPO

    summary = train(
        "princes_of_amber", timesteps=128, config=TINY_PPO, out=tmp_path, progress=False, final_eval=False
    )
    agent = make_agent(f"az:policy={summary['final_model']},sims=6", seed=0)
    game = envs.make_game("princes_of_amber")
    for state in random_positions(game, 4, seed=5, max_plies=40):
        seat = state.current_player
        assert state.legal_action_mask()[agent.act(observation_dict(state, seat), SeatView(state, seat))]
    three = envs.make_game("gem_mountain", num_players=3)
    with pytest.raises(ValueError, match="does not fit gem_mountain_v0"):
        agent.evaluator(three)


def test_exported_networks_name_no_source_file_of_this_machine(tmp_path):
    import re
    import zipfile

    train_az(HighCardGame(num_players=3), games=2, config=TINY, out=tmp_path, workers=0, progress=False)
    with zipfile.ZipFile(tmp_path / "latest.pt2") as archive:
        assert archive.namelist()[0].startswith("latest/")  # the archive keeps the file's own name
        for entry in archive.infolist():
            assert re.search(rb'"/[^"]*\.py', archive.read(entry)) is None, entry.filename
