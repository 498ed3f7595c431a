"""``make_vec`` on Gold Rush Gangs rewrites only the observation entries a
step changes (its kernel lists them): each slot still plays the games of the
AEC env on the Python rules seeded ``seed + i``, observation for observation
across auto-resets and a second reset, on small boards where games are short
and on the default board."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.core.compiled.entries import clear_entries
from tests.core.kernel_checks import reference_step, reference_view

from .kernel_configs import SMALL

GAME = "gold_rush_gangs_v0"
CONFIGS = [
    {**SMALL, "win_sacks": 1, "bank_threshold": 2, "max_rounds": 3},
    {**SMALL, "max_rounds": 2, "deck_mode": "iid", "truncation_scoring": "rank"},
]


def play_against_the_reference(vec, refs, state, steps: int, rng) -> int:
    """Step both sides with the same random actions; returns the games ended."""
    ended = 0
    for _ in range(steps):
        for i, env in enumerate(refs):
            obs, mask, seat = reference_view(env)
            assert state.current_player[i] == seat
            assert np.array_equal(state.legal_action_mask[i], mask)
            assert np.array_equal(state.observation[i].view(np.uint32), obs.view(np.uint32))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask])
        state = vec.step(actions)
        for i, env in enumerate(refs):
            rewards, terminated, truncated = reference_step(env, int(actions[i]))
            assert np.array_equal(state.rewards[i], rewards)
            assert (state.terminated[i], state.truncated[i]) == (terminated, truncated)
            ended += terminated or truncated
    return ended


@pytest.mark.parametrize("config", CONFIGS)
def test_each_slot_plays_the_reference_games_of_its_seed(config):
    rng = np.random.default_rng(1)
    vec = meeplezoo.make_vec(GAME, 2, **config)
    assert vec._entries.shape == (2, 1 + vec.observation_shape[0])  # the kernel lists its entries
    ended = 0
    for seed in (40, 7):  # a second reset clears what the first games wrote
        refs = [meeplezoo.make(GAME, backend="python", **config) for _ in range(2)]
        for i, env in enumerate(refs):
            env.reset(seed=seed + i)
        ended += play_against_the_reference(vec, refs, vec.reset(seed), 150, rng)
    assert ended >= 2  # the runs crossed auto-resets


def test_the_default_board_matches_the_kernels_whole_observation():
    vec = meeplezoo.make_vec(GAME, 3)
    state = vec.reset(5)
    rng = np.random.default_rng(2)
    out = np.zeros(vec.observation_shape, dtype=np.float32)
    for _ in range(80):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask])
        state = vec.step(actions)
        for i in range(3):
            vec.kernel.observe(vec.states[i], vec._game_row, state.current_player[i], out)
            assert np.array_equal(state.observation[i].view(np.uint32), out.view(np.uint32))


def test_a_list_that_outgrew_its_room_clears_the_whole_row():
    row = np.arange(1, 9, dtype=np.float32)
    clear_entries(row, np.array([2, 5], dtype=np.int32), 2)
    assert row.tolist() == [1, 2, 0, 4, 5, 0, 7, 8]
    clear_entries(row, np.array([2, 5], dtype=np.int32), 3)  # three writes, two recorded
    assert not row.any()
