"""Same seed and actions give the same trajectory; positions and replays
round-trip through JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs.core.replay import ReplayRecord, replay_final_state
from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import aec_random_trajectory, play_random_state, random_action


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_same_seed_same_trajectory(case):
    for seed in (0, 17):
        assert aec_random_trajectory(case.make_env(), seed) == aec_random_trajectory(case.make_env(), seed)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_reset_without_seed_continues_the_seeded_sequence(case):
    a, b = case.make_env(), case.make_env()
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.get_state() == b.get_state()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_state_dict_round_trip_continues_identically(case):
    game = case.make_game()
    for seed in range(3):
        state, _ = play_random_state(game, seed, until=15 + 10 * seed)
        data = json.loads(json.dumps(state.to_dict()))
        copy = game.state_from_dict(data)
        assert copy.to_dict() == state.to_dict()
        rng = np.random.default_rng(seed)
        for _ in range(30):
            if state.done:
                break
            assert copy.current_player == state.current_player
            assert np.array_equal(copy.legal_action_mask(), state.legal_action_mask())
            p = state.current_player
            assert np.array_equal(copy.observation(p), state.observation(p))
            a = random_action(state.legal_action_mask(), rng)
            state.apply(a)
            copy.apply(a)
        assert copy.to_dict() == state.to_dict()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_replay_round_trip(case, tmp_path):
    if case.env_factory is not None:
        pytest.skip("replays need a registered game")
    env = case.make_env()
    aec_random_trajectory(env, 21, max_steps=60)
    record = env.replay_record()
    path = tmp_path / "game.json"
    record.save(path)
    final = replay_final_state(ReplayRecord.load(path))
    assert final.to_dict() == env.game_state.to_dict()
