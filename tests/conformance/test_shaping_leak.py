"""What a learner receives never depends on what its seat cannot see.

The other world is the learner's own determinization of the position: the
same to the learner, with every hidden card and tile dealt afresh. A seat's
estimate (``evaluate(viewer=seat)``) must come out the same there, and so
must the shaped rewards the self-play env hands the learner, in every
hidden-information game and test config.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from meeplezoo.envs.core.rng import clone_rng
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.training.selfplay import SelfPlayEnv
from tests.conformance.cases import CASES
from tests.conformance.play import random_action

HIDDEN = [c for c in CASES if c.make_game().info.hidden_information]
HIDDEN_IDS = [c.id for c in HIDDEN]
STEPS = 60  # decisions checked per game
WORLDS_TRIED = 8  # resampled worlds tried per learner step
SHAPING, GAMMA = 1.0, 0.9  # Gem Mountain's training settings


def world_for(state, seat: int, seed: int):
    """A position ``seat`` cannot tell from ``state``: its determinization,
    with the same chance still to come (so that the worlds stay alike)."""
    world = state.determinize(seat, np.random.default_rng(seed))
    world.rng = clone_rng(state.rng)
    return world


def same_to(seat: int, a, b) -> bool:
    """Whether ``seat`` sees the same in both positions (its observation
    holds all it knows)."""
    return np.array_equal(a.observation(seat), b.observation(seat))


@pytest.mark.parametrize("case", HIDDEN, ids=HIDDEN_IDS)
def test_a_seats_estimate_is_the_same_in_every_world_it_cannot_tell_apart(case):
    game = case.make_game()
    lo, hi = game.reward_range
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed + 1)
        for step in range(STEPS):
            if state.done:
                break
            for seat in range(game.num_players):
                mine = state.evaluate(viewer=seat)
                assert mine.shape == (game.num_players,)
                assert np.all(mine >= lo - 1e-9) and np.all(mine <= hi + 1e-9)
                for k in range(2):
                    other = world_for(state, seat, 1000 * seed + 10 * step + k)
                    assert np.array_equal(other.evaluate(viewer=seat), mine), (
                        f"seat {seat}'s estimate reads what it cannot see (seed {seed}, step {step})"
                    )
                checked += 1
            state.apply(random_action(state.legal_action_mask(), rng))
        for seat in range(game.num_players):
            if state.done:
                assert np.allclose(state.evaluate(viewer=seat), state.returns())
    assert checked > 0


class PeekingEnv(SelfPlayEnv):
    """Shaping by the whole-state estimate, as it was: the harness below must
    catch it."""

    def _phi(self) -> float:
        if not self.reward_shaping or self.state.done:
            return 0.0
        return float(self.state.evaluate()[self.seat])


def _twin(env):
    """A copy of the env (opponents and generators included) sharing its Game."""
    return copy.deepcopy(env, {id(env.game): env.game})


def shaped_rewards_in_two_worlds(game, seed: int, env_class=SelfPlayEnv):
    """Play the learner's seat of one game. At each of its steps a twin env,
    the same but for the position, which is a resampled world of the
    learner's, takes the same step; a step may show the learner something
    (a drawn card, a grabbed tile) that differs between the worlds, so a few
    worlds are tried for one that the learner still cannot tell apart
    afterwards. Yields both rewards of each such step while the game goes
    on (the last step's shaping only takes back the potential both envs held
    before it)."""
    env = env_class(game, reward_shaping=SHAPING, gamma=GAMMA)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(STEPS):
        before = _twin(env)
        action = random_action(env.action_masks(), rng)
        _, reward, done, _, _ = env.step(action)
        if done:
            return
        for attempt in range(WORLDS_TRIED):
            twin = _twin(before)
            twin.state = world_for(before.state, env.seat, 7919 * seed + 101 * step + attempt)
            _, twin_reward, twin_done, _, _ = twin.step(action)
            if not twin_done and same_to(env.seat, env.state, twin.state):
                yield reward, twin_reward
                break


@pytest.mark.parametrize("case", HIDDEN, ids=HIDDEN_IDS)
def test_the_learner_gets_the_same_shaped_rewards_in_every_world_it_cannot_tell_apart(case):
    game = case.make_game()
    compared = 0
    for seed in range(60):  # short games have few steps: play on until enough are compared
        for reward, twin_reward in shaped_rewards_in_two_worlds(game, seed):
            assert reward == twin_reward, f"the shaped reward reads what the learner cannot see (seed {seed})"
            compared += 1
        if compared >= 20:
            break
    assert compared >= 20, f"only {compared} steps left the two worlds alike to the learner"


SECRET_DARK_TUNNELS = {"num_players": 3, "dark_tunnels": True, "start_tiles": "any_secret"}


def test_the_whole_state_estimate_reads_the_hidden_tiles_and_the_harness_catches_it():
    """Gem Mountain with face-down tiles and secret start tiles: the
    whole-state estimate differs between worlds the learner cannot tell
    apart at most positions, shaping by it hands different rewards there,
    and the learner's own estimate hands the same."""
    game = GemMountainGame(**SECRET_DARK_TUNNELS)
    differs = positions = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        for step in range(30):
            seat = state.current_player
            other = world_for(state, seat, step)
            differs += state.evaluate()[seat] != other.evaluate()[seat]
            assert state.evaluate(viewer=seat)[seat] == other.evaluate(viewer=seat)[seat]
            positions += 1
            state.apply(random_action(state.legal_action_mask(), rng))
    assert differs > positions / 2
    peeking = [pair for seed in range(2) for pair in shaped_rewards_in_two_worlds(game, seed, PeekingEnv)]
    assert sum(a != b for a, b in peeking) > len(peeking) / 4
    honest = [pair for seed in range(2) for pair in shaped_rewards_in_two_worlds(game, seed)]
    assert honest and all(a == b for a, b in honest)
