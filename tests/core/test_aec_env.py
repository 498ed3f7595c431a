"""Behaviour of the shared AEC env that the conformance suite does not pin
down: masks of waiting agents, reward timing, positions and replays."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.replay import ReplayRecord
from tests.core.toy_game import STOP, SWAP, HighCardEnv


def test_only_the_agent_to_move_gets_a_mask():
    env = HighCardEnv(num_players=3)
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"].tolist() == [1, 1]
    assert env.observe("player_1")["action_mask"].tolist() == [0, 0]


def test_rewards_arrive_only_at_the_end_and_match_returns():
    env = HighCardEnv()
    env.reset(seed=2)
    env.step(SWAP)
    assert all(r == 0 for r in env.rewards.values())
    env.step(STOP)
    env.step(STOP)
    assert all(env.terminations.values())
    returns = env.game_state.returns()
    assert [env.rewards[a] for a in env.possible_agents] == returns.tolist()
    assert sorted(returns.tolist()) == [-1.0, 1.0]
    while env.agents:
        env.step(None)


def test_observation_is_the_seats_own_view():
    env = HighCardEnv()
    env.reset(seed=3)
    cards = env.game_state.cards
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        assert obs[cards[seat]] == 1 and obs[:10].sum() == 1


def test_load_state_continues_from_a_position_but_has_no_seed():
    env = HighCardEnv()
    env.reset(seed=4)
    env.step(SWAP)
    data = env.get_state()
    other = HighCardEnv()
    other.load_state(data)
    assert other.agent_selection == env.agent_selection
    assert other.get_state() == data
    with pytest.raises(ValueError, match="seed"):
        other.replay_record()


def test_loading_a_finished_position_ends_the_game():
    env = HighCardEnv()
    env.reset(seed=5)
    data = env.get_state()
    data["stopped"] = [True, True]
    env.load_state(data)
    assert all(env.terminations.values())


def test_replay_record_holds_seed_config_and_actions():
    env = HighCardEnv(max_turns=6)
    env.reset(seed=6)
    env.step(SWAP)
    env.step(STOP)
    record = env.replay_record()
    assert record.actions == [SWAP, STOP] and record.config == {"num_players": 2, "max_turns": 6}
    assert ReplayRecord.from_json(record.to_json()) == record


def test_encode_and_decode_actions_by_name():
    env = HighCardEnv()
    env.reset(seed=7)
    assert env.encode_action("Stop") == STOP and env.decode_action(SWAP) == "swap"
    with pytest.raises(ValueError, match="no action named"):
        env.encode_action("fold")


def test_truncation_at_the_turn_limit():
    env = HighCardEnv(max_turns=2)
    env.reset(seed=8)
    env.step(SWAP)
    env.step(SWAP)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert sum(env.rewards.values()) == pytest.approx(0)


def test_human_render_prints(capsys):
    env = HighCardEnv(render_mode="human")
    env.reset(seed=9)
    env.step(SWAP)
    assert "cards" in capsys.readouterr().out


def test_state_is_pettingzoos_method_and_the_position_is_game_state():
    env = HighCardEnv()
    env.reset(seed=4)
    with pytest.raises(NotImplementedError):
        env.state()
    assert env.game_state.to_dict() == env.get_state()


@pytest.mark.parametrize(
    "call",
    [
        lambda env: env.step(0),
        lambda env: env.last(),
        lambda env: env.observe("player_0"),
        lambda env: next(iter(env.agent_iter())),
        lambda env: env.get_state(),
        lambda env: env.decode_action(0),
        lambda env: env.encode_action("stop"),
        lambda env: env.replay_record(),
    ],
    ids=["step", "last", "observe", "agent_iter", "get_state", "decode_action", "encode_action", "replay"],
)
def test_calls_before_reset_say_to_call_reset(call):
    from gymnasium.error import ResetNeeded

    env = HighCardEnv()
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before"):
        call(env)
    with pytest.raises(ValueError, match=r"call reset\(\) before"):
        call(env)


def test_render_before_reset_says_to_call_reset():
    env = HighCardEnv(render_mode="ansi")
    with pytest.raises(ValueError, match=r"call reset\(\) before render"):
        env.render()


@pytest.mark.parametrize("seed", [5, np.int64(5), np.uint32(5), np.int8(5)])
def test_reset_takes_python_and_numpy_integer_seeds_alike(seed):
    reference = HighCardEnv()
    reference.reset(seed=5)
    env = HighCardEnv()
    env.reset(seed=seed)
    assert env.get_state() == reference.get_state()
    assert env.game_seed == reference.game_seed


@pytest.mark.parametrize("seed", [-1, True, False, np.bool_(True), 1.5, 2.0, "3", [1]])
def test_bad_seeds_raise_and_leave_the_game_unchanged(seed):
    env = HighCardEnv()
    env.reset(seed=6)
    env.step(SWAP)
    before = (env.get_state(), env.agent_selection, env.game_seed)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        env.reset(seed=seed)
    assert (env.get_state(), env.agent_selection, env.game_seed) == before


def test_observe_names_an_unknown_agent():
    env = HighCardEnv()
    env.reset(seed=7)
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        env.observe("player_9")


def test_every_seat_can_still_be_observed_after_all_stepped_out():
    env = HighCardEnv()
    env.reset(seed=8)
    env.step(STOP)
    env.step(STOP)
    while env.agents:
        env.step(None)
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].tolist() == [0, 0]


def test_reset_options_start_from_a_position_and_name_unknown_keys():
    env = HighCardEnv()
    env.reset(seed=1)
    env.step(SWAP)
    position = env.get_state()
    other = HighCardEnv()
    other.reset(seed=9, options={"state": position})
    assert other.get_state() == position and other.agent_selection == env.agent_selection
    with pytest.warns(UserWarning, match=r"reset ignores unknown option\(s\) \['stat'\]"):
        other.reset(options={"stat": position})
    before = other.get_state()
    with pytest.raises(TypeError, match="options must be a dict"):
        other.reset(options=["state"])
    assert other.get_state() == before


def test_a_position_with_a_bad_seat_to_move_leaves_the_env_unchanged():
    env = HighCardEnv()
    env.reset(seed=1)
    before = (env.get_state(), env.agent_selection)
    position = env.get_state()
    position["player"] = 7
    with pytest.raises(ValueError, match="player.*7"):
        env.load_state(position)
    assert (env.get_state(), env.agent_selection) == before
