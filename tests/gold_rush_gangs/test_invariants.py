"""Random-play invariants: gold and cards conserved, AP never negative,
incapacitated units never act, one sack per carrier, one unit per cell,
no adjacent enemies at rest, masks never empty, every game ends."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.gold_rush_gangs.actions import NUM_DIRECTIONS, ActionKind
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    GANG_SIZE,
    INCAPACITATED,
    NOWHERE,
    NUM_UNITS,
    SLOTS,
    Phase,
    unit_id,
)
from tests.gold_rush_gangs.helpers import game


def check(s, g):
    geo = g.geo
    if s.phase == Phase.MOVEMENT:
        lying = sum(sum(v) for v in s.sacks.values())
        carried = sum(1 for c in s.unit_carrying if c >= 0)
        assert lying + carried + sum(s.delivered) == 21 + 3 + g.config["bank_sacks"]
        per_origin = [sum(v[o] for v in s.sacks.values()) + s.unit_carrying.count(o) for o in range(5)]
        assert per_origin[3] <= 3 and per_origin[4] <= g.config["bank_sacks"]
        assert all(x <= 7 for x in per_origin[:3])
        assert s.action_points >= 0
    if not g.independent_draws:
        assert sorted(s.deck.draw_pile + s.deck.discard) == list(range(52))
    assert all(-1 <= c <= 4 for c in s.unit_carrying)
    seen = {}
    for u in range(NUM_UNITS):
        if s.unit_status[u] == INCAPACITATED:
            assert s.unit_cell[u] == geo.homes[u // GANG_SIZE] and s.unit_carrying[u] == NOWHERE
        if s.unit_status[u] == ACTIVE:
            c = s.unit_cell[u]
            assert not geo.forbidden[u // GANG_SIZE][c]
            if c != geo.homes[u // GANG_SIZE]:
                assert c not in seen
                seen[c] = u
    act_units = [u for u in range(NUM_UNITS) if s.unit_status[u] == ACTIVE]
    for u in act_units:
        for v in act_units:
            if u // GANG_SIZE != v // GANG_SIZE:
                assert geo.dist[s.unit_cell[u]][s.unit_cell[v]] != 1
    if not s.done:
        mask = s.legal_action_mask()
        assert mask.any()
        if s.phase == Phase.MOVEMENT:
            moves, pickups = g.layout.start(ActionKind.MOVE), g.layout.start(ActionKind.PICKUP)
            breaks = g.layout.start(ActionKind.BREAK_BANK)
            for slot in SLOTS:
                u = unit_id(s.current_player, slot)
                steps = moves + NUM_DIRECTIONS * slot
                own = [*range(steps, steps + NUM_DIRECTIONS), pickups + slot, breaks + slot]
                if s.unit_status[u] != ACTIVE:
                    assert not mask[own].any()
                if s.unit_carrying[u] >= 0:
                    assert not mask[pickups + slot]


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
