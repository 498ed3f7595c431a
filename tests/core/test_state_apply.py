"""The shared move checks of ``State.apply`` and its unchecked fast path."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.state import derive_rng, make_rng

GAMES = envs.names()


def _snapshot(state) -> str:
    """The whole position as text, to tell whether anything changed."""
    return json.dumps(state.to_dict(), sort_keys=True, default=repr)


def _illegal_action(state) -> int | None:
    illegal = np.flatnonzero(~state.legal_action_mask())
    return int(illegal[0]) if illegal.size else None


def _bad_actions(state) -> list:
    legal = int(state.legal_actions()[0])
    n = state.game.num_actions
    return [
        True,
        np.bool_(False),
        legal + 0.9,
        float(legal),
        np.float64(legal),
        str(legal),
        None,
        [legal],
        -1,
        n,
        n + 100,
    ]


@pytest.mark.parametrize("name", GAMES)
def test_apply_rejects_each_bad_input_and_changes_nothing(name):
    state = envs.make_game(name).new_initial_state(3)
    before = _snapshot(state)
    bad = _bad_actions(state)
    illegal = _illegal_action(state)
    if illegal is not None:
        bad.append(illegal)
    for action in bad:
        with pytest.raises(ValueError, match=name):
            state.apply(action)
        assert _snapshot(state) == before, f"{action!r} changed the state"


@pytest.mark.parametrize("name", GAMES)
def test_apply_error_names_the_value(name):
    state = envs.make_game(name).new_initial_state(3)
    with pytest.raises(ValueError, match="4.9"):
        state.apply(4.9)
    with pytest.raises(ValueError, match=str(state.game.num_actions)):
        state.apply(state.game.num_actions)


@pytest.mark.parametrize("name", GAMES)
def test_apply_accepts_numpy_integers(name):
    a = envs.make_game(name).new_initial_state(4)
    b = envs.make_game(name).new_initial_state(4)
    legal = int(a.legal_actions()[0])
    a.apply(legal)
    b.apply(np.int64(legal))
    assert _snapshot(a) == _snapshot(b)


def _play_out(state, rng, apply, limit=400):
    """Random legal play; returns the observations seen on the way."""
    seen = []
    for _ in range(limit):
        if state.done:
            break
        legal = state.legal_actions()
        apply(state, int(legal[rng.integers(legal.size)]))
        seat = max(state.current_player, 0)
        seen.append(state.observation(seat).tobytes())
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_unchecked_path_gives_the_same_trajectory(name):
    game = envs.make_game(name)
    checked, unchecked = game.new_initial_state(11), game.new_initial_state(11)
    seen_checked = _play_out(checked, np.random.default_rng(5), type(checked).apply)
    seen_unchecked = _play_out(unchecked, np.random.default_rng(5), type(unchecked).apply_unchecked)
    assert seen_checked == seen_unchecked
    assert _snapshot(checked) == _snapshot(unchecked)


@pytest.mark.parametrize("name", GAMES)
def test_apply_after_the_game_is_over_raises(name):
    game = (
        envs.make_game(name, max_turns=4)
        if "max_turns" in envs.game_class(name).defaults
        else envs.make_game(name)
    )
    state = game.new_initial_state(2)
    _play_out(state, np.random.default_rng(1), type(state).apply_unchecked, limit=100_000)
    assert state.done
    assert not state.legal_action_mask().any(), "apply relies on an all-False mask once the game is over"
    before = _snapshot(state)
    with pytest.raises(ValueError, match="game is over"):
        state.apply(0)
    assert _snapshot(state) == before


def test_derive_rng_is_one_draw_from_the_parent():
    parent, twin = make_rng(7), make_rng(7)
    child = derive_rng(parent)
    expected = make_rng(int(twin.integers(0, 2**63 - 1)))
    assert child.bit_generator.state == expected.bit_generator.state
    assert parent.bit_generator.state == twin.bit_generator.state


def test_derive_rng_keeps_the_search_bots_bound():
    parent, twin = make_rng(7), make_rng(7)
    child = derive_rng(parent, seed_bound=2**63)
    expected = make_rng(int(twin.integers(2**63)))
    assert child.bit_generator.state == expected.bit_generator.state
