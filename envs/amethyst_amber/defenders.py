"""Where defenders may stand and go: flood fills and the group limit over
brick-grid bitboards (Python ints, one bit per cell).

A defender's move is up to ``defender_range`` steps through empty black
triangles, and it may stop only where its group (touching defenders of the
counting kind: its own colour, or both with ``group_limit_scope="all"``)
stays within ``group_limit``. The fills step sideways with plain shifts:
two triangles side by side in a brick row always touch, and a shift that
wraps to the next row lands on a hex row, which ``free`` never contains
(the Board checks both facts when it is built). Only the vertical step
needs the ``edge_down`` mask.

``defenders`` is every defender on the board (both colours); ``pieces``
those that count towards the mover's groups.
"""

from __future__ import annotations


def group_ok(game, bit: int, pieces: int) -> bool:
    """Would a defender on ``bit`` form a group within the limit? (a
    depth-first walk over the neighbour table that stops as soon as the
    group is too big)"""
    limit = game.group_limit
    neighbours = game.board.tri_nbr_bits
    pieces &= ~bit
    size = 1
    todo = [bit]
    while todo:
        x = neighbours[todo.pop().bit_length() - 1] & pieces
        while x:
            low = x & -x
            x ^= low
            pieces ^= low
            size += 1
            if size > limit:
                return False
            todo.append(low)
    return True


def within_limit(game, bits: int, pieces: int) -> int:
    """The triangles of ``bits`` where a defender's group would stay within the limit."""
    ok = 0
    while bits:
        low = bits & -bits
        bits ^= low
        if group_ok(game, low, pieces):
            ok |= low
    return ok


def placeable(game, defenders: int, pieces: int) -> int:
    """Free black triangles where a new defender's group stays within the limit."""
    free = game.board.black_bits & ~defenders
    danger = free & game.board.geo.spread(pieces)
    return (free ^ danger) | within_limit(game, danger, pieces)


def destinations(game, defenders: int, pieces: int, tri_index: int) -> int:
    """Every legal destination of the defender on triangle ``tri_index``."""
    geo = game.board.geo
    down, two_rows = geo.edge_down, 2 * geo.width
    start = geo.bit_tri[tri_index]
    left = free = game.board.black_bits & ~defenders
    front = start
    for _ in range(game.defender_range):
        front = (
            (front << 1) | (front >> 1) | ((front & down) << two_rows) | ((front >> two_rows) & down)
        ) & left
        if not front:
            break
        left ^= front
    reach = free ^ left
    if not reach:
        return 0
    pieces &= ~start
    danger = reach & (
        (pieces << 1) | (pieces >> 1) | ((pieces & down) << two_rows) | ((pieces >> two_rows) & down)
    )
    return (reach ^ danger) | within_limit(game, danger, pieces)


def has_destination(game, defenders: int, pieces: int, tri_index: int) -> bool:
    """Whether the defender on ``tri_index`` has any legal destination: the flood fill
    stops at the first reached triangle that touches no other defender of
    the counting kind (always a legal stop)."""
    geo = game.board.geo
    down, two_rows = geo.edge_down, 2 * geo.width
    start = geo.bit_tri[tri_index]
    left = free = game.board.black_bits & ~defenders
    pieces &= ~start
    far = free & ~(
        (pieces << 1) | (pieces >> 1) | ((pieces & down) << two_rows) | ((pieces >> two_rows) & down)
    )
    front = start
    for _ in range(game.defender_range):
        front = (
            (front << 1) | (front >> 1) | ((front & down) << two_rows) | ((front >> two_rows) & down)
        ) & left
        if not front:
            break
        if front & far:
            return True
        left ^= front
    danger = free ^ left
    while danger:
        low = danger & -danger
        danger ^= low
        if group_ok(game, low, pieces):
            return True
    return False


def movable(game, own: int, defenders: int, pieces: int) -> int:
    """Bitboard of the defenders in ``own`` that have a legal destination.

    Bulk test first: a defender next to an empty black triangle whose only
    neighbouring piece is itself can always step there. Defenders with no
    empty black neighbour cannot move. Only the rest get a flood fill of
    their own, which stops at the first legal stop it meets."""
    geo = game.board.geo
    down, two_rows = geo.edge_down, 2 * geo.width
    free = game.board.black_bits & ~defenders
    beside_free = own & (
        (free << 1) | (free >> 1) | ((free & down) << two_rows) | ((free >> two_rows) & down)
    )
    if not beside_free:
        return 0
    # free triangles with exactly one neighbour among the pieces
    a, b = pieces << 1, pieces >> 1
    c, d = (pieces & down) << two_rows, (pieces >> two_rows) & down
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    lone = free & (a | b | c | d) & ~two
    easy = own & ((lone << 1) | (lone >> 1) | ((lone & down) << two_rows) | ((lone >> two_rows) & down))
    hard = beside_free & ~easy
    brick_to_tri = geo.brick_to_tri
    while hard:
        low = hard & -hard
        hard ^= low
        if has_destination(game, defenders, pieces, brick_to_tri[low.bit_length() - 1]):
            easy |= low
    return easy
