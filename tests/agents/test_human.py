"""The terminal player: numbers, names, re-asking on bad input, own-seat view."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.human import HumanAgent, PlayerQuit, new_lines_only
from tests.core.toy_game import STOP, SWAP, HighCardGame


def _scripted(*answers):
    it = iter(answers)
    return lambda prompt: next(it)


def _position():
    state = HighCardGame(num_players=2).new_initial_state(3)
    obs = {"observation": state.observation(0), "action_mask": state.legal_action_mask().astype(np.int8)}
    return state, obs


def test_number_picks_the_listed_move():
    state, obs = _position()
    out = []
    agent = HumanAgent(input_fn=_scripted("1"), output_fn=out.append)
    assert agent.act(obs, SeatView(state, 0)) == STOP
    assert any("0. swap" in line for line in out)


def test_name_and_unique_prefix_are_accepted():
    state, obs = _position()
    assert (
        HumanAgent(input_fn=_scripted("swap"), output_fn=lambda s: None).act(obs, SeatView(state, 0)) == SWAP
    )
    assert HumanAgent(input_fn=_scripted("St"), output_fn=lambda s: None).act(obs, SeatView(state, 0)) == STOP


def test_bad_input_is_asked_again():
    state, obs = _position()
    out = []
    agent = HumanAgent(input_fn=_scripted("", "7", "jump", "-1", "0"), output_fn=out.append)
    assert agent.act(obs, SeatView(state, 0)) == SWAP
    assert sum("not a legal move" in line for line in out) == 4


def test_board_is_drawn_from_own_seat_only():
    state, obs = _position()
    out = []
    HumanAgent(input_fn=_scripted("0"), output_fn=out.append).act(obs, SeatView(state, 0))
    board = out[0]
    assert board == state.render_ansi(0)
    assert board.split()[1:3] == [str(state.cards[0]), "?"]


def test_the_unchanged_legend_is_not_printed_again_and_question_mark_shows_it():
    game = meeplezoo.make_game("gem_mountain_v0")
    state = game.new_initial_state(0)
    mask = state.legal_action_mask().astype(np.int8)
    obs = {"observation": state.observation(0), "action_mask": mask}
    out = []
    agent = HumanAgent(input_fn=_scripted("0", "?", "0"), output_fn=out.append)
    agent.act(obs, SeatView(state, 0))
    first_board = out[0]
    out.clear()
    agent.act(obs, SeatView(state, 0))
    assert "gem tiles:" in first_board and "gem tiles:" not in out[0]
    assert out[0].endswith("(legend as before: ? shows it)")
    assert any(line == first_board for line in out[1:])  # '?' drew the whole board again


def test_q_leaves_the_game_as_a_choice_not_an_interruption():
    state, obs = _position()
    with pytest.raises(PlayerQuit):
        HumanAgent(input_fn=_scripted("q"), output_fn=lambda s: None).act(obs, SeatView(state, 0))


def test_legend_cut_needs_a_shared_tail_of_a_few_lines():
    assert new_lines_only("a\nb\nx\ny\nz", "c\nx\ny\nz") == ("a\nb", True)
    assert new_lines_only("a\nz", "b\nz") == ("a\nz", False)
    assert new_lines_only("a", None) == ("a", False)
