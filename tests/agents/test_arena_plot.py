"""report.png: every bot name and column header is drawn whole, inside the
image and inside its own column."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from meeplezoo.agents.arena import tournament
from meeplezoo.agents.arena_plot import draw_report, report_layout
from meeplezoo.envs.core import draw
from meeplezoo.envs.core.draw import ELLIPSIS, text_width
from tests.core.toy_game import HighCardGame

SPECS = ["random", "mcts:sims=200", "ismcts:sims=200"]


@pytest.fixture(scope="module")
def result():
    return tournament(HighCardGame(num_players=2), SPECS, games=3, seed=0, progress=False)


def test_column_headers_fit_inside_the_image_and_their_columns(result):
    lay = report_layout(result)
    boxes = lay.header_boxes()
    assert sorted(name for name, _, _ in boxes) == sorted(SPECS)
    for j, (name, x0, x1) in enumerate(boxes):
        assert x1 - x0 == pytest.approx(text_width(name))
        assert 0 <= x0 and x1 <= lay.width, f"{name} leaves the image"
        assert lay.column_x(j) <= x0 and x1 <= lay.column_x(j) + lay.cell_w, (
            f"{name} spills out of its column"
        )
    assert text_width(lay.title, draw.TITLE_SIZE) < lay.width


def test_every_name_is_drawn_whole(result, monkeypatch):
    monkeypatch.setattr(draw, "STRICT_BOUNDS", True)
    words: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, *args, **kwargs):
        words.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    image = draw_report(result)
    assert image.size == (report_layout(result).width, report_layout(result).height)
    for spec in SPECS:
        assert words.count(spec) == 3, f"{spec}: rating row, heat map row and column header"
    assert not any(w.endswith(ELLIPSIS) for w in words)
