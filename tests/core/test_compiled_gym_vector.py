"""The Gymnasium vector env: one learning seat against random opponents."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.core.compiled.gym_vector import LearnerVectorEnv


@pytest.mark.parametrize("seat", [0, 1])
def test_a_random_learner_plays_whole_games(seat):
    env = LearnerVectorEnv(meeplezoo.make_game("gem_mountain_v0", num_players=3), 8, seat=seat)
    obs, info = env.reset(seed=5)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    assert obs["observation"].shape == (8, *env.single_observation_space["observation"].shape)
    rng = np.random.default_rng(0)
    finished, total = 0, 0.0
    for _ in range(300):
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.dtype == np.float32 and rewards.shape == (8,)
        assert np.all(rewards[~(terminated | truncated)] == 0)
        finished += int(terminated.sum())
        total += float(rewards.sum())
        assert (env.games.view().current_player == seat).all()
    assert finished > 0
    assert -finished <= total <= finished


def test_same_seed_same_play():
    def run() -> list:
        env = LearnerVectorEnv(meeplezoo.make_game("gem_mountain_v0"), 4)
        obs, _ = env.reset(seed=9)
        out = []
        for _ in range(60):
            actions = obs["action_mask"].argmax(axis=1)
            obs, rewards, *_ = env.step(actions)
            out.append((obs["observation"].copy(), rewards.copy()))
        return out

    for (a, r), (b, s) in zip(run(), run()):
        assert np.array_equal(a, b) and np.array_equal(r, s)


def test_bad_seat_is_named():
    with pytest.raises(ValueError, match="seat"):
        LearnerVectorEnv(meeplezoo.make_game("gem_mountain_v0"), 2, seat=2)
