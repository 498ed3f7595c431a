"""The map's quarter turns: a turned position is seen and played as the
index maps say.

Each test turns a real position by hand (cells, tile rotations, arrows and
the pending choice, through ``state_to_dict``/``state_from_dict``) and
compares what the rules and the observer make of it with what the maps
predict from the original.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.symmetry import Augmentation
from meeplezoo.envs.gem_mountain.decisions import POSITIONS, SECTIONS
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.symmetry import turned_cells
from meeplezoo.envs.gem_mountain.tiles import ActionKind
from tests.conformance.play import random_action

CONFIGS = [
    {},
    {"num_players": 4, "second_arrow": True, "golden_actions": True},
    {"num_players": 3, "gemshards": True, "dark_tunnels": True, "map_rows": 7, "map_cols": 7},
    {"gemshards": True, "map_rows": 6, "map_cols": 7, "action_limit": "unlimited"},
]


def turned_state(state, quarter_turns: int):
    """The same position with the map turned ``quarter_turns`` quarter turns
    clockwise: written from the rules page, not from the index maps."""
    game = state.game
    destinations = turned_cells(game.geometry, quarter_turns)
    data = state.to_dict()
    for key in ("cells", "rotations", "face_up", "peeks"):
        moved = [None] * game.num_cells
        for cell, destination in enumerate(destinations):
            moved[destination] = data[key][cell]
        data[key] = moved
    data["rotations"] = [(r + quarter_turns) % 4 for r in data["rotations"]]
    data["arrows"] = [(p + 2 * quarter_turns) % POSITIONS for p in data["arrows"]]
    if data["resolving"] == ActionKind.TURN_STONE and data["target"] >= 0:
        data["target"] = destinations[data["target"]]
    contents = [0] * SECTIONS
    for section in range(SECTIONS):
        contents[(section + quarter_turns) % SECTIONS] = data["section_contents"][section]
    data["section_contents"] = contents
    data["section_choices"] = sum(
        1 << (section + quarter_turns) % SECTIONS
        for section in range(SECTIONS)
        if data["section_choices"] >> section & 1
    )
    return game.state_from_dict(data)


def quarter_turns_of(symmetry) -> int:
    return int(symmetry.name.split()[0]) // 90


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_turned_positions_look_and_play_as_the_maps_say(config):
    game = GemMountainGame(**config)
    symmetries = game.symmetries()
    square = game.rows == game.cols
    assert [quarter_turns_of(s) for s in symmetries] == ([1, 2, 3] if square else [2])
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not state.done:
            for symmetry in symmetries:
                turned = turned_state(state, quarter_turns_of(symmetry))
                mask = state.legal_action_mask()
                assert np.array_equal(turned.legal_action_mask(), mask[symmetry.action_index])
                for seat in range(game.num_players):
                    seen = game.observer.encode(state, seat)
                    assert np.array_equal(
                        game.observer.encode(turned, seat), seen[symmetry.observation_index]
                    )
                # the same move, turned, leads to the turned successor (chance aside)
                action = random_action(mask, np.random.default_rng(checked))
                turned_action = int(np.flatnonzero(symmetry.action_index == action)[0])
                after, turned_after = state.clone(), turned.clone()
                after.apply(action)
                turned_after.apply(turned_action)
                if not after.done and "Earthquake" not in state.action_to_string(action):
                    seat = after.current_player
                    assert turned_after.current_player == seat
                    expected = game.observer.encode(after, seat)[symmetry.observation_index]
                    assert np.array_equal(game.observer.encode(turned_after, seat), expected)
                checked += 1
            state.apply(random_action(state.legal_action_mask(), rng))
    assert checked > 100


def test_a_turn_moves_a_corner_arrow_to_the_next_corner():
    """On the default map the top corner (0, 0), which the N arrow points at,
    goes to the right corner (0, 5) under a quarter turn clockwise."""
    game = GemMountainGame()
    assert turned_cells(game.geometry, 1)[0] == 5
    assert turned_cells(game.geometry, 2)[0] == 35
    assert turned_cells(GemMountainGame(map_cols=7).geometry, 1) is None


def test_augmentation_draws_every_turn_and_keeps_values():
    game = GemMountainGame()
    augmentation = Augmentation(game.symmetries(), game.observation_shape[0], game.num_actions)
    assert augmentation.names == ("identity", "90 degrees", "180 degrees", "270 degrees")
    state = game.new_initial_state(3)
    observation = game.observer.encode(state, state.current_player)
    mask = state.legal_action_mask()
    policy = mask / mask.sum()
    rows = 64
    observations, masks, policies = augmentation(
        np.tile(observation, (rows, 1)),
        np.tile(mask, (rows, 1)),
        np.tile(policy, (rows, 1)),
        np.random.default_rng(0),
    )
    seen = {observations[i].tobytes() for i in range(rows)}
    assert len(seen) == 4  # the start is one corner tile: each turn shows it elsewhere
    for i in range(rows):
        j = [
            k
            for k, maps in enumerate(augmentation.observation_maps)
            if np.array_equal(observation[maps], observations[i])
        ]
        assert j, "a row under no declared map"
        assert np.array_equal(masks[i], mask[augmentation.action_maps[j[0]]])
        assert np.array_equal(policies[i], policy[augmentation.action_maps[j[0]]])


def test_maps_that_are_not_permutations_are_refused():
    game = GemMountainGame()
    broken = game.symmetries()[0]
    bad = type(broken)("broken", np.zeros_like(broken.observation_index), broken.action_index)
    with pytest.raises(ValueError, match="broken"):
        Augmentation((bad,), game.observation_shape[0], game.num_actions)
