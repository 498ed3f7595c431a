"""The compiled estimate, scores and determinization against the rules:
random games on every test configuration, compared at sampled steps (the
last included); the determinization draws the same numbers from the same
searcher generator and reads nothing the seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.core.compiled.pcg64 import to_words
from meeplezoo.envs.gem_mountain.kernel import scores as kernel_scores
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.kernel.determinize import determinize
from meeplezoo.envs.gem_mountain.kernel.estimate import WHOLE_STATE, evaluate
from meeplezoo.envs.gem_mountain.kernel.game_row import game_row
from meeplezoo.envs.gem_mountain.rules import GemMountainGame, GemMountainState
from tests.conformance.play import random_action

LAYOUT = layout_of(GemMountainState)
CONFIGS = [
    {},
    *GemMountainGame.test_configs,
    {"num_players": 4, "dark_tunnels": True, "start_tiles": "action_secret"},
    {"num_players": 5, "dark_tunnels": True, "start_tiles": "any_secret", "map_rows": 5, "map_cols": 5},
    {"num_players": 2, "dark_tunnels": True, "start_tiles": "any_secret", "reward_mode": "score_diff"},
    {"num_players": 3, "start_tiles": "action_secret", "golden_actions": True, "map_rows": 4, "map_cols": 5},
]


def positions(game, seed: int, every: int):
    """States of a random game every ``every`` decisions, and its last one."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed + 1000)
    step = 0
    while True:
        if step % every == 0 or state.done:
            yield state
        if state.done:
            return
        state.apply(random_action(state.legal_action_mask(), rng))
        step += 1


def row_of(state) -> np.ndarray:
    return LAYOUT.write(state, LAYOUT.new_rows(1)[0])


def check_evaluate(state, row: np.ndarray) -> None:
    game = state.game
    n = game.num_players
    for viewer in [None, *range(n)]:
        got = np.full(n, np.nan)
        evaluate(row, game_row(game), WHOLE_STATE if viewer is None else viewer, got)
        np.testing.assert_allclose(
            got, state.evaluate(viewer), rtol=0, atol=1e-12, err_msg=f"viewer {viewer}"
        )


def check_scores(state, row: np.ndarray) -> None:
    n = state.game.num_players
    points = np.zeros(n, dtype=np.int64)
    kernel_scores.scores(row, game_row(state.game), kernel_scores.ALL_SEATS, points)
    assert points.tolist() == state.scores()
    got = np.zeros(n)
    kernel_scores.returns(row, game_row(state.game), got)
    np.testing.assert_allclose(got, state.returns(), rtol=0, atol=1e-12)


def kernel_determinize(row: np.ndarray, game, seat: int, key: int) -> tuple[np.ndarray, np.ndarray]:
    """The determinized row and the searcher's words after it."""
    searcher = to_words(np.random.default_rng(key))
    out = np.zeros_like(row)
    determinize(row, game_row(game), seat, searcher, out)
    return out, searcher


def check_determinize(state, row: np.ndarray, key: int) -> None:
    game = state.game
    for seat in range(game.num_players):
        out, searcher = kernel_determinize(row, game, seat, key + seat)
        rng = np.random.default_rng(key + seat)
        expected = state.determinize(seat, rng)
        assert LAYOUT.read(out, game).to_dict() == expected.to_dict(), f"seat {seat}"
        assert out[S.GEM_TILES_LEFT] == expected.gem_tiles_left
        assert searcher.tolist() == to_words(rng).tolist()
        assert (out == row_of(expected)).all()
    assert (row == row_of(state)).all(), "the true state is left as it was"


def check_position(state, key: int) -> None:
    row = row_of(state)
    check_scores(state, row)
    check_evaluate(state, row)
    check_determinize(state, row, key)


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_the_kernel_matches_the_rules_along_random_games(config):
    game = GemMountainGame(**config)
    for seed in range(2):
        for state in positions(game, seed, every=9):
            check_position(state, seed * 7919 + state.turn)


@pytest.mark.slow
@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_the_kernel_matches_the_rules_at_every_step(config):
    game = GemMountainGame(**config)
    for seed in range(2, 8):
        for state in positions(game, seed, every=1):
            check_position(state, seed * 104729 + state.turn)


def _twin(state, seat: int, key: int):
    """A true state seat ``seat`` cannot tell from ``state``: its hidden tiles
    redealt (other seats' secrets, unpeeked face-down cells with their
    rotations, the unused pool) and a new generator."""
    return state.determinize(seat, np.random.default_rng(key))


def check_no_leak(state, key: int) -> None:
    game = state.game
    for seat in range(game.num_players):
        row, twin = row_of(state), row_of(_twin(state, seat, key))
        first, first_words = kernel_determinize(row, game, seat, key)
        second, second_words = kernel_determinize(twin, game, seat, key)
        assert (first == second).all() and (first_words == second_words).all()
        if state.done:
            continue  # the returns: every secret is counted once the game is over
        one, other = np.zeros(game.num_players), np.zeros(game.num_players)
        evaluate(row, game_row(game), seat, one)
        evaluate(twin, game_row(game), seat, other)
        assert one.tolist() == other.tolist()


LEAK_CONFIGS = [CONFIGS[3], CONFIGS[5], CONFIGS[6], CONFIGS[7]]


@pytest.mark.parametrize("config", LEAK_CONFIGS, ids=lambda c: c.get("start_tiles", "none"))
def test_what_a_seat_cannot_see_changes_nothing_it_is_given(config):
    game = GemMountainGame(**config)
    hidden_seen = 0
    for state in positions(game, 5, every=5):
        if state.face_down_left or any(t >= 0 for t in state.secret_tiles):
            hidden_seen += 1
        check_no_leak(state, 17 + state.turn)
    assert hidden_seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 400),
    key=st.integers(0, 2**63),
)
def test_the_kernel_matches_the_rules_at_any_position(config, seed, steps, key):
    game = GemMountainGame(**config)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.done:
            break
        state.apply(random_action(state.legal_action_mask(), rng))
    check_position(state, key)
    check_no_leak(state, key)
