"""Replay files are validated; the CLI's config parser and dispatcher."""

from __future__ import annotations

import pytest

from meeplezoo.cli import main, parse_config
from meeplezoo.envs.core.replay import ReplayError, ReplayRecord, replay_final_state


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
    from meeplezoo import envs

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
    assert "unknown command" in capsys.readouterr().err
