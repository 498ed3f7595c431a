"""The action-tile table: one record per tile, read by the mask, apply and the names."""

from __future__ import annotations

from pathlib import Path

from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.action_tiles import ACTION_TILES
from meeplezoo.envs.gem_mountain.tiles import ActionKind
from tests.gem_mountain.helpers import act, legal_names, new

PAGE = Path(__file__).resolve().parents[2] / "seeds" / "gem_mountain.md"


def test_one_record_per_action_kind_in_use_block_order():
    assert [tile.kind for tile in ACTION_TILES] == list(ActionKind)
    assert [tile.name for tile in ACTION_TILES] == list(tiles.ACTION_NAMES)
    game = new().game
    for tile in ACTION_TILES:
        assert new().action_to_string(game.blocks.use + tile.kind) == f"use {tile.name}"


def test_each_effect_is_the_rules_page_row_of_its_tile():
    rows = {
        line.split("|")[1].strip(): line.split("|")[2].strip()
        for line in PAGE.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and line.count("|") == 3
    }
    for tile in ACTION_TILES[: ActionKind.RESERVED]:
        assert tile.effect in rows[tile.name], tile.name


def test_a_condition_false_keeps_the_tile_out_of_the_window():
    # Anchor once a turn: after using it, the POST window does not offer it again
    s = new(holdings=[{"Anchor": 2}, {}])
    assert "use Anchor" in legal_names(s)
    act(s, "use Anchor")
    act(s, "grab (0,0)")
    assert s.player == 1 and s.arrows == [0]  # no POST window offered; the arrow stayed
    # Gift needs a public gem of one's own
    assert "use Gift" not in legal_names(new(holdings=[{"Gift": 1, "Anchor": 1}, {}], golden_actions=True))
    assert "use Gift" in legal_names(new(holdings=[{"Gift": 1, "Ruby": 1}, {}], golden_actions=True))


def test_reserved_kind_is_never_usable():
    s = new(holdings=[{"Reserved": 1, "Gust": 1}, {}])
    assert "use Reserved" not in legal_names(s) and "use Gust" in legal_names(s)
