"""``make_vec`` runs the kernel: each slot plays the games of the AEC env on
the Python rules seeded ``seed + i`` (observation, mask, seat to move,
rewards and flags at every step, across auto-resets), and ``make`` picks
the compiled backend by default."""

from __future__ import annotations

import numpy as np

import meeplezoo
from meeplezoo.envs.core.compiled.state import CompiledState
from tests.core.kernel_checks import play_fresh_slots_against_the_reference

GAME = "amethyst_amber_v0"
# short games: many auto-resets in a few hundred steps
CONFIG = {"defenders_per_player": 2, "attackers_per_player": 4, "win_resources": 1, "max_main_turns": 12}


def test_each_slot_plays_the_reference_games_of_its_seed():
    ended = play_fresh_slots_against_the_reference(GAME, CONFIG, 30, 2, 150, np.random.default_rng(0))
    assert ended >= 4  # the run crossed several auto-resets


def test_make_runs_the_kernel_by_default_and_the_rules_on_request():
    for backend, compiled in ((None, True), ("compiled", True), ("python", False)):
        env = meeplezoo.make(GAME, **({} if backend is None else {"backend": backend}))
        env.reset(seed=0)
        assert isinstance(env.game_state, CompiledState) == compiled
