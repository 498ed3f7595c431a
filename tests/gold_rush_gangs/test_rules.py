"""One test (at least) per rule and per interpretation of seeds/gold_rush_gangs.md."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.gold_rush_gangs.actions import ActionKind
from meeplezoo.envs.gold_rush_gangs.observe import PHASE, TURNS_OUT
from meeplezoo.envs.gold_rush_gangs.pieces import NOWHERE, Phase, gang_units, unit_id
from tests.gold_rush_gangs.helpers import (
    HOMES,
    NE,
    PRO,
    SW,
    A,
    B,
    E,
    W,
    act,
    end_turn,
    game,
    legal,
    position,
    sacks_at,
    unit,
)


def ranks(cards):
    return [c % 13 + 1 for c in cards]


def fight_once(att_rank, def_rank, **kw):
    s = position(units={(0, A): (0, 3), (1, A): (2, 2)}, **kw)
    s.stack_deck([att_rank, def_rank])
    act(s, "move", A, E)
    return s.last_combat[0]["attacker_won"]


# --- combat ------------------------------------------------------------------
def test_king_high_ace_low():
    assert fight_once(13, 1)
    assert not fight_once(1, 2)
    assert not fight_once(12, 13)
    assert fight_once(1, 1)  # tie to the attacker


def test_pro_draws_two_amateur_one():
    s = position(units={(0, PRO): (0, 3), (1, A): (2, 2)})
    s.stack_deck([2, 3, 13])
    act(s, "move", PRO, E)
    (f,) = s.last_combat
    assert ranks(f["attacker_cards"]) == [2, 3] and ranks(f["defender_cards"]) == [13]
    assert not f["attacker_won"] and unit(s, 0, PRO)[:2] == ((-9, 9), "incapacitated")


def test_support_does_not_chain():
    # B touches A but not the pro, A touches the pro: pro draws 2 + 1
    s = position(units={(0, PRO): (0, 3), (0, A): (0, 4), (0, B): (-1, 5), (1, A): (2, 2)})
    s.stack_deck([5, 5, 5, 6])
    act(s, "move", PRO, E)
    (f,) = s.last_combat
    assert len(f["attacker_cards"]) == 3 and len(f["defender_cards"]) == 1


def test_defender_support_counts_its_own_friends_only():
    s = position(units={(0, A): (0, 3), (1, A): (2, 2), (1, B): (3, 2), (1, PRO): (2, 1)})
    s.stack_deck([13, 1, 1, 1, 1])
    act(s, "move", A, E)
    (f,) = s.last_combat
    assert len(f["defender_cards"]) == 1 + 1 + 2


def test_no_fight_without_a_move():
    s = position(units={(0, A): (-1, 1), (1, A): (1, -1)})
    act(s, "break", A)
    assert s.last_combat == []
    end_turn(s)
    assert s.last_combat == []


def test_attacker_that_loses_misses_its_next_turn():
    s = position(units={(0, A): (0, 3), (1, A): (2, 2)})
    s.stack_deck([2, 9])
    act(s, "move", A, E)
    assert unit(s, 0, A)[1:3] == ("incapacitated", 1)
    for _ in range(3):
        end_turn(s)
    assert s.current_player == 0 and unit(s, 0, A)[1:3] == ("incapacitated", 0)
    mask = s.legal_action_mask()
    assert not any(
        s.game.decode(0, a)[1:2] == (A,) for a in np.flatnonzero(mask) if s.game.decode(0, a)[0] != "end"
    )
    for _ in range(3):
        end_turn(s)
    assert unit(s, 0, A)[:2] == ((-9, 9), "active")
    assert legal(s, "move", A, E)


def test_attacker_keeps_fighting_after_a_win_and_stops_at_a_loss():
    s = position(units={(0, A): (0, 3), (1, A): (2, 2), (1, B): (1, 2), (2, A): (1, 4)})
    s.stack_deck([2, 9])
    act(s, "move", A, E)
    assert len(s.last_combat) == 1  # lost the first fight: no more
    assert unit(s, 1, B)[1] == "active" and unit(s, 2, A)[1] == "active"


# --- moving, carrying, picking up ---------------------------------------------
def test_carrier_amateur_pays_two():
    s = position(units={(0, A): {"cell": (0, 4), "carry": "p1"}})
    act(s, "move", A, W)
    assert s.action_points == 3


def test_pickup_priority():
    s = position(
        units={(0, A): (2, 4)},
        sacks={(2, 4): {"p0": 2, "p1": 1, "p2": 1, "store": 1, "bank": 1}},
        bank_sacks=2,  # the game's third bank sack lies at (2, 4)
    )
    taken = []
    for _ in range(4):
        act(s, "pickup", A)
        taken.append(unit(s, 0, A)[3])
        s.unit_carrying[unit_id(0, A)] = NOWHERE  # empty the hand to look at the next pick
        s._mask_cache = None
    assert taken == ["store", "p1", "p2", "bank"]
    assert not legal(s, "pickup", A)  # only its own gold is left
    s = position(units={(1, A): (2, 4)}, sacks={(2, 4): {"p0": 1, "p2": 1}}, current=1)
    act(s, "pickup", A)
    assert unit(s, 1, A)[3] == "p2"  # player_1's next gang is player_2


def test_action_blocks_follow_the_kinds_in_order():
    g = game()
    layout = g.layout
    assert [layout.start(kind) for kind in ActionKind] == [0, 271, 542, 560, 563, 566]
    assert layout.stop(ActionKind.END_TURN) == g.num_actions == 2 * g.geo.num_cells + 25
    for kind in ActionKind:
        word = layout.blocks[kind].rule.word
        for a in range(layout.start(kind), layout.stop(kind)):
            assert g.decode(1, a)[0] == word == g.action_names[a].split()[0]


def test_no_drop_action():
    g = game()
    assert not any("drop" in name for name in g.action_names)


def test_carrier_cannot_enter_open_bank_holding_sacks():
    s = position(units={(0, A): {"cell": (-1, 1), "carry": "p1"}}, bank_damage=7)
    assert not legal(s, "move", A, NE)
    s = position(units={(0, A): {"cell": (-1, 1), "carry": "p1"}}, bank_damage=7, bank_sacks=0)
    assert legal(s, "move", A, NE)
    s = position(units={(0, A): (-1, 1)}, bank_damage=7)
    assert legal(s, "move", A, NE)


def test_delivery_on_any_base_cell():
    s = position(units={(0, B): {"cell": (-7, 9), "carry": "bank"}}, ap=3, bank_sacks=2)
    act(s, "move", B, W)
    assert s.delivered == [1, 0, 0] and s.action_points == 2 and unit(s, 0, B)[3] is None


def test_enemy_base_is_closed():
    s = position(units={(0, A): (-2, -7)})
    assert not legal(s, "move", A, NE)  # (-1,-8) is player_1's base
    assert legal(s, "move", A, E)


def test_own_gold_is_never_picked_up():
    s = position(units={(0, PRO): (-6, 6)}, sacks={(-6, 6): {"p0": 3}})
    assert not legal(s, "pickup", PRO)


# --- action points ---------------------------------------------------------------
def test_ap_allowance_grows_with_deliveries():
    s = position(delivered=(3, 0, 0), current=1)
    end_turn(s)
    assert s.current_player == 2 and s.action_points == 5
    end_turn(s)
    assert s.current_player == 0 and s.action_points == 8


def test_no_immediate_bonus_variant():
    s = position(units={(0, A): {"cell": (-7, 7), "carry": "p1"}}, ap=2, ap_bonus_immediate=False)
    act(s, "move", A, SW)
    assert s.action_points == 0 and s.delivered[0] == 1
    for _ in range(3):
        end_turn(s)
    assert s.action_points == 6


# --- bank --------------------------------------------------------------------------
def test_bank_per_player_variant():
    s = position(units={(0, A): (-1, 1), (1, A): (1, -1)}, bank_progress="per_player", base_ap=8, ap=8)
    for _ in range(7):
        act(s, "break", A)
    assert s.bank_broken(0) and not s.bank_broken(1)
    act(s, "move", A, NE)
    assert unit(s, 0, A)[0] == (0, 0)
    assert legal(s, "pickup", A)


def test_bank_threshold_zero_means_open():
    s = position(units={(0, A): (-1, 1)}, bank_threshold=0)
    assert s.bank_broken(0) and legal(s, "move", A, NE) and not legal(s, "break", A)


# --- setup ----------------------------------------------------------------------------
def test_setup_puts_seven_sacks_per_gang_and_three_stores():
    g = game()
    s = g.new_initial_state(11)
    rng = np.random.default_rng(0)
    while s.phase != Phase.MOVEMENT:
        s.apply(int(rng.choice(s.legal_actions())))
    totals = [0] * 5
    for v in s.sacks.values():
        for o in range(5):
            totals[o] += v[o]
    assert totals == [7, 7, 7, 3, 3]
    assert len(s.stores) == 3 and all(sacks_at(s, *g.geo.coords[c]) == {"store": 1} for c in s.stores)
    geo = g.geo
    for p in range(3):
        cells = [s.unit_cell[u] for u in gang_units(p)]
        assert all(c in geo.deployable[p] for c in cells)
        assert all(geo.dist[a][b] >= 4 for a in cells for b in cells if a != b)


def test_first_player_is_drawn_from_the_seeded_deck():
    g = game()
    firsts = {g.new_initial_state(seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2}
    assert g.new_initial_state(7).first_player == g.new_initial_state(7).first_player
    s = g.new_initial_state(0, deck=[9, 3, 2])
    assert s.first_player == 0 and len(s.deck.discard) == 3


def test_spacing_config_is_validated():
    with pytest.raises(ValueError, match="min_unit_spacing"):
        game(min_unit_spacing=10)
    with pytest.raises(ValueError, match="bank_progress"):
        game(bank_progress="nobody")
    with pytest.raises(ValueError, match="radius must be an integer from 4 to 15, got 3"):
        game(radius=3)
    with pytest.raises(ValueError, match="need base_radius < territory_radius < radius"):
        game(radius=5, territory_radius=5)
    with pytest.raises(ValueError, match="relative_frame"):
        game(relative_frame="yes")
    with pytest.raises(ValueError):
        game(num_players=2)


# --- end of game ------------------------------------------------------------------------
def test_win_only_and_rank_scoring():
    s = position(
        units={(0, A): {"cell": (-7, 7), "carry": "p2"}}, ap=2, delivered=(7, 0, 0), reward_scheme="win_only"
    )
    act(s, "move", A, SW)
    assert list(s.returns()) == [1.0, 0.0, 0.0]
    s = position(delivered=(2, 5, 2), max_rounds=1, turns=2, truncation_scoring="rank")
    end_turn(s)
    assert s.truncated and list(s.returns()) == [-0.5, 1.0, -0.5]
    s = position(delivered=(2, 5, 2), max_rounds=1, turns=2)
    end_turn(s)
    assert s.truncated and list(s.returns()) == [0.0, 0.0, 0.0]


def test_smaller_win_target():
    s = position(units={(0, A): {"cell": (-7, 7), "carry": "p2"}}, ap=2, delivered=(1, 0, 0), win_sacks=2)
    act(s, "move", A, SW)
    assert s.terminal and s.winner == 0


# --- hidden information, copies, words ---------------------------------------------------
def _played(seed=3, steps=600):
    g = game()
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.done:
            break
        s.apply(int(rng.choice(s.legal_actions())))
    return s


def test_determinize_reshuffles_only_the_draw_pile():
    s = _played()
    d = s.determinize(0, np.random.default_rng(9))
    a, b = s.to_dict(), d.to_dict()
    assert sorted(a["deck"]["draw_pile"]) == sorted(b["deck"]["draw_pile"])
    assert a["deck"]["draw_pile"] != b["deck"]["draw_pile"]
    assert a["deck"]["discard"] == b["deck"]["discard"]
    for key in a:
        if key not in ("deck", "rng"):
            assert a[key] == b[key], key
    for p in range(3):
        assert np.array_equal(s.observation(p), d.observation(p))


def test_clone_is_independent_and_dict_round_trips():
    s = _played()
    c = s.clone()
    rng = np.random.default_rng(0)
    before = json.dumps(s.to_dict())
    while not c.done:
        c.apply(int(rng.choice(c.legal_actions())))
    assert json.dumps(s.to_dict()) == before
    r = s.game.state_from_dict(json.loads(before))
    assert json.dumps(r.to_dict()) == before
    assert np.array_equal(r.legal_action_mask(), s.legal_action_mask())


def test_action_names_round_trip():
    s = _played()
    for a in range(s.game.num_actions):
        assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("  MOVE a   ne ") == s.game.layout.start(ActionKind.MOVE) + 6 + 1
    with pytest.raises(ValueError):
        s.string_to_action("dance")


def test_views_are_rotations_of_each_other():
    rot = lambda q, r: (-q - r, q)  # noqa: E731
    base = {(0, A): {"cell": (-3, 4), "carry": "p1"}, (1, PRO): (2, -3), (2, B): (5, 0)}
    sacks = {(-2, 4): {"p2": 2}, (4, -1): {"store": 1}}
    s1 = position(units=base, sacks=sacks, current=0, first_player=2)
    moved = {}
    for (p, slot), spec in base.items():
        spec = spec if isinstance(spec, dict) else {"cell": spec}
        new = dict(spec)
        new["cell"] = rot(*spec["cell"])
        if spec.get("carry") in ("p0", "p1", "p2"):
            new["carry"] = f"p{(int(spec['carry'][1]) + 1) % 3}"
        moved[((p + 1) % 3, slot)] = new
    rsacks = {
        rot(*c): {(f"p{(int(o[1]) + 1) % 3}" if o[0] == "p" else o): n for o, n in d.items()}
        for c, d in sacks.items()
    }
    s2 = position(units=moved, sacks=rsacks, current=1, first_player=0)
    for p in range(3):
        assert np.array_equal(s1.observation(p), s2.observation((p + 1) % 3))
    m1, m2 = s1.legal_action_mask(), s2.legal_action_mask()
    assert np.array_equal(m1, m2)


def test_observation_contents():
    s = position(
        units={(0, A): {"cell": (-3, 4), "carry": "p1"}, (1, B): {"state": "incapacitated", "miss": 1}}, ap=4
    )
    g = s.game
    S0, Ar = g.observer.first_scalar, 19 * 19  # first scalar, plane size
    o = s.observation(0)
    at = (4 + 9) * 19 + (-3 + 9)
    assert o[11 * Ar + at] == 1.0 and o[18 * Ar + at] == 1.0  # my amateur A, carrying next's gold
    assert o[S0] == 1.0 and o[S0 + 1] == pytest.approx(4 / 12)
    assert o[S0 + TURNS_OUT + 3 + 2] == 1.0  # next's amateur B out for two more turns (miss 1)
    assert o[S0 + PHASE + Phase.MOVEMENT] == 1.0  # movement phase
    o1 = s.observation(1)
    assert o1[S0] == 0.0 and o1[S0 + 1] == 0.0
    assert o.min() >= 0.0 and o.max() <= 1.0


def test_env_stack_deck_and_renders():
    env = envs.make("gold_rush_gangs_v0", render_mode="ansi")
    env.reset(seed=1)
    start = position(units={(0, A): (0, 3), (1, A): (2, 2)})
    start.stack_deck([7, 7])  # on the position loaded (the env's state may be a compiled row)
    env.load_state(start.to_dict())
    env.step(env.unwrapped.game.encode(0, "move", A, E))
    assert env.unwrapped.game_state.last_combat[0]["attacker_won"]
    text = env.render()
    assert "fight: player_0 A [7" in text and "r=0 " in text
    rgb = env.unwrapped.game_state.render_rgb(None)
    assert rgb.ndim == 3 and rgb.shape[2] == 3 and rgb.dtype == np.uint8
    assert HOMES[0] == (-9, 9)


def test_determinize_is_canonical_in_the_draw_pile():
    s = _played()
    other = s.clone()
    other.deck.draw_pile = list(reversed(other.deck.draw_pile))  # same contents, other order
    a = s.determinize(1, np.random.default_rng(4)).to_dict()
    b = other.determinize(1, np.random.default_rng(4)).to_dict()
    a.pop("rng")
    b.pop("rng")
    assert a == b


def test_evaluate_ranks_delivered_sacks():
    v = position(delivered=(3, 1, 1)).evaluate()
    assert v[0] > v[1] and abs(v[1] - v[2]) < 1e-12
    assert abs(v.sum()) < 1e-9  # zero-sum scheme stays zero-sum
    assert np.all(v >= -0.5) and np.all(v <= 1.0)
    even = position().evaluate()
    assert np.allclose(even, 0.0)


def test_evaluate_values_carried_gold_more_near_home():
    far = position(units={(0, A): {"cell": (3, -2), "carry": "p1"}}).evaluate()
    near = position(units={(0, A): {"cell": (-7, 7), "carry": "p1"}}).evaluate()
    none = position(units={(0, A): (-7, 7)}).evaluate()
    assert near[0] > far[0] > none[0]
    # a delivered sack beats one that is still carried
    delivered = position(units={(0, A): (-8, 8)}, delivered=(1, 0, 0)).evaluate()
    assert delivered[0] > near[0]


def test_evaluate_values_thieves_near_stealable_gold():
    sack = {(-3, -4): {"p1": 2}}
    close = position(units={(0, A): (-3, -3)}, sacks=sack).evaluate()
    away = position(units={(0, A): (-6, 4)}, sacks=sack).evaluate()
    assert close[0] > away[0]
    own = {(-3, -4): {"p0": 2}}  # own gold is not worth approaching
    near_own = position(units={(0, A): (-3, -3)}, sacks=own, bank_sacks=0).evaluate()
    away_own = position(units={(0, A): (-6, 4)}, sacks=own, bank_sacks=0).evaluate()
    assert np.allclose(near_own, away_own)


def test_evaluate_blends_toward_truncation_and_matches_returns_when_over():
    early = position(delivered=(4, 0, 0), max_rounds=10).evaluate()
    late = position(delivered=(4, 0, 0), max_rounds=10, turns=27).evaluate()
    assert early[0] > late[0] > 0.0
    ranked = position(delivered=(4, 0, 0), max_rounds=10, turns=27, truncation_scoring="rank").evaluate()
    assert ranked[0] > late[0]
    s = position(delivered=(2, 5, 2), max_rounds=1, turns=2, truncation_scoring="rank")
    end_turn(s)
    assert s.truncated and np.allclose(s.evaluate(), s.returns())
    s = position(
        units={(0, A): {"cell": (-7, 7), "carry": "p2"}}, ap=2, delivered=(7, 0, 0), reward_scheme="win_only"
    )
    assert 0.0 <= s.evaluate().min() and s.evaluate().max() <= 1.0
    act(s, "move", A, SW)
    assert np.allclose(s.evaluate(), [1.0, 0.0, 0.0])
