"""The tile encoding of a game's pictures decodes to exactly those pictures."""

from __future__ import annotations

import numpy as np

from meeplezoo import envs
from meeplezoo.agents.web.tile_codec import EMPTY, TILE, decode_frames, encode_frames


def _pictures(rng, sizes):
    out, base = [], None
    for h, w in sizes:
        if base is None or base.shape[:2] != (h, w):
            base = rng.integers(0, 4, size=(h, w, 3), dtype=np.uint8) * 60
        picture = base.copy()
        y, x = rng.integers(0, h - 3), rng.integers(0, w - 3)
        picture[y : y + 3, x : x + 3] = 255
        out.append(picture)
        base = picture
    return out


def test_round_trip_is_exact_even_when_the_picture_changes_size():
    rng = np.random.default_rng(0)
    pictures = _pictures(rng, [(50, 70)] * 4 + [(90, 40)] * 3 + [(20, 20), (50, 70)])
    encoded = encode_frames(pictures)
    decoded = decode_frames(encoded)
    assert len(decoded) == len(pictures)
    for a, b in zip(decoded, pictures):
        assert np.array_equal(a, b)
    assert any(t == EMPTY for f in encoded["frames"] for t in f["changes"][1::2])


def test_identical_positions_cost_nothing_and_tiles_are_stored_once():
    picture = np.full((64, 64, 3), 200, np.uint8)
    encoded = encode_frames([picture, picture, picture])
    assert encoded["frames"][1]["changes"] == [] and encoded["frames"][2]["changes"] == []
    # 16 squares of one colour: one tile, used 16 times
    assert sorted(set(encoded["frames"][0]["changes"][1::2])) == [0]
    assert len(encoded["frames"][0]["changes"]) == 2 * (64 // TILE) ** 2


def test_a_real_game_round_trips():
    game = envs.make_game("gem_mountain_v0", num_players=3)
    state = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    pictures = [state.render_rgb(1)]
    while not state.done and len(pictures) < 30:
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(legal.size)]))
        pictures.append(state.render_rgb(1))
    decoded = decode_frames(encode_frames(pictures))
    assert all(np.array_equal(a, b) for a, b in zip(decoded, pictures))
