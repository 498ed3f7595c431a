"""The compiled observation (``kernel/observe.py``) is ``observe.py``'s byte
for byte, for both seats in their own frames: at every step of random games
on every test configuration (prisoners under resources, a selection, moved
defenders, walls, a won and a cut-short game included), and in loaded
positions the encoder's shortcuts treat apart."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row
from meeplezoo.envs.amethyst_amber.kernel.observe import OBSERVATION_SIZE, observe
from meeplezoo.envs.amethyst_amber.observe import encode_reference
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame
from tests.amethyst_amber.kernel_configs import CONFIGS, HOARD, game_of
from tests.amethyst_amber.kernel_play import play_both, uniform


def same_views(py, row) -> None:
    """Both seats' compiled views are their reference views, every byte overwritten."""
    grow = game_row(py.game)
    for seat in (0, 1):
        out = np.full(OBSERVATION_SIZE, -99, dtype=np.int8)
        observe(row, grow, seat, out)
        expected = py.observation(seat).reshape(-1)
        if not np.array_equal(out, expected):
            wrong = np.flatnonzero(out != expected)
            raise AssertionError(f"seat {seat}: {len(wrong)} entries differ, first at {wrong[:8]}")


def test_the_size_is_the_games_observation_size():
    assert (OBSERVATION_SIZE,) == game_of(0).observation_shape


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_view_at_every_step_of_a_random_game(index):
    seed = 100 + index
    play_both(
        game_of(index), seed, uniform(np.random.default_rng(seed)), full=False, check=same_views, most=250
    )


def test_prisoners_and_full_resources_are_seen_as_the_encoder_sees_them():
    seen = []

    def check(py, row) -> None:
        same_views(py, row)
        if any(py.prisoners_under):
            seen.append(py.main_turns)
            np.testing.assert_array_equal(py.observation(0).reshape(-1), encode_reference(py, 0))

    for capacity in (1, 2):
        game = AmethystAmberGame(**HOARD, resource_capacity=capacity)
        play_both(game, 0, uniform(np.random.default_rng([99, 0])), full=False, check=check)
    assert seen


@pytest.mark.parametrize("relative_frame", [True, False])
def test_a_loaded_position_with_pieces_left_out(relative_frame):
    """A position may leave attackers out of the game: they count as held
    though no resource holds them, which the encoder's shortcut must not skip."""
    game = AmethystAmberGame(defenders_per_player=0, relative_frame=relative_frame)
    position = game.new_initial_state(1).to_dict()
    position["reserve_attackers"] = [3, 5]
    for current in (0, 1):
        position["current"] = current
        py = game.state_from_dict(position)
        same_views(py, S.STATE_LAYOUT.write(py, np.zeros(S.STATE_WIDTH, dtype=np.int64)))
