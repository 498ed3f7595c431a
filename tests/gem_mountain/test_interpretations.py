"""One test per interpretation in seeds/gem_mountain.md (numbers in the names)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.rules import GRAB, INFO, POST, PRE, SECTION, SUB_STEP, GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import ActionKind
from tests.gem_mountain.helpers import (
    C,
    M,
    act,
    cell,
    layout,
    legal_cells,
    legal_names,
    new,
    remove,
)

TOPAZ = tiles.content_of("Topaz")


def test_01_base_pool_fills_6x6_exactly():
    s = GemMountainGame().new_initial_state(5)
    counts = {}
    for d in s.cells:
        counts[tiles.DESIGN_NAMES[d]] = counts.get(tiles.DESIGN_NAMES[d], 0) + 1
    assert counts == {name: k for name, k in tiles.POOLS["base"]} and s.unused == []


def test_02_quarter_turn_keeps_parity():
    s = new(arrows=(1,))
    s.apply(s.legal_actions()[0])
    assert s.arrows == [3]


def test_05_grab_is_compulsory():
    s = new(holdings=[{"Gust": 1}, {}])
    act(s, "done")
    assert s.phase == GRAB and "done" not in legal_names(s)


def test_07_all_tied_nets_zero_and_zero_costs_nothing():
    s = new(num_players=3, holdings=[{"Ruby": 1}, {"Ruby": 1}, {"Ruby": 1}])
    assert s.scores() == [0, 0, 0]
    s = new(holdings=[{"Ruby": 1}, {}])
    assert s.scores() == [4, 0]
    assert list(s.returns()) == [1.0, -1.0]
    s = new(holdings=[{"Ruby": 1}, {"Ruby": 1}])
    assert list(s.returns()) == [0.0, 0.0]


def test_08_avalanche_can_end_the_game():
    lay = layout(None, c0_0="Ruby", c1_1="Gust")
    s = new(lay, holdings=[{"Avalanche": 1}, {}], golden_actions=True)
    act(s, "use Avalanche")
    assert s.terminal and s.gems[0] == [0] * 7


def test_09_peek_prefers_unseen_tiles_and_info_is_asked_with_one_choice():
    lay = layout(None, c0_0="Topaz", c0_1="Ruby", c1_0="Diamond")
    s = new(lay, dark_tunnels=True)
    act(s, "grab (0,0)")
    assert s.phase == INFO
    act(s, "peek (0,1)")
    s.apply(s.legal_actions()[0])  # p1 grabs from the top (E arrow now)
    assert s.phase == INFO or s.player == 0


def test_09_peek_mask_excludes_known_tiles():
    lay = layout(None, c0_0="Topaz", c0_1="Ruby", c1_0="Diamond", c5_5="Emerald")
    s = new(lay, dark_tunnels=True)
    s.peeks[cell(0, 1)] = 1
    s._recount()
    act(s, "grab (0,0)")
    assert legal_cells(s) == {(1, 0), (5, 5)}


def test_10_tile_in_both_tops_uses_both_arrows_sections():
    lay = layout(None, c0_0="Opal/Topaz", c0_3="Gust")
    # arrows NE (section NE: Opal) and SW (section SW: Topaz) both have (0,0) on top
    s = new(lay, arrows=(1, 5), second_arrow=True)
    act(s, "grab (0,0)")
    assert s.phase == SECTION
    assert legal_names(s) == ["section NE Opal", "section SW Topaz"]


def test_11_tunnel_uses_the_second_layer_sections():
    lay = layout("Topaz", c0_1="Opal/Topaz")
    s = new(lay, arrows=(1,), holdings=[{"Tunnel": 1}, {}])  # NE: second layer is row 1
    act(s, "use Tunnel")
    assert legal_cells(s) == {(1, c) for c in range(6)}
    s = new(lay, arrows=(7,), holdings=[{"Tunnel": 1}, {}])  # NW: second layer is column 1
    act(s, "use Tunnel")
    act(s, "tunnel (0,1)")
    assert s.gems[0][TOPAZ] == 1  # NW section of Opal/Topaz at rotation 0


def test_12_start_tiles_public_any_and_map_unchanged():
    a = GemMountainGame().new_initial_state(9)
    b = GemMountainGame(start_tiles="any").new_initial_state(9)
    assert a.cells == b.cells and a.rotations == b.rotations
    assert all(sum(b.gems[p]) + sum(b.action_tiles[p]) == 1 for p in range(2))
    c = GemMountainGame(start_tiles="action").new_initial_state(9)
    assert all(sum(c.action_tiles[p]) == 1 and sum(c.gems[p]) == 0 for p in range(2))


def test_12_thief_never_takes_secret_tiles():
    s = new(holdings=[{"Thief": 1}, {"secret": "Ruby"}], golden_actions=True)
    assert "use Thief" not in legal_names(s)


def test_12_secret_gem_counts_at_scoring():
    s = new(holdings=[{"secret": "Diamond"}, {}])
    assert s.scores() == [5, 0]


def test_13_secret_mode_offers_done_only_windows():
    s = new(start_tiles="action_secret", holdings=[{}, {}])
    assert s.phase == PRE and legal_names(s) == ["done"]
    act(s, "done")
    act(s, "grab (0,0)")
    assert s.phase == POST


def test_14_tile_taken_in_window_not_usable_there():
    lay = layout("Topaz", c0_1="Gust", c1_0="Gust")
    s = new(lay, holdings=[{"Pickaxe": 1}, {}], action_limit="unlimited")
    act(s, "done")
    act(s, "grab (0,0)")
    act(s, "use Pickaxe")
    act(s, "grab (0,1)")
    # back in the (unlimited) POST window, the Gust just taken is not usable: window skipped
    assert s.player == 1 and s.action_tiles[0][ActionKind.GUST] == 1


def test_14_main_grab_tile_usable_in_post():
    lay = layout("Topaz", c0_0="Gust")
    s = new(lay)
    act(s, "grab (0,0)")
    assert s.phase == POST and "use Gust" in legal_names(s)


def test_15_public_copy_spent_before_secret():
    s = new(holdings=[{"Gust": 1, "secret": "Gust"}, {}], action_limit="unlimited")
    act(s, "use Gust")
    act(s, "clockwise")
    assert s.action_tiles[0][ActionKind.GUST] == 0 and s.secret_tiles[0] == 7 + ActionKind.GUST
    act(s, "use Gust")
    act(s, "clockwise")
    assert s.secret_tiles[0] == -1


def test_16_prism_only_in_pre_and_once():
    s = new(holdings=[{"Prism": 2}, {}], action_limit="unlimited")
    act(s, "use Prism")
    assert "use Prism" not in legal_names(s)
    s = new(holdings=[{"Prism": 1, "Gust": 1}, {}])
    act(s, "done")
    act(s, "grab (0,0)")
    assert s.phase == POST and "use Prism" not in legal_names(s)


def test_16_anchor_once_a_turn():
    s = new(holdings=[{"Anchor": 2}, {}])
    act(s, "use Anchor")
    act(s, "grab (0,0)")
    assert s.player == 1  # POST skipped: the second Anchor is not legal


def test_17_flare_and_earthquake():
    lay = layout("Topaz", c0_0="Diamond")
    s = new(
        lay,
        dark_tunnels=True,
        holdings=[{"Flare": 1, "Earthquake": 1}, {}],
        golden_actions=True,
        action_limit="unlimited",
    )
    act(s, "use Flare")
    assert s.face_up[0] and s.seen[tiles.content_of("Diamond")] == 1
    s.peeks[5] = 1
    before = sorted(d for d in s.cells if d >= 0)
    act(s, "use Earthquake")
    assert sorted(d for d in s.cells if d >= 0) == before
    assert sum(s.peeks) == 0 and sum(s.face_up) == 1


def test_17_twister_and_greed():
    s = new(
        arrows=(0,), holdings=[{"Twister": 1, "Greed": 1}, {}], golden_actions=True, action_limit="unlimited"
    )
    act(s, "use Twister")
    assert s.arrows == [4]
    act(s, "use Greed")
    act(s, "grab (5,5)")
    assert s.phase == GRAB
    act(s, "grab (4,5)")
    assert s.gems[0][TOPAZ] == 2


def test_17_lantern_peeks_up_to_two():
    s = new(dark_tunnels=True, holdings=[{"Lantern": 1}, {}])
    act(s, "use Lantern")
    act(s, "lantern (3,3)")
    assert s.phase == SUB_STEP and "done" in legal_names(s)
    act(s, "done")
    assert s.peeks[cell(3, 3)] == 1 and s.phase == GRAB


def test_19_turn_stone_rotates_any_tile():
    lay = layout("Topaz", c0_0="Opal/Topaz")
    s = new(lay, holdings=[{"Turn Stone": 1}, {}], gemshards=True)
    act(s, "use Turn Stone")
    act(s, "turn (0,0)")
    act(s, "clockwise")
    assert s.rotations[0] == 1
    # rotation 1: NE=Topaz, SE=Opal, SW=Opal, NW=Topaz; arrow N points NW and NE: both Topaz
    act(s, "grab (0,0)")
    assert s.gems[0][TOPAZ] == 1 and s.player == 1


def test_20_truncation_scores_current_holdings():
    s = new(max_turns=1, holdings=[{"Ruby": 1}, {}])
    s.apply(s.legal_actions()[0])
    assert s.truncated and not s.terminal and s.current_player == -1
    assert list(s.returns()) == [1.0, -1.0]


def test_23_position_estimate_trusts_a_late_lead_more():
    early = new(holdings=[{"Ruby": 2}, {"Topaz": 1}])
    assert early.scores()[0] > early.scores()[1]
    value = early.evaluate()
    assert value.sum() == pytest.approx(0) and 0 < value[0] < early.returns()[0]
    late = new(holdings=[{"Ruby": 2}, {"Topaz": 1}])
    remove(late, *[divmod(i, C) for i in range(M - 3)])  # three gem tiles left
    assert value[0] < late.evaluate()[0] < 1.0
    # over, the estimate is the result; with score differences it is the score difference
    done = new(max_turns=1, holdings=[{"Ruby": 1}, {}])
    done.apply(done.legal_actions()[0])
    assert done.evaluate().tolist() == done.returns().tolist()
    diff = new(reward_mode="score_diff", holdings=[{"Ruby": 2}, {}])
    assert diff.evaluate().tolist() == diff.returns().tolist()


def test_25_bad_config_values_are_named():
    for key, value in (
        ("map_rows", 1),
        ("start_tiles", "all"),
        ("action_limit", "never"),
        ("dark_tunnels", "yes"),
        ("reward_mode", "x"),
        ("max_turns", 0),
    ):
        with pytest.raises(ValueError, match=key):
            GemMountainGame(**{key: value})


def test_score_diff_rewards_sum_to_zero():
    s = new(num_players=3, reward_mode="score_diff", holdings=[{"Ruby": 2}, {"Ruby": 1}, {}])
    r = s.returns()
    assert abs(r.sum()) < 1e-12 and r[0] > 0


def test_illegal_action_changes_nothing():
    s = new(holdings=[{"Gust": 1}, {}])
    before = json.dumps(s.to_dict(), sort_keys=True)
    with pytest.raises(ValueError):
        s.apply(s.game.blocks.pass_turn)
    with pytest.raises(ValueError):
        s.apply(cell(3, 3))
    assert json.dumps(s.to_dict(), sort_keys=True) == before


def test_dict_round_trip_and_words():
    g = GemMountainGame(
        dark_tunnels=True,
        gemshards=True,
        golden_actions=True,
        second_arrow=True,
        map_rows=8,
        map_cols=8,
        start_tiles="any_secret",
    )
    s = g.new_initial_state(4)
    rng = make_rng(4)
    for _ in range(40):
        if s.done:
            break
        t = g.state_from_dict(json.loads(json.dumps(s.to_dict())))
        assert t.to_dict() == s.to_dict()
        for p in range(2):
            assert np.array_equal(t.observation(p), s.observation(p))
        for a in s.legal_actions():
            assert s.string_to_action(s.action_to_string(a)) == a
        legal = s.legal_actions()
        a = int(legal[rng.integers(len(legal))])
        s.apply(a)
        t.apply(a)
        assert t.to_dict() == s.to_dict()


def test_grab_actions_name_their_cells_for_policies():
    """``action_cells`` says grab action i is about cell i, and that cell is
    marked grabbable in the observation whenever the grab is legal."""
    s = new()
    game = s.game
    assert game.action_cells[:M].tolist() == list(range(M)) and (game.action_cells[M:] == -1).all()
    obs = s.observation(s.current_player)
    grabbable = obs[: game.observation_planes[0] * M].reshape(-1, M)[110]
    for a in s.legal_actions():
        if game.action_cells[a] >= 0:
            assert grabbable[game.action_cells[a]] == 1
