"""``meeplezoo play`` runs whole games with scripted keyboard input."""

from __future__ import annotations

import argparse

import pytest

from meeplezoo import envs
from meeplezoo.agents import play_cli
from meeplezoo.agents.human import PlayerQuit


def args_for(game, **kw):
    parser = argparse.ArgumentParser()
    play_cli.add_arguments(parser)
    ns = parser.parse_args([game])
    for k, v in kw.items():
        setattr(ns, k, v)
    return ns


@pytest.mark.parametrize("name", envs.names() or ["none"])
def test_play_against_random_with_first_move_input(name):
    if name == "none":
        pytest.skip("no registered game yet")
    out = []
    answers = iter(["not a move", "999"] + ["0"] * 5000)
    totals = play_cli.play(args_for(name, seed=4), input_fn=lambda _: next(answers), output_fn=out.append)
    text = "\n".join(out)
    assert "not a legal move" in text  # bad input is re-asked, not fatal
    assert "Rewards:" in text
    assert set(totals) == set(envs.make(name).possible_agents)


def test_bad_seat_is_refused():
    if not envs.names():
        pytest.skip("no registered game yet")
    with pytest.raises(ValueError, match="seat"):
        play_cli.play(args_for(envs.names()[0], seat=9), input_fn=lambda _: "0", output_fn=lambda _: None)


def test_quit_stops_the_game():
    if not envs.names():
        pytest.skip("no registered game yet")
    with pytest.raises(PlayerQuit):
        play_cli.play(args_for(envs.names()[0], seed=1), input_fn=lambda _: "quit", output_fn=lambda _: None)


def test_q_exits_with_status_zero_and_ctrl_c_with_130(monkeypatch, capsys):
    def quit_or_interrupt(error):
        def play(args):
            raise error

        return play

    monkeypatch.setattr(play_cli, "play", quit_or_interrupt(PlayerQuit()))
    assert play_cli.run(args_for(envs.names()[0])) == 0
    assert "you left the game" in capsys.readouterr().err
    monkeypatch.setattr(play_cli, "play", quit_or_interrupt(KeyboardInterrupt()))
    assert play_cli.run(args_for(envs.names()[0])) == 130
