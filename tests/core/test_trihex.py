"""The trihexagonal board helper in envs/core/trihex.py."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.trihex import trihex_board


@pytest.mark.parametrize("radius", [1, 2, 4])
def test_counts_and_degrees(radius):
    b = trihex_board(radius)
    assert b.n_hex == 3 * radius * (radius + 1) + 1
    degrees = [len(n) for n in b.tri_neighbors]
    assert set(degrees) <= {1, 3}
    for t, ns in enumerate(b.tri_neighbors):
        for u in ns:
            assert t in b.tri_neighbors[u]


def test_radius_four_matches_the_brick_layout():
    b = trihex_board(4)
    assert b.n_tri == 120 and b.width == 19
    assert b.hex_xy[b.hexes.index[(0, 0)]] == (9, 9)
    assert b.tri_xy[0] == (6, 0) and b.tri_xy[119] == (12, 18)


def test_gates_are_symmetric_and_adjacent():
    b = trihex_board(4)
    for h in range(b.n_hex):
        for d in range(6):
            n = int(b.hexes.neighbors[h, d])
            if n < 0:
                assert tuple(b.gate[h, d]) == (-1, -1)
                continue
            t1, t2 = (int(x) for x in b.gate[h, d])
            assert t1 >= 0 and t2 >= 0 and t2 in b.tri_neighbors[t1]
            assert {t1, t2} == {int(x) for x in b.gate[n, (d + 3) % 6]}


def test_rotation_is_an_involution():
    b = trihex_board(4)
    rot = b.tri_rot180
    assert np.array_equal(rot[rot], np.arange(b.n_tri))
    assert list(rot) == list(range(b.n_tri - 1, -1, -1))


def test_bitboard_spread_matches_adjacency():
    b = trihex_board(4)
    for t in range(b.n_tri):
        assert b.spread(b.bit_tri[t]) == b.tri_bits(b.tri_neighbors[t])


def test_reach_counts_steps_and_respects_free_set():
    b = trihex_board(3)
    everything = b.tri_bits(range(b.n_tri))
    start = 5
    # breadth-first distances by hand
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for t in frontier:
            for u in b.tri_neighbors[t]:
                if u not in dist:
                    dist[u] = dist[t] + 1
                    nxt.append(u)
        frontier = nxt
    for k in (1, 2, 5):
        want = {t for t, d in dist.items() if 1 <= d <= k}
        assert set(b.bits_to_tris(b.reach(start, everything, k))) == want
    assert b.reach(start, 0, 7) == 0


def test_component_and_lonely_neighbors():
    b = trihex_board(4)
    ti = b.tri_index
    row = b.tri_bits([ti[(3, 10)], ti[(4, 10)], ti[(5, 10)]])
    assert b.component(b.bit_tri[ti[(3, 10)]], row) == row
    lonely = b.lonely_neighbors(b.bit_tri[ti[(4, 12)]])
    assert lonely == b.tri_bits(b.tri_neighbors[ti[(4, 12)]])
    # (4,12) touches both (3,12)... and (5,12): a triangle between two pieces is not lonely
    pair = b.tri_bits([ti[(3, 12)], ti[(5, 12)]])
    assert not b.lonely_neighbors(pair) & b.bit_tri[ti[(4, 12)]]
