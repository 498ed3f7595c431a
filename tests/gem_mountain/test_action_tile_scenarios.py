"""Action tiles in play (seeds/gem_mountain.md: Action tiles, interpretations 10 and 17-19):
the arrow they act on with two arrows, the opponents they name, what they may pick."""

from __future__ import annotations

from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.rules import GRAB, SUB_STEP
from meeplezoo.envs.gem_mountain.tiles import ActionKind
from tests.gem_mountain.helpers import act, cell, layout, legal_cells, legal_names, new

RUBY, TOPAZ = tiles.content_of("Ruby"), tiles.content_of("Topaz")


def two_arrows(holdings, **cfg):
    """Arrows at N and S, seat 0 holding ``holdings``."""
    return new(arrows=(0, 4), second_arrow=True, holdings=[holdings, {}], **cfg)


def test_gust_asks_which_arrow_with_two_arrows():
    s = two_arrows({"Gust": 1})
    act(s, "use Gust")
    assert s.phase == SUB_STEP and legal_names(s) == ["arrow 1", "arrow 2"]
    act(s, "arrow 2")
    assert legal_names(s) == ["clockwise", "counter-clockwise"]
    act(s, "counter-clockwise")
    assert s.arrows == [0, 3] and s.phase == GRAB


def test_compass_moves_the_chosen_arrow_anywhere_else():
    s = two_arrows({"Compass": 1})
    act(s, "use Compass")
    act(s, "arrow 2")
    assert "position S" not in legal_names(s) and len(legal_names(s)) == 7
    act(s, "position W")
    assert s.arrows == [0, 6]


def test_avalanche_sweeps_the_chosen_arrows_top_only():
    """Avalanche: the top of the chosen arrow leaves the game, scoring for no one."""
    s = two_arrows({"Avalanche": 1}, golden_actions=True)
    act(s, "use Avalanche")
    assert legal_names(s) == ["arrow 1", "arrow 2"]
    act(s, "arrow 2")
    assert s.cells[cell(5, 5)] < 0 and s.cells[cell(0, 0)] >= 0
    assert s.gems[0] == [0] * 7 and not s.terminal
    assert s.phase == GRAB and legal_cells(s) == {(0, 0), (4, 5), (5, 4)}


def test_flare_offers_only_an_arrow_whose_top_is_face_down():
    """Interpretation 17."""
    s = two_arrows({"Flare": 1}, dark_tunnels=True)
    s.face_up[cell(0, 0)] = True
    s._recount()
    act(s, "use Flare")
    assert legal_names(s) == ["arrow 2"]
    act(s, "arrow 2")
    assert s.face_up[cell(5, 5)] and sum(s.face_up) == 2


def test_lantern_looks_at_two_different_tiles_then_stops():
    """Lantern: up to two peeks; the second one is of a tile not seen yet."""
    s = new(dark_tunnels=True, holdings=[{"Lantern": 1}, {}])
    act(s, "use Lantern")
    assert "done" not in legal_names(s)  # the first peek is not optional
    act(s, "lantern (3,3)")
    assert (3, 3) not in legal_cells(s)
    act(s, "lantern (4,4)")
    assert s.phase == GRAB  # two peeks: the Lantern is spent
    assert s.peeks[cell(3, 3)] == s.peeks[cell(4, 4)] == 1 and sum(s.peeks) == 2


def test_lantern_needs_a_face_down_tile():
    s = new(dark_tunnels=True, holdings=[{"Lantern": 1, "Gust": 1}, {}])
    assert "use Lantern" in legal_names(s)
    s.face_up = [True] * len(s.cells)
    s._recount()
    assert legal_names(s) == ["use Gust", "done"]


def test_turn_stone_turns_any_remaining_tile_either_way():
    """Interpretation 19: every tile left may be turned (the Diamond too), no empty cell."""
    lay = layout(None, c0_0="Diamond", c2_3="Ruby")
    s = new(lay, holdings=[{"Turn Stone": 1}, {}], gemshards=True)
    act(s, "use Turn Stone")
    assert legal_cells(s) == {(0, 0), (2, 3)}
    act(s, "turn (2,3)")
    act(s, "counter-clockwise")
    assert s.rotations[cell(2, 3)] == 3 and s.rotations[cell(0, 0)] == 0


def test_thief_names_opponents_counted_from_the_player():
    """Interpretation 18: OPP j is the player j + 1 seats later; only one holding a public gem."""
    s = new(num_players=3, holdings=[{"Ruby": 1}, {"Thief": 1, "Emerald": 1}, {}], golden_actions=True)
    act(s, "grab (0,0)")  # seat 0 takes a Topaz; seat 1 to move
    assert s.player == 1
    act(s, "use Thief")
    assert legal_names(s) == ["opponent +2"]  # seat 0; seat 2 holds nothing, seat 1 is the thief
    act(s, "opponent +2")
    assert legal_names(s) == ["gem Ruby", "gem Topaz"]
    act(s, "gem Ruby")
    assert s.gems[1][RUBY] == 1 and s.gems[0][RUBY] == 0 and s.gems[0][TOPAZ] == 1
    assert s.action_tiles[1][ActionKind.THIEF] == 0


def test_gift_may_go_to_any_opponent():
    s = new(num_players=3, holdings=[{"Gift": 1, "Ruby": 1}, {}, {}], golden_actions=True)
    act(s, "use Gift")
    assert legal_names(s) == ["opponent +1", "opponent +2"]
    act(s, "opponent +2")
    assert legal_names(s) == ["gem Ruby"]
    act(s, "gem Ruby")
    assert [s.gems[p][RUBY] for p in range(3)] == [0, 0, 1]


def test_gust_counter_clockwise_from_the_top_corner_reaches_the_north_west_side():
    """The eight positions form a ring: N turned back is NW."""
    s = new(arrows=(0,), holdings=[{"Gust": 1}, {}])
    act(s, "use Gust")
    act(s, "counter-clockwise")
    assert s.arrows == [7] and legal_cells(s) == {(r, 0) for r in range(6)}


def test_twister_turns_both_arrows_round():
    s = new(arrows=(1, 5), second_arrow=True, holdings=[{"Twister": 1}, {}], golden_actions=True)
    act(s, "use Twister")
    assert s.arrows == [5, 1] and s.phase == GRAB


def test_lantern_is_usable_while_a_single_face_down_tile_is_left():
    s = new(dark_tunnels=True, holdings=[{"Lantern": 1}, {}])
    s.face_up = [True] * len(s.cells)
    s.face_up[cell(3, 3)] = False
    s._recount()
    assert "use Lantern" in legal_names(s)
    act(s, "use Lantern")
    assert legal_cells(s) == {(3, 3)}


def test_thief_reaches_the_opponent_two_seats_later():
    """Interpretation 18: with three players OPP 2 is the seat two after the
    player (seat 2 for seat 0), never the player himself."""
    s = new(num_players=3, holdings=[{"Thief": 1}, {}, {"Ruby": 1}], golden_actions=True)
    assert "use Thief" in legal_names(s)
    act(s, "use Thief")
    assert legal_names(s) == ["opponent +2"]
    act(s, "opponent +2")
    act(s, "gem Ruby")
    assert [s.gems[p][RUBY] for p in range(3)] == [1, 0, 0]
