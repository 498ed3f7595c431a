"""The Amethyst and Amber pictures label triangles by brick X,Y and hexes by
axial q,r in the viewer's frame, so that every move names the cell the
viewer sees under those labels."""

from __future__ import annotations

import re

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.amethyst_amber.render import COORD_TEXT_LEGEND, HEX_TEXT_LEGEND, LETTER, TRI_TEXT_LEGEND

RADIUS = 4


def _cell_text(lines: list[str], x: int, y: int) -> str:
    """The three characters drawn at brick (X, Y): under X in the header
    line, on the line whose Y label is y."""
    header = next(line for line in lines if "Y\\X" in line)
    centre = {int(m.group(0)): m.start() for m in re.finditer(r"\d+", header)}[x]
    row = next(line for line in lines if re.match(rf"^\s*(r=-?\d+)?\s+{y}(\s|$)", line))
    return row[centre - 1 : centre + 2].ljust(3)


def _hex_brick(q: int, r: int) -> tuple[int, int]:
    return 2 * q + r + 2 * RADIUS + 1, 2 * (r + RADIUS) + 1


def _expected(kind: str, seat: int) -> set[str]:
    own = LETTER[seat]
    return {
        "place defender": {" + "},
        "move to": {" + "},
        "select": {f"D{own} ", f"D{own}'", f"D{own}*"},
        "place attacker": {" 1 " if seat == 0 else " 2 "},
        "place resource": {" g "},
        "step": {f"A{own} "},
    }[kind]


def _decisions(cfg: dict, seed: int, count: int = 160):
    g = envs.make_game("amethyst_amber_v0", **cfg)
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        if st.done:
            break
        yield st, [st.action_to_string(a) for a in st.legal_actions()]
        st.apply(int(rng.choice(st.legal_actions())))


@pytest.mark.parametrize("cfg", [{}, {"relative_frame": False}])
def test_every_move_names_the_cell_its_player_sees_under_the_labels(cfg):
    """Amber's moves are in her turned frame, and so is her picture."""
    kinds = set()
    for seed in range(2):
        for st, names in _decisions(cfg, seed):
            seat = st.acting_seat
            lines = st.render_ansi(seat).splitlines()
            for name in names:
                m = re.fullmatch(
                    r"(place defender|move to|select|place attacker|place resource|step) (-?\d+),(-?\d+).*",
                    name,
                )
                if not m:
                    continue
                kind, a, b = m.group(1), int(m.group(2)), int(m.group(3))
                x, y = (a, b) if kind in ("place defender", "move to", "select") else _hex_brick(a, b)
                drawn = _cell_text(lines, x, y)
                assert drawn in _expected(kind, seat), f"{st.acting_seat} {name}: drawn as {drawn!r}"
                kinds.add((kind, seat))
    assert {k for k, _ in kinds} >= {"place defender", "select", "move to", "place attacker", "step"}
    assert {s for _, s in kinds} == {0, 1}


def test_hex_rows_and_diagonals_are_labelled():
    st, _ = next(_decisions({}, 0))
    text = st.render_ansi(1)
    for r in range(-RADIUS, RADIUS + 1):
        assert re.search(rf"^\s*r={r}\s+{2 * (r + RADIUS) + 1}\s", text, re.M), f"no r={r} on hex row"
    number_lines = [line.split()[1:] for line in text.splitlines() if re.match(r"^\s*q=\s+-?\d", line)]
    ends = [int(x) for row in number_lines for x in row] + [int(x) for x in re.findall(r"q=(-?\d+)", text)]
    assert sorted(ends) == sorted(2 * list(range(-RADIUS, RADIUS + 1)))


def test_the_legend_names_every_mark_and_the_frame():
    st, _ = next(_decisions({}, 0))
    text = st.render_ansi(None)
    for symbol, meaning in HEX_TEXT_LEGEND + TRI_TEXT_LEGEND + COORD_TEXT_LEGEND:
        assert f"{symbol} {meaning}".strip() in text
    assert "spectator view" in text
    assert "Amber's frame" in st.render_ansi(1)
