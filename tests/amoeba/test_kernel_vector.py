"""``make_vec`` on Amoeba's kernel: each slot plays the games of the AEC env
on the Python rules seeded ``seed + i`` (observation, mask, seat to move,
rewards and flags at every step, across auto-resets), on configurations
with claims, splits and 2-4 players. Amoeba stamps its planes, so a step
that leaves them as they were (a tile chosen before it is laid) rewrites
only the global block: these runs check that such rows equal a full
repaint, and that the stamp moves whenever the planes change."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.amoeba.kernel.observe import planes_stamp
from meeplezoo.envs.amoeba.observe import NUM_PLANES
from meeplezoo.envs.core.compiled.state import CompiledState
from tests.amoeba.kernel_configs import SPLITS
from tests.core.kernel_checks import play_fresh_slots_against_the_reference

GAME = "amoeba_v0"
CONFIGS = [
    {"num_players": 2, "board_units": 6, "hand_size": 1},  # short games: many auto-resets
    {**SPLITS, "num_players": 3},  # claims and splits
    {**SPLITS, "num_players": 4, "board_units": 8, "nuclei_per_player": 20, "max_turns": 30},
]


@pytest.mark.parametrize("config", CONFIGS)
def test_each_slot_plays_the_reference_games_of_its_seed(config):
    ended = play_fresh_slots_against_the_reference(GAME, config, 50, 2, 250, np.random.default_rng(1))
    assert ended >= 1  # the run crossed an auto-reset


@pytest.mark.parametrize("config", CONFIGS)
def test_the_stamp_moves_whenever_the_planes_change(config):
    """Over random games: where the same seat moves again on the same stamp,
    its planes are the same bytes; and such steps happen (the stamp is not
    changing every step)."""
    env = meeplezoo.make(GAME, **config)
    rng, kept = np.random.default_rng(2), 0
    for game_seed in range(4):
        env.reset(seed=game_seed)
        before = None
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            position: CompiledState = env.game_state
            seat, units = position.current_player, position.game.config["board_units"]
            planes = position.observation(seat).ravel()[: NUM_PLANES * units * units]
            now = (seat, planes_stamp(position.row, position.kernel.game_row(position.game)))
            if before is not None and before[0] == now:
                assert np.array_equal(before[1], planes)
                kept += 1
            before = (now, planes.copy())
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert kept > 0
