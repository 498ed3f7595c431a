"""``meeplezoo arena`` and ``meeplezoo replay`` end to end on a real game."""

from __future__ import annotations

import json

import pytest

from meeplezoo import envs
from meeplezoo.agents.replay_cli import show
from meeplezoo.cli import main
from meeplezoo.envs.core.replay import ReplayRecord


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
