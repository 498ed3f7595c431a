"""The compiled observation (``kernel/observe.py``) is ``observe.encode``
byte for byte: for every seat, at every step of random games on every
configuration the tests name (other map sizes, player counts, the turn
limit and the overrides included), and in positions set up to reach the
corners: secret tiles, split tiles under Prism, peeks, two arrows, capped
counts, a finished or cut-short game."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.game_row import game_row
from meeplezoo.envs.gem_mountain.kernel.observe import observe, observe_all
from meeplezoo.envs.gem_mountain.observe import CAP, P_SHARDS, encode
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import content_of, design_of
from tests.gem_mountain.kernel_configs import ALL, HEAVY, overrides

OVERRIDES = overrides(
    [
        {"Ruby": 2, "Thief": 1, "Avalanche": 1, "Prism": 1, "secret": "Onyx"},
        {"Earthquake": 1, "Gift": 2, "Lantern": 1, "Compass": 1, "Turn Stone": 1, "secret": "Diamond"},
        {"Greed": 1, "Prism": 1, "Tunnel": 1, "Gust": 1, "Flare": 1, "Twister": 1, "secret": "Anchor"},
    ],
    action_limit="unlimited",
)
# a game each: the default, the game's own test configurations, every player count, other map sizes
CONFIGS = (
    [{}]
    + GemMountainGame.test_configs
    + [{"num_players": n} for n in range(3, 6)]
    + [{**HEAVY, "num_players": n, "map_rows": 5, "map_cols": 7} for n in (2, 4)]
    + [
        {**ALL, "num_players": 5, "map_rows": 12, "map_cols": 12, "start_tiles": "any_secret"},
        {**HEAVY, "max_turns": 7, "map_rows": 3, "map_cols": 9},
        {"dark_tunnels": True, "start_tiles": "action_secret", "start_player_chooses_arrow": True},
        {"max_turns": 3, "num_players": 5},
        OVERRIDES,
        {**OVERRIDES, "second_arrow": False, "arrow_override": [3], "start_tiles": "any_secret"},
        {**OVERRIDES, "dark_tunnels": False, "rotation_override": None, "max_turns": 9},
    ]
)
# more games under -m slow: the heavy configurations on every size and player count
SLOW_CONFIGS = [
    {**HEAVY, "num_players": n, "map_rows": r, "map_cols": c, "start_tiles": start}
    for n in range(2, 6)
    for r, c in ((6, 6), (8, 8), (2, 12), (12, 12))
    for start in ("any", "any_secret")
]
GAMES: dict[str, GemMountainGame] = {}


def game_of(config: dict) -> GemMountainGame:
    key = repr(sorted(config.items()))
    if key not in GAMES:
        GAMES[key] = GemMountainGame(**config)
    return GAMES[key]


def row_of(state) -> np.ndarray:
    return S.STATE_LAYOUT.write(state, np.zeros(S.STATE_WIDTH, dtype=np.int64))


def same_views(state) -> None:
    """Every seat's compiled view of ``state`` is its reference view, every byte
    overwritten; ``observe_all`` gives the same rows."""
    game = state.game
    row, grow = row_of(state), game_row(game)
    size = game.observation_shape[0]
    every = np.full((game.num_players, size), 77, dtype=np.int8)
    observe_all(row, grow, every)
    for me in range(game.num_players):
        expected = encode(state, me)
        out = np.full(size, -99, dtype=np.int8)
        observe(row, grow, me, out)
        if not np.array_equal(out, expected):
            wrong = np.flatnonzero(out != expected)
            raise AssertionError(
                f"seat {me}, {len(wrong)} bytes differ at {wrong[:8].tolist()}: "
                f"expected {expected[wrong[:8]].tolist()}, got {out[wrong[:8]].tolist()}"
            )
        assert np.array_equal(every[me], expected), f"observe_all, seat {me}"


def play(game: GemMountainGame, seed: int, steps: int | None = None) -> int:
    """A random game from ``seed``, every view checked at every step; the steps played."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    played = 0
    while True:
        same_views(state)
        if state.done or (steps is not None and played >= steps):
            return played
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        played += 1


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_view_at_every_step_of_a_random_game(index):
    play(game_of(CONFIGS[index]), seed=100 + index)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(SLOW_CONFIGS)))
def test_more_random_games(index):
    game = game_of(SLOW_CONFIGS[index])
    for seed in range(3):
        play(game, seed=1000 * index + seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_random_positions(index, seed, steps):
    play(game_of(CONFIGS[index]), seed, steps)


# ------------------------------------------------------------------ set-up positions
def overrides_state(**changes):
    return game_of({**OVERRIDES, **changes}).new_initial_state(5)


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("prism", [False, True])
@pytest.mark.parametrize("arrows", [[1, 5], [0, 4], [2, 6], [7, 3]])
def test_split_tiles_count_the_pointed_shards_or_all_under_prism(arrows, prism, dark):
    state = overrides_state(arrow_override=arrows, dark_tunnels=dark)
    state.prism_active = prism
    if dark:  # seat 0 knows every other tile
        state.peeks = [1 if i % 2 else 0 for i in range(16)]
    same_views(state)
    if arrows == [1, 5] and not dark:  # Opal/Topaz on top: one shard pointed at, two under Prism
        assert encode(state, 0)[P_SHARDS * 16 + 1] == (2 if prism else 1)


@pytest.mark.parametrize("me", range(3))
def test_peeks_by_any_seats_and_the_tiles_i_know(me):
    state = overrides_state()
    rng = np.random.default_rng(me)
    for i in range(16):
        if state.cells[i] >= 0 and rng.random() < 0.2:
            state.flip(i)
        elif state.cells[i] >= 0 and rng.random() < 0.7:
            state.peeks[i] = int(rng.integers(1, 8))
    state.player = me
    same_views(state)


def test_secret_gems_count_for_their_holder_only():
    state = overrides_state()
    state.secret_tiles = [content_of("Ruby"), content_of("Diamond"), content_of("Anchor")]
    state.gems[1][content_of("Ruby")] = 2  # seat 0's secret Ruby ties it
    same_views(state)
    state.secret_tiles = [-1, -1, -1]
    same_views(state)


def test_counts_scores_and_turns_are_capped():
    state = game_of({"num_players": 3, "max_turns": 1000, "second_arrow": True}).new_initial_state(2)
    state.gems[0] = [200, 130, 0, 0, 0, 300, 0]
    state.gems[1] = [0, 129, 140, 0, 0, 0, 0]
    state.gems[2][1] = 100  # the fewest Ruby: a score below -CAP
    state.action_tiles[2][3] = 150
    state.seen[0] = 999  # more seen than the pool: nothing unseen
    state.turn = 300
    state.grabs_owed, state.lantern_peeks_left = 1, 2
    state.used_before = state.anchored = True
    same_views(state)
    assert encode(state, 0).max() == CAP and encode(state, 0).min() == -CAP


def test_an_action_being_resolved_with_its_arrow():
    state = overrides_state()
    state.phase, state.resolving, state.sub_step, state.chosen_arrow = 5, 1, 1, 1
    same_views(state)


@pytest.mark.parametrize("end", ["over", "cut_short"])
def test_a_finished_game_has_no_phase(end):
    state = overrides_state(max_turns=20)
    setattr(state, end, True)
    same_views(state)


def test_games_played_to_the_turn_limit_and_to_the_end():
    for config in ({**HEAVY, "max_turns": 4}, {"map_rows": 2, "map_cols": 3}):
        game = game_of(config)
        state = game.new_initial_state(3)
        rng = np.random.default_rng(3)
        while not state.done:
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
        assert state.cut_short or state.over
        same_views(state)


def test_an_empty_map_and_no_arrow_yet():
    state = game_of({"start_player_chooses_arrow": True, "num_players": 4}).new_initial_state(1)
    assert state.arrows == []
    same_views(state)
    state = overrides_state()
    state.cells = [-1] * 16
    state.cells[0] = design_of("Ruby")
    state._recount()
    same_views(state)
