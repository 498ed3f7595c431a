"""The AEC env on the compiled backend (the default where a game has a
kernel) and on the Python reference: same API, same play, same positions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import meeplezoo
from meeplezoo.envs.core.backends import choose_backend, start_state
from meeplezoo.envs.core.compiled.state import CompiledState
from tests.core.toy_game import HighCardGame

GAME = "gem_mountain_v0"


def test_compiled_is_the_default_and_python_the_reference():
    env = meeplezoo.make(GAME)
    env.reset(seed=0)
    assert env.backend == "compiled" and isinstance(env.game_state, CompiledState)
    ref = meeplezoo.make(GAME, backend="python")
    ref.reset(seed=0)
    assert ref.backend == "python" and not isinstance(ref.game_state, CompiledState)


@pytest.mark.parametrize("backend", ["fast", 1])
def test_unknown_backends_are_named(backend):
    with pytest.raises(ValueError, match="backend"):
        meeplezoo.make(GAME, backend=backend)


def test_games_without_a_kernel_refuse_the_compiled_backend():
    game = HighCardGame(num_players=2)  # a game with no kernel
    with pytest.raises(ValueError, match="no compiled kernel"):
        start_state(game, 0, "compiled")
    assert choose_backend(game) == "python" and not isinstance(start_state(game, 0), CompiledState)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_api_test_on_both_backends(backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(meeplezoo.make(GAME, backend=backend, num_players=3), num_cycles=200)


def _play(env, seed: int, moves: int) -> list:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(moves):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        obs = env.observe(agent)
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), env.get_state()))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("config", [{}, {"num_players": 5, "dark_tunnels": True, "gemshards": True}])
def test_both_backends_play_the_same_game(config):
    a = _play(meeplezoo.make(GAME, **config), 11, 80)
    b = _play(meeplezoo.make(GAME, backend="python", **config), 11, 80)
    assert a == b


def test_positions_move_between_backends():
    compiled, reference = meeplezoo.make(GAME, render_mode="ansi"), meeplezoo.make(GAME, backend="python")
    compiled.reset(seed=3)
    for _ in range(7):
        compiled.step(int(np.flatnonzero(compiled.observe(compiled.agent_selection)["action_mask"])[0]))
    reference.load_state(compiled.get_state())
    assert reference.get_state() == compiled.get_state()
    compiled.load_state(reference.get_state())
    assert isinstance(compiled.game_state, CompiledState)
    assert compiled.render() == reference.game_state.render_ansi()


def test_clone_and_determinize_stay_independent():
    env = meeplezoo.make(GAME, dark_tunnels=True, start_tiles="any_secret", num_players=3)
    env.reset(seed=2)
    state = env.game_state
    copy = state.clone()
    copy.apply(int(copy.legal_actions()[0]))
    assert copy.to_dict() != state.to_dict()
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    sample = state.determinize(1, rng_a)
    expected = state.reference().determinize(1, rng_b)
    assert sample.to_dict() == expected.to_dict()
    assert rng_a.integers(0, 2**40) == rng_b.integers(0, 2**40)


def test_reseeding_a_compiled_state_reseeds_its_row():
    env = meeplezoo.make(GAME, golden_actions=True)
    env.reset(seed=4)
    state = env.game_state.clone()
    state.rng = np.random.default_rng(3)
    expected = np.random.default_rng(3).bit_generator.state
    assert state.reference().rng.bit_generator.state == expected
    assert state.done is False and state.done == (state.current_player < 0)


def test_search_bots_see_the_same_samples_on_both_backends():
    from meeplezoo.agents.base import SeatView

    compiled, reference = meeplezoo.make(GAME, dark_tunnels=True), meeplezoo.make(GAME, dark_tunnels=True,
                                                                                 backend="python")  # fmt: skip
    for env in (compiled, reference):
        env.reset(seed=8)
    a = SeatView(compiled.game_state, 1).sample(np.random.default_rng(2))
    b = SeatView(reference.game_state, 1).sample(np.random.default_rng(2))
    assert a.to_dict() == b.to_dict()
