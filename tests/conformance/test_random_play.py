"""Many random games per case: they end, masks are never empty, observations
fit their space, returns have the declared bounds and sum, and every final
position loads back as it was written."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import random_action, step_cap

GAMES = int(os.environ.get("MEEPLEZOO_CONFORMANCE_GAMES", "100"))  # more: set the variable


def check_final_position_round_trips(game, state):
    """A finished game's position loads back (rules layer) and writes the same dict."""
    data = state.to_dict()
    back = game.state_from_dict(data)
    assert back.done, "the loaded final position is not finished"
    assert back.to_dict() == data, "the final position does not write back the dict it was loaded from"


def check_observation(game, obs):
    assert obs.shape == tuple(game.observation_shape)
    assert obs.dtype == np.dtype(game.observation_dtype)
    assert np.all(obs >= game.observation_low), "observation below its space"
    assert np.all(obs <= game.observation_high), "observation above its space"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_random_games_end_and_keep_invariants(case):
    game = case.make_game()
    lo, hi = game.reward_range
    cap = step_cap(game)
    rng = np.random.default_rng(1234)
    lengths = []
    for g in range(GAMES):
        state = game.new_initial_state(g)
        steps = 0
        while not state.done:
            player = state.current_player
            assert 0 <= player < game.num_players
            mask = state.legal_action_mask()
            assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
            if steps % 7 == 0:
                check_observation(game, state.observation(player))
            state.apply(random_action(mask, rng))
            steps += 1
            assert steps <= cap, "game did not end"
        assert state.current_player == -1
        for p in range(game.num_players):
            check_observation(game, state.observation(p))
        returns = np.asarray(state.returns(), dtype=np.float64)
        assert returns.shape == (game.num_players,)
        assert np.all(returns >= lo - 1e-9) and np.all(returns <= hi + 1e-9)
        if game.info.zero_sum:
            assert abs(returns.sum()) < 1e-6, f"returns {returns} do not sum to zero"
        check_final_position_round_trips(game, state)
        lengths.append(steps)
    assert max(lengths) > 0


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_aec_rewards_equal_rules_returns(case):
    env = case.make_env()
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            env.step(random_action(obs["action_mask"], rng))
        returns = env.game_state.returns()
        for i, agent in enumerate(env.possible_agents):
            assert totals[agent] == pytest.approx(returns[i])
        check_final_position_reloads(env)


def check_final_position_reloads(env):
    """``env.load_state(env.get_state())`` takes the finished game's position back."""
    final = env.get_state()
    env.load_state(final)
    assert env.game_state.done, "the reloaded final position is not finished"
    assert env.get_state() == final, "the reloaded final position writes another dict"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_declared_board_planes_fit_the_observation(case):
    """``observation_planes`` (optional) must describe a prefix of the vector."""
    game = case.make_game()
    if game.observation_planes is None:
        pytest.skip("no board planes declared")
    planes, rows, cols = game.observation_planes
    assert min(planes, rows, cols) >= 1
    assert planes * rows * cols <= int(np.prod(game.observation_shape))
    if game.action_cells is not None:
        cells = np.asarray(game.action_cells)
        assert cells.shape == (game.num_actions,) and cells.min() >= -1 and (cells >= 0).any()
