"""``meeplezoo serve``: bad settings fail before the server starts, in one line."""

from __future__ import annotations

import socket
import sys

import pytest

from meeplezoo.cli import main


def _err(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("meeplezoo serve: "), err
    return err


def test_missing_web_extra_names_the_pip_command(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "gem_mountain", "--agents", "human", "random"]) == 2
    assert "pip install 'meeplezoo[web]'" in _err(capsys)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gem_mountain", "--agents", "random", "random"], "exactly one 'human'"),
        (["gem_mountain", "--agents", "human", "human"], "exactly one 'human'"),
        (["gem_mountain", "--agents", "human", "nobody"], "unknown agent"),
        (["gem_mountain", "--players", "3", "--agents", "human", "random"], "seats 3 players, got 2 agents"),
        (["gold_rush_gangs", "--agents", "human", "random"], "num_players"),
        (["no_such_game", "--agents", "human", "random"], "unknown game"),
    ],
)
def test_bad_settings(args, message, tmp_path, capsys):
    assert main(["serve", *args, "--replays", str(tmp_path)]) == 2
    assert message in _err(capsys)


def test_unusable_replay_folder(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert (
        main(["serve", "gem_mountain", "--agents", "human", "random", "--replays", str(blocker / "x")]) == 2
    )
    assert "cannot use" in _err(capsys)


def test_port_in_use(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "gem_mountain", "--agents", "human", "random", "--port", str(port)]
        assert main([*args, "--replays", str(tmp_path)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in _err(capsys)
