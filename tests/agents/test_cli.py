"""``meeplezoo arena`` and ``meeplezoo replay`` end to end on a real game."""

from __future__ import annotations

import json

import pytest

from meeplezoo import envs
from meeplezoo.agents.replay_cli import show
from meeplezoo.cli import main
from meeplezoo.envs.core.replay import ReplayRecord
from tests.cli_helpers import assert_one_error_line


def _two_player_game():
    for name in envs.names():
        info = envs.game_class(name).info
        if info.min_players <= 2 <= info.max_players:
            return name
    pytest.skip("no two-player game registered yet")


def test_arena_writes_report_and_replays(tmp_path, capsys):
    name = _two_player_game()
    rc = main(
        [
            "arena",
            name,
            "--agents",
            "random",
            "random",
            "--games",
            "4",
            "--seed",
            "1",
            "--out",
            str(tmp_path),
            "--replays",
            "--no-progress",
        ]
    )
    assert rc == 0
    assert "random#2" in capsys.readouterr().out
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 4
    replays = sorted((tmp_path / "replays").iterdir())
    assert len(replays) == 4
    assert main(["replay", str(replays[0])]) == 0
    assert "game over" in capsys.readouterr().out


def test_replay_steps_and_quits(tmp_path):
    name = _two_player_game()
    from meeplezoo.agents.arena import play_match

    record = play_match(name, ["random", "random"], seed=2, config={"num_players": 2}, record=True).replay
    lines, answers = [], iter(["", "", "q"])
    shown = show(record, step=True, output_fn=lines.append, input_fn=lambda prompt: next(answers))
    assert shown == 3
    assert sum(line.startswith("\nmove ") for line in lines) == 2
    everything = []
    assert (
        show(
            ReplayRecord.from_json(record.to_json()),
            start=len(record.actions) - 1,
            output_fn=everything.append,
        )
        == 2
    )
    assert "game over" in everything[-1]


def test_arena_refuses_unknown_agents(capsys):
    name = _two_player_game()
    assert main(["arena", name, "--agents", "random", "nobody", "--games", "2", "--no-progress"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def _arena(name, out, *extra):
    return ["arena", name, "--agents", "random", "random", "--games", "2", "--out", str(out), *extra]


def test_arena_refuses_an_existing_file_as_out_before_playing(tmp_path, capsys, monkeypatch):
    from meeplezoo.agents import arena

    name = _two_player_game()
    target = tmp_path / "report.txt"
    target.write_text("keep me")
    played = []
    monkeypatch.setattr(arena.MatchTable, "play", lambda self, task: played.append(task))
    assert main(_arena(name, target, "--no-progress")) == 2
    captured = capsys.readouterr()
    assert_one_error_line(captured.err, str(target))
    assert played == [] and captured.out == ""
    assert target.read_text() == "keep me" and sorted(tmp_path.iterdir()) == [target]


def test_arena_refuses_an_out_folder_under_a_file(tmp_path, capsys):
    name = _two_player_game()
    (tmp_path / "a_file").write_text("")
    assert main(_arena(name, tmp_path / "a_file" / "report", "--no-progress")) == 2
    assert_one_error_line(capsys.readouterr().err, "a_file")
    assert [p.name for p in tmp_path.iterdir()] == ["a_file"]


def test_arena_write_failure_after_play_still_prints_the_tables(tmp_path, capsys, monkeypatch):
    from meeplezoo.agents.arena_report import TournamentResult

    def refuse(self, directory):
        raise PermissionError(13, "Permission denied", str(directory))

    monkeypatch.setattr(TournamentResult, "to_csv", refuse)
    name = _two_player_game()
    assert main(_arena(name, tmp_path / "out", "--no-progress")) == 2
    captured = capsys.readouterr()
    assert "random#2" in captured.out  # the results came first
    assert_one_error_line(captured.err, "Permission denied", str(tmp_path / "out"))
