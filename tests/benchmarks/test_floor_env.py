"""The floor env is a correct AEC env, so its cost is a fair floor."""

import warnings

from pettingzoo.test import api_test

from meeplezoo.benchmarks.floor_env import GAME_LENGTH, FloorEnv
from meeplezoo.benchmarks.step_loop import play_aec


def test_floor_env_passes_the_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(FloorEnv(), num_cycles=3 * GAME_LENGTH)


def test_floor_game_lasts_its_length_then_everyone_steps_out():
    env = FloorEnv(game_length=6)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        _obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
        else:
            steps += 1
            env.step(0)
    assert steps == 6 and env.agents == []


def test_random_play_restarts_finished_games():
    assert play_aec(FloorEnv(game_length=10), 35, seed=0) == 4
