"""Random-play invariants: pieces are conserved, groups stay within the
limit, no attacker crosses an enemy wall, masks are never empty, games end,
and the rules are symmetric under the 180-degree turn that swaps the seats."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.amethyst_amber.actions import ActionBlock
from meeplezoo.envs.amethyst_amber.observe import encode_reference
from tests.amethyst_amber.helpers import game

FAST_GAMES = 120


def check_invariants(s) -> None:
    g = s.game
    geo = g.board.geo
    assert s.defender_bits[0] & s.defender_bits[1] == 0
    held = [0, 0]
    for h in s.resource_hexes:
        if s.resource_at[h] in (0, 1):
            held[1 - s.resource_at[h]] += s.prisoners_under[h]
            assert 0 <= s.prisoners_under[h] <= g.resource_capacity
            assert h in g.board.green
        assert s.attacker_at[h] < 0
    for p in (0, 1):
        assert s.defender_bits[p].bit_count() + s.unplaced[p] == g.defenders_per_player
        assert s.defender_bits[p] & ~g.board.black_bits == 0
        assert len(s.attacker_hexes[p]) + s.reserve[p] + held[p] == g.attackers_per_player
        assert sorted(s.attacker_hexes[p]) == [h for h in range(61) if s.attacker_at[h] == p]
        pieces = (s.defender_bits[0] | s.defender_bits[1]) if g.group_both_colours else s.defender_bits[p]
        for t in geo.bits_to_tris(s.defender_bits[p]):
            assert geo.component(geo.bit_tri[t], pieces).bit_count() <= g.group_limit
    assert len(s.resource_hexes) + s.hand[0] + s.hand[1] == 6
    assert s.placed == [sum(1 for h in s.resource_hexes if s.resource_at[h] == p) for p in (0, 1)]
    # the bitboard copies of attackers and resources match the hex lists
    bh = geo.bit_hex
    assert s.attacker_bits == [sum(bh[h] for h in s.attacker_hexes[p]) for p in (0, 1)]
    assert s.resource_bits == [
        sum(bh[h] for h in s.resource_hexes if s.resource_at[h] == c) for c in (0, 1, 2)
    ]


def play(g, seed: int, check_every: int = 1) -> int:
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    rot = g.board.rot_action
    while not s.done:
        mask = s.legal_action_mask()
        legal = np.flatnonzero(mask)
        assert legal.size > 0
        a = int(legal[rng.integers(legal.size)])
        absolute = rot[a] if s.frame_of(s.acting_seat) else a
        if ActionBlock.STEP <= absolute < ActionBlock.END_DEFENDER_MOVES:
            h, d = divmod(absolute - ActionBlock.STEP, 6)
            gate = g.board.steps[h]
            bits = next(b for dd, n, b in gate if dd == d)
            assert s.defender_bits[1 - s.acting_seat] & bits != bits, "attacker crossed an enemy wall"
        s.apply(a)
        steps += 1
        if steps % check_every == 0:
            check_invariants(s)
        assert steps < 200 * g.max_main_turns + 1000
    check_invariants(s)
    assert s.main_turns <= g.max_main_turns
    return steps


@pytest.mark.parametrize("config", [{}, {"group_limit_scope": "all", "green_scope": "own_half"}])
def test_random_play_invariants(config):
    g = game(**config)
    for seed in range(FAST_GAMES):
        play(g, seed, check_every=7)


@pytest.mark.slow
@pytest.mark.parametrize("config", [{}, {"group_limit_scope": "all"}, {"max_main_turns": 1000}])
def test_random_play_invariants_many(config):
    g = game(**config)
    for seed in range(2000):
        play(g, 10_000 + seed)


def mirror_dict(d: dict) -> dict:
    """The same position turned 180 degrees with the seats swapped."""
    out = dict(d)
    del out["config_digest"]  # the mirror is loaded into a game of another config (the other seat first)
    out["current"] = 1 - d["current"]
    out["defenders"] = [[18 - x, 18 - y, 1 - p] for x, y, p in d["defenders"]]
    out["attackers"] = [[-q, -r, 1 - p] for q, r, p in d["attackers"]]
    out["resources"] = [[-q, -r, None if o is None else 1 - o, u] for q, r, o, u in d["resources"]]
    out["selected"] = None if d["selected"] is None else [18 - d["selected"][0], 18 - d["selected"][1]]
    out["moved"] = [[18 - x, 18 - y] for x, y in d["moved"]]
    for key in ("reserve_attackers", "unplaced_defenders", "hand"):
        out[key] = d[key][::-1]
    if d["winner"] is not None:
        out["winner"] = 1 - d["winner"]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_rules_symmetric_under_half_turn(seed):
    """Playing a game and its mirror image side by side: every mask and every
    observation of the mirrored seat agree, step by step."""
    g = game()
    g2 = game(main_first="amethyst")
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(16, 60))):
        s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
    m = g2.state_from_dict(mirror_dict(s.to_dict()))
    for _ in range(400):
        if s.done:
            break
        assert np.array_equal(s.legal_action_mask(), m.legal_action_mask())
        for p in (0, 1):
            a, b = s.observation(p), m.observation(1 - p)
            diff = np.flatnonzero(a != b)
            assert set(diff.tolist()) <= {20 * 361 + 16}
        act = int(rng.choice(np.flatnonzero(s.legal_action_mask())))
        s.apply(act)
        m.apply(act)
    assert s.done == m.done
    assert list(s.returns()) == list(m.returns())[::-1]


@pytest.mark.parametrize("config", [{}, {"relative_frame": False, "resource_capacity": 1}])
def test_observation_matches_reference_encoder(config):
    """The bit-plane encoder equals the cell-by-cell reference for both
    observers at every step of random games (prisoners included)."""
    g = game(**config)
    rng = np.random.default_rng(3)
    prisoners = 0
    for seed in range(4):
        s = g.new_initial_state(seed)
        while not s.done:
            for p in (0, 1):
                obs = s.observation(p)
                assert obs.dtype == np.int8 and obs.shape == g.observation_shape
                assert np.array_equal(obs, encode_reference(s, p))
            prisoners += any(s.prisoners_under)
            s.apply(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
    assert prisoners > 0
