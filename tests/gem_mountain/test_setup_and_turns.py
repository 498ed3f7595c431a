"""Setup, turn order and gem values (seeds/gem_mountain.md: Setup, Tiles, A turn)."""

from __future__ import annotations

import pytest

from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from tests.gem_mountain.helpers import act, new

CORNERS = {0, 2, 4, 6}  # N, E, S, W
# the rules page, "Tiles": the points of one gem of each type
PAGE_VALUES = {"Diamond": 5, "Ruby": 4, "Emerald": 3, "Sapphire": 2, "Topaz": 1, "Onyx": 6, "Opal": 3}


def test_the_arrow_starts_at_a_random_corner():
    """Setup 3: a corner (never a side), and each corner can come up."""
    game = GemMountainGame()
    starts = [game.new_initial_state(seed).arrows for seed in range(40)]
    assert all(len(arrows) == 1 for arrows in starts)
    assert {arrows[0] for arrows in starts} == CORNERS


def test_the_second_arrow_starts_opposite_the_first():
    """Setup 3 and interpretation 10: the second arrow four positions round."""
    game = GemMountainGame(second_arrow=True)
    for seed in range(12):
        first, second = game.new_initial_state(seed).arrows
        assert first in CORNERS and second == (first + 4) % 8


@pytest.mark.parametrize(("corner", "arrows"), [("N", [0, 4]), ("E", [2, 6]), ("S", [4, 0]), ("W", [6, 2])])
def test_a_chosen_corner_puts_the_second_arrow_opposite(corner, arrows):
    """Setup 3 with start_player_chooses_arrow: seat 0's corner, the second arrow opposite."""
    s = GemMountainGame(second_arrow=True, start_player_chooses_arrow=True).new_initial_state(1)
    assert s.arrows == [] and not (s.used_before or s.used_after or s.anchored or s.prism_used)
    act(s, f"position {corner}")
    assert s.arrows == arrows and s.player == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_turns_go_up_the_seat_numbers_and_round(players):
    """Setup 4: seat 0 starts, then seat 1, 2, ... and back to seat 0."""
    s = new(num_players=players)
    movers = []
    for _ in range(2 * players + 1):
        movers.append(s.current_player)
        s.apply(s.legal_actions()[0])  # no action tiles: each turn is one grab
    assert movers == [turn % players for turn in range(2 * players + 1)]
    assert s.turn == 2 * players + 1


@pytest.mark.parametrize("gem", list(PAGE_VALUES))
def test_one_gem_scores_its_value(gem):
    """Tiles: the value of each gem; the only holder scores it, no one loses."""
    s = new(num_players=3, holdings=[{}, {gem: 1}, {}], dark_tunnels=True, gemshards=True)
    assert s.scores() == [0, PAGE_VALUES[gem], 0]


def test_an_onyx_outscores_a_diamond():
    """Tiles: Onyx 6 points, Diamond 5; the Onyx holder wins."""
    s = new(holdings=[{"Onyx": 1}, {"Diamond": 1}], dark_tunnels=True)
    assert s.scores() == [6, 5]
    assert list(s.returns()) == [1.0, -1.0]
    s = new(holdings=[{"Onyx": 1, "Topaz": 1}, {"Onyx": 2}], dark_tunnels=True)
    assert s.scores() == [6 * -1 + 1, 6 * 2]


def test_a_random_map_turns_its_tiles_every_way():
    """Setup: each tile of a random map lies at a random quarter turn, and
    every one of the four comes up."""
    for seed in range(3):
        assert set(GemMountainGame().new_initial_state(seed).rotations) == {0, 1, 2, 3}


@pytest.mark.parametrize("start_tiles", ["any", "action"])
def test_start_tiles_come_from_the_tiles_the_map_left_over(start_tiles):
    """Setup, start tiles: while the unused pool holds a fitting tile, each seat's
    start tile is taken from it, so the map, the unused pool and the start tiles
    together are the pool once (no tile is drawn from a fresh copy)."""
    game = GemMountainGame(start_tiles=start_tiles, map_rows=4, map_cols=4)
    for seed in range(5):
        s = game.new_initial_state(seed)
        on_map = sum(c >= 0 for c in s.cells)
        held = sum(map(sum, s.gems)) + sum(map(sum, s.action_tiles))
        assert held == 2 and on_map + len(s.unused) + held == len(game.pool)
