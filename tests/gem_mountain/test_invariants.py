"""Random-play invariants over every module and variant."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.rng import make_rng
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.observe import encode
from meeplezoo.envs.gem_mountain.rules import GemMountainGame

CONFIGS = (
    [{}]
    + GemMountainGame.test_configs
    + [
        {"second_arrow": True, "start_tiles": "action"},
        {"dark_tunnels": True, "start_tiles": "action_secret", "map_rows": 5, "map_cols": 5},
    ]
)


def _play(game, seed, check_obs=False):
    s = game.new_initial_state(seed)
    rng = make_rng(seed)
    M = game.num_cells
    steps = 0
    while not s.done:
        mask = s.legal_action_mask()
        assert mask.any()
        taken = sum(1 for d in s.cells if d < 0)
        legal = np.flatnonzero(mask)
        s.apply(int(legal[rng.integers(len(legal))]))
        steps += 1
        assert sum(1 for d in s.cells if d < 0) >= taken  # tiles never come back
        assert s.gem_tiles_left == sum(1 for d in s.cells if d >= 0 and tiles.HAS_GEM[d])
        assert all(x >= 0 for row in s.gems for x in row) and all(
            x >= 0 for row in s.action_tiles for x in row
        )
        if check_obs:
            for p in range(game.num_players):
                o = s.observation(p)
                assert np.array_equal(o, encode(s, p))
                assert o.dtype == np.int8 and o.min() >= -127 and o.max() <= 127
    assert s.terminal and not s.truncated and s.turn <= M
    assert not any(tiles.HAS_GEM[d] for d in s.cells if d >= 0)
    r = s.returns()
    assert abs(r.sum()) < 1e-9 and r.min() >= game.reward_range[0] and r.max() <= game.reward_range[1]
    return steps


@pytest.mark.parametrize(
    "cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_random_games_end_cleanly(cfg):
    game = GemMountainGame(**cfg)
    for seed in range(40):
        _play(game, seed, check_obs=seed < 4)


@pytest.mark.slow
@pytest.mark.parametrize(
    "cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_random_games_many(cfg):
    game = GemMountainGame(**cfg)
    for seed in range(1000):
        _play(game, seed, check_obs=seed % 50 == 0)


@pytest.mark.parametrize("cfg", [CONFIGS[1], CONFIGS[3]])
def test_determinize_keeps_the_view(cfg):
    game = GemMountainGame(**cfg)
    rng = make_rng(0)
    for seed in range(6):
        s = game.new_initial_state(seed)
        while not s.done:
            for p in range(game.num_players):
                d = s.determinize(p, rng)
                assert np.array_equal(d.observation(p), s.observation(p))

                def bag(x):
                    return sorted(x.cells + x.unused + [v for v in x.secret_tiles if v >= 0])

                assert bag(d) == bag(s)  # the same tiles, only moved around
                assert d.secret_tiles[p] == s.secret_tiles[p]
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))


def test_determinize_resamples_hidden_tiles():
    game = GemMountainGame(dark_tunnels=True)
    s = game.new_initial_state(1)
    rng = make_rng(1)
    assert any(s.determinize(0, rng).cells != s.cells for _ in range(5))
    s.peeks[7] = 1
    s._recount()
    assert all(s.determinize(0, rng).cells[7] == s.cells[7] for _ in range(5))


def test_determinize_ignores_where_hidden_tiles_really_are():
    """Two positions that differ only in what seat 0 cannot know resample alike:
    hidden face-down tiles swapped (with other rotations), an opponent's peek at
    a different tile, an opponent's secret start tile traded with a hidden one,
    the unused pool in another order."""
    game = GemMountainGame(dark_tunnels=True, gemshards=True, start_tiles="any_secret", num_players=3)
    a = game.new_initial_state(4)
    b = a.clone()
    down = [i for i, d in enumerate(b.cells) if d >= 0 and not b.face_up[i]]
    i, j = next((x, y) for x in down for y in down if b.cells[x] != b.cells[y])
    b.cells[i], b.cells[j] = b.cells[j], b.cells[i]
    b.rotations[i] = (b.rotations[i] + 1) % 4
    a.peeks[i] = b.peeks[i] = 1 << 1  # seat 1 looked at cell i: in a and b it saw different tiles
    k = next(k for k in down if tiles.PLAIN[b.cells[k]] and b.cells[k] != b.secret_tiles[2])
    b.secret_tiles[2], b.cells[k] = b.cells[k], b.secret_tiles[2]
    b.unused = b.unused[::-1]
    a._recount()
    b._recount()
    assert a.to_dict() != b.to_dict()
    assert np.array_equal(a.observation(0), b.observation(0))
    for seed in range(3):
        da = a.determinize(0, make_rng(seed)).to_dict()
        db = b.determinize(0, make_rng(seed)).to_dict()
        da.pop("rng")
        db.pop("rng")
        assert da == db
    # seat 1 knows cell i: its determinizations keep what it saw there
    assert a.determinize(1, make_rng(0)).cells[i] == a.cells[i]


def test_clone_is_independent():
    game = GemMountainGame(**CONFIGS[1])
    s = game.new_initial_state(2)
    before = s.to_dict()
    c = s.clone()
    while not c.done:
        c.apply(int(c.legal_actions()[-1]))
    assert s.to_dict() == before


@pytest.mark.parametrize(
    "cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
def test_incremental_observation_matches_scratch_after_gaps(cfg):
    """Seats observe at random moments (as in an AEC loop, where only the mover
    looks), so the cached view must catch up over several steps at once."""
    game = GemMountainGame(**cfg)
    rng = make_rng(7)
    for seed in range(6):
        s = game.new_initial_state(seed)
        while not s.done:
            p = int(rng.integers(game.num_players))
            if rng.random() < 0.4:
                o = s.observation(p)
                assert o.shape == game.observation_shape and o.dtype == np.int8
                assert np.array_equal(o, encode(s, p))
                o[:] = 0  # the caller owns the returned array
                assert np.array_equal(s.observation(p), encode(s, p))
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        for p in range(game.num_players):
            assert np.array_equal(s.observation(p), encode(s, p))


def test_observation_planes_layout():
    game = GemMountainGame()
    s = game.new_initial_state(0)
    o = s.observation(0)
    M = game.num_cells
    planes = o[: 113 * M].reshape(113, 6, 6)
    assert o.shape == (113 * 36 + 239,)
    assert planes[0].all() and planes[1].all() and planes[2].all()  # full map, face up, known
    assert planes[3:99].sum() == 4 * M  # one content per section
    top = set(s.available())
    assert {int(i) for i in np.flatnonzero(planes[110])} == top
    gl = o[113 * M :]
    assert gl[0] == 1 and gl[1 + s.arrows[0]] == 1  # arrow 1 present, at its position
    assert gl[230:234].sum() == 0 and gl[234] == 1  # no modules, per_window
    assert gl[237] == 0 and gl[238] == 127  # turn 0, 144 turns left capped


def test_pickled_state_keeps_observing_correctly():
    import pickle

    game = GemMountainGame(dark_tunnels=True, gemshards=True)
    s = game.new_initial_state(3)
    rng = make_rng(3)
    for _ in range(5):
        s.observation(0), s.observation(1)
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    t = pickle.loads(pickle.dumps(s))
    while not t.done:
        for p in range(2):
            assert np.array_equal(t.observation(p), encode(t, p))
        legal = t.legal_actions()
        t.apply(int(legal[rng.integers(len(legal))]))
