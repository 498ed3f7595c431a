"""Both render modes produce a real picture at the start and mid-game, keep
their text inside the image, and show a seat nothing it cannot know."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core import draw
from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import aec_random_trajectory, play_random_state

HIDDEN = [c for c in CASES if c.make_game().info.hidden_information]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("steps", [0, 25])
def test_renders(case, steps):
    text_env = case.make_env(render_mode="ansi")
    image_env = case.make_env(render_mode="rgb_array")
    for env in (text_env, image_env):
        if steps:
            aec_random_trajectory(env, 2, max_steps=steps)
        else:
            env.reset(seed=2)
    text = text_env.render()
    assert isinstance(text, str) and text.strip()
    image = image_env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) >= 16
    assert image.reshape(-1, 3).std(axis=0).max() > 5, "blank image"
    for viewer in range(case.make_game().num_players):
        assert case.make_env().game and text_env.game_state.render_ansi(viewer).strip()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_no_text_leaves_any_picture(case, monkeypatch):
    """At the start and mid-game, for the spectator and every seat, every
    word of the RGB picture is inside the image (none cut by an edge)."""
    monkeypatch.setattr(draw, "STRICT_BOUNDS", True)
    game = case.make_game()
    for until, viewers in ((0, [None, 0]), (30, [None, *range(game.num_players)])):
        state, _ = play_random_state(game, 4, until=until)
        for viewer in viewers:
            state.render_rgb(viewer)


@pytest.mark.parametrize("case", HIDDEN, ids=[c.id for c in HIDDEN])
def test_a_seat_sees_in_its_pictures_only_what_it_knows(case):
    """Redrawing what a seat cannot see (determinize) changes nothing in the
    text or the picture drawn for that seat."""
    game = case.make_game()
    for seed in range(2):
        state, _ = play_random_state(game, seed, until=8 + 20 * seed)
        for seat in range(game.num_players):
            twin = state.determinize(seat, np.random.default_rng(seed))
            assert twin.render_ansi(seat) == state.render_ansi(seat), (
                f"seat {seat}'s text shows hidden things"
            )
            if seed:  # pictures once, mid-game: they draw what the text says
                assert np.array_equal(twin.render_rgb(seat), state.render_rgb(seat)), (
                    f"seat {seat}'s picture shows hidden things"
                )
