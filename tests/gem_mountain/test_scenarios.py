"""Scenario tests for the rules on seeds/gem_mountain.md: small hand-built
maps, one situation per test (docstrings name the interpretation or section)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.rules import GRAB, INFO, POST, PRE, SECTION, START, SUB_STEP, GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import ActionKind
from tests.gem_mountain.helpers import (
    act,
    cell,
    layout,
    legal_cells,
    legal_names,
    new,
    obs_cell,
    remove,
    top,
)


def test_corner_layer():
    """Interpretations 2 and 3."""
    s = new(arrows=(0,))
    assert top(s, 0) == {(0, 0)}
    remove(s, (0, 0))
    assert top(s, 0) == {(0, 1), (1, 0)}


def test_side_layer():
    """Interpretations 2 and 3."""
    s = new()
    assert top(s, 1) == {(0, c) for c in range(6)}
    assert top(s, 5) == {(5, c) for c in range(6)}


def test_holes_are_skipped():
    """Interpretation 3."""
    s = new()
    remove(s, (0, 0), (0, 1), (1, 0))
    assert top(s, 0) == {(0, 2), (1, 1), (2, 0)}
    remove(s, (0, 2), (1, 1), (2, 0), (1, 2), (2, 1))
    assert top(s, 0) == {(0, 3), (3, 0)}


def test_quarter_turn():
    """Interpretations 2 and 13."""
    s = new(arrows=(0,))
    seen = []
    for _ in range(4):
        assert s.phase == GRAB  # no action tiles: both windows skipped
        s.apply(s.legal_actions()[0])
        seen.append(s.arrows[0])
    assert seen == [2, 4, 6, 0]


def test_gust_to_diagonal():
    """Action tiles: Gust."""
    s = new(arrows=(0,), holdings=[{"Gust": 1}, {}])
    assert s.phase == PRE
    act(s, "use Gust")
    assert s.phase == SUB_STEP
    act(s, "clockwise")
    assert s.arrows == [1]
    assert s.phase == GRAB  # the PRE window closed after one use
    assert legal_cells(s) == {(0, c) for c in range(6)}
    act(s, "grab (0,0)")
    assert s.arrows == [3] and s.player == 1
    assert s.action_tiles[0][ActionKind.GUST] == 0


def test_compass():
    """Action tiles: Compass."""
    s = new(arrows=(0,), holdings=[{"Compass": 1}, {}])
    act(s, "use Compass")
    g = s.game
    pos = [a - g.blocks.position for a in s.legal_actions()]
    assert pos == [1, 2, 3, 4, 5, 6, 7]
    act(s, "position NW")
    assert s.arrows == [7]
    assert legal_cells(s) == {(r, 0) for r in range(6)}


@pytest.mark.parametrize("limit", ["per_window", "per_turn", "unlimited"])
def test_window_limits(limit):
    """Interpretation 13."""
    s = new(arrows=(0,), holdings=[{"Gust": 2}, {}], action_limit=limit)
    act(s, "use Gust")
    act(s, "clockwise")
    if limit == "unlimited":
        assert s.phase == PRE
        act(s, "use Gust")
        act(s, "counter-clockwise")
        # DONE would be the only answer: the window closes by itself
        assert s.phase == GRAB and s.arrows == [0]
        # with a third Gust still usable, DONE closes the reopened window
        s = new(arrows=(0,), holdings=[{"Gust": 3}, {}], action_limit=limit)
        for _ in range(2):
            act(s, "use Gust")
            act(s, "clockwise")
        assert s.phase == PRE and legal_names(s) == ["use Gust", "done"]
        act(s, "done")
        assert s.phase == GRAB and s.arrows == [2]
        return
    assert s.phase == GRAB
    act(s, "grab (0,0)")
    if limit == "per_window":
        assert s.phase == POST and s.player == 0
        act(s, "use Gust")
        act(s, "counter-clockwise")
        assert s.player == 1 and s.action_tiles[0][ActionKind.GUST] == 0
    else:  # per_turn: the POST window is skipped, no decision
        assert s.player == 1 and s.action_tiles[0][ActionKind.GUST] == 1


def test_pickaxe_in_post():
    """Interpretations 6 and 14."""
    s = new(arrows=(0,), holdings=[{"Pickaxe": 1}, {}])
    act(s, "done")
    act(s, "grab (0,0)")
    assert s.phase == POST
    act(s, "use Pickaxe")
    assert s.phase == GRAB and s.phase_name() == "GRAB"
    assert legal_cells(s) == {(0, 1), (1, 0)}  # the top after the first grab
    act(s, "grab (1,0)")
    assert s.gems[0][tiles.content_of("Topaz")] == 2
    assert s.action_tiles[0][ActionKind.PICKAXE] == 0
    assert s.player == 1


def test_tunnel():
    """Interpretation 11."""
    s = new(arrows=(0,), holdings=[{"Tunnel": 1}, {}])
    act(s, "use Tunnel")
    assert legal_cells(s) == {(0, 1), (1, 0)}
    s2 = new(layout(None, c0_0="Topaz"), arrows=(0,), holdings=[{"Tunnel": 1, "Gust": 1}, {}])
    assert "use Tunnel" not in legal_names(s2)
    assert "use Gust" in legal_names(s2)


def test_anchor():
    """Interpretation 16."""
    s = new(arrows=(0,), holdings=[{"Anchor": 1}, {}])
    act(s, "use Anchor")
    act(s, "grab (0,0)")
    assert s.arrows == [0] and s.player == 1
    s.apply(s.legal_actions()[0])
    assert s.arrows == [2]


def test_scoring():
    """Scoring and rewards."""
    s = new(holdings=[{"Diamond": 2}, {"Diamond": 1, "Topaz": 3}])
    assert s.scores() == [10, -2]


def test_ties():
    """Interpretation 7."""
    s = new(
        num_players=3,
        holdings=[{"Ruby": 2, "Sapphire": 1}, {"Ruby": 2, "Sapphire": 1}, {"Sapphire": 1, "Emerald": 1}],
    )
    assert s.scores() == [8, 8, 3]
    # per gem: Ruby +8,+8,0; Sapphire all 0; Emerald p2 +3
    assert s.score_counts([[0, 2, 0, 1, 0, 0, 0], [0, 2, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]]) == [8, 8, 0]
    assert s.score_counts([[0] * 7, [0] * 7, [0, 0, 1, 0, 0, 0, 0]]) == [0, 0, 3]


def test_immediate_end_by_pickaxe():
    """Interpretation 8."""
    lay = layout(None, c0_0="Ruby", c2_2="Gust")
    s = new(lay, arrows=(0,), holdings=[{"Pickaxe": 1}, {}])
    act(s, "use Pickaxe")
    act(s, "grab (0,0)")
    assert s.terminal and s.current_player == -1
    assert not s.legal_action_mask().any()
    assert list(s.returns()) == [1.0, -1.0]


def test_immediate_end_after_section_choice():
    """Interpretations 8 and 11."""
    lay = layout(None, c0_0="Opal/Gust", c2_2="Gust")
    s = new(lay, arrows=(0,), holdings=[{"Pickaxe": 1}, {}])
    act(s, "use Pickaxe")
    act(s, "grab (0,0)")
    assert s.phase == SECTION and not s.terminal
    assert legal_names(s) == ["section NE Opal", "section NW Gust"]
    act(s, "section NW Gust")
    assert s.terminal and s.action_tiles[0][ActionKind.GUST] == 1


def test_dark_tunnels_peek_and_flip():
    """Interpretation 9."""
    s = new(arrows=(0,), dark_tunnels=True, lay=layout("Topaz", c5_5="Diamond"))
    act(s, "grab (0,0)")
    assert s.phase == INFO and s.player == 0
    act(s, "peek (5,5)")
    mine, theirs = obs_cell(s, 0, 5, 5), obs_cell(s, 1, 5, 5)
    assert mine[2] == 1 and mine[3 + tiles.content_of("Diamond")] == 1
    assert theirs[2] == 0 and theirs[3 + tiles.UNKNOWN] == 1
    assert theirs[99 + 1] == 1  # peeked by the seat one after p1 = p0
    assert mine[99] == 1  # peeked by me
    # with an action used this turn, INFO flips publicly
    s = new(arrows=(0,), dark_tunnels=True, holdings=[{"Anchor": 1}, {}], lay=layout("Topaz", c5_5="Diamond"))
    act(s, "use Anchor")
    act(s, "grab (0,0)")
    assert s.phase == INFO
    act(s, "flip (5,5)")
    assert s.face_up[cell(5, 5)]
    assert obs_cell(s, 1, 5, 5)[3 + tiles.content_of("Diamond")] == 1


def test_gemshards_sections():
    """Interpretations 11 and 16."""
    lay = layout("Topaz", c0_0="Opal/Topaz")
    opal, topaz = tiles.content_of("Opal"), tiles.content_of("Topaz")
    s = new(lay, arrows=(1,))  # NE: only section NE (Opal) pointed
    act(s, "grab (0,0)")
    assert s.gems[0][opal] == 1 and s.gems[0][topaz] == 0
    s = new(lay, arrows=(0,))  # N: NW (Topaz) and NE (Opal)
    act(s, "grab (0,0)")
    assert s.phase == SECTION
    assert legal_names(s) == ["section NE Opal", "section NW Topaz"]
    act(s, "section NW Topaz")
    assert s.gems[0][topaz] == 1 and s.gems[0][opal] == 0
    lay_e = layout("Topaz", c0_5="Opal/Topaz")
    s = new(lay_e, arrows=(2,))  # E: NE and SE, both Opal: no choice
    act(s, "grab (0,5)")
    assert s.gems[0][opal] == 1 and s.player == 1
    s = new(lay, arrows=(0,), holdings=[{"Prism": 1}, {}])
    act(s, "use Prism")
    act(s, "grab (0,0)")
    assert s.gems[0][opal] == 1 and s.gems[0][topaz] == 1 and s.player == 1


def test_second_arrow():
    """Interpretation 10."""
    s = new(arrows=(0, 4), second_arrow=True)
    assert legal_cells(s) == {(0, 0), (5, 5)}
    act(s, "grab (5,5)")
    assert s.arrows == [2, 6]


def test_thief_and_gift():
    """Interpretation 18."""
    ruby = tiles.content_of("Ruby")
    s = new(holdings=[{"Thief": 1}, {"Ruby": 2}], golden_actions=True)
    act(s, "use Thief")
    act(s, "opponent +1")
    gems = [a - s.game.blocks.gem for a in s.legal_actions()]
    assert gems == [ruby]
    act(s, "gem Ruby")
    assert s.gems[0][ruby] == 1 and s.gems[1][ruby] == 1
    s = new(holdings=[{"Gift": 1, "Ruby": 1}, {}], golden_actions=True)
    act(s, "use Gift")
    act(s, "opponent +1")
    act(s, "gem Ruby")
    assert s.gems[0][ruby] == 0 and s.gems[1][ruby] == 1


def test_secret_start_tiles():
    """Interpretations 12 and 13."""
    game = GemMountainGame(start_tiles="action_secret")
    s = game.new_initial_state(3)
    assert all(x >= 7 for x in s.secret_tiles) and sum(map(sum, s.action_tiles)) == 0
    o1 = s.observation(1)
    seat0_in_o1 = 113 * 36 + 18 + 26 * 1  # p0 is one seat after p1
    assert o1[seat0_in_o1 + 24] == 1.0  # secret tiles held
    # p1 sees "unknown" in its own secret-slot region only for itself; p0's tile is nowhere
    o1b = s.clone()
    o1b.secret_tiles[0] = 7 + ((s.secret_tiles[0] - 7 + 1) % 5)
    assert np.array_equal(o1, o1b.observation(1))
    game = GemMountainGame(start_tiles="action_secret", start_player_chooses_arrow=True)
    s = game.new_initial_state(3)
    assert s.phase == START and s.player == 0 and s.secret_tiles[0] == -1 and s.secret_tiles[1] >= 7
    assert [a - game.blocks.position for a in s.legal_actions()] == [0, 2, 4, 6]
    act(s, "position S")
    assert s.arrows == [4] and s.phase == PRE  # secret mode: the window is offered
