"""Bad input raises a clear error and changes nothing; illegal in-range
actions follow the PettingZoo classic convention or raise."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import random_action


def snapshot(env):
    return (env.agent_selection, env.get_state(), dict(env._cumulative_rewards), list(env.agents))


def started(case, **extra):
    env = case.make_env(**extra)
    env.reset(seed=3)
    return env


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("bad", [-1, "n", 1.5, None, [0], True])
def test_malformed_action_raises_and_changes_nothing(case, bad):
    env = started(case)
    if bad == "n":
        bad = env.game.num_actions  # just outside the space
    before = snapshot(env)
    with pytest.raises(ValueError):
        env.step(bad)
    assert snapshot(env) == before


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_step_after_the_game_ended_raises(case):
    env = started(case)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_action(obs["action_mask"], rng))
    assert env.agents == []
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


def find_illegal(env):
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    return int(illegal[0]) if illegal.size else None


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_illegal_action_terminates_with_penalty(case):
    env = started(case)
    rng = np.random.default_rng(1)
    for _ in range(50):  # find a running position with an illegal action
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.reset(seed=int(rng.integers(1000)))
        if find_illegal(env) is not None:
            break
        env.step(random_action(env.observe(env.agent_selection)["action_mask"], rng))
    action = find_illegal(env)
    if action is None or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
        pytest.skip("no illegal action found in 50 steps")
    offender = env.agent_selection
    env.step(action)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1
    assert all(r == 0 for a, r in env.rewards.items() if a != offender)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_illegal_action_raises_when_asked(case):
    env = started(case, illegal_action="raise")
    action = find_illegal(env)
    if action is None:
        pytest.skip("every action is legal at the start")
    before = snapshot(env)
    with pytest.raises(ValueError, match="illegal"):
        env.step(action)
    assert snapshot(env) == before


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_rules_layer_rejects_illegal_action_unchanged(case):
    state = case.make_game().new_initial_state(4)
    illegal = np.flatnonzero(~state.legal_action_mask())
    if illegal.size == 0:
        pytest.skip("every action is legal at the start")
    before = state.to_dict()
    with pytest.raises(ValueError):
        state.apply(int(illegal[0]))
    assert state.to_dict() == before


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_bad_config_raises(case):
    with pytest.raises(ValueError, match="no_such_option"):
        case.make_env(no_such_option=1)
    info = case.make_game().info
    for n in (info.min_players - 1, info.max_players + 1, "two"):
        with pytest.raises(ValueError, match="num_players"):
            case.make_env(num_players=n)
    with pytest.raises(ValueError, match="illegal_action"):
        case.make_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        case.make_env(render_mode="video")


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("bad", [4.9, "4", np.float32(4.5), float("inf"), None, True, -1, "n"])
def test_rules_apply_refuses_what_is_not_a_legal_index_and_changes_nothing(case, bad):
    env = started(case)
    state = env.game_state
    if bad == "n":
        bad = env.game.num_actions
    before = state.to_dict()
    with pytest.raises((TypeError, ValueError), match="action"):
        state.apply(bad)
    assert state.to_dict() == before


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "bad, error", [(1.5, TypeError), ("4", TypeError), (None, TypeError), (-1, ValueError)]
)
def test_decode_action_names_only_actions_of_the_space(case, bad, error):
    env = started(case)
    with pytest.raises(error, match="action"):
        env.decode_action(bad)
    with pytest.raises(ValueError, match=str(env.game.num_actions)):
        env.decode_action(env.game.num_actions)
    assert isinstance(env.decode_action(np.int64(0)), str)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("bad", [None, 3, b"pass"])
def test_encode_action_takes_names_only(case, bad):
    env = started(case)
    with pytest.raises(TypeError, match="action name must be a string"):
        env.encode_action(bad)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_unknown_reset_options_are_named_and_a_position_option_is_honoured(case):
    env = started(case)
    env.step(random_action(env.observe(env.agent_selection)["action_mask"], np.random.default_rng(0)))
    position, mover = env.get_state(), env.agent_selection
    with pytest.warns(UserWarning, match=r"reset ignores unknown option\(s\) \['seed'\]"):
        env.reset(seed=1, options={"seed": 1})
    fresh = case.make_env()
    fresh.reset(options={"state": position})
    assert fresh.get_state() == position and fresh.agent_selection == mover


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_writing_into_a_returned_mask_cannot_change_the_game(case):
    state = started(case).game_state
    mask = state.legal_action_mask()
    before = mask.copy()
    illegal = np.flatnonzero(~before)
    try:
        mask[:] = True
    except ValueError:
        assert not mask.flags.writeable  # a read-only view of the state's cache
    assert np.array_equal(state.legal_action_mask(), before)
    if illegal.size:
        with pytest.raises(ValueError, match="illegal"):
            state.apply(int(illegal[0]))
