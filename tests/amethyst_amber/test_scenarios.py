"""Scenario tests for the rules on seeds/amethyst_amber.md, one function (or a
few) per situation."""

from __future__ import annotations

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.amethyst_amber.actions import NUM_ACTIONS
from meeplezoo.envs.amethyst_amber.board import HexColour
from tests.amethyst_amber.helpers import (
    AB,
    AM,
    can,
    do,
    game,
    kinds,
    legal,
    move_and_end,
    move_defender,
    position,
)


# 1. board build -------------------------------------------------------------------
def test_board_sizes():
    g = game()
    bd = g.board
    assert bd.geo.n_hex == 61 and bd.geo.n_tri == 120
    assert len(bd.black) == 74 and len(bd.yellow) == 46
    assert g.num_actions == NUM_ACTIONS == 850


def test_board_colours_and_triangles():
    bd = game().board
    idx = bd.geo.hexes.index
    assert bd.hex_colour[idx[(0, 0)]] == HexColour.PLAIN
    assert bd.hex_colour[idx[(0, -1)]] == HexColour.RED
    assert bd.hex_colour[idx[(-2, 4)]] == HexColour.AMETHYST_ENTRY
    assert bd.hex_colour[idx[(2, -4)]] == HexColour.AMBER_ENTRY
    assert bd.hex_colour[idx[(-3, 2)]] == HexColour.GREEN
    ti = bd.geo.tri_index
    assert bd.is_black[ti[(4, 10)]] and not bd.is_black[ti[(8, 10)]]


def test_triangle_neighbours():
    geo = game().board.geo
    ti, xy = geo.tri_index, geo.tri_xy
    assert {xy[u] for u in geo.tri_neighbors[ti[(4, 12)]]} == {(3, 12), (5, 12), (4, 14)}
    assert {xy[u] for u in geo.tri_neighbors[ti[(4, 2)]]} == {(5, 2)}


def test_gates_of_a_hex():
    geo = game().board.geo
    h = geo.hexes.index[(-3, 1)]
    want = {
        0: {(5, 10), (5, 12)},
        1: {(4, 10), (5, 10)},
        2: {(3, 10), (4, 10)},
        3: {(3, 12), (3, 10)},
        4: {(4, 12), (3, 12)},
        5: {(5, 12), (4, 12)},
    }
    for d, tris in want.items():
        assert {geo.tri_xy[t] for t in geo.gate[h, d]} == tris


def test_layout_maps_to_itself_under_rotation():
    bd = game().board
    for h in range(61):
        assert bd.hex_colour[60 - h] == {
            HexColour.AMETHYST_ENTRY: HexColour.AMBER_ENTRY,
            HexColour.AMBER_ENTRY: HexColour.AMETHYST_ENTRY,
        }.get(bd.hex_colour[h], bd.hex_colour[h])
    for t in range(120):
        assert bd.is_black[119 - t] == bd.is_black[t]


# 2. placement order ----------------------------------------------------------------
def test_placement_order_and_main_start():
    g = game()
    s = g.new_initial_state(0)
    assert s.current_player == AM
    acts = legal(s)
    assert len(acts) == 74 and {a[0] for a in acts} == {"place_defender"}
    assert {g.board.geo.tri_index[a[1]] for a in acts} == set(g.board.black)
    rng = np.random.default_rng(1)
    seats = []
    for _ in range(16):
        seats.append(s.current_player)
        a = np.flatnonzero(s.legal_action_mask())
        s.apply(int(rng.choice(a)))
    assert seats == [AM, AB] * 8
    assert s.phase_name() == "turn_start" and s.current_player == AB and s.main_turns == 0


# 3. group limit --------------------------------------------------------------------
def test_group_limit_in_placement():
    row = [(3, 10), (4, 10), (5, 10)]
    s = position(phase="placement", defenders=[(t, AM) for t in row])
    assert not can(s, "place_defender", (5, 12))
    assert not can(s, "place_defender", (2, 10))
    assert can(s, "place_defender", (4, 12))
    s = position(phase="placement", current=AB, defenders=[(t, AM) for t in row])
    assert can(s, "place_defender", (5, 12))


# 4. bridging ------------------------------------------------------------------------
def test_bridging_two_singles():
    s = position(phase="placement", defenders=[((3, 10), AM), ((5, 10), AM)])
    assert can(s, "place_defender", (4, 10))
    s = position(phase="placement", defenders=[((3, 10), AM), ((5, 10), AM), ((2, 10), AM), ((5, 12), AM)])
    assert not can(s, "place_defender", (4, 10))


# 5. wall blocks the enemy only -------------------------------------------------------------
def _wall_position(current=AM):
    return position(
        current=current,
        defenders=[((4, 10), AB), ((5, 10), AB)],
        attackers=[((-3, 1), AM), ((-2, 0), AB)],
        resources=[((-4, 3), AM, 0), ((0, 3), AB, 0)],
    )


def test_wall_blocks_enemy_capture():
    s = _wall_position()
    assert not can(s, "step", (-3, 1), "NE")
    for d in ("E", "NW", "W", "SW", "SE"):
        assert can(s, "step", (-3, 1), d)


def test_wall_does_not_block_its_owner():
    s = _wall_position(current=AB)
    assert can(s, "step", (-2, 0), "SW")
    do(s, "step", (-2, 0), "SW")
    assert s.attacker_at[s.game.board.geo.hexes.index[(-3, 1)]] == AB


# 6. mixed pair ---------------------------------------------------------------------------
def test_mixed_pair_blocks_nothing():
    s = position(defenders=[((4, 10), AM), ((5, 10), AB)], attackers=[((-3, 1), AM)])
    assert can(s, "step", (-3, 1), "NE")


# 7. defender range -----------------------------------------------------------------------
def test_defender_range():
    s = position(defenders=[((4, 16), AM)])
    do(s, "select", (4, 16))
    dests = {a[1] for a in legal(s)}
    assert len(dests) == 18
    assert {(10, 14), (4, 10)} <= dests
    assert (11, 14) not in dests and (4, 8) not in dests


def test_defender_cannot_pass_through_pieces():
    s = position(defenders=[((4, 16), AM), ((6, 14), AB)])
    do(s, "select", (4, 16))
    dests = {a[1] for a in legal(s)}
    assert (10, 14) not in dests and (7, 14) not in dests
    assert (6, 12) in dests


# 8. three defenders ---------------------------------------------------------------------
def test_three_defenders_end_the_turn():
    s = position(defenders=[((2, 6), AM), ((15, 6), AM), ((4, 16), AM)])
    move_defender(s, (2, 6), (3, 6))
    assert s.current_player == AM and s.phase_name() == "continue"
    move_defender(s, (15, 6), (14, 6))
    assert s.current_player == AM
    move_defender(s, (4, 16), (5, 16))
    assert s.current_player == AB and s.main_turns == 1


def test_end_after_one_move_and_moved_not_selectable():
    s = position(defenders=[((2, 6), AM), ((15, 6), AM), ((4, 16), AM)])
    do(s, "select", (2, 6))
    assert not can(s, "end")
    do(s, "dest", (3, 6))
    acts = legal(s)
    assert ("end",) in acts
    assert ("select", (3, 6)) not in acts
    assert {("select", (15, 6)), ("select", (4, 16))} <= acts
    do(s, "end")
    assert s.current_player == AB


def test_a_lone_end_is_played_by_itself():
    # interpretation 25: after its move, no unmoved defender of Amethyst can
    # move, so "end defender moves" is not asked for: Amber is to act at once
    s = position(defenders=[((4, 16), AM)], reserve_attackers=[0, 5])
    move_defender(s, (4, 16), (5, 16))
    assert s.current_player == AB and s.phase_name() == "turn_start" and s.main_turns == 1
    assert not can(s, "end")


# 9. neutral capture and forced placement ------------------------------------------------
def test_neutral_capture_then_forced_placement():
    s = position(attackers=[((-1, 2), AM)], defenders=[((2, 6), AB)], resources=[((0, 1), None, 0)])
    do(s, "step", (-1, 2), "NE")
    assert s.hand[AM] == 1
    move_and_end(s, (2, 6), (3, 6))
    acts = legal(s)
    bd = s.game.board
    assert acts == {("place_resource", bd.hex_qr[h]) for h in bd.green}
    do(s, "place_resource", (-3, 2))
    h = bd.geo.hexes.index[(-3, 2)]
    assert s.resource_at[h] == AM and s.prisoners_under[h] == 0 and s.hand[AM] == 0


# 10. attacker capture needs an available resource --------------------------------------
def test_attacker_capture_needs_available_resource():
    base = dict(attackers=[((-3, 1), AM), ((-2, 1), AB)])
    assert not can(position(**base), "step", (-3, 1), "E")
    s = position(**base, resources=[((-4, 3), AM, 2)])
    assert not can(s, "step", (-3, 1), "E")
    s = position(**base, resources=[((-4, 3), AM, 2), ((0, 3), AM, 1)])
    assert can(s, "step", (-3, 1), "E")
    do(s, "step", (-3, 1), "E")
    idx = s.game.board.geo.hexes.index
    assert s.prisoners_under[idx[(0, 3)]] == 2 and s.prisoners_under[idx[(-4, 3)]] == 2
    assert s.attacker_at[idx[(-2, 1)]] == AM and s.attacker_at[idx[(-3, 1)]] == -1


# 11. nearest tie-break -------------------------------------------------------------------
def test_nearest_resource_tie_break():
    s = position(
        attackers=[((-3, 3), AM), ((-2, 2), AB)],
        resources=[((-3, 2), AM, 0), ((-1, 2), AM, 0)],
    )
    do(s, "step", (-3, 3), "NE")
    idx = s.game.board.geo.hexes.index
    assert idx[(-3, 2)] == 44 and idx[(-1, 2)] == 46
    assert s.prisoners_under[44] == 1 and s.prisoners_under[46] == 0


def test_captured_attacker_goes_under_the_nearest_resource():
    # the capture hex (1, 1) is 1 from Amethyst's resource on (1, 2) and 4
    # from the one on (-3, 2), whose lower index would win a tie
    s = position(
        attackers=[((2, 0), AM), ((1, 1), AB)],
        resources=[((-3, 2), AM, 0), ((1, 2), AM, 0)],
    )
    do(s, "step", (2, 0), "SW")
    idx = s.game.board.geo.hexes.index
    assert s.prisoners_under[idx[(1, 2)]] == 1 and s.prisoners_under[idx[(-3, 2)]] == 0
    assert s.attacker_at[idx[(1, 1)]] == AM


def test_nearest_resource_tie_break_in_ambers_frame():
    # mirrored position: Amber prefers the lowest index in her frame, i.e.
    # the highest absolute index
    s = position(
        current=AB,
        attackers=[((3, -3), AB), ((2, -2), AM)],
        resources=[((3, -2), AB, 0), ((1, -2), AB, 0)],
    )
    do(s, "step", (3, -3), "SW")
    idx = s.game.board.geo.hexes.index
    assert s.prisoners_under[idx[(3, -2)]] == 1 and s.prisoners_under[idx[(1, -2)]] == 0


# 12. recovering own prisoners -------------------------------------------------------------
def test_recovering_own_prisoners():
    s = position(
        attackers=[((1, 3), AM)],
        resources=[((1, 2), AB, 2)],
        defenders=[((2, 6), AB)],
        reserve_attackers=[0, 5],
    )
    do(s, "step", (1, 3), "NW")
    idx = s.game.board.geo.hexes.index
    assert s.reserve[AM] == 2 and s.hand[AM] == 1 and s.attacker_at[idx[(1, 2)]] == AM
    assert s.placed[AB] == 0
    move_and_end(s, (2, 6), (3, 6))
    acts = legal(s)
    assert kinds(s) == {"place_resource"} and len(acts) == 11
    assert ("place_resource", (1, 2)) not in acts


# 13 / 14. win timing and recapture --------------------------------------------------------
def _win_position():
    return position(
        resources=[
            ((-4, 3), AM, 0),
            ((-3, 2), AM, 0),
            ((-2, 3), AM, 0),
            ((0, 3), AM, 0),
            ((0, 1), None, 0),
            ((-1, -2), AB, 0),
        ],
        attackers=[((-1, 2), AM), ((-4, 2), AB)],
        defenders=[((2, 6), AB), ((15, 6), AB)],
    )


def test_win_timing():
    s = _win_position()
    do(s, "step", (-1, 2), "NE")
    assert not s.done
    move_and_end(s, (2, 6), (3, 6))
    assert not s.done and s.placed[AM] == 4 and s.hand[AM] == 1
    assert kinds(s) == {"place_resource"}
    do(s, "place_resource", (1, 2))
    assert not s.done and s.placed[AM] == 5
    move_and_end(s, (15, 6), (14, 6))
    assert s.terminal
    assert list(s.returns()) == [1.0, -1.0]


def test_recapture_in_the_window():
    s = _win_position()
    do(s, "step", (-1, 2), "NE")
    move_and_end(s, (2, 6), (3, 6))
    do(s, "place_resource", (1, 2))
    do(s, "step", (-4, 2), "SE")
    assert not s.done and s.placed[AM] == 4 and s.hand[AB] == 1


# 15. attacker entry -----------------------------------------------------------------------------
def test_attacker_entry():
    s = position(reserve_attackers=[5, 5])
    assert not can(s, "place_attacker", (2, -4))
    assert can(s, "place_attacker", (-2, 4))
    for seat in (AM, AB):
        s = position(reserve_attackers=[4, 5] if seat == AM else [5, 4], attackers=[((-2, 4), seat)])
        assert not can(s, "place_attacker", (-2, 4))


# 16. frames ---------------------------------------------------------------------------------------
def test_frames():
    s = position(current=AB, reserve_attackers=[5, 4], attackers=[((2, -4), AB)])
    obs = s.observation(AB).reshape(-1)[: 20 * 361].reshape(20, 19, 19)
    assert {(x, y) for y, x in zip(*np.nonzero(obs[5]))} == {(7, 17), (9, 17), (11, 17)}
    assert s.encode("place_attacker", (2, -4)) == 418
    assert s.encode("step", (2, -4), "SE") == 832
    for seat in (AM, AB):
        for a in range(NUM_ACTIONS):
            kind, *args = s.decode(a, seat)
            assert s.encode(kind, *args, seat=seat) == a


# 17. pass -----------------------------------------------------------------------------------------
def test_pass_only_when_nothing_else():
    s = position(attackers=[((0, 0), AB)], defenders=[((2, 6), AB)], reserve_attackers=[0, 4])
    assert np.flatnonzero(s.legal_action_mask()).tolist() == [849]
    do(s, "pass")
    assert s.current_player == AB and s.main_turns == 1
    assert not can(s, "pass")


# 18. truncation -----------------------------------------------------------------------------------
def test_truncation():
    env = envs.make("amethyst_amber_v0", max_main_turns=2)
    env.reset(seed=0)
    env.unwrapped.load_state(position(env.unwrapped.game, current=AB, reserve_attackers=[5, 5]).to_dict())
    env.step(env.unwrapped.game_state.encode("place_attacker", (2, -4)))
    assert not any(env.truncations.values())
    env.step(env.unwrapped.game_state.encode("place_attacker", (-2, 4)))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
