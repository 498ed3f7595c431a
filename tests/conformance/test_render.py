"""Both render modes produce a real picture at the start and mid-game."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import aec_random_trajectory


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
