"""The map and the tile table (seeds/gem_mountain.md: The map, Tiles)."""

from __future__ import annotations

import pytest

from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.geometry import Geometry, pointed_sections
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import _halves, _quarters, content_of, design_of, shards_of

ROWS, COLS = 3, 5  # not square, so rows and columns cannot be mixed up
NE, SE, SW, NW = range(4)


def page_distance(p: int, r: int, c: int) -> int:
    """The rules page's table: distance of (r, c) from arrow position p."""
    last_r, last_c = ROWS - 1, COLS - 1
    return (r + c, r, r + last_c - c, last_c - c, last_r - r + last_c - c, last_r - r, last_r - r + c, c)[p]


def test_distances_and_layers_follow_the_table():
    """The map: each position's layers, nearest first, cover the map once."""
    geo = Geometry(ROWS, COLS)
    for p in range(8):
        expected = [page_distance(p, i // COLS, i % COLS) for i in range(ROWS * COLS)]
        assert geo.distances[p] == expected
        assert geo.depth[p] == max(expected) + 1
        assert [sorted(layer) for layer in geo.layers[p]] == [
            [i for i in range(ROWS * COLS) if expected[i] == k] for k in range(max(expected) + 1)
        ]
        assert [geo.cell_distances[i][p] for i in range(ROWS * COLS)] == expected


@pytest.mark.parametrize(
    ("position", "top"),
    [
        (0, {(0, 0)}),  # N: the top corner
        (1, {(0, c) for c in range(COLS)}),  # NE: the row r = 0
        (2, {(0, COLS - 1)}),  # E: the right corner
        (3, {(r, COLS - 1) for r in range(ROWS)}),  # SE: the column c = C-1
        (4, {(ROWS - 1, COLS - 1)}),  # S: the bottom corner
        (5, {(ROWS - 1, c) for c in range(COLS)}),  # SW: the row r = R-1
        (6, {(ROWS - 1, 0)}),  # W: the left corner
        (7, {(r, 0) for r in range(ROWS)}),  # NW: the column c = 0
    ],
)
def test_a_full_map_tops_at_the_pointed_corner_or_edge(position, top):
    """The map: a corner arrow's top is one tile, a side arrow's a whole edge."""
    game = GemMountainGame(map_rows=ROWS, map_cols=COLS, arrow_override=[position])
    s = game.new_initial_state(0)
    assert {divmod(i, COLS) for i in s.available()} == top


def test_each_position_points_at_the_sections_facing_it():
    """Tiles: a side arrow points at one section, a corner arrow at the two meeting there."""
    expected = [(NW, NE), (NE,), (NE, SE), (SE,), (SE, SW), (SW,), (SW, NW), (NW,)]
    assert [set(pointed_sections(p)) for p in range(8)] == [set(x) for x in expected]
    assert all(list(pointed_sections(p)) == sorted(pointed_sections(p)) for p in range(8))


def test_split_tiles_put_their_halves_and_quarters_in_section_order():
    """Tiles: a half tile X/Y has X on NE and SE and Y on SW and NW at rotation 0."""
    opal, topaz = content_of("Opal"), content_of("Topaz")
    assert _halves("Opal", "Topaz") == (opal, opal, topaz, topaz)
    names = ("Opal", "Ruby", "Sapphire", "Pickaxe")
    assert _quarters(*names) == tuple(content_of(n) for n in names)
    assert shards_of(design_of("Opal/Topaz")) == (opal, topaz)
    assert shards_of(design_of("Opal/Ruby/Sapphire/Pickaxe")) == tuple(content_of(n) for n in names)
    assert shards_of(design_of("Ruby")) == (content_of("Ruby"),)


def test_an_action_tile_is_no_gem():
    """Tiles: gems are collected for points, action tiles are kept to be spent."""
    assert [tiles.is_gem(content_of(name)) for name in tiles.GEM_NAMES] == [True] * 7
    assert not any(tiles.is_gem(content_of(name)) for name in tiles.ACTION_NAMES)
    assert [tiles.action_content(kind) for kind in tiles.ActionKind] == [
        content_of(name) for name in tiles.ACTION_NAMES
    ]


def test_an_unknown_tile_name_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown tile 'Rubby'"):
        design_of("Rubby")
