"""``make_vec`` on Gold Rush Gangs rewrites only the observation entries a
step changes (its kernel lists them): each slot still plays the games of the
AEC env on the Python rules seeded ``seed + i``, observation for observation
across auto-resets and a second reset, on small boards where games are short
and on the default board."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.core.compiled.batch import ENTRIES_HEADER
from tests.core.kernel_checks import play_slots_against_the_reference

from .kernel_configs import SMALL

GAME = "gold_rush_gangs_v0"
CONFIGS = [
    {**SMALL, "win_sacks": 1, "bank_threshold": 2, "max_rounds": 3},
    {**SMALL, "max_rounds": 2, "deck_mode": "iid", "truncation_scoring": "rank"},
]


@pytest.mark.parametrize("config", CONFIGS)
def test_each_slot_plays_the_reference_games_of_its_seed(config):
    rng = np.random.default_rng(1)
    vec = meeplezoo.make_vec(GAME, 2, **config)
    assert vec._entries.shape == (
        2,
        ENTRIES_HEADER + vec.observation_shape[0],
    )  # the kernel lists its entries
    ended = 0
    for seed in (40, 7):  # a second reset clears what the first games wrote
        refs = [meeplezoo.make(GAME, backend="python", **config) for _ in range(2)]
        for i, env in enumerate(refs):
            env.reset(seed=seed + i)
        ended += play_slots_against_the_reference(vec, refs, vec.reset(seed), 150, rng)
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


def test_the_boards_fixed_entries_share_no_index_with_the_rest():
    """The driver keeps the board while a seat moves again and clears the
    rest: a shared index would lose the board's value."""
    from meeplezoo.envs.gold_rush_gangs.kernel.observe import observe_changing, observe_fixed

    vec = meeplezoo.make_vec(GAME, 2)
    state = vec.reset(3)
    rng = np.random.default_rng(4)
    size = vec.observation_shape[0]
    for _ in range(40):
        state = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask]))
        for seat in range(3):
            out, fixed, rest = np.zeros(size, np.float32), np.zeros(size, np.int32), np.zeros(size, np.int32)
            count = observe_fixed(vec._game_row, seat, out, fixed)
            total = observe_changing(vec.states[0], vec._game_row, seat, out, rest, count)
            assert not set(fixed[:count]) & set(rest[count:total])


def test_a_step_by_the_same_seat_keeps_the_fixed_entries_and_clears_the_rest():
    from meeplezoo.envs.core.compiled.batch import (
        COUNT,
        ENTRIES_HEADER,
        FIXED_COUNT,
        FIXED_FOR,
        _clear_listed,
    )

    row = np.arange(1, 9, dtype=np.float32)
    entries = np.zeros(ENTRIES_HEADER + 5, dtype=np.int32)
    entries[[COUNT, FIXED_FOR, FIXED_COUNT]] = 4, 2, 2  # four listed, two fixed for seat 1
    entries[ENTRIES_HEADER:] = 0, 1, 5, 6, 0
    _clear_listed(row, entries, 1)
    assert row.tolist() == [1, 2, 3, 4, 5, 0, 0, 8] and entries[COUNT] == 2 and entries[FIXED_FOR] == 2
    _clear_listed(row, entries, 0)  # another seat: the fixed part goes too
    assert row.tolist() == [0, 0, 3, 4, 5, 0, 0, 8]
    assert (entries[COUNT], entries[FIXED_FOR], entries[FIXED_COUNT]) == (0, 0, 0)
    assert entries.size - ENTRIES_HEADER == 5


def test_a_list_that_outgrew_its_room_clears_the_whole_row():
    from meeplezoo.envs.core.compiled.batch import (
        COUNT,
        ENTRIES_HEADER,
        FIXED_COUNT,
        FIXED_FOR,
        _clear_listed,
    )

    row = np.arange(1, 9, dtype=np.float32)
    entries = np.zeros(ENTRIES_HEADER + 2, dtype=np.int32)
    entries[[COUNT, FIXED_FOR, FIXED_COUNT]] = 3, 1, 1  # three writes, two recorded
    entries[ENTRIES_HEADER:] = 2, 5
    _clear_listed(row, entries, 0)
    assert not row.any() and entries[COUNT] == 0 and entries[FIXED_FOR] == 0
