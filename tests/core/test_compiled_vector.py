"""``make_vec``: each slot plays the games of the AEC env seeded ``seed + i``
(the reference rules), auto-resets as documented, gives the same results at
any thread count, and refuses bad input naming it without stepping."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.batch import random_legal_actions
from tests.core.kernel_checks import reference_step, reference_view

GAME = "gem_mountain_v0"
CONFIGS = [{}, {"num_players": 4, "dark_tunnels": True, "golden_actions": True, "second_arrow": True}]


class ReferenceSlot:
    """The AEC env on the Python rules, reset as a make_vec slot is."""

    def __init__(self, config: dict, seed: int) -> None:
        self.env = meeplezoo.make(GAME, backend="python", **config)
        self.env.reset(seed=seed)

    def view(self) -> tuple[np.ndarray, np.ndarray, int]:
        return reference_view(self.env)

    def step(self, action: int) -> tuple[np.ndarray, bool, bool]:
        """One move; at the game's end its rewards and flags, then the next game."""
        return reference_step(self.env, action)


@pytest.mark.parametrize("config", CONFIGS)
def test_each_slot_plays_the_reference_games_of_its_seed(config):
    seed, slots = 40, 3
    vec = meeplezoo.make_vec(GAME, slots, **config)
    state = vec.reset(seed)
    refs = [ReferenceSlot(config, seed + i) for i in range(slots)]
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        for i, ref in enumerate(refs):
            obs, mask, seat = ref.view()
            assert state.current_player[i] == seat
            assert np.array_equal(state.legal_action_mask[i], mask)
            assert np.array_equal(state.observation[i], obs)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask])
        state = vec.step(actions)
        for i, ref in enumerate(refs):
            rewards, terminated, truncated = ref.step(int(actions[i]))
            assert np.allclose(state.rewards[i], rewards)
            assert (state.terminated[i], state.truncated[i]) == (terminated, truncated)
            ends += terminated
    assert ends >= 3  # the run crossed several auto-resets


def test_results_do_not_depend_on_the_thread_count():
    def run(threads: int) -> tuple[np.ndarray, np.ndarray]:
        numba.set_num_threads(threads)
        vec = meeplezoo.make_vec(GAME, 96)  # above the parallel threshold
        state = vec.reset(7)
        generators = np.zeros((96, pcg64.WORDS), dtype=np.uint64)
        for i in range(96):
            pcg64.seed(generators[i], i)
        actions = np.zeros(96, dtype=np.int64)
        total = np.zeros((96, vec.num_players))
        for _ in range(120):
            state = vec.step(random_legal_actions(state.legal_action_mask, generators, actions))
            total += state.rewards
        return vec.states.copy(), total

    most = numba.config.NUMBA_NUM_THREADS
    try:
        one, many = run(1), run(most)
    finally:
        numba.set_num_threads(most)
    assert np.array_equal(one[0], many[0]) and np.array_equal(one[1], many[1])


def test_the_state_has_pgx_field_names_and_shapes():
    vec = meeplezoo.make_vec(GAME, 5, num_players=3)
    state = vec.reset(0)
    assert state._fields == (
        "observation", "legal_action_mask", "current_player", "rewards", "terminated", "truncated",
    )  # fmt: skip
    assert state.observation.shape == (5, *vec.observation_shape) and state.observation.dtype == np.int8
    assert state.legal_action_mask.shape == (5, vec.num_actions) and state.legal_action_mask.dtype == bool
    assert state.rewards.shape == (5, 3) and state.current_player.dtype == np.int32


@pytest.mark.parametrize("num_envs", [0, -1, 1.5, True, "4", None])
def test_bad_num_envs_is_named(num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        meeplezoo.make_vec(GAME, num_envs)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_bad_seeds_are_named(seed):
    vec = meeplezoo.make_vec(GAME, 2)
    with pytest.raises(ValueError, match="seed"):
        vec.reset(seed)


def test_step_before_reset_is_refused():
    with pytest.raises(ValueError, match="reset"):
        meeplezoo.make_vec(GAME, 2).step(np.zeros(2, dtype=np.int64))


def _refused(vec, actions, words: str) -> None:
    before = vec.states.copy(), vec.view().observation.copy()
    with pytest.raises(ValueError, match=words):
        vec.step(actions)
    assert np.array_equal(vec.states, before[0]) and np.array_equal(vec.view().observation, before[1])


def test_bad_actions_step_nothing():
    vec = meeplezoo.make_vec(GAME, 3)
    state = vec.reset(1)
    legal = state.legal_action_mask.argmax(axis=1)
    _refused(vec, legal[:2], r"shape \(3,\)")
    _refused(vec, legal.astype(float), "integers")
    _refused(vec, np.array([legal[0], vec.num_actions, legal[2]]), "env 1: action")
    illegal = legal.copy()
    illegal[2] = int(np.flatnonzero(~state.legal_action_mask[2])[0])
    _refused(vec, illegal, "env 2: action .* not legal")
    vec.step(legal)  # the refusals left it usable


def test_slot_states_read_back_as_reference_states():
    vec = meeplezoo.make_vec(GAME, 2)
    vec.reset(3)
    env = meeplezoo.make(GAME, backend="python")
    env.reset(seed=4)
    assert vec.state_of(1).to_dict() == env.get_state()


def test_random_legal_actions_pick_the_drawn_legal_action_of_each_row():
    """Each row's draw ``bounded(0, legal count)`` names the k-th legal
    action, in action order; an empty mask gives -1 and draws nothing."""
    rng = np.random.default_rng(5)
    masks = rng.random((70, 543)) < 0.05
    masks[3] = False
    generators = np.zeros((70, pcg64.WORDS), dtype=np.uint64)
    for i in range(70):
        pcg64.seed(generators[i], 100 + i)
    picked = random_legal_actions(masks, generators, np.zeros(70, dtype=np.int64))
    for i in range(70):
        legal = np.flatnonzero(masks[i])
        gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
        pcg64.seed(gen, 100 + i)
        expected = legal[pcg64.bounded(gen, 0, legal.size)] if legal.size else -1
        assert picked[i] == expected
        assert np.array_equal(gen, generators[i])
