"""Random play inside a kernel takes the k-th legal action with k drawn
from its generator words, exactly as the Python rules do with NumPy's
Generator: the same game to the end, for every game with a kernel."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.core.backends import has_kernel
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.kernel import kernel_of
from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.core.compiled.random_play import random_player

KERNEL_GAMES = [name for name in meeplezoo.names() if has_kernel(meeplezoo.make_game(name))]


def play_reference(game, seed: int, rng: np.random.Generator):
    """The Python rules played to the end by the same pick of legal actions."""
    state, moves = game.new_initial_state(seed), 0
    while not state.done:
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(0, len(legal))]))
        moves += 1
    return state, moves


@pytest.mark.parametrize("name", KERNEL_GAMES)
@pytest.mark.parametrize("seed", [5, 11])
def test_random_play_in_the_kernel_ends_where_the_reference_does(name, seed):
    game = meeplezoo.make_game(name)
    kernel = kernel_of(game)
    layout = layout_of(kernel.state_cls)
    row, game_row = layout.new_rows(1)[0], kernel.game_row(game)
    kernel.new_game(row, game_row, seed)
    words = np.zeros(pcg64.WORDS, dtype=np.uint64)
    pcg64.seed(words, 17 + seed)
    reference, moves = play_reference(game, seed, pcg64.from_words(words))
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    play = random_player(kernel)
    assert play(row, game_row, words, mask, 10**6) == moves
    expected = layout.new_rows(1)[0]
    layout.write(reference, expected)
    np.testing.assert_array_equal(row, expected)
    assert play(row, game_row, words, mask, 10) == 0
