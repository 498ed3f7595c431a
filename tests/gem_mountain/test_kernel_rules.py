"""The compiled rules (``kernel/rules.py``) play exactly as ``rules.py``: the
same deal from a seed, then step by step the same position (every field,
the generator and the derived counts), the same legal mask, seat to move
and end, and the same returns; for every configuration the tests name,
the overrides and the turn limit included."""

from __future__ import annotations

from collections import Counter
from functools import partial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.gem_mountain.kernel import rules as kernel
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.game_row import game_row
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import ACTION_NAMES
from tests.core.kernel_checks import assert_same_position, assert_same_view
from tests.gem_mountain.kernel_configs import ALL, HEAVY, overrides

OVERRIDES = overrides(
    [
        {"Ruby": 2, "Thief": 1, "Avalanche": 1, "secret": "Onyx"},
        {"Earthquake": 1, "Gift": 2, "Lantern": 1, "Compass": 1, "Turn Stone": 1},
        {"Greed": 1, "Prism": 1, "Tunnel": 1, "Gust": 1, "Flare": 1, "Twister": 1, "secret": "Anchor"},
    ]
)
SHORT = {"max_turns": 3, "num_players": 5}
CONFIGS = (
    [{}]
    + GemMountainGame.test_configs
    + [{"num_players": n} for n in range(2, 6)]
    + [{**HEAVY, "num_players": n} for n in range(2, 6)]
    + [
        {"start_tiles": "action_secret", "second_arrow": True},
        {"dark_tunnels": True, "start_tiles": "any_secret", "start_player_chooses_arrow": True},
        {**ALL, "start_tiles": "action", "map_rows": 3, "map_cols": 9, "action_limit": "per_turn"},
        {**ALL, "num_players": 4, "map_rows": 12, "map_cols": 12, "reward_mode": "score_diff"},
        {**HEAVY, "max_turns": 7},
        SHORT,
        OVERRIDES,
        {**OVERRIDES, "second_arrow": False, "arrow_override": [3], "start_tiles": "any_secret"},
        {**OVERRIDES, "dark_tunnels": False, "rotation_override": None, "max_turns": 9},
    ]
)
LAYOUT_STATE = S.STATE_LAYOUT
GAMES: dict[int, GemMountainGame] = {}


def game_of(index: int) -> GemMountainGame:
    if index not in GAMES:
        GAMES[index] = GemMountainGame(**CONFIGS[index])
    return GAMES[index]


same_position = partial(assert_same_position, LAYOUT_STATE)  # (py, row, game, full)
same_view = partial(assert_same_view, kernel)  # (py, row, grow, mask)


def play_both(game, seed, pick, seen: Counter | None = None, full: bool = True) -> int:
    """Deal from ``seed`` on both sides and play ``pick(legal count)`` until the
    end, comparing after every step; returns the steps played."""
    grow = game_row(game)
    py = game.new_initial_state(seed)
    row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
    kernel.new_game(row, grow, seed)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    steps = 0
    while True:
        same_position(py, row, game, full)
        same_view(py, row, grow, mask)
        if py.done:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[pick(len(legal))])
        if seen is not None:
            seen[py.phase_name(), py.action_to_string(action)] += 1
        py.apply(action)
        kernel.apply_action(row, grow, action)
        steps += 1
    if seen is not None:
        seen["END", "truncated" if py.truncated else "over"] += 1
    out = np.full(game.num_players, np.nan)
    kernel.returns(row, grow, out)
    np.testing.assert_allclose(out, py.returns(), rtol=0, atol=1e-12)
    return steps


def uniform(rng: np.random.Generator):
    return lambda count: int(rng.integers(count))


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_plays_as_the_rules(index):
    game = game_of(index)
    steps = 0
    games = 3 if game.num_cells > 60 else 8
    for seed in range(games):
        steps += play_both(game, seed, uniform(np.random.default_rng([index, seed])), full=seed < 2)
    assert steps > 0


def test_the_random_runs_reach_every_tile_and_phase():
    """The differential runs above are worth something only if they reach
    every action tile's use and sub-steps, every phase and the turn limit."""
    seen: Counter = Counter()
    chooses_arrow = next(k for k, cfg in enumerate(CONFIGS) if cfg.get("start_player_chooses_arrow"))
    for index in (0, 1, chooses_arrow, CONFIGS.index(SHORT), CONFIGS.index(OVERRIDES)):
        game = game_of(index)
        for seed in range(6):
            play_both(game, seed, uniform(np.random.default_rng([99, index, seed])), seen, full=False)
    phases = {phase for phase, _ in seen}
    assert phases >= {"PRE", "GRAB", "SECTION", "POST", "INFO", "SUB-STEP", "START", "END"}
    assert {("END", "truncated"), ("END", "over")} <= set(seen)
    used = {word for phase, word in seen if phase in ("PRE", "POST")}
    assert used >= {f"use {name}" for name in ACTION_NAMES if name != "Reserved"}
    asked = {word.split(" ")[0] for phase, word in seen if phase == "SUB-STEP"}
    assert asked >= {"arrow", "clockwise", "counter-clockwise", "position", "opponent", "gem", "done"}


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**63 - 2),
    picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=400),
)
def test_any_seed_and_choices_play_the_same(index, seed, picks):
    game = game_of(index)
    it = iter(picks)
    play_both(game, seed, lambda count: next(it, 0) % count, full=False)


def test_the_deal_from_seed_zero_to_big_seeds():
    for index in range(len(CONFIGS)):
        game = game_of(index)
        for seed in (0, 1, 2**32 + 7, 2**63 - 2):
            row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
            kernel.new_game(row, game_row(game), seed)
            same_position(game.new_initial_state(seed), row, game, full=True)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_many_games_play_as_the_rules(index):
    game = game_of(index)
    for seed in range(1000, 1000 + (40 if game.num_cells > 60 else 150)):
        play_both(game, seed, uniform(np.random.default_rng([index, seed])), full=seed % 10 == 0)
