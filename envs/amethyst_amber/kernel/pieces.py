"""Bitboard words of the row, and where defenders may stand and go.

A bitboard field of the row is ``WORDS`` int64 words of the brick grid (bit
``b`` in word ``b >> 6``). The defender rules work on *triangle sets*
instead: a pair of int64 words, triangle t at bit ``t % 60`` of word
``t // 60`` (``slots.TRI_WORD_BITS``), read once per call from the two
seats' bitboards (``read_defence``). A fill step is then a few ORs of the
neighbour table per triangle reached, and the group limit a walk over set
bits, as ``defenders.py`` (the reference) does with shifts: a defender's
move is up to ``defender_range`` steps through empty black triangles, and it
may stop only where its group of touching counting defenders (its own
colour, or both with ``group_limit_scope="all"``) stays within ``group_limit``.
"""

from __future__ import annotations

from collections import namedtuple

from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.core.compiled.bits import trailing_zeros
from meeplezoo.envs.core.compiled.jit import njit

# The defenders as the acting seat sees them, every entry a triangle set but
# the two numbers: ``pieces`` count towards its groups, ``touched`` are the
# triangles beside at least one of them and ``crowded`` beside two or more.
Defence = namedtuple("Defence", ["own", "enemy", "free", "pieces", "touched", "crowded", "limit", "reach"])
EMPTY = (0, 0)


@njit(inline="always")
def has_bit(state, at, brick):
    """Bit ``brick`` of the bitboard starting at word ``at``."""
    return (state[at + (brick >> 6)] & S.BIT[brick & 63]) != 0


@njit(inline="always")
def set_bit(state, at, brick):
    state[at + (brick >> 6)] |= S.BIT[brick & 63]


@njit(inline="always")
def clear_bit(state, at, brick):
    state[at + (brick >> 6)] &= ~S.BIT[brick & 63]


# ------------------------------------------------------------------ triangle sets
@njit
def meet(first, second):
    """Triangles in both sets."""
    return (first[0] & second[0], first[1] & second[1])


@njit
def join(first, second):
    """Triangles in either set."""
    return (first[0] | second[0], first[1] | second[1])


@njit
def without(first, second):
    """Triangles of ``first`` not in ``second``."""
    return (first[0] & ~second[0], first[1] & ~second[1])


@njit
def is_empty(tri_set):
    """No triangle in the set."""
    return (tri_set[0] | tri_set[1]) == 0


@njit
def single(tri_index):
    """The set of one triangle."""
    return (S.TRI_SINGLE[tri_index, 0], S.TRI_SINGLE[tri_index, 1])


@njit
def neighbours(tri_index):
    """The triangles touching ``tri_index``."""
    return (S.TRI_NEIGHBOUR_SET[tri_index, 0], S.TRI_NEIGHBOUR_SET[tri_index, 1])


@njit
def contains(tri_set, tri_index):
    """Triangle ``tri_index`` is in the set."""
    return not is_empty(meet(tri_set, single(tri_index)))


@njit
def first_triangle(tri_set):
    """The lowest triangle of a non-empty set."""
    if tri_set[0] != 0:
        return trailing_zeros(tri_set[0])
    return S.TRI_WORD_BITS + trailing_zeros(tri_set[1])


@njit
def set_size(tri_set):
    """How many triangles (a group grows by a few at a time: a loop beats a popcount table)."""
    size = 0
    for k in range(2):
        word = tri_set[k]
        while word != 0:
            word &= word - 1
            size += 1
    return size


@njit
def spread(tri_set):
    """Every triangle touching one of ``tri_set`` (the loops clear each word's
    lowest bit, so the next bit never waits on a table lookup)."""
    low, high = 0, 0
    for k in range(2):
        word = tri_set[k]
        while word != 0:
            t = S.TRI_WORD_BITS * k + trailing_zeros(word)
            word &= word - 1
            low |= S.TRI_NEIGHBOUR_SET[t, 0]
            high |= S.TRI_NEIGHBOUR_SET[t, 1]
    return (low, high)


@njit(inline="always")
def brick_triangles(state, at):
    """The triangle set of the brick bitboard at word ``at`` (the sign bit
    apart, so that clearing the lowest bit never wraps)."""
    low, high = 0, 0
    for k in range(S.WORDS):
        word = state[at + k]
        if word < 0:
            t = S.BRICK_TRI[64 * k + 63]
            low |= S.TRI_SINGLE[t, 0]
            high |= S.TRI_SINGLE[t, 1]
            word ^= S.BIT[63]
        while word != 0:
            t = S.BRICK_TRI[64 * k + trailing_zeros(word)]
            word &= word - 1
            low |= S.TRI_SINGLE[t, 0]
            high |= S.TRI_SINGLE[t, 1]
    return (low, high)


# ------------------------------------------------------------------ the defender rules
@njit(inline="always")
def read_defence(state, game, seat):
    """The :data:`Defence` of ``seat``, read from the row's defender bitboards."""
    own = brick_triangles(state, S.DEFENDER_BITS + seat * S.WORDS)
    enemy = brick_triangles(state, S.DEFENDER_BITS + (1 - seat) * S.WORDS)
    everyone = join(own, enemy)
    pieces = everyone if game[S.G_GROUP_BOTH] != 0 else own
    touched, crowded = EMPTY, EMPTY
    for k in range(2):
        word = pieces[k]
        while word != 0:
            beside = neighbours(S.TRI_WORD_BITS * k + trailing_zeros(word))
            word &= word - 1
            crowded = join(crowded, meet(touched, beside))
            touched = join(touched, beside)
    free = without((S.BLACK_SET[0], S.BLACK_SET[1]), everyone)
    return Defence(
        own, enemy, free, pieces, touched, crowded, game[S.G_GROUP_LIMIT], game[S.G_DEFENDER_RANGE]
    )


@njit
def lone_stops(defence, start):
    """Free triangles beside no counting defender but the one on ``start``
    (-1: none lifted): always a legal stop."""
    if start < 0:
        return without(defence.free, defence.touched)
    beside = neighbours(start)
    near = join(without(defence.touched, beside), meet(defence.crowded, beside))
    return without(defence.free, near)


@njit
def group_ok(pieces, tri_index, limit):
    """``group_ok``: would a defender on the free ``tri_index`` form a group of
    ``pieces`` within the limit? (the walk stops once the group is too big)"""
    left, todo, size = pieces, single(tri_index), 1
    while not is_empty(todo):
        t = first_triangle(todo)
        todo = without(todo, single(t))
        found = meet(neighbours(t), left)
        if not is_empty(found):
            left = without(left, found)
            todo = join(todo, found)
            size += set_size(found)
            if size > limit:
                return False
    return True


@njit
def within_limit(defence, candidates, start):
    """The triangles of ``candidates`` where a defender's group (the one on
    ``start`` lifted, -1: none) stays within the limit."""
    pieces = defence.pieces if start < 0 else without(defence.pieces, single(start))
    low, high = 0, 0
    for k in range(2):
        word = candidates[k]
        while word != 0:
            here = word & -word
            word ^= here
            if group_ok(pieces, S.TRI_WORD_BITS * k + trailing_zeros(here), defence.limit):
                if k == 0:
                    low |= here
                else:
                    high |= here
    return (low, high)


@njit
def placeable(defence):
    """``placeable``: the free black triangles a new defender may go on."""
    lone = lone_stops(defence, -1)
    return join(lone, within_limit(defence, without(defence.free, lone), -1))


@njit
def reachable(defence, start):
    """Every free triangle within ``defender_range`` steps of ``start`` through free ones."""
    front, left = single(start), defence.free
    for _ in range(defence.reach):
        front = meet(spread(front), left)
        if is_empty(front):
            break
        left = without(left, front)
    return without(defence.free, left)


@njit
def destinations(defence, start):
    """``destinations``: the legal stops of the defender on ``start``."""
    reach = reachable(defence, start)
    lone = meet(reach, lone_stops(defence, start))
    return join(lone, within_limit(defence, without(reach, lone), start))


@njit
def has_destination(defence, start):
    """``has_destination``: the fill stops at the first lone stop it meets;
    else some reached triangle must keep the group within the limit."""
    lone = lone_stops(defence, start)
    front, left = single(start), defence.free
    for _ in range(defence.reach):
        front = meet(spread(front), left)
        if is_empty(front):
            break
        if not is_empty(meet(front, lone)):
            return True
        left = without(left, front)
    return not is_empty(within_limit(defence, without(defence.free, left), start))


@njit
def can_move(defence, tri_index):
    """Whether the defender on ``tri_index`` has a legal destination (quick
    answers first: no free neighbour, or a lone stop beside it)."""
    beside = meet(neighbours(tri_index), defence.free)
    if is_empty(beside):
        return False
    if not is_empty(meet(beside, lone_stops(defence, tri_index))):
        return True
    return has_destination(defence, tri_index)
