"""The single-agent self-play view: Gymnasium/SB3 conformance and rewards."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env

from meeplezoo.agents.base import Agent
from meeplezoo.training.league import League
from meeplezoo.training.selfplay import SelfPlayEnv
from tests.core.toy_game import STOP, SWAP, HighCardGame
from tests.training.helpers import game_names


class ScriptedAgent(Agent):
    """Always plays the same action (the toy game's stop or swap)."""

    def __init__(self, action: int, seed=None) -> None:
        super().__init__(seed)
        self.action = action

    def act(self, observation, view=None) -> int:
        return self.action


class ScriptedLeague(League):
    def __init__(self, action: int) -> None:
        super().__init__()
        self.action = action

    def sample(self, rng):
        return ScriptedAgent(self.action)


def play_random_episode(env: SelfPlayEnv, seed: int):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info


@pytest.mark.parametrize("players", [2, 3, 4])
def test_toy_game_passes_check_env(players):
    check_env(SelfPlayEnv(HighCardGame(num_players=players)), skip_render_check=True)


@pytest.mark.parametrize("name", game_names())
def test_every_game_passes_check_env(name):
    check_env(SelfPlayEnv(name), skip_render_check=True)


@pytest.mark.parametrize("name", game_names())
def test_every_game_reward_is_the_learners_return(name):
    env = SelfPlayEnv(name)
    for seed in range(3):
        total, info = play_random_episode(env, seed)
        assert total == pytest.approx(env.state.returns()[env.seat])
        assert info["seat"] == env.seat
        assert env.state.done


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_reward_is_the_learners_own_seat_in_a_scripted_game(seat):
    """Opponents always stop and the learner stops at once: the only card
    that moves is none, so the winner is whoever was dealt the best card."""
    env = SelfPlayEnv(HighCardGame(num_players=3), league=ScriptedLeague(STOP), seat=seat)
    outcomes = set()
    for s in range(20):
        env.reset(seed=s)
        cards = list(env.state.cards)
        _, reward, terminated, truncated, info = env.step(STOP)
        assert terminated and not truncated
        expected = 1.0 if cards[seat] == max(cards) else (-1.0 if cards[seat] == min(cards) else 0.0)
        assert reward == expected
        outcomes.add(reward)
    assert outcomes == {-1.0, 0.0, 1.0}


def test_opponents_move_until_the_learner_is_to_act():
    env = SelfPlayEnv(HighCardGame(num_players=4), league=ScriptedLeague(SWAP), seat=2, skip_forced=False)
    env.reset(seed=1)
    assert env.state.current_player == 2
    assert env.state.turns == 2  # seats 0 and 1 swapped before the learner's first move
    env.step(SWAP)
    assert env.state.current_player == 2 or env.state.done
    assert env.state.turns in (6, env.game.max_turns)


def test_forced_learner_moves_are_played_inside_the_env():
    """Once the deck is empty the learner can only stop: with skip_forced
    that move is made for it and the episode ends within the same step."""
    env = SelfPlayEnv(HighCardGame(num_players=2), league=ScriptedLeague(STOP), seat=1)
    env.reset(seed=2)
    assert env.action_masks().sum() == 2  # a real choice is left to the learner
    env.state.deck[:] = env.state.deck[:1]
    _, reward, terminated, _, _ = env.step(SWAP)  # takes the last card; stopping is then forced
    assert terminated and env.state.stopped == [True, True]
    assert reward == env.state.returns()[1]


def test_illegal_action_ends_the_episode_with_minus_one():
    env = SelfPlayEnv(HighCardGame(), league=ScriptedLeague(STOP), seat=0)
    env.reset(seed=0)
    env.state.deck.clear()  # swapping needs a card left in the deck
    assert not env.action_masks()[SWAP]
    _, reward, terminated, _, info = env.step(SWAP)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, SWAP)


def test_same_seed_same_episode():
    def trace(seed):
        env = SelfPlayEnv(HighCardGame(num_players=3))
        obs, _ = env.reset(seed=seed)
        return env.seat, list(env.state.cards), obs.tolist(), play_random_episode(env, seed)[0]

    assert trace(7) == trace(7)


def test_masks_follow_the_rules_state():
    env = SelfPlayEnv(HighCardGame())
    env.reset(seed=3)
    assert env.action_masks().tolist() == env.state.legal_action_mask().tolist()
    assert env.action_masks().dtype == bool


def test_subproc_vec_env_with_action_masks():
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = SubprocVecEnv([lambda: SelfPlayEnv(HighCardGame(num_players=3)) for _ in range(2)])
    try:
        venv.seed(5)
        venv.reset()
        rng = np.random.default_rng(0)
        dones = 0
        for _ in range(30):
            masks = get_action_masks(venv)
            assert masks.shape == (2, 2) and masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            _, rewards, done, infos = venv.step(actions)
            dones += int(done.sum())
            for r, d, info in zip(rewards, done, infos):
                if d:
                    assert r == info["return"]
        assert dones > 0
    finally:
        venv.close()


def test_turn_limit_end_is_terminal_for_the_learner():
    """A game stopped by its turn limit is scored by the game, so the result
    is final: terminated (not Gymnasium's truncated, which PPO would bootstrap)."""
    env = SelfPlayEnv(HighCardGame(num_players=2, max_turns=4), league=ScriptedLeague(SWAP), seat=0)
    env.reset(seed=5)
    while True:
        _, reward, terminated, truncated, info = env.step(SWAP)
        if terminated or truncated:
            break
    assert env.state.truncated and terminated and not truncated
    assert info["turn_limit"] is True
    assert reward == info["return"] == env.state.returns()[0]


@pytest.mark.parametrize("weight", [0.5, 2.0])
def test_potential_shaping_telescopes_to_the_return(weight):
    """With gamma = 1 the shaping terms cancel along an episode: the learner's
    total is its return minus ``weight`` times the first position's value."""
    env = SelfPlayEnv(HighCardGame(num_players=3), reward_shaping=weight, gamma=1.0)
    plain = SelfPlayEnv(HighCardGame(num_players=3))
    shaped_any = False
    for seed in range(12):
        env.reset(seed=seed)
        start_value = env.state.evaluate(viewer=env.seat)[env.seat]
        rng = np.random.default_rng(seed)
        total, rewards = 0.0, []
        while True:
            _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            rewards.append(reward)
            total += reward
            if terminated:
                break
        assert total == pytest.approx(info["return"] - weight * start_value)
        shaped_any |= any(r != 0 for r in rewards[:-1])
        # the game itself is untouched: the same seed replays the same episode without shaping
        plain.reset(seed=seed)
        assert plain.seat == env.seat
    assert shaped_any  # intermediate steps did carry a signal


def test_shaping_of_a_real_game_is_dense():
    env = SelfPlayEnv("gold_rush_gangs", {"truncation_scoring": "rank"}, reward_shaping=1.0, gamma=0.995)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    nonzero = 0
    for _ in range(200):
        _, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        nonzero += reward != 0
        if terminated:
            break
    assert nonzero > 20
