"""Replay files are validated; the CLI's config parser and dispatcher."""

from __future__ import annotations

import pytest

from meeplezoo import envs
from meeplezoo.cli import main, parse_config
from meeplezoo.envs.core.replay import ReplayError, ReplayRecord, replay_final_state
from tests.cli_helpers import assert_one_error_line


def test_replay_json_round_trip():
    record = ReplayRecord(game="g_v0", config={"num_players": 3}, seed=5, actions=[1, 2], meta={"x": 1})
    assert ReplayRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "valid JSON"),
        ("[]", "not a meeplezoo replay"),
        ('{"format": "meeplezoo-replay", "version": 99}', "version"),
        ('{"format": "meeplezoo-replay", "version": 1, "game": 3}', "game"),
        ('{"format": "meeplezoo-replay", "version": 1, "game": "g", "config": {}, "seed": "x"}', "seed"),
        (
            '{"format": "meeplezoo-replay", "version": 1, "game": "g", "config": {}, "seed": 1, "actions": [1.5]}',
            "actions",
        ),
    ],
)
def test_malformed_replays_are_rejected(text, message):
    with pytest.raises(ReplayError, match=message):
        ReplayRecord.from_json(text)


def test_replay_of_unknown_game_is_rejected():
    with pytest.raises(ReplayError, match="unknown game"):
        replay_final_state(ReplayRecord(game="nope_v0", config={}, seed=1, actions=[]))


def test_replay_with_an_illegal_action_is_rejected():
    if not envs.names():
        pytest.skip("no registered game yet")
    name = envs.names()[0]
    game = envs.make_game(name)
    state = game.new_initial_state(0)
    illegal = [a for a in range(game.num_actions) if not state.legal_action_mask()[a]]
    if not illegal:
        pytest.skip("every action legal at the start")
    with pytest.raises(ReplayError, match="not legal"):
        replay_final_state(ReplayRecord(game=name, config={}, seed=0, actions=[illegal[0]]))
    with pytest.raises(ReplayError, match="config"):
        replay_final_state(ReplayRecord(game=name, config={"bogus": 1}, seed=0, actions=[]))


def test_parse_config():
    assert parse_config(["a=3", "b=true", "c=hello", 'd="x"', "e=[1,2]"]) == {
        "a": 3,
        "b": True,
        "c": "hello",
        "d": "x",
        "e": [1, 2],
    }
    with pytest.raises(ValueError):
        parse_config(["novalue"])


def test_cli_help_and_unknown_command(capsys):
    assert main([]) == 0
    assert "usage: meeplezoo" in capsys.readouterr().out
    assert main(["frobnicate"]) == 2
    assert_one_error_line(capsys.readouterr().err, "unknown command", "frobnicate")


# --- every command-line mistake: one line on stderr, exit 2 ----------------------------------------------


@pytest.mark.parametrize(
    "argv, named",
    [
        (["list", "--bogus"], "--bogus"),
        (["play"], "game"),
        (["arena", "gem_mountain"], "--agents"),
        (["replay"], "file"),
        (["train", "gem_mountain", "--timesteps", "many"], "many"),
        (["bench", "--clock", "sundial"], "sundial"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_usage_mistakes_are_one_line(argv, named, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert_one_error_line(captured.err, named)
    assert captured.out == ""


def test_unknown_game_and_bad_config_are_one_line(capsys):
    assert main(["rules", "nonesuch"]) == 2
    assert_one_error_line(capsys.readouterr().err, "nonesuch")
    assert main(["play", "gem_mountain", "--config", "map_rows=99"]) == 2
    assert_one_error_line(capsys.readouterr().err, "map_rows", "99")
    assert main(["play", "gem_mountain", "--config", "novalue"]) == 2
    assert_one_error_line(capsys.readouterr().err, "novalue")


def _parse(module, argv):
    from meeplezoo.cli import CommandParser

    parser = CommandParser(prog="meeplezoo test")
    module.add_arguments(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize("command", ["play", "arena", "serve", "train"])
def test_config_pairs_never_swallow_the_game(command):
    import importlib

    from meeplezoo.cli import SUBCOMMANDS

    module = importlib.import_module(SUBCOMMANDS[command])
    extra = {"arena": ["--agents", "random", "random"], "serve": ["--agents", "human", "random"]}.get(
        command, []
    )
    for argv in (
        ["--config", "map_rows=8", "gem_mountain"],
        ["--config", "map_rows=8", "max_turns=50", "gem_mountain"],
        ["--config", "map_rows=8", "--config", "max_turns=50", "gem_mountain"],
        ["--config=map_rows=8", "max_turns=50", "gem_mountain"],
        ["gem_mountain", "--config", "map_rows=8", "max_turns=50"],
    ):
        args = _parse(module, [*argv, *extra])
        assert args.game == "gem_mountain", argv
        assert parse_config(args.config) in ({"map_rows": 8}, {"map_rows": 8, "max_turns": 50}), argv
    assert _parse(module, ["gem_mountain", *extra]).config == []


def test_bench_config_pairs_after_one_option():
    from meeplezoo.benchmarks import cli as bench_cli

    args = _parse(bench_cli, ["--profile", "gem_mountain", "--config", "map_rows=8", "max_turns=50"])
    assert parse_config(args.config) == {"map_rows": 8, "max_turns": 50}


def test_play_takes_config_before_the_game(monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 5000))  # the person always plays the first move
    assert main(["play", "--config", "map_rows=8", "gem_mountain", "--seed", "1"]) == 0
    assert "Rewards:" in capsys.readouterr().out


def test_missing_extra_names_the_install_command(monkeypatch, capsys, tmp_path):
    import sys

    monkeypatch.chdir(tmp_path)  # the default run folder, runs/<game>, must not exist yet

    for module in ("sb3_contrib", "stable_baselines3"):
        monkeypatch.setitem(sys.modules, module, None)  # as if the train extra were not installed
    monkeypatch.delitem(sys.modules, "meeplezoo.training.train", raising=False)
    assert main(["train", "princes_of_amber", "--timesteps", "8", "--no-progress"]) == 2
    assert_one_error_line(capsys.readouterr().err, "pip install 'meeplezoo[train]'")


# --- replay files a person may get wrong ------------------------------------------------------------------


def _recorded_game(name: str, tmp_path):
    from meeplezoo.agents.arena import play_match

    record = play_match(name, ["random"] * envs_default_players(name), seed=3, record=True).replay
    path = tmp_path / "game.json"
    record.save(path)
    return record, path


def envs_default_players(name: str) -> int:
    return envs.game_class(name).info.default_players


def test_replay_of_a_missing_file_a_folder_or_a_binary_is_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert_one_error_line(capsys.readouterr().err, "missing.json", "No such file")
    assert main(["replay", str(tmp_path)]) == 2
    assert_one_error_line(capsys.readouterr().err, str(tmp_path))
    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["replay", str(binary)]) == 2
    assert_one_error_line(capsys.readouterr().err, "picture.json")
    assert main(["replay", str(tmp_path / "missing.json"), "--step"]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["picture.json"]  # nothing written


@pytest.mark.parametrize("name", envs.names())
@pytest.mark.parametrize("tampered", [10**30, -1])
@pytest.mark.parametrize("move", [0, 3])
def test_tampered_replay_action_is_one_line(name, tampered, move, tmp_path, capsys):
    import json

    record, path = _recorded_game(name, tmp_path)
    data = json.loads(path.read_text())
    data["actions"][move] = tampered
    path.write_text(json.dumps(data))
    before = path.read_text()
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert_one_error_line(captured.err, f"#{move}", str(tampered))
    assert path.read_text() == before


@pytest.mark.parametrize("viewer", ["7", "-1"])
def test_replay_viewer_out_of_range_is_one_line(viewer, tmp_path, capsys):
    _record, path = _recorded_game("gem_mountain_v0", tmp_path)
    assert main(["replay", str(path), "--viewer", viewer]) == 2
    captured = capsys.readouterr()
    assert_one_error_line(captured.err, f"--viewer {viewer}", "0-1")
    assert captured.out.count("\n") <= 2  # refused before any position is drawn


@pytest.mark.parametrize(
    "argv, named",
    [
        (["replay", "missing.json"], "missing.json"),
        (["replay", "."], "."),
        (["replay", "tampered.json"], "#0"),
        (["replay", "game.json", "--viewer", "7"], "--viewer 7"),
        (["arena", "amoeba", "--agents", "random", "random", "--games", "2", "--out", "a_file"], "a_file"),
        (["play", "--config", "map_rows=99", "gem_mountain"], "map_rows"),
        (["rules", "nonesuch"], "nonesuch"),
        (["list", "--wide"], "--wide"),
    ],
)
def test_console_script_mistakes_print_no_traceback(argv, named, tmp_path):
    import json

    from tests.cli_helpers import run_command

    _record, path = _recorded_game("gem_mountain_v0", tmp_path)
    data = json.loads(path.read_text())
    data["actions"][0] = 10**30
    (tmp_path / "tampered.json").write_text(json.dumps(data))
    (tmp_path / "a_file").write_text("keep me")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = run_command(argv, tmp_path)
    assert result.returncode == 2, result.stderr
    assert_one_error_line(result.stderr, named)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
