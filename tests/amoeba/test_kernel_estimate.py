"""The compiled estimate, returns and determinization against the rules:
random games on every configuration, compared at sampled steps (the last
included); the determinization draws the same numbers from the same
searcher generator and reads nothing the seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amoeba.kernel import rules as kernel
from meeplezoo.envs.amoeba.kernel.determinize import determinize
from meeplezoo.envs.amoeba.kernel.game_row import game_row
from meeplezoo.envs.core.compiled.pcg64 import to_words
from tests.amoeba.kernel_configs import CONFIGS, LAYOUT, game_of, row_of
from tests.conformance.play import random_action


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


def check_evaluate(state, row: np.ndarray) -> None:
    game = state.game
    for viewer in [None, *range(game.num_players)]:
        got = np.full(game.num_players, np.nan)
        kernel.evaluate(row, game_row(game), -1 if viewer is None else viewer, got)
        np.testing.assert_array_equal(got, state.evaluate(viewer), err_msg=f"viewer {viewer}")


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
        assert (out == row_of(expected)).all(), f"seat {seat}"
        assert searcher.tolist() == to_words(rng).tolist()
        assert LAYOUT.read(out, game).to_dict() == expected.to_dict()
    assert (row == row_of(state)).all(), "the true state is left as it was"


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_matches_the_rules_along_random_games(index):
    game = game_of(index)
    for state in positions(game, index, every=23):
        row = row_of(state)
        check_evaluate(state, row)
        check_determinize(state, row, index * 7919 + state.turn)


def test_what_a_seat_cannot_see_changes_nothing_it_is_given():
    """Two true states a seat cannot tell apart (the tiles it has not seen
    dealt otherwise, another generator) determinize alike for it, and
    give it the same estimate and observation."""
    from meeplezoo.envs.amoeba.kernel.observe import observe

    for index in (1, 2, 4):
        game = game_of(index)
        for state in positions(game, index, every=31):
            for seat in range(game.num_players):
                twin = state.determinize(seat, np.random.default_rng([seat, state.turn]))
                row, twin_row = row_of(state), row_of(twin)
                first, first_words = kernel_determinize(row, game, seat, 5)
                second, second_words = kernel_determinize(twin_row, game, seat, 5)
                assert (first == second).all() and (first_words == second_words).all()
                views = np.zeros((2, *game.observation_shape), dtype=np.int8)
                observe(row, game_row(game), seat, views[0])
                observe(twin_row, game_row(game), seat, views[1])
                assert (views[0] == views[1]).all()
                one, other = np.zeros(game.num_players), np.zeros(game.num_players)
                kernel.evaluate(row, game_row(game), seat, one)
                kernel.evaluate(twin_row, game_row(game), seat, other)
                assert one.tolist() == other.tolist()


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_matches_the_rules_at_every_step(index):
    game = game_of(index)
    for seed in range(2, 5):
        for state in positions(game, seed, every=1):
            row = row_of(state)
            check_evaluate(state, row)
            check_determinize(state, row, seed * 104729 + state.turn)
