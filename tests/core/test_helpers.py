"""The shared board, card, dice, ranking and turn helpers."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.cards import Deck, card_name, card_rank, standard_52
from meeplezoo.envs.core.dice import contest, roll, roll_sum
from meeplezoo.envs.core.hexgrid import DIRECTIONS, hex_board, hex_distance, hexes_within, ring, rotate60
from meeplezoo.envs.core.ranking import rank_rewards, ranks, soft_rank_rewards
from meeplezoo.envs.core.state import clone_rng, make_rng, rng_from_dict, rng_to_dict
from meeplezoo.envs.core.turns import next_seat, relative_seats


def test_hex_board_sizes_and_neighbours():
    for radius, cells in ((1, 7), (4, 61), (9, 271)):
        board = hex_board(radius)
        assert board.n == cells == 3 * radius * (radius + 1) + 1
    board = hex_board(9)
    centre = board.index[(0, 0)]
    assert sorted(board.neighbor_lists[centre]) == sorted(board.index[d] for d in DIRECTIONS)
    corner = board.index[(9, 0)]
    assert len(board.neighbor_lists[corner]) == 3
    # neighbour relation is symmetric, distance 1
    for i in range(board.n):
        for j in board.neighbor_lists[i]:
            assert i in board.neighbor_lists[j]
            assert board.distance[i, j] == 1


def test_hex_distance_rings_and_rotation():
    assert hex_distance((0, 0), (3, -1)) == 3
    assert len(ring(3)) == 18 and len(hexes_within(2)) == 19
    assert rotate60(1, 0, 6) == (1, 0)
    assert rotate60(*rotate60(2, -1, 3), 3) == (2, -1)
    board = hex_board(4)
    for i in range(board.n):
        q, r = board.coords[i]
        assert tuple(board.coords[board.rot180[i]]) == (-q, -r)
    assert np.array_equal(board.rotation(3), board.rot180)
    assert board.distance[board.index[(4, 0)], board.index[(-4, 0)]] == 8


def test_deck_draw_reshuffle_and_round_trip():
    rng = make_rng(0)
    deck = Deck.shuffled(standard_52(), rng)
    assert sorted(deck.draw_pile) == list(range(52))
    drawn = [deck.draw() for _ in range(52)]
    assert sorted(drawn) == list(range(52)) and deck.draw() is None
    deck.discard = drawn[:10]
    card = deck.draw(rng)  # reshuffles the discard first
    assert card in drawn[:10] and len(deck) == 9 and deck.discard == []
    assert Deck.from_dict(deck.to_dict()).to_dict() == deck.to_dict()
    assert card_rank(0) == 1 and card_rank(12) == 13 and card_name(12) == "KS"


def test_dice_use_the_given_generator():
    a, b = make_rng(7), make_rng(7)
    assert [roll(a) for _ in range(20)] == [roll(b) for _ in range(20)]
    assert all(2 <= roll_sum(a) <= 12 for _ in range(100))
    winner, history = contest(a, 0, 100)
    assert winner == 1 and history[-1][0] != history[-1][1]


def test_rng_copies_are_independent_and_serialisable():
    rng = make_rng(3)
    rng.integers(10, size=5)
    twin = clone_rng(rng)
    assert rng.integers(1 << 30) == twin.integers(1 << 30)
    back = rng_from_dict(rng_to_dict(rng))
    assert back.integers(1 << 30) == rng.integers(1 << 30)


def test_rank_rewards_and_ranks():
    assert rank_rewards([1, 5]).tolist() == [-1.0, 1.0]
    r = rank_rewards([3, 5, 5, 1])
    assert r.sum() == pytest.approx(0) and r[1] == r[2] and r[3] == -1
    assert rank_rewards([(2, 1), (2, 0)]).tolist() == [1.0, -1.0]  # tie-break tuple
    assert ranks([3, 5, 5, 1]).tolist() == [3, 1, 1, 4]


def test_soft_rank_rewards_blur_the_rank_by_the_spread():
    scores = [3, 5, 5, 1]
    wide, sharp = soft_rank_rewards(scores, 10.0), soft_rank_rewards(scores, 1e-6)
    assert wide.sum() == pytest.approx(0) and np.all(np.abs(wide) < 1)
    assert sharp == pytest.approx(rank_rewards(scores))  # no blur left: the rank itself
    assert wide[1] == wide[2] > wide[0] > wide[3]  # the order survives, ties stay tied
    assert abs(wide[1]) < abs(soft_rank_rewards(scores, 2.0)[1])  # a wider blur trusts the lead less
    assert soft_rank_rewards([7], 3.0).tolist() == [0.0]


def test_turn_helpers():
    assert next_seat(2, 4) == 3 and next_seat(3, 4) == 0
    assert next_seat(0, 4, [True, False, False, True]) == 3
    assert next_seat(1, 3, [False, True, False]) == 1
    assert relative_seats(2, 4) == [2, 3, 0, 1]


def test_strip_version_drops_only_the_version_suffix():
    from meeplezoo.envs import strip_version

    assert strip_version("gem_mountain_v0") == "gem_mountain"
    assert strip_version("connect_four_v3") == "connect_four"
    assert strip_version("gem_mountain") == "gem_mountain"
    assert strip_version("gold_rush_gangs_v12") == "gold_rush_gangs"
