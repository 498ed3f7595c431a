"""The kernel's triangle sets (``kernel/pieces.py``) against plain Python
sets of triangle indices: reading the row's brick bitboards (the sign bit
included), a fill step, and the counts behind the lone-stop shortcut."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo
from meeplezoo.envs.amethyst_amber.actions import NUM_TRIANGLES
from meeplezoo.envs.amethyst_amber.kernel import pieces
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row


def as_indices(tri_set) -> set[int]:
    return {
        t for t in range(NUM_TRIANGLES) if (int(tri_set[t // S.TRI_WORD_BITS]) >> (t % S.TRI_WORD_BITS)) & 1
    }


def as_tri_set(triangles) -> tuple[int, int]:
    words = [0, 0]
    for t in triangles:
        words[t // S.TRI_WORD_BITS] |= 1 << (t % S.TRI_WORD_BITS)
    return words[0], words[1]


def row_with(defenders_by_seat) -> np.ndarray:
    """A state row holding only these defenders (brick bitboards written by hand)."""
    row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
    for seat, triangles in enumerate(defenders_by_seat):
        for t in triangles:
            brick = int(S.TRI_BRICK[t])
            row[S.DEFENDER_BITS + seat * S.WORDS + brick // 64] |= S.BIT[brick % 64]
    return row


def neighbours_of(t) -> set[int]:
    return {int(u) for u in S.TRI_NEIGHBOURS[t] if u >= 0}


def test_brick_triangles_reads_every_triangle_and_the_sign_bit():
    on_sign_bit = [t for t in range(NUM_TRIANGLES) if S.TRI_BRICK[t] % 64 == 63]
    assert on_sign_bit  # the board puts a triangle on some word's sign bit
    chosen = set(on_sign_bit) | set(range(0, NUM_TRIANGLES, 7))
    row = row_with([chosen, set(range(NUM_TRIANGLES))])
    assert as_indices(pieces.brick_triangles(row, S.DEFENDER_BITS)) == chosen
    assert as_indices(pieces.brick_triangles(row, S.DEFENDER_BITS + S.WORDS)) == set(range(NUM_TRIANGLES))


def test_spread_is_the_neighbour_table():
    rng = np.random.default_rng(0)
    for _ in range(20):
        chosen = {int(t) for t in rng.choice(NUM_TRIANGLES, size=rng.integers(1, 30), replace=False)}
        expected = set().union(*(neighbours_of(t) for t in chosen))
        assert as_indices(pieces.spread(as_tri_set(chosen))) == expected


@pytest.mark.parametrize("scope", ["own", "all"])
def test_read_defence_counts_touching_defenders(scope):
    game = meeplezoo.make_game("amethyst_amber_v0", group_limit_scope=scope)
    rng = np.random.default_rng(1)
    black = [t for t in range(NUM_TRIANGLES) if S.IS_BLACK[t]]
    for _ in range(10):
        picked = [int(t) for t in rng.choice(black, size=16, replace=False)]
        own, enemy = set(picked[:8]), set(picked[8:])
        defence = pieces.read_defence(row_with([own, enemy]), game_row(game), 0)
        counting = own | enemy if scope == "all" else own
        beside = {t: len(neighbours_of(t) & counting) for t in range(NUM_TRIANGLES)}
        assert as_indices(defence.free) == set(black) - own - enemy
        assert as_indices(defence.touched) == {t for t, n in beside.items() if n >= 1}
        assert as_indices(defence.crowded) == {t for t, n in beside.items() if n >= 2}
        start = picked[0]
        lone = {t for t in as_indices(defence.free) if not neighbours_of(t) & (counting - {start})}
        assert as_indices(pieces.lone_stops(defence, start)) == lone
