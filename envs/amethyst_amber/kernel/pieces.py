"""Bitboard words of the row, and where defenders may stand and go.

A bitboard field is ``WORDS`` int64 words of the brick grid (bit ``b`` in
word ``b >> 6``). The defender rules work on a per-triangle owner array
read from the two seats' bitboards (``read_owners``: 0, 1 or -1 per
triangle), with breadth-first fills over the neighbour table: a
defender's move is up to ``defender_range`` steps through empty black
triangles, and it may stop only where its group of touching counting
defenders (its own colour, or both with ``group_limit_scope="all"``) stays
within ``group_limit`` (``defenders.py`` is the reference).
"""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.core.compiled.jit import njit

MOST_IN_GROUP = 17  # group_limit's largest value, plus the triangle tested


@njit
def has_bit(state, at, brick):
    """Bit ``brick`` of the bitboard starting at word ``at``."""
    return (state[at + (brick >> 6)] & S.BIT[brick & 63]) != 0


@njit
def set_bit(state, at, brick):
    state[at + (brick >> 6)] |= S.BIT[brick & 63]


@njit
def clear_bit(state, at, brick):
    state[at + (brick >> 6)] &= ~S.BIT[brick & 63]


@njit
def lowest_bit(word):
    """The place of the lowest set bit of a non-zero int64 word."""
    if word == S.BIT[63]:
        return 63
    return S.BIT_BY_MOD67[(word & -word) % 67]


@njit
def read_owners(state, owners):
    """``owners[t]``: the seat whose defender stands on triangle t, or -1
    (the set bits of each word found lowest first, the sign bit apart)."""
    owners[:] = -1
    for seat in range(2):
        for k in range(S.WORDS):
            word = state[S.DEFENDER_BITS + seat * S.WORDS + k]
            if word < 0:
                owners[S.BRICK_TRI[64 * k + 63]] = seat
                word ^= S.BIT[63]
            while word != 0:
                low = word & -word
                owners[S.BRICK_TRI[64 * k + S.BIT_BY_MOD67[low % 67]]] = seat
                word ^= low


@njit
def counts(owners, tri_index, seat, both):
    """Whether the defender on ``tri_index`` (if any) counts towards seat's groups."""
    return owners[tri_index] >= 0 if both else owners[tri_index] == seat


@njit
def group_ok(owners, tri_index, start, seat, both, limit, group):
    """``group_ok``: would a defender on ``tri_index`` (with the one on ``start``
    lifted) form a group within the limit? ``group``: scratch of MOST_IN_GROUP."""
    group[0] = tri_index
    size = 1
    k = 0
    while k < size:
        here = group[k]
        k += 1
        for j in range(3):
            u = S.TRI_NEIGHBOURS[here, j]
            if u < 0 or u == start or u == tri_index or not counts(owners, u, seat, both):
                continue
            known = False
            for i in range(size):
                if group[i] == u:
                    known = True
                    break
            if known:
                continue
            if size >= limit:
                return False
            group[size] = u
            size += 1
    return True


@njit
def may_stop(owners, tri_index, start, seat, both, limit, group):
    """A legal stop (or placement) on the free triangle ``tri_index``: alone, or in a small enough group."""
    for j in range(3):
        u = S.TRI_NEIGHBOURS[tri_index, j]
        if u >= 0 and u != start and counts(owners, u, seat, both):
            return group_ok(owners, tri_index, start, seat, both, limit, group)
    return True


@njit
def expand(owners, reached, seen, first, end, count):
    """One step of a defender's move: the empty black neighbours of
    ``reached[first:end]`` not seen yet go to ``reached[count:]``; returns the new count."""
    for i in range(first, end):
        here = reached[i]
        for j in range(3):
            u = S.TRI_NEIGHBOURS[here, j]
            if u >= 0 and not seen[u] and S.IS_BLACK[u] and owners[u] < 0:
                seen[u] = 1
                reached[count] = u
                count += 1
    return count


@njit
def forget(reached, seen, count):
    """Clear ``seen`` of what ``reached[:count]`` marked."""
    for i in range(count):
        seen[reached[i]] = 0


@njit
def destinations(owners, game, seat, start, reached, seen, group):
    """``destinations``: the legal stops of seat's defender on ``start``
    into ``reached`` (in the order found); returns how many."""
    both, limit = game[S.G_GROUP_BOTH] != 0, game[S.G_GROUP_LIMIT]
    reached[0] = start
    seen[start] = 1
    first, count = 0, 1
    for _ in range(game[S.G_DEFENDER_RANGE]):
        end = count
        count = expand(owners, reached, seen, first, end, count)
        if count == end:
            break
        first = end
    forget(reached, seen, count)
    found = 0
    for i in range(1, count):
        x = reached[i]
        if may_stop(owners, x, start, seat, both, limit, group):
            reached[found] = x
            found += 1
    return found


@njit
def has_destination(owners, game, seat, start, reached, seen, group):
    """``has_destination``: the fill stops at the first legal stop it meets."""
    both, limit = game[S.G_GROUP_BOTH] != 0, game[S.G_GROUP_LIMIT]
    reached[0] = start
    seen[start] = 1
    first, count = 0, 1
    found = False
    for _ in range(game[S.G_DEFENDER_RANGE]):
        end = count
        count = expand(owners, reached, seen, first, end, count)
        for i in range(end, count):
            if may_stop(owners, reached[i], start, seat, both, limit, group):
                found = True
                break
        if found or count == end:
            break
        first = end
    forget(reached, seen, count)
    return found


@njit
def can_move(owners, game, seat, tri_index, scratch, seen, group):
    """Whether seat's defender on ``tri_index`` has a legal destination (quick answers first:
    no empty black neighbour, or one with no other counting defender beside it)."""
    both = game[S.G_GROUP_BOTH] != 0
    beside_free = False
    for j in range(3):
        u = S.TRI_NEIGHBOURS[tri_index, j]
        if u < 0 or not S.IS_BLACK[u] or owners[u] >= 0:
            continue
        beside_free = True
        alone = True
        for k in range(3):
            v = S.TRI_NEIGHBOURS[u, k]
            if v >= 0 and v != tri_index and counts(owners, v, seat, both):
                alone = False
                break
        if alone:
            return True
    if not beside_free:
        return False
    return has_destination(owners, game, seat, tri_index, scratch, seen, group)


@njit
def placeable(owners, game, seat, tri_index, group):
    """``placeable``: a new defender of seat may go on triangle ``tri_index``."""
    if not S.IS_BLACK[tri_index] or owners[tri_index] >= 0:
        return False
    return may_stop(owners, tri_index, -1, seat, game[S.G_GROUP_BOTH] != 0, game[S.G_GROUP_LIMIT], group)
