"""Random-play invariants: gold and cards conserved, AP never negative,
incapacitated units never act, one sack per carrier, one unit per cell,
no adjacent enemies at rest, masks never empty, every game ends."""

from __future__ import annotations

import numpy as np
import pytest

from tests.gold_rush_gangs.helpers import game

ACTIVE, INCAP = 1, 2


def check(s, g):
    geo = g.geo
    if s.phase == 2:
        lying = sum(sum(v) for v in s.sacks.values())
        carried = sum(1 for c in s.ucarry if c >= 0)
        assert lying + carried + sum(s.delivered) == 21 + 3 + g.config["bank_sacks"]
        per_origin = [sum(v[o] for v in s.sacks.values()) + s.ucarry.count(o) for o in range(5)]
        assert per_origin[3] <= 3 and per_origin[4] <= g.config["bank_sacks"]
        assert all(x <= 7 for x in per_origin[:3])
        assert s.ap >= 0
    if not g.iid:
        assert sorted(s.deck.draw_pile + s.deck.discard) == list(range(52))
    assert all(-1 <= c <= 4 for c in s.ucarry)
    seen = {}
    for u in range(9):
        if s.ustate[u] == INCAP:
            assert s.ucell[u] == geo.homes[u // 3] and s.ucarry[u] == -1
        if s.ustate[u] == ACTIVE:
            c = s.ucell[u]
            assert not geo.forbidden[u // 3][c]
            if c != geo.homes[u // 3]:
                assert c not in seen
                seen[c] = u
    act_units = [u for u in range(9) if s.ustate[u] == ACTIVE]
    for u in act_units:
        for v in act_units:
            if u // 3 != v // 3:
                assert geo.dist[s.ucell[u]][s.ucell[v]] != 1
    if not s.done:
        mask = s.legal_action_mask()
        assert mask.any()
        if s.phase == 2:
            P = s.current_player
            for slot in range(3):
                u = 3 * P + slot
                own = [g.A_MOVE + 6 * slot + d for d in range(6)] + [g.A_PICKUP + slot, g.A_BREAK + slot]
                if s.ustate[u] != ACTIVE:
                    assert not mask[own].any()
                if s.ucarry[u] >= 0:
                    assert not mask[g.A_PICKUP + slot]


def play(g, seeds, rng, checks=True):
    results = []
    for seed in seeds:
        s = g.new_initial_state(seed)
        steps = 0
        while not s.done:
            before = s.delivered[:]
            s.apply(int(rng.choice(s.legal_actions())))
            steps += 1
            assert all(b <= a for b, a in zip(before, s.delivered))
            if checks:
                check(s, g)
            assert steps < 50 * g.max_turns + 100
        assert s.terminal or s.turns == g.max_turns
        r = s.returns()
        assert abs(r.sum()) < 1e-9 or g.config["reward_scheme"] == "win_only"
        results.append(s)
    return results


CONFIGS = [
    {"max_rounds": 15},
    {"max_rounds": 60, "win_sacks": 1},
    {
        "max_rounds": 25,
        "win_sacks": 2,
        "bank_threshold": 1,
        "deck_mode": "iid",
        "bank_progress": "per_player",
    },
    {"max_rounds": 15, "store_placement": "fixed", "relative_frame": False, "truncation_scoring": "rank"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_random_play_invariants(config):
    g = game(**config)
    results = play(g, range(50), np.random.default_rng(1))
    assert len(results) == 50


@pytest.mark.slow
@pytest.mark.parametrize("config", [{}, {"win_sacks": 2}, {"deck_mode": "iid"}])
def test_random_play_invariants_many(config):
    g = game(**config)
    play(g, range(1000), np.random.default_rng(2))
