"""The Gem Mountain pictures: one code per tile content, a legend for every
code and mark, and r= / c= labels where 'grab (r,c)' finds its cell."""

from __future__ import annotations

import re

import pytest

from meeplezoo import envs
from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.render import CODES, SPLIT_LETTERS

ALL_MODULES = {"dark_tunnels": True, "second_arrow": True, "gemshards": True, "golden_actions": True}


def _cell_move_position(cfg: dict, seed: int):
    """A random position where the player to move names a cell."""
    g = envs.make_game("gem_mountain_v0", **cfg)
    st = g.new_initial_state(seed)
    rng = make_rng(seed)
    for _ in range(500):
        names = [st.action_to_string(a) for a in st.legal_actions()]
        cells = [n for n in names if re.fullmatch(r"[a-z]+ \(\d+,\d+\)", n)]
        if cells and st.turn >= 2:
            return st, cells
        st.apply(int(rng.choice(st.legal_actions())))
    raise AssertionError("no cell decision reached")


def test_every_content_has_its_own_code():
    assert len(CODES) == tiles.NUM_CONTENTS == len(set(CODES))
    assert CODES[tiles.content_of("Tunnel")] != CODES[tiles.content_of("Turn Stone")]
    split = {c for d in range(tiles.NUM_DESIGNS) if not tiles.PLAIN[d] for c in tiles.SHARDS[d]}
    letters = [SPLIT_LETTERS[c] for c in split]
    assert len(letters) == len(set(letters)), "two split-tile sections share a letter"


def test_the_text_legend_names_every_code_and_mark_in_play():
    st, _ = _cell_move_position({**ALL_MODULES, "num_players": 3}, 0)
    text = st.render_ansi(None)
    for d in st.game.pool:
        for c in tiles.SHARDS[d]:
            assert f"{CODES[c]} {tiles.CONTENT_NAMES[c]}" in text
            if not tiles.PLAIN[d]:
                assert f"{SPLIT_LETTERS[c]} {tiles.CONTENT_NAMES[c]}" in text
    assert "tu Tunnel" in text and "ts Turn Stone" in text
    for mark in ("?? face down", "* before a code", ".. taken"):
        assert mark in text


@pytest.mark.parametrize(
    "cfg", [{}, {**ALL_MODULES, "num_players": 5}, {"map_rows": 5, "map_cols": 7, "gemshards": True}]
)
def test_every_cell_move_finds_its_row_and_column_labels(cfg):
    """Row r's label is on the text line of cell (r,0), column c's on the
    line of cell (0,c): the lines r and c below the top corner."""
    for seed in range(2):
        st, moves = _cell_move_position(cfg, seed)
        lines = st.render_ansi(st.current_player).splitlines()
        top = next(i for i, line in enumerate(lines) if re.search(r"\br=0\b", line))
        for name in moves:
            r, c = map(int, re.findall(r"\d+", name))
            assert re.search(rf"\br={r}\b", lines[top + r]), f"{name}: no r={r} on its row's line"
            assert re.search(rf"\bc={c}\b", lines[top + c]), f"{name}: no c={c} on its column's line"


def test_face_down_tiles_stay_hidden_from_a_seat_that_has_not_seen_them():
    st, _ = _cell_move_position({**ALL_MODULES, "num_players": 3}, 1)
    hidden = [
        i for i in range(len(st.cells)) if st.cells[i] >= 0 and not st.face_up[i] and not st.peeks[i] & 1
    ]
    assert hidden
    seat_view = st.render_ansi(0)
    spectator = st.render_ansi(None)
    assert seat_view.count("??") >= len(hidden)
    assert spectator.count("??") < seat_view.count("??")
