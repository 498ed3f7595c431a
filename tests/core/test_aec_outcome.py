"""A finished game puts each seat's outcome in its info: the rank its
return earned, the return, and the points where the game counts them."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo

COUNTED = {"gem_mountain_v0", "amoeba_v0"}  # the games whose State counts points (scores())


def play_to_the_end(env, seed: int) -> None:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            return
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize("name", meeplezoo.names())
def test_every_seat_learns_its_rank_and_points_at_the_end(name):
    env = meeplezoo.make(name)
    play_to_the_end(env, seed=3)
    returns = {agent: env._cumulative_rewards[agent] for agent in env.possible_agents}
    infos = {agent: env.infos[agent] for agent in env.possible_agents}
    for agent, info in infos.items():
        assert info["return"] == pytest.approx(returns[agent])
        better = sum(value > returns[agent] + 1e-12 for value in returns.values())
        assert info["rank"] == 1 + better
    if name in COUNTED:
        assert [infos[a]["points"] for a in env.possible_agents] == list(env.game_state.scores())
    else:
        assert all("points" not in info for info in infos.values())


def test_a_running_game_has_no_outcome_yet():
    env = meeplezoo.make("gem_mountain_v0")
    env.reset(seed=0)
    assert all("rank" not in env.infos[agent] for agent in env.possible_agents)


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_a_kernel_counts_the_same_points_as_the_reference(name):
    """The compiled state's ``scores()`` comes from the kernel (no rebuild of the reference)."""
    env = meeplezoo.make(name)
    play_to_the_end(env, seed=5)
    state = env.game_state
    assert state.kernel.scores is not None, "a game whose State counts points gives its kernel scores"
    assert state.scores() == list(state.reference().scores())
