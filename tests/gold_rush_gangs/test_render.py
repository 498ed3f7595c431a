"""The Gold Rush Gangs pictures: r= / q= labels in the acting seat's frame,
where 'store (q,r)' and 'deploy (q,r)' find their cell, and a legend."""

from __future__ import annotations

import re

import numpy as np
import pytest

from meeplezoo.envs.gold_rush_gangs.pieces import Phase
from meeplezoo.envs.gold_rush_gangs.render import GROUND_LEGEND, TEXT_LEGEND
from tests.gold_rush_gangs.helpers import game


def _setup_positions(cfg: dict, seed: int):
    """Every setup decision of a random game: (state, seat, cell moves)."""
    g = game(**cfg)
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while st.phase != Phase.MOVEMENT and not st.done:
        names = [st.action_to_string(a) for a in st.legal_actions()]
        out.append((st.clone(), st.acting_seat, names))
        st.apply(int(rng.choice(st.legal_actions())))
    return out


def _centre_char(lines: list[str], q: int, r: int, radius: int) -> str:
    """The middle character of cell (q, r) as drawn: the top label line's
    number 0 sits over cell (0, -R), and each step in q is 4 columns, each
    row down 2 columns to the right."""
    top = next(line for line in lines if re.match(r"^\s*q=\s+0\s", line))
    zero = re.search(r"q=\s+(0)\s", top).start(1)
    row = next(line for line in lines if re.match(rf"^\s*r={r}\s", line))
    return row[zero + 4 * q + 2 * (r + radius)]


@pytest.mark.parametrize("cfg", [{}, {"radius": 7, "territory_radius": 4, "min_unit_spacing": 3}])
def test_setup_moves_name_the_cells_drawn_under_their_labels(cfg):
    """A store goes on the rim ('~'), a thief deploys in its own territory
    (':'): both are what the seat's picture shows at the labelled cell."""
    radius = game(**cfg).geo.radius
    checked = 0
    for st, seat, names in _setup_positions(cfg, 3):
        lines = st.render_ansi(seat).splitlines()
        for name in names:
            kind, q, r = re.fullmatch(r"(\w+) \((-?\d+),(-?\d+)\)", name).groups()
            mark = _centre_char(lines, int(q), int(r), radius)
            assert mark == ("~" if kind == "store" else ":"), f"player_{seat} {name}: drawn as {mark!r}"
            checked += 1
    assert checked > 20


def test_every_row_and_diagonal_has_its_labels():
    """One r= per row; each q diagonal labelled at both of its ends."""
    st, seat, _ = _setup_positions({}, 0)[0]
    lines = st.render_ansi(seat).splitlines()
    radius = st.game.geo.radius
    board = [line for line in lines if re.match(r"^\s*r=-?\d+\s", line)]
    assert [int(re.match(r"^\s*r=(-?\d+)", line).group(1)) for line in board] == list(
        range(-radius, radius + 1)
    )
    number_lines = [line.split()[1:] for line in lines if re.match(r"^\s*q=\s+-?\d", line)]
    assert len(number_lines) == 2
    ends = [int(x) for row in number_lines for x in row]
    ends += [int(x) for line in board for x in re.findall(r"q=(-?\d+)", line)]
    assert sorted(ends) == sorted(2 * list(range(-radius, radius + 1)))


def test_the_legend_names_every_mark():
    st, seat, _ = _setup_positions({}, 0)[-1]
    text = st.render_ansi(None)
    for symbol, meaning in TEXT_LEGEND + GROUND_LEGEND:
        assert f"{symbol} {meaning}" in text
    assert "spectator view" in text and "player_0's" in text
    assert "cells and directions are player_2's" in st.render_ansi(2)
