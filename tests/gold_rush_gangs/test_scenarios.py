"""Scenario tests for the rules on seeds/gold_rush_gangs.md: hand-built
positions, one situation of the rules per test."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.gold_rush_gangs.actions import ActionKind
from meeplezoo.envs.gold_rush_gangs.observe import RANKS_LEFT
from meeplezoo.envs.gold_rush_gangs.pieces import ACTIVE, GANG_SIZE, NUM_UNITS, Phase
from tests.gold_rush_gangs.helpers import (
    NE,
    NW,
    PRO,
    SE,
    SW,
    A,
    B,
    E,
    W,
    act,
    block,
    end_turn,
    game,
    legal,
    position,
    sacks_at,
    unit,
)


def test_geometry():
    g = game()
    geo = g.geo
    assert geo.num_cells == 271
    assert [geo.coords[h] for h in geo.homes] == [(-9, 9), (0, -9), (9, 0)]
    bases = [{geo.coords[c] for c in b} for b in geo.base]
    assert bases[0] == {(-9, 9), (-8, 9), (-9, 8), (-8, 8)}
    assert bases[1] == {(0, -9), (1, -9), (0, -8), (-1, -8)}
    assert bases[2] == {(9, 0), (9, -1), (8, 0), (8, 1)}
    assert all(len(t) == 36 for t in geo.territory)
    assert all(len(d) == 32 for d in geo.deployable)
    border = {geo.coords[c] for c in geo.neutral_border}
    assert border == {
        (6, -9), (7, -9), (8, -9), (9, -9), (9, -8), (9, -7), (9, -6),
        (-6, -3), (-7, -2), (-8, -1), (-9, 0), (-9, 1), (-9, 2), (-9, 3),
        (3, 6), (2, 7), (1, 8), (0, 9), (-1, 9), (-2, 9), (-3, 9),
    }  # fmt: skip
    assert geo.index[(0, 0)] == 135 == geo.bank
    rot = np.array(geo.to_absolute[1])
    assert sorted(rot) == list(range(271))
    assert not np.array_equal(rot, np.arange(271))
    assert np.array_equal(rot[rot[rot]], np.arange(271))
    assert geo.coords[rot[geo.index[(-9, 9)]]] == (0, -9)


def test_first_player_draw_and_setup_order():
    g = game()
    s = g.new_initial_state(3, deck=[5, 12, 12, 3, 9])
    assert s.first_player == 2
    assert [[c % 13 + 1 for _, c in rnd] for rnd in s.first_draw] == [[5, 12, 12], [3, 9]]
    assert len(s.deck.discard) == 5 and len(s.deck.draw_pile) == 47
    o = s.observation(0)
    assert o[g.observer.first_scalar + RANKS_LEFT + 11] == pytest.approx(2 / 4)  # queens
    order = []
    rng = np.random.default_rng(0)
    while s.phase != Phase.MOVEMENT:
        order.append(s.current_player)
        s.apply(int(rng.choice(s.legal_actions())))
    assert order == [2] * 4 + [0] * 4 + [1] * 4
    assert s.current_player == 2 and s.phase_name() == "movement"


def test_store_placement():
    g = game()
    s = g.new_initial_state(0, first_player=0)
    assert legal(s, "store", (-9, 3))
    assert not legal(s, "store", (-9, 4))
    assert not legal(s, "store", (-8, 3))
    assert not legal(s, "store", (0, 0))
    s = g.new_initial_state(0, first_player=1)
    act(s, "store", (-9, 3))
    assert sacks_at(s, -9, 3) == {"store": 1}
    for _ in range(3):
        s.apply(int(s.legal_actions()[0]))
    assert s.current_player == 2
    act(s, "store", (0, 9))
    for _ in range(3):
        s.apply(int(s.legal_actions()[-1]))
    assert s.current_player == 0
    assert not legal(s, "store", (-9, 3))
    assert not legal(s, "store", (0, 9))
    assert legal(s, "store", (-9, 2))
    fixed = game(store_placement="fixed")
    s = fixed.new_initial_state(0, first_player=0)
    assert sorted(tuple(c) for c in s.to_dict()["stores"]) == [(-9, 0), (0, 9), (9, -9)]
    mask = s.legal_action_mask()
    stores, deploys = block(fixed, ActionKind.STORE), block(fixed, ActionKind.DEPLOY)
    assert not mask[stores].any() and mask[deploys].any()


def test_deployment():
    g = game()
    s = g.new_initial_state(0, first_player=0)
    assert not legal(s, "deploy", (-7, 5))  # look-ahead: no completion
    act(s, "store", (-9, 3))
    assert not legal(s, "deploy", (-7, 5))
    assert not legal(s, "deploy", (-5, 7))
    act(s, "deploy", (-6, 6))
    assert sacks_at(s, -6, 6) == {"p0": 3}
    assert unit(s, 0, PRO)[:2] == ((-6, 6), "active")
    assert not legal(s, "deploy", (-6, 8))  # distance 2
    assert not legal(s, "deploy", (-8, 8))  # base
    assert not legal(s, "deploy", (-6, 6))  # occupied
    assert legal(s, "deploy", (-9, 5))  # distance 4
    act(s, "deploy", (-9, 5))
    assert sacks_at(s, -9, 5) == {"p0": 2}
    assert unit(s, 0, A)[0] == (-9, 5)


def test_ap_and_costs():
    s = position(units={(0, PRO): (-2, 0), (0, A): (-4, 2)})
    for _ in range(3):
        act(s, "move", A, E)
    assert s.action_points == 2 and unit(s, 0, A)[0] == (-1, 2)
    act(s, "move", PRO, E)
    assert s.action_points == 0
    mask = s.legal_action_mask()
    assert not mask[block(s.game, ActionKind.MOVE)].any()
    assert not mask[block(s.game, ActionKind.BREAK_BANK)].any()
    assert mask[s.game.layout.end_turn]
    for _ in range(3):
        end_turn(s)
    assert s.current_player == 0 and s.action_points == 5


def test_pickup():
    s = position(units={(0, A): (-3, -3)}, sacks={(-3, -4): {"p1": 2}})
    act(s, "move", A, NW)
    assert s.action_points == 4
    act(s, "pickup", A)
    assert s.action_points == 4 and unit(s, 0, A)[3] == "p1"
    assert sacks_at(s, -3, -4) == {"p1": 1}
    assert not legal(s, "pickup", A)
    act(s, "move", A, W)
    assert s.action_points == 2
    s = position(units={(0, A): (-3, -3)}, sacks={(-3, -3): {"p0": 2}})
    assert not legal(s, "pickup", A)


def test_carrier_blocked_by_gold():
    s = position(
        units={(0, A): {"cell": (0, 4), "carry": "store"}, (0, B): (2, 4)},
        sacks={(1, 4): {"p0": 1}},
    )
    assert not legal(s, "move", A, E)
    assert legal(s, "move", B, W)


def test_delivery_and_instant_ap():
    s = position(units={(0, A): {"cell": (-7, 7), "carry": "p1"}}, ap=2)
    act(s, "move", A, SW)
    assert s.delivered[0] == 1 and s.action_points == 1
    assert unit(s, 0, A) == ((-8, 8), "active", 0, None)
    for _ in range(3):
        end_turn(s)
    assert s.action_points == 6


def _tie_position(**extra):
    s = position(units={(0, A): extra.pop("p0a", (0, 3)), (1, A): extra.pop("p1a", (2, 2))}, **extra)
    return s


def _after_tie():
    s = _tie_position()
    s.stack_deck([7, 7])
    act(s, "move", A, E)
    assert len(s.last_combat) == 1
    fight = s.last_combat[0]
    assert [c % 13 + 1 for c in fight["attacker_cards"]] == [7]
    assert [c % 13 + 1 for c in fight["defender_cards"]] == [7]
    assert fight["attacker_won"]
    assert unit(s, 1, A) == ((0, -9), "incapacitated", 1, None)
    assert unit(s, 0, A)[:2] == ((1, 3), "active")
    assert s.action_points == 4
    return s


def test_tie_goes_to_attacker():
    _after_tie()


def test_support_cards():
    s = position(units={(0, PRO): (0, 3), (0, A): (0, 4), (1, A): (2, 2), (1, PRO): (3, 1)})
    s.stack_deck([2, 3, 13, 4, 5, 12])
    act(s, "move", PRO, E)
    (fight,) = s.last_combat
    assert [c % 13 + 1 for c in fight["attacker_cards"]] == [2, 3, 13]
    assert [c % 13 + 1 for c in fight["defender_cards"]] == [4, 5, 12]
    assert fight["attacker_won"] and s.action_points == 3
    # only the defender is sent home; its supporter and ours stay
    assert unit(s, 1, A)[1] == "incapacitated"
    assert unit(s, 1, PRO)[:2] == ((3, 1), "active")
    assert unit(s, 0, A)[:2] == ((0, 4), "active")


def test_defender_wins():
    s = position(units={(0, A): {"cell": (0, 3), "carry": "store"}, (1, A): (2, 2)})
    s.stack_deck([2, 9])
    act(s, "move", A, E)
    assert not s.last_combat[0]["attacker_won"]
    assert unit(s, 0, A) == ((-9, 9), "incapacitated", 1, None)
    assert sacks_at(s, 1, 3) == {"store": 1}
    assert unit(s, 1, A)[:2] == ((2, 2), "active")


def test_out_for_one_turn():
    s = _after_tie()
    g = s.game
    end_turn(s)
    assert s.current_player == 1
    mask = s.legal_action_mask()
    for a in np.flatnonzero(mask):
        kind = g.decode(1, a)
        assert not (kind[0] in ("move", "pickup", "break") and kind[1] == A)
    assert "A" not in " ".join(s.action_to_string(a) for a in np.flatnonzero(mask))
    end_turn(s)
    end_turn(s)
    end_turn(s)
    assert s.current_player == 1
    assert unit(s, 1, A)[:2] == ((0, -9), "active")
    moves = {
        g.decode(1, a)[2] for a in np.flatnonzero(s.legal_action_mask()) if g.decode(1, a)[:2] == ("move", A)
    }
    assert moves == {E, SW, SE}


def test_dropped_gold():
    s = position(units={(0, A): (0, 3), (1, A): {"cell": (2, 2), "carry": "p0"}})
    s.stack_deck([9, 2])
    act(s, "move", A, E)
    assert s.last_combat[0]["attacker_won"]
    assert sacks_at(s, 2, 2) == {"p0": 1}
    act(s, "move", A, NE)
    assert unit(s, 0, A)[0] == (2, 2)
    assert not legal(s, "pickup", A)
    # a player-2 thief standing there could take it
    s2 = position(units={(2, B): (2, 2)}, sacks={(2, 2): {"p0": 1}}, current=2)
    assert legal(s2, "pickup", B)
    act(s2, "pickup", B)
    assert unit(s2, 2, B)[3] == "p0"


def test_dropped_bank_gold_returns_to_bank():
    s = position(
        units={(0, A): (0, 3), (1, A): {"cell": (2, 2), "carry": "bank"}}, bank_sacks=2, bank_damage=7
    )
    s.stack_deck([9, 2])
    act(s, "move", A, E)
    assert sacks_at(s, 0, 0) == {"bank": 3}
    assert sacks_at(s, 2, 2) == {}


def test_bank():
    s = position(units={(0, A): (-1, 1), (1, A): (1, -1)})
    for _ in range(4):
        act(s, "break", A)
    assert s.bank_damage[0] == 4 and s.action_points == 1
    assert not legal(s, "move", A, NE)
    act(s, "move", A, W)
    assert s.action_points == 0 and unit(s, 0, A)[0] == (-2, 1)
    end_turn(s)
    assert s.current_player == 1
    for _ in range(3):
        act(s, "break", A)
    assert s.bank_damage[0] == 7 and s.bank_broken(1) and s.bank_broken(0) and s.action_points == 2
    assert not s.legal_action_mask()[block(s.game, ActionKind.BREAK_BANK)].any()
    assert legal(s, "move", A, SW)
    act(s, "move", A, SW)
    assert s.action_points == 1 and s.last_combat == []
    act(s, "pickup", A)
    assert unit(s, 1, A)[3] == "bank" and sacks_at(s, 0, 0) == {"bank": 2}


def test_winning_delivery():
    s = position(units={(0, A): {"cell": (-7, 7), "carry": "p2"}}, ap=2, delivered=(7, 3, 2))
    act(s, "move", A, SW)
    assert s.terminal and s.current_player == -1
    assert list(s.returns()) == [1.0, -0.5, -0.5]
    env = envs.make("gold_rush_gangs_v0")
    env.reset(seed=0)
    env.load_state(
        position(units={(0, A): {"cell": (-7, 7), "carry": "p2"}}, ap=2, delivered=(7, 3, 2)).to_dict()
    )
    env.step(env.unwrapped.game.encode(0, "move", A, SW))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -0.5, "player_2": -0.5}


def test_several_adjacent_enemies():
    s = position(units={(0, A): {"cell": (0, 3), "carry": "store"}, (1, A): (2, 2), (2, B): (1, 4)})
    s.stack_deck([9, 8, 3, 10])
    act(s, "move", A, E)
    assert [f["defender"] for f in s.last_combat] == [[1, A], [2, B]]
    assert [f["attacker_won"] for f in s.last_combat] == [True, False]
    assert unit(s, 0, A) == ((-9, 9), "incapacitated", 1, None)
    assert sacks_at(s, 1, 3) == {"store": 1}
    assert unit(s, 1, A)[:2] == ((0, -9), "incapacitated")
    assert unit(s, 2, B)[:2] == ((1, 4), "active")


def test_reshuffle():
    s = position(units={(0, A): (0, 3), (1, A): (2, 2)})
    cards = list(range(52))
    four = 3  # card id of a 4 (rank = id % 13 + 1)
    s.deck.draw_pile = [four]
    s.deck.discard = [c for c in cards if c != four]
    act(s, "move", A, E)
    fight = s.last_combat[0]
    assert [c % 13 + 1 for c in fight["attacker_cards"]] == [4]
    assert len(s.deck.draw_pile) == 50
    assert sorted(s.deck.discard) == sorted(fight["attacker_cards"] + fight["defender_cards"])
    o = s.observation(0)
    ranks_left = s.game.observer.first_scalar + RANKS_LEFT
    assert round(float(o[ranks_left : ranks_left + 13].sum() * 4)) == 50


def test_movement_limits():
    s = position(units={(0, A): (0, -7)})
    assert not legal(s, "move", A, NW)
    s = position(units={(0, A): (1, 0)})
    assert not legal(s, "move", A, W)
    s = position(units={(0, A): (-8, 9)})  # pro and B are at home
    assert legal(s, "move", A, W)
    act(s, "move", A, W)
    assert unit(s, 0, A)[0] == unit(s, 0, PRO)[0] == (-9, 9)
    s = position(units={(0, A): (0, 3), (0, B): (1, 3)})
    assert not legal(s, "move", A, E)


def test_frames():
    g = game()
    s = position(g, current=1)
    o = s.observation(1)
    side = 19
    plane = o[side * side : 2 * side * side].reshape(side, side)
    ones = {(q - 9, r - 9) for r, q in zip(*np.nonzero(plane))}
    assert ones == {(-9, 9), (-8, 9), (-9, 8), (-8, 8)}
    assert g.encode(1, "move", 1, SW) == 548
    for p in range(3):
        for a in range(g.num_actions):
            assert g.encode(p, *g.decode(p, a)) == a


def test_no_adjacent_enemies_during_random_play():
    g = game(max_rounds=40)
    rng = np.random.default_rng(5)
    for seed in range(3):
        s = g.new_initial_state(seed)
        while not s.done:
            s.apply(int(rng.choice(s.legal_actions())))
            act_units = [u for u in range(NUM_UNITS) if s.unit_status[u] == ACTIVE]
            for u in act_units:
                for v in act_units:
                    if u // GANG_SIZE != v // GANG_SIZE:
                        assert g.geo.dist[s.unit_cell[u]][s.unit_cell[v]] != 1


def test_truncation():
    env = envs.make("gold_rush_gangs_v0", max_rounds=1)
    env.reset(seed=0)
    g = env.unwrapped.game
    env.load_state(g.new_initial_state(0, first_player=0).to_dict())
    rng = np.random.default_rng(0)
    while env.unwrapped.game_state.phase != Phase.MOVEMENT:
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.game_state.legal_action_mask()))))
    assert env.agent_selection == "player_0"
    for _ in range(3):
        assert not any(env.truncations.values())
        env.step(g.layout.end_turn)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
