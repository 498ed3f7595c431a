"""The picture kit: a readable font, text that wraps or ends in an ellipsis
and never leaves its box or the image, legends, and the text grid."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core import draw
from meeplezoo.envs.core.draw import (
    BACKGROUND,
    ELLIPSIS,
    INK,
    LABEL_SIZE,
    TEXT_SIZE,
    Canvas,
    Key,
    fit,
    legend_height,
    line_height,
    text_width,
    wrap,
)
from meeplezoo.envs.core.hexgrid import hexes_within
from meeplezoo.envs.core.textgrid import TextGrid, hex_diagonal_labels, hex_row_labels, legend_lines

SENTENCE = "player_0 hand: slot 0: tile 26 (0|17), slot 1: tile 33 (0|24), slot 2: tile 76 (13)"


def _ink_columns(image: np.ndarray) -> np.ndarray:
    """Which pixel columns of a picture hold any ink (differ from the paper)."""
    return (np.abs(image.astype(int) - np.array(BACKGROUND)).sum(axis=2) > 60).any(axis=0)


def _widest_gap(columns: np.ndarray) -> int:
    """Widest run of empty columns between the first and the last inked one."""
    inked = np.flatnonzero(columns)
    gaps = np.diff(inked) - 1
    return int(gaps.max()) if gaps.size else 0


def test_the_font_scales():
    assert draw.font(20).size == 20 and draw.font(9).size == 9
    assert text_width("Amber", 20) > 1.8 * text_width("Amber", 10)


@pytest.mark.parametrize("size", [LABEL_SIZE, TEXT_SIZE])
def test_a_space_between_two_words_shows_as_a_gap(size):
    """'19:05|1 62:037' must not read as '19:05|162:037'."""
    assert text_width("1 6", size) - text_width("16", size) >= 0.3 * size
    cv = Canvas(200, 40)
    cv.text(10, 10, "1 6", size=size)
    together = Canvas(200, 40)
    together.text(10, 10, "16", size=size)
    assert _widest_gap(_ink_columns(cv.to_array())) >= 4
    assert _widest_gap(_ink_columns(cv.to_array())) >= _widest_gap(_ink_columns(together.to_array())) + 3


def test_wrap_breaks_at_spaces_keeps_every_word_and_fits():
    lines = wrap(SENTENCE, 150)
    assert len(lines) > 2
    assert " ".join(lines) == SENTENCE
    assert all(text_width(line) <= 150 for line in lines)


def test_wrap_splits_a_word_longer_than_a_line():
    lines = wrap("x" * 80, 60)
    assert "".join(lines) == "x" * 80 and all(text_width(line) <= 60 for line in lines)


def test_wrap_with_a_line_limit_ends_in_an_ellipsis():
    lines = wrap(SENTENCE, 150, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith(ELLIPSIS)
    assert all(text_width(line) <= 150 for line in lines)


def test_fit_leaves_short_text_alone_and_cuts_long_text_with_an_ellipsis():
    assert fit("short", 200) == "short"
    cut = fit(SENTENCE, 120)
    assert cut.endswith(ELLIPSIS) and SENTENCE.startswith(cut[:-1]) and text_width(cut) <= 120


def test_a_long_line_in_a_box_ends_with_an_ellipsis_and_stays_inside():
    cv = Canvas(400, 200)
    box = (40, 30, 190, 90)
    lines = cv.text_box(*box, SENTENCE * 3)
    assert lines and lines[-1].endswith(ELLIPSIS)
    assert all(text_width(line) <= box[2] - box[0] - 8 for line in lines)
    image = cv.to_array()
    inked = (np.abs(image.astype(int) - np.array(BACKGROUND)).sum(axis=2) > 60).nonzero()
    assert inked[0].size > 0
    assert inked[1].min() >= box[0] and inked[1].max() <= box[2]
    assert inked[0].min() >= box[1] and inked[0].max() <= box[3]


def test_text_at_the_right_edge_is_cut_to_the_image():
    cv = Canvas(160, 40)
    drawn = cv.text(100, 10, SENTENCE)
    assert drawn <= 160 - 100
    right = cv.to_array()[:, -2:]
    assert not (np.abs(right.astype(int) - np.array(BACKGROUND)).sum(axis=2) > 60).any()


def test_strict_bounds_flag_text_the_picture_cannot_show(monkeypatch):
    monkeypatch.setattr(draw, "STRICT_BOUNDS", True)
    cv = Canvas(120, 40)
    cv.text(5, 5, "fits")
    cv.text(5, 5, SENTENCE, max_width=100)  # a cut the caller asked for is fine
    with pytest.raises(draw.TextOutsideImage):
        cv.text(5, 35, "below the bottom")
    with pytest.raises(draw.TextOutsideImage):
        cv.text(5, 5, SENTENCE)


def test_legend_rows_wrap_to_the_width_and_match_their_height():
    keys = [Key(f"entry number {k}", (200, 30, 45), "box") for k in range(8)]
    height = legend_height(keys, 200)
    assert height >= 4 * line_height()
    cv = Canvas(220, height + 20)
    bottom = cv.legend(10, 10, keys, 200)
    assert bottom == 10 + height
    assert not _ink_columns(cv.to_array())[212:].any()


def test_text_grid_aligns_and_keeps_the_board():
    grid = TextGrid()
    grid.put(0, 0, "abc")
    grid.put(-1, 0, "r=1", "right")
    grid.put(1, 1, "xyz", "centre")
    grid.put(0, 0, "ZZ", keep=True)
    assert grid.lines() == ["r=1abc", "   xyz"]


def test_every_hex_diagonal_is_labelled_at_both_ends():
    cells = hexes_within(3)
    labels = hex_diagonal_labels(cells)
    for q in range(-3, 4):
        ends = [lab for lab in labels if lab.cell[0] == q]
        assert len(ends) == 2
        assert {lab.cell[1] for lab in ends} == {
            min(r for qq, r in cells if qq == q),
            max(r for qq, r in cells if qq == q),
        }
        assert all(lab.text in (str(q), f"q={q}") for lab in ends)
    assert hex_row_labels(cells) == {r: f"r={r}" for r in range(-3, 4)}


def test_text_legend_wraps_and_keeps_every_entry():
    entries = [(f"s{k}", f"meaning number {k}") for k in range(12)]
    lines = legend_lines("marks", entries, width=60)
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("marks:")
    assert all(f"s{k} meaning number {k}" in " ".join(lines) for k in range(12))


def test_readable_ink_contrasts_with_the_fill():
    assert draw.readable_ink((250, 250, 250)) == INK
    assert draw.readable_ink((20, 20, 60)) == draw.WHITE
