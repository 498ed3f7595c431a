"""The Amoeba pictures label rows and columns the way 'anchor r c' names
them, and say what every mark means."""

from __future__ import annotations

import re

import numpy as np
import pytest

from meeplezoo.envs.amoeba.render import TEXT_LEGEND_EDGES, TEXT_LEGEND_UNITS
from tests.amoeba.helpers import game


def _anchor_position(g, seed: int):
    """A random position where the player to move names an anchor cell."""
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(400):
        names = [st.action_to_string(a) for a in st.legal_actions()]
        anchors = [n for n in names if n.startswith("anchor")]
        if anchors and st.turn >= 3:
            return st, anchors
        st.apply(int(rng.choice(st.legal_actions())))
    raise AssertionError("no anchor decision reached")


def _column_labels(text: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.strip().startswith("c="))
    return line.split()[1:]


def _row_labels(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^\s*r=(\d+)\s", text, re.M)]


@pytest.mark.parametrize("cfg", [{}, {"num_players": 4}, {"board_units": 12, "nuclei_per_player": 3}])
def test_every_legal_anchor_is_on_the_text_axes(cfg):
    g = game(**cfg)
    for seed in range(3):
        st, anchors = _anchor_position(g, seed)
        text = st.render_ansi(st.mover)
        rows, cols = _row_labels(text), _column_labels(text)
        for name in anchors:
            r, c = name.split()[1:]
            assert r in rows and c in cols, f"{name} not on the axes"


def test_text_labels_sit_on_their_unit():
    """The unit under column label c on row line r= is unit (r, c)."""
    g = game()
    st, anchors = _anchor_position(g, 1)
    text = st.render_ansi(None).splitlines()
    header = next(i for i, line in enumerate(text) if line.strip().startswith("c="))
    col_of = {m.group(0): m.start() for m in re.finditer(r"\d+", text[header])}
    for r, c in (divmod(int(u), g.units) for u in np.flatnonzero(st.height > 0)[:10]):
        line = next(line for line in text if re.match(rf"\s*r={r}\s", line))
        assert line[col_of[str(c)]] in "oO0123@", f"unit ({r},{c}) is not drawn under its labels"


def test_the_text_legend_names_every_mark():
    g = game()
    st, _ = _anchor_position(g, 0)
    text = st.render_ansi(None)
    for symbol, meaning in TEXT_LEGEND_UNITS + TEXT_LEGEND_EDGES:
        assert f"{symbol} {meaning}" in text
    assert "'anchor r c'" in text
    board = [line for line in text.splitlines() if re.match(r"\s*r=\d+\s", line)]
    used = set("".join(re.sub(r"^\s*r=\d+", "", line) for line in board)) - set(" ")
    assert used <= set(".oO0123@|-*+"), f"marks without a legend: {used - set('.oO0123@|-*+')}"


def test_hands_are_spelt_like_the_select_moves():
    g = game()
    st, _ = _anchor_position(g, 2)
    text = st.render_ansi(st.mover)
    for slot, tile in enumerate(st.hands[st.mover]):
        assert f"slot {slot}: tile {tile} (" in text
    other = 1 - st.mover
    assert f"player_{other}: " in text and "tiles (hidden)" in text
