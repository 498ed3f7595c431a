"""A seat's position estimate (rules page, interpretation 23): the
whole-state estimate in expectation over what the seat has not seen."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from meeplezoo.envs.core.ranking import soft_rank_rewards
from meeplezoo.envs.gem_mountain.estimate import SPREAD_AT_END, SPREAD_PER_CELL
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.tiles import HAS_GEM, NUM_GEMS, PLAIN, content_of
from tests.conformance.play import random_action
from tests.gem_mountain.helpers import act


def _secret_game(start_tiles="any_secret", reward_mode="rank"):
    """Three seats on a random 4 x 5 map (13 tiles of the pool stay
    unused), every tile face up; each seat holds public gems and a secret
    start tile."""
    holdings = [
        {"Ruby": 1, "secret": "Ruby"},
        {"Diamond": 1, "secret": "Onyx"},
        {"Topaz": 2, "secret": "Emerald"},
    ]
    if start_tiles == "action_secret":
        holdings = [{**seat, "secret": "Anchor"} for seat in holdings]
    game = GemMountainGame(
        num_players=3,
        map_rows=4,
        map_cols=5,
        start_tiles=start_tiles,
        holdings_override=holdings,
        reward_mode=reward_mode,
    )
    return game.new_initial_state(4)


def _reference(state, viewer, fits=PLAIN.__getitem__):
    """The seat's estimate as the rules page puts it. Every ordered deal of
    the other seats' secrets from the fitting tiles the seat has not seen
    (face-down tiles it did not peek at, the unused pool, those secrets) is
    equally likely; each is scored by the whole-state estimate, the spread
    counting the gem tiles the seat sees on the map plus, per face-down tile
    it has not seen, the share of gem tiles among the unseen tiles the deal
    leaves."""
    n = state.game.num_players
    others = [p for p in range(n) if p != viewer and state.secret_tiles[p] >= 0]
    hidden = [i for i in state.face_down_cells() if not state.peeks[i] >> viewer & 1]
    unseen = [state.cells[i] for i in hidden] + list(state.unused) + [state.secret_tiles[p] for p in others]
    seen_gems = sum(1 for i, d in enumerate(state.cells) if d >= 0 and HAS_GEM[d] and i not in hidden)
    world = state.clone()
    total, deals = np.zeros(n), 0
    for deal in permutations([k for k, d in enumerate(unseen) if fits(d)], len(others)):
        for p, k in zip(others, deal):
            world.secret_tiles[p] = unseen[k]
        left = [d for k, d in enumerate(unseen) if k not in deal]
        gem_tiles = seen_gems + len(hidden) * sum(HAS_GEM[d] for d in left) / len(left)
        if state.game.config["reward_mode"] == "rank":
            total += soft_rank_rewards(world.scores(), SPREAD_AT_END + SPREAD_PER_CELL * gem_tiles)
        else:
            total += world.returns()  # the score differences of the holdings as they are
        deals += 1
    return total / deals


def test_23_a_seat_expects_the_other_secret_tiles_from_the_tiles_it_has_not_seen():
    s = _secret_game()
    for viewer in range(3):
        expected = _reference(s, viewer)
        assert s.evaluate(viewer=viewer) == pytest.approx(expected, abs=1e-12)
    # its own secret it knows: another own secret changes its estimate
    own = s.evaluate(viewer=0)
    s.secret_tiles[0] = content_of("Diamond")
    assert s.evaluate(viewer=0)[0] != pytest.approx(own[0])


def test_23_secret_action_tiles_score_nothing_and_are_expected_as_such():
    s = _secret_game("action_secret")
    expected = _reference(s, 0, lambda d: PLAIN[d] and d >= NUM_GEMS)
    assert s.evaluate(viewer=0) == pytest.approx(expected, abs=1e-12)
    assert s.evaluate(viewer=0) == pytest.approx(s.evaluate(), abs=1e-12)  # no secret holds a gem


def test_23_score_differences_are_expected_over_the_secret_tiles_too():
    s = _secret_game(reward_mode="score_diff")
    expected = _reference(s, 1)
    assert s.evaluate(viewer=1) == pytest.approx(expected, abs=1e-12)
    assert abs(s.evaluate(viewer=1).sum()) < 1e-9


def _dark_tunnels_position(**cfg):
    """Twelve random decisions into a Dark Tunnels game: face-up, peeked and
    unseen tiles on the map."""
    game = GemMountainGame(dark_tunnels=True, **cfg)
    s = game.new_initial_state(1)
    rng = np.random.default_rng(1)
    for _ in range(12):
        s.apply(random_action(s.legal_action_mask(), rng))
    assert not s.done and {s.peeks[i] for i in s.face_down_cells()} >= {1, 2}, "each seat peeked at a tile"
    return s


def test_23_a_face_down_tile_carries_a_gem_at_the_share_of_gem_tiles_left_unseen():
    """No secrets: the spread counts the gem tiles the seat sees, plus for
    each face-down tile it has not seen the share of gem tiles among all the
    tiles it has not seen (those cells and the unused pool)."""
    s = _dark_tunnels_position(num_players=2, holdings_override=[{"Ruby": 2}, {"Topaz": 1}])
    for viewer in range(2):
        down = s.face_down_cells()
        unseen_cells = [i for i in down if not s.peeks[i] & (1 << viewer)]
        unseen = [s.cells[i] for i in unseen_cells] + list(s.unused)
        share = sum(HAS_GEM[d] for d in unseen) / len(unseen)
        seen = sum(1 for i, d in enumerate(s.cells) if d >= 0 and HAS_GEM[d] and i not in unseen_cells)
        spread = SPREAD_AT_END + SPREAD_PER_CELL * (seen + share * len(unseen_cells))
        assert s.evaluate(viewer=viewer) == pytest.approx(soft_rank_rewards(s.scores(), spread), abs=1e-12)
    assert s.evaluate(viewer=0)[0] != s.evaluate(viewer=1)[0]  # each reads the tiles it peeked at


def test_23_the_face_down_tiles_are_expected_from_what_the_secret_tiles_leave():
    holdings = [{"Ruby": 1, "secret": "Sapphire"}, {"secret": "Onyx"}, {"Topaz": 1, "secret": "Anchor"}]
    s = _dark_tunnels_position(num_players=3, start_tiles="any_secret", holdings_override=holdings)
    for viewer in range(3):
        assert s.evaluate(viewer=viewer) == pytest.approx(_reference(s, viewer), abs=1e-12)


def test_23_with_nothing_hidden_every_seat_gets_the_whole_state_estimate():
    game = GemMountainGame(num_players=3, start_tiles="action")
    s = game.new_initial_state(2)
    act(s, s.action_to_string(int(s.legal_actions()[0])))
    for viewer in range(3):
        assert s.evaluate(viewer=viewer).tolist() == s.evaluate().tolist()


def test_23_a_bad_viewer_is_named():
    s = _secret_game()
    with pytest.raises(ValueError, match="viewer 3"):
        s.evaluate(viewer=3)
    with pytest.raises(TypeError, match="'me'"):
        s.evaluate(viewer="me")
