"""The compiled estimate and determinization against the rules: random games
on every test configuration, compared at sampled steps (the last included);
the determinization draws the same numbers from the same searcher generator
and reads nothing the seat cannot see (the draw pile's order)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.core.compiled.pcg64 import to_words
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.kernel.estimate import determinize, evaluate
from meeplezoo.envs.gold_rush_gangs.kernel.game_row import game_row
from tests.conformance.play import random_action
from tests.gold_rush_gangs.kernel_configs import CONFIGS, game_of
from tests.gold_rush_gangs.test_kernel_rules import SMALL_BOARDS

LAYOUT = S.STATE_LAYOUT
WHOLE_STATE = -1


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
    for viewer in [None, 0, 1, 2]:
        got = np.full(3, np.nan)
        evaluate(row, game_row(state.game), WHOLE_STATE if viewer is None else viewer, got)
        np.testing.assert_allclose(
            got, state.evaluate(viewer), rtol=0, atol=1e-12, err_msg=f"viewer {viewer}"
        )


def kernel_determinize(row: np.ndarray, game, seat: int, key: int) -> tuple[np.ndarray, np.ndarray]:
    """The determinized row and the searcher's words after it."""
    searcher = to_words(np.random.default_rng(key))
    out = np.zeros_like(row)
    determinize(row, game_row(game), seat, searcher, out)
    return out, searcher


def check_determinize(state, row: np.ndarray, key: int) -> None:
    for seat in range(3):
        out, searcher = kernel_determinize(row, state.game, seat, key + seat)
        rng = np.random.default_rng(key + seat)
        expected = state.determinize(seat, rng)
        assert (out == row_of(expected)).all(), f"seat {seat}"
        assert searcher.tolist() == to_words(rng).tolist()
    assert (row == row_of(state)).all(), "the true state is left as it was"


def check_no_leak(state, key: int) -> None:
    """A true state no seat can tell from ``state`` (the draw pile in another
    order, another generator) gives every seat the same determinization and estimate."""
    twin = state.clone()
    twin.deck.draw_pile = list(np.random.default_rng(key).permutation(twin.deck.draw_pile).tolist())
    twin.rng = np.random.default_rng(key + 1)
    row, other = row_of(state), row_of(twin)
    for seat in range(3):
        first, first_words = kernel_determinize(row, state.game, seat, key)
        second, second_words = kernel_determinize(other, state.game, seat, key)
        assert (first == second).all() and (first_words == second_words).all()
        one, two = np.zeros(3), np.zeros(3)
        evaluate(row, game_row(state.game), seat, one)
        evaluate(other, game_row(state.game), seat, two)
        assert one.tolist() == two.tolist()


@pytest.mark.parametrize("index", SMALL_BOARDS)
def test_the_kernel_matches_the_rules_along_random_games(index):
    game = game_of(index)
    for seed in range(2):
        for state in positions(game, seed, every=7):
            row = row_of(state)
            check_evaluate(state, row)
            check_determinize(state, row, seed * 7919 + state.turns)


@pytest.mark.parametrize("index", SMALL_BOARDS[:3])
def test_what_a_seat_cannot_see_changes_nothing_it_is_given(index):
    for state in positions(game_of(index), 5, every=11):
        check_no_leak(state, 17 + state.turns)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.sampled_from(SMALL_BOARDS),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 400),
    key=st.integers(0, 2**63),
)
def test_the_kernel_matches_the_rules_at_any_position(index, seed, steps, key):
    state = game_of(index).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.done:
            break
        state.apply(random_action(state.legal_action_mask(), rng))
    row = row_of(state)
    check_evaluate(state, row)
    check_determinize(state, row, key)
    check_no_leak(state, key)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_matches_the_rules_at_every_step(index):
    game = game_of(index)
    for seed in range(2, 4):
        for state in positions(game, seed, every=1):
            row = row_of(state)
            check_evaluate(state, row)
            check_determinize(state, row, seed * 104729 + state.turns)
