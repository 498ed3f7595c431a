"""Setup edge cases, the flow of a turn and the action words
(seeds/gem_mountain.md: Setup, A turn, Decisions, interpretations 12, 13, 23 and 25)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.decisions import NOTHING
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import NUM_GEMS, PLAIN, ActionKind
from tests.gem_mountain.helpers import M, act, cell, layout, legal_names, new

# the page's "Decisions": the blocks of the flat action space, in order, with their sizes
BLOCKS = [
    ("grab", M),  # a cell, named for the phase: a grab here
    ("section", 4),
    ("use", 16),
    ("arrow", 2),
    ("position", 8),
    ("clockwise", 1),
    ("counter-clockwise", 1),
    ("opponent", 4),
    ("gem", 7),
    ("done", 1),
    ("pass", 1),
]


def test_action_ids_come_in_the_blocks_of_the_page():
    s = new()
    names = [s.action_to_string(a) for a in range(s.game.num_actions)]
    assert s.game.num_actions == M + 45 == len(set(names))
    first = 0
    for word, size in BLOCKS:
        assert [name.split(" ")[0] for name in names[first : first + size]] == [word] * size, word
        first += size
    assert names[M] == "section NE" and names[M + 3] == "section NW"
    assert names[M + 4] == "use Gust" and names[M + 19] == "use Reserved"
    assert names[M + 20 : M + 22] == ["arrow 1", "arrow 2"]
    assert names[M + 22] == "position N" and names[M + 29] == "position NW"
    assert names[M + 32] == "opponent +1" and names[M + 35] == "opponent +4"
    assert names[M + 36] == "gem Diamond" and names[M + 42] == "gem Opal"
    assert s.action_to_string(s.game.num_actions) == f"invalid {M + 45}"


def test_a_map_drawn_without_gems_is_over_before_the_first_move():
    """Interpretation 25: everyone tied."""
    game = GemMountainGame(map_rows=2, map_cols=2)
    seed = next(
        seed for seed in range(500) if not any(tiles.HAS_GEM[d] for d in game.new_initial_state(seed).cells)
    )
    s = game.new_initial_state(seed)
    assert s.terminal and s.current_player == -1 and s.phase_name() == "OVER"
    assert list(s.returns()) == [0.0, 0.0]


def test_a_finished_game_is_in_no_phase():
    s = new(layout(None, c0_0="Ruby"))
    assert s.phase_name() == "GRAB"
    act(s, "grab (0,0)")
    assert s.terminal and s.phase_name() == "OVER" and s.current_player == -1


def test_start_tiles_missing_from_the_unused_pool_come_from_one_fresh_copy():
    """Setup 2: the copy is kept for the later seats, so it can run out."""
    lay = layout(c0_0="Gust", c0_1="Anchor")  # the whole pool is on the map
    s = new(lay, num_players=3, start_tiles="action")
    gust, anchor = ActionKind.GUST, ActionKind.ANCHOR
    held = sorted((s.action_tiles[p][gust], s.action_tiles[p][anchor]) for p in range(2))
    assert held == [(0, 1), (1, 0)]  # seats 0 and 1: the copy's two action tiles
    assert sum(s.action_tiles[2]) == 0 and sum(s.gems[2]) == 0  # seat 2: none left
    assert sum(s.gems[0]) == sum(s.gems[1]) == 0
    assert s.seen[tiles.action_content(gust)] == s.seen[tiles.action_content(anchor)] == 2  # public


def test_secret_start_tiles_are_not_collected_and_not_seen():
    s = new(layout(c0_0="Gust"), start_tiles="action_secret")
    gust = tiles.action_content(ActionKind.GUST)
    assert s.secret_tiles == [gust, -1]  # one Gust in the fresh copy: seat 1 gets nothing
    assert s.action_tiles[0][ActionKind.GUST] == 0 and s.seen[gust] == 1  # only the map's Gust


def test_the_start_player_who_chooses_the_corner_gets_no_start_tile():
    s = new(
        layout(c0_0="Gust", c0_1="Anchor"), arrows=None, start_tiles="any", start_player_chooses_arrow=True
    )
    assert s.phase_name() == "START" and sum(s.gems[0]) + sum(s.action_tiles[0]) == 0
    assert sum(s.gems[1]) + sum(s.action_tiles[1]) == 1


def test_a_secret_gem_is_no_action_tile_to_use():
    s = new(holdings=[{"secret": "Ruby"}, {}])
    assert s.phase_name() == "GRAB"  # nothing to use: the PRE window is skipped
    s = new(holdings=[{"secret": "Gust", "Anchor": 1}, {}])
    assert legal_names(s) == ["use Gust", "use Anchor", "done"]


def test_a_flip_follows_an_action_used_after_the_grab():
    """A turn, step 4: an action spent in POST makes the INFO step a public flip."""
    s = new(dark_tunnels=True, holdings=[{"Anchor": 1}, {}])
    act(s, "done")
    act(s, "grab (0,0)")
    act(s, "use Anchor")
    assert all(name.startswith("flip") for name in legal_names(s))
    act(s, "flip (5,5)")
    assert s.face_up[35] and s.peeks[35] == 0 and s.player == 1


def test_determinized_secret_start_tiles_keep_their_kind():
    """Interpretation 23: an opponent's secret action tile is redealt as an action tile."""
    game = GemMountainGame(dark_tunnels=True, start_tiles="action_secret", num_players=3)
    s = game.new_initial_state(2)
    rng = make_rng(2)
    dealt = {s.determinize(0, rng).secret_tiles[p] for _ in range(30) for p in (1, 2)}
    assert all(content >= tiles.NUM_GEMS for content in dealt) and len(dealt) > 1
    game = GemMountainGame(dark_tunnels=True, start_tiles="any_secret", num_players=3)
    s = game.new_initial_state(2)
    dealt = {s.determinize(0, rng).secret_tiles[p] for _ in range(30) for p in (1, 2)}
    assert any(content < tiles.NUM_GEMS for content in dealt)


def test_determinized_face_down_tiles_get_fresh_rotations():
    game = GemMountainGame(dark_tunnels=True)
    s = game.new_initial_state(3)
    rng = make_rng(3)
    turns = {s.determinize(0, rng).rotations[7] for _ in range(40)}
    assert turns == {0, 1, 2, 3}


def test_no_information_step_once_the_last_face_down_tile_is_flipped():
    """A turn, step 4: only while face-down tiles remain."""
    s = new(
        layout(None, c0_0="Topaz", c0_1="Ruby", c5_5="Ruby"), dark_tunnels=True, holdings=[{"Anchor": 1}, {}]
    )
    s.face_up[cell(0, 1)] = True
    s._recount()
    act(s, "use Anchor")
    act(s, "grab (0,0)")
    assert legal_names(s) == ["flip (5,5)"]
    act(s, "flip (5,5)")
    assert s.player == 1
    act(s, "grab (0,1)")  # the arrow stayed at N (Anchor)
    assert s.player == 0 and s.phase_name() == "GRAB"


def test_rank_rewards_lie_in_minus_one_to_one_and_score_differences_beyond():
    """Scoring and rewards: the declared range holds every result."""
    assert GemMountainGame().reward_range == (-1.0, 1.0)
    game = GemMountainGame(reward_mode="score_diff")
    everything = {name: count for name, count in tiles.POOLS["base"] if tiles.is_gem(tiles.content_of(name))}
    s = new(holdings=[everything, {}], reward_mode="score_diff")
    low, high = game.reward_range
    assert 1.0 < s.returns()[0] <= high and low <= s.returns()[1] < -1.0


def test_a_peek_may_repeat_once_every_face_down_tile_is_known():
    """Interpretation 9: the peek chooses among unseen tiles, unless all are seen."""
    s = new(layout(None, c0_0="Topaz", c0_1="Ruby", c5_5="Ruby"), dark_tunnels=True)
    s.peeks[cell(0, 1)] = s.peeks[cell(5, 5)] = 1
    s._recount()
    act(s, "grab (0,0)")
    assert legal_names(s) == ["peek (0,1)", "peek (5,5)"]


def test_public_scores_leave_secret_gems_out():
    s = new(holdings=[{"secret": "Diamond"}, {"Topaz": 1}])
    assert s.public_scores() == [0, 1] and s.scores() == [5, 1]


def test_a_seat_between_most_and_least_neither_gains_nor_loses():
    """Scoring: only the most and the fewest count."""
    s = new(num_players=4, holdings=[{"Ruby": 3}, {"Ruby": 2}, {"Ruby": 1}, {"Ruby": 2}])
    assert s.scores() == [12, 0, -4, 0]


def test_a_seat_counts_its_own_secret_gem_but_not_an_opponents():
    """Interpretation 12: a secret gem counts for its holder; a secret action is no gem."""
    diamond, ruby, topaz = (tiles.content_of(name) for name in ("Diamond", "Ruby", "Topaz"))
    s = new(holdings=[{"secret": "Diamond"}, {"secret": "Ruby", "Topaz": 1}])
    mine = s.gem_counts([0])
    assert mine[0][diamond] == 1 and mine[1][ruby] == 0 and mine[1][topaz] == 1
    assert s.gem_counts()[1][ruby] == 1
    assert new(holdings=[{"secret": "Gust"}, {}]).gem_counts() == [[0] * 7, [0] * 7]


def test_spending_a_secret_action_tile_shows_it_to_everyone():
    """Interpretation 12: a secret start tile is revealed when used."""
    anchor = tiles.action_content(ActionKind.ANCHOR)
    s = new(holdings=[{"secret": "Anchor"}, {}])
    seen = list(s.seen)
    act(s, "use Anchor")
    seen[anchor] += 1
    assert s.secret_tiles[0] == -1 and s.seen == seen


def test_a_public_copy_taken_this_window_is_kept_and_the_secret_one_spent():
    """Interpretation: a tile taken in a window cannot be spent in it, so with
    that copy and a secret one of the same kind, USE spends the secret one."""
    s = GemMountainGame(start_tiles="action_secret").new_initial_state(0)
    p, kind = s.player, s.secret_tiles[s.player] - NUM_GEMS
    s.action_tiles[p][kind] += 1
    s.taken_this_window[kind] += 1
    s._usable_cache = None
    s._recount()
    s.apply(s.game.blocks.use + kind)
    assert s.secret_tiles[p] == NOTHING and s.action_tiles[p][kind] == 1


def test_determinize_redeals_a_secret_tile_whatever_its_design():
    """Design 0 (a Diamond) is a secret like any other: another seat's sample
    deals a different one in some worlds."""
    game = GemMountainGame(start_tiles="any_secret", map_rows=4, map_cols=4)
    s = game.new_initial_state(0)
    s.secret_tiles[1] = 0
    worlds = {s.determinize(0, np.random.default_rng(k)).secret_tiles[1] for k in range(30)}
    assert len(worlds) > 1


def test_determinize_deals_any_action_design_as_a_secret_action_tile():
    """With action_secret, another seat's sampled secret is a plain action tile,
    and the first action design (a Gust) is among those dealt."""
    game = GemMountainGame(start_tiles="action_secret", map_rows=4, map_cols=4)
    first_action = next(d for d in range(len(PLAIN)) if PLAIN[d] and d >= NUM_GEMS)
    for seed in range(20):
        s = game.new_initial_state(seed)
        if first_action in s.hidden_tiles(0)[2]:
            break
    else:
        raise AssertionError("no seed puts a plain first action tile among seat 0's hidden tiles")
    worlds = [s.determinize(0, np.random.default_rng(k)).secret_tiles[1] for k in range(200)]
    assert all(PLAIN[d] and d >= NUM_GEMS for d in worlds)
    assert first_action in worlds


def test_determinized_counts_match_a_full_recount():
    """A redeal changes which face-down tiles hold gems, so the tiles-left
    count (it drives the end of the game and the estimate) must follow it."""
    game = GemMountainGame(dark_tunnels=True)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(12):
        s = game.new_initial_state(seed)
        while not s.done:
            for viewer in range(game.num_players):
                sample = s.determinize(viewer, rng)
                counts = (sample.gem_tiles_left, sample.face_down_left, sample.layer_counts)
                sample._recount()
                assert counts == (sample.gem_tiles_left, sample.face_down_left, sample.layer_counts)
                checked += sample.face_down_left > 0
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(legal.size)]))
    assert checked > 100
