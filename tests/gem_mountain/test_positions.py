"""Loaded positions: every state reached by play loads back, and a position
that breaks a rule of the game is refused with a message naming it (the env
it was meant for left as it was). Also: read-only masks and the checks of
the override options."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from meeplezoo.envs import gem_mountain_v0
from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from tests.gem_mountain.helpers import M, layout, new

CONFIGS = [
    {},
    *GemMountainGame.test_configs,
    {"dark_tunnels": True, "start_tiles": "action_secret", "map_rows": 5, "map_cols": 5},
]


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_every_position_of_random_play_loads_back(config):
    game = GemMountainGame(**config)
    for seed in range(3):
        state, rng = game.new_initial_state(seed), make_rng(seed)
        while True:
            data = json.loads(json.dumps(state.to_dict()))
            assert game.state_from_dict(data).to_dict() == data
            if state.turn % 4 == 0:  # a world a search bot samples is a position of the game too
                game.state_from_dict(state.determinize(state.turn % game.num_players, rng).to_dict())
            if state.done:
                break
            state.apply(int(rng.choice(state.legal_actions())))


def _position(seed=3, moves=12, **config):
    """A mid-game position dict of a seeded random game."""
    game = GemMountainGame(**config)
    state, rng = game.new_initial_state(seed), make_rng(seed)
    for _ in range(moves):
        state.apply(int(rng.choice(state.legal_actions())))
    return game, json.loads(json.dumps(state.to_dict()))


def _refused(game, data, message):
    with pytest.raises(ValueError) as refusal:
        game.state_from_dict(data)
    assert str(refusal.value) == message


def test_a_tile_in_two_places_is_refused():
    game, data = _position()
    # the 6x6 base pool (6 Sapphires) is all on the map: a Sapphire in the unused pool too is one too many
    on_map = data["cells"].count("Sapphire")
    data["unused"] = ["Sapphire"] * (7 - on_map)
    places = ", ".join(["cells"] * on_map + ["unused"] * (7 - on_map))
    _refused(game, data, f"gem_mountain_v0: tile 'Sapphire' is there 7 times (in {places}); the game has 6")


def test_more_gems_than_the_game_has_are_refused():
    game, data = _position()
    data["gems"][0][0] = 3  # the 6x6 base pool has 3 Diamonds, all still on the map
    places = ", ".join(["cells"] * 3 + ["gems/action_tiles of seat 0"] * 3)
    _refused(
        game,
        data,
        f"gem_mountain_v0: gem or action tile 'Diamond' is there 6 times (in {places}); the game has 3",
    )


def test_a_seat_out_of_range_is_refused():
    game, data = _position()
    data["player"] = 2
    _refused(game, data, "gem_mountain_v0: position entry 'player': must be from 0 to 1, got 2")


def test_entries_of_the_wrong_type_length_or_range_are_refused():
    game, data = _position()
    for key, value, message in [
        ("cells", data["cells"][:-1], f"position entry 'cells': must have {M} entries, got {M - 1}"),
        (
            "cells",
            ["Rubby"] + data["cells"][1:],
            "position entry 'cells': entry 0 must be a tile name (or null for an empty cell), got 'Rubby'",
        ),
        (
            "rotations",
            [4] + data["rotations"][1:],
            "position entry 'rotations': entry 0 must be from 0 to 3, got 4",
        ),
        (
            "face_up",
            [1] + data["face_up"][1:],
            "position entry 'face_up': entry 0 must be true or false, got 1",
        ),
        ("gems", [[-1] * 7, [0] * 7], "position entry 'gems': row 0: entry 0 must be from 0 to 7, got -1"),
        ("phase", "GRAB", "position entry 'phase': must be an integer, got 'GRAB'"),
        ("over", 0, "position entry 'over': must be true or false, got 0"),
    ]:
        broken = copy.deepcopy(data)
        broken[key] = value
        _refused(game, broken, f"gem_mountain_v0: {message}")
    del data["seen"]
    _refused(game, data, "gem_mountain_v0: the position has no 'seen' entry")


def test_a_phase_that_does_not_fit_the_turn_is_refused():
    game, data = _position()
    info = dict(data, phase=4, window=-1, resolving=-1, sub_step=0, section_choices=0)
    _refused(game, info, "gem_mountain_v0: phase INFO needs the dark_tunnels module")
    sub_step = dict(data, phase=5, resolving=-1)
    _refused(
        game, sub_step, "gem_mountain_v0: phase SUB-STEP needs an action tile being resolved ('resolving')"
    )
    section = dict(data, phase=2, section_choices=0)
    _refused(
        game,
        section,
        "gem_mountain_v0: 'section_choices' must be non-zero exactly in phase SECTION (phase SECTION)",
    )
    anchor = dict(data, phase=5, resolving=4, window=0)
    _refused(game, anchor, "gem_mountain_v0: Anchor asks nothing, so it cannot be resolved in phase SUB-STEP")


def test_map_marks_and_end_flags_must_fit_the_map():
    game, data = _position()
    face_down = copy.deepcopy(data)
    cell = next(i for i, name in enumerate(data["cells"]) if name is not None)
    face_down["face_up"][cell] = False
    _refused(
        game, face_down, f"gem_mountain_v0: cell {cell} is face down, which needs the dark_tunnels module"
    )
    peeked = copy.deepcopy(data)
    peeked["peeks"][cell] = 1
    _refused(game, peeked, f"gem_mountain_v0: cell {cell} is face up, so its 'peeks' entry must be 0 (got 1)")
    over = dict(data, over=True)
    _refused(
        game,
        over,
        "gem_mountain_v0: 'over' must be true exactly when no gem tile is left on the map (22 left)",
    )
    secret = copy.deepcopy(data)
    secret["secret_tiles"][1] = 7
    _refused(
        game, secret, "gem_mountain_v0: 'secret_tiles' seat 1 holds a secret tile, but this game deals none"
    )


def test_a_refused_position_leaves_the_env_as_it_was():
    game, data = _position()
    env = gem_mountain_v0.env()
    env.reset(seed=1)
    before = json.dumps(env.get_state(), sort_keys=True)
    data["player"] = 5
    with pytest.raises(ValueError, match="'player'"):
        env.load_state(data)
    assert json.dumps(env.get_state(), sort_keys=True) == before


def test_the_legal_mask_is_read_only():
    state = GemMountainGame().new_initial_state(0)
    mask = state.legal_action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(ValueError, match="read-only"):
        mask[illegal] = True
    assert not state.legal_action_mask()[illegal]
    with pytest.raises(ValueError, match="illegal action"):
        state.apply(illegal)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            {"layout_override": ["Rubby"] * M},
            "layout_override entry 0 must be a tile name or None, got 'Rubby'",
        ),
        (
            {"layout_override": ["Ruby"] * (M - 1)},
            f"layout_override must name a tile (or None) for each of the {M} cells, got {M - 1} entries",
        ),
        (
            {"layout_override": layout("Gust")},
            "layout_override must hold a gem tile, or the game is over at once",
        ),
        ({"rotation_override": [4] * M}, "rotation_override entry 0 must be an integer from 0 to 3, got 4"),
        (
            {"rotation_override": [True] * M},
            "rotation_override entry 0 must be an integer from 0 to 3, got True",
        ),
        (
            {"rotation_override": [0] * 5},
            f"rotation_override must give a rotation 0..3 for each of the {M} cells, got 5 entries",
        ),
        ({"arrow_override": [8]}, "arrow_override entry 0 must be an integer from 0 to 7, got 8"),
        (
            {"arrow_override": [0, 4]},
            "arrow_override must list one position 0..7 per arrow (1 with second_arrow=False), got 2",
        ),
        (
            {"holdings_override": [{"Ruby": -1}, {}]},
            "holdings_override seat 0: Ruby must be held 0 to 127 times, got -1",
        ),
        (
            {"holdings_override": [{"Rubies": 1}, {}]},
            "holdings_override seat 0: 'Rubies' is not a gem or action name (or 'secret')",
        ),
        (
            {"holdings_override": [{"secret": 3}, {}]},
            "holdings_override seat 0: the secret tile must be a gem or action name, got 3",
        ),
        ({"holdings_override": [{}]}, "holdings_override must hold one dict per seat (2), got 1"),
        ({"holdings_override": [[], {}]}, "holdings_override entry 0 must be a dict, got []"),
        ({"holdings_override": "Ruby"}, "holdings_override must be None or a list of dicts, got 'Ruby'"),
    ],
)
def test_overrides_are_checked_at_construction(config, message):
    with pytest.raises(ValueError) as refusal:
        GemMountainGame(**config)
    assert str(refusal.value).startswith(
        f"gem_mountain_v0: {message}"
    )  # the layout one lists the known tiles


def test_valid_overrides_still_deal():
    state = new(layout(c0_0="Ruby"), arrows=(2,), holdings=[{"Ruby": 2, "secret": "Anchor"}, {}])
    assert state.gems[0][1] == 2 and state.arrows == [2] and state.cells[0] >= 0
