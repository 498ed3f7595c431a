"""A top tile over a state row (``splits.py``): which covers split an
opponent's complete amoeba legally, the plan of each (the new amoebas, their
owners, the supplies), and the cover committed.

A plan lives in one int64 array (:func:`new_plan`): the covered placement
and pieces, the old amoebas, then the new amoebas as groups of pieces in
the order the reference's flood finds them (their ids follow that order).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.table import (
    amoeba_at,
    count_pieces,
    count_placements,
    face,
    piece_slot,
    port_slot,
    record_placement,
    slot_piece,
)
from meeplezoo.envs.core.compiled.jit import njit

MOST_GROUPS = 16
COVERED_AT, OLD_COUNT, GROUPS, KEEPER, PARTS, MERGED_OWNER = range(6)
NEW_SLOTS = 8  # 9 words: the new pieces' slots, 3 per piece
COVERED_PIECES = 17  # 3 words
OLD = 20  # 3 words
GROUP_START = 24  # MOST_GROUPS + 1 words
OPENS = GROUP_START + MOST_GROUPS + 1
OWNERS = OPENS + MOST_GROUPS
HOLDS = OWNERS + MOST_GROUPS
MEMBERS = HOLDS + MOST_GROUPS
PLAN_WORDS = MEMBERS + S.MOST_PIECES + 3


@njit
def new_plan():
    return np.full(PLAN_WORDS, -1, dtype=np.int64)


@njit(inline="always")
def new_piece_of(plan, units, facing, base):
    """The new piece whose port is at slot ``facing`` (-1: none)."""
    for i in range(9):
        if plan[NEW_SLOTS + i] == facing:
            return base + i // 3
    return -1


@njit
def components(state, units, oriented_tile, placement_index, plan):
    """``_top_components``: the old amoebas of the covered pieces and the
    groups of pieces (with open ports) once the new pieces replace them."""
    anchor = state[S.PLACEMENTS + 4 * placement_index]
    base = count_pieces(state, count_placements(state))
    for i in range(3):
        for j in range(3):
            port = S.PIECE_PORTS[oriented_tile, i, j] if i < S.PIECE_COUNT[oriented_tile] else -1
            plan[NEW_SLOTS + 3 * i + j] = -1 if port < 0 else port_slot(units, anchor, port)
    olds = 0
    plan[OLD], plan[OLD + 1], plan[OLD + 2] = -1, -1, -1
    for j in range(3):
        piece = state[S.PLACEMENT_PIECES + 3 * placement_index + j]
        plan[COVERED_PIECES + j] = piece
        if piece >= 0:
            aid = state[S.PIECE_AMOEBA + 2 * piece]
            if aid != plan[OLD] and aid != plan[OLD + 1] and aid != plan[OLD + 2]:
                plan[OLD + olds] = aid
                olds += 1
    plan[COVERED_AT], plan[OLD_COUNT] = placement_index, olds
    nodes = np.empty(S.MOST_PIECES + 3, dtype=np.int64)
    count = 0
    for index in range(olds):
        piece = state[amoeba_at(plan[OLD + index], S.HEAD)]
        while piece >= 0:
            if piece != plan[COVERED_PIECES] and piece != plan[COVERED_PIECES + 1]:
                if piece != plan[COVERED_PIECES + 2]:
                    nodes[count] = piece
                    count += 1
            piece = state[S.PIECE_AMOEBA + 2 * piece + 1]
    for i in range(S.PIECE_COUNT[oriented_tile]):
        nodes[count] = base + i
        count += 1
    flood(state, units, plan, nodes, count, base)


@njit
def flood(state, units, plan, nodes, count, base):
    """``_flood``: connected groups of pieces, each with its open ports."""
    label = np.full(S.MOST_PIECES + 3, -1, dtype=np.int64)
    stack = np.empty(S.MOST_PIECES + 3, dtype=np.int64)
    groups = filled = 0
    for n in range(count):
        start = nodes[n]
        if label[start] >= 0:
            continue
        label[start] = groups
        plan[GROUP_START + groups] = filled
        stack[0], depth, opened = start, 1, 0
        while depth > 0:
            depth -= 1
            piece = stack[depth]
            plan[MEMBERS + filled] = piece
            filled += 1
            for j in range(3):
                if piece >= base:
                    slot = plan[NEW_SLOTS + 3 * (piece - base) + j]
                else:
                    slot = piece_slot(state, units, piece, j)
                if slot < 0:
                    break
                facing = face(units, slot)
                if facing < 0 or state[S.UNIT_PLACEMENT + (facing >> 2)] < 0:
                    opened += 1
                    continue
                other = new_piece_of(plan, units, facing, base)
                if other < 0:
                    other = slot_piece(state, units, facing)
                    if other < 0 or other == plan[COVERED_PIECES] or other == plan[COVERED_PIECES + 1]:
                        continue
                    if other == plan[COVERED_PIECES + 2]:
                        continue
                if label[other] < 0:
                    label[other] = groups
                    stack[depth] = other
                    depth += 1
        plan[OPENS + groups] = opened
        groups += 1
    plan[GROUP_START + groups] = filled
    plan[GROUPS] = groups


@njit
def split_target(state, game, plan, mover):
    """``_split_target``: the one opponent's complete amoeba, big enough,
    that covering the tile would split (-1: none), among the old amoebas."""
    target, targets = -1, 0
    for index in range(plan[OLD_COUNT]):
        aid = plan[OLD + index]
        if state[amoeba_at(aid, S.OPEN)] != 0:
            return -1
        owner = state[amoeba_at(aid, S.OWNER)]
        if owner >= 0 and owner != mover and state[amoeba_at(aid, S.SIZE)] >= game[S.G_MIN_SPLIT]:
            targets += 1
            target = aid
    return target if targets == 1 else -1


@njit(inline="always")
def group_size(plan, group):
    return plan[GROUP_START + group + 1] - plan[GROUP_START + group]


@njit
def holdings(state, plan, base):
    """Per group, the old amoebas it holds (bits by their index in OLD)."""
    for g in range(plan[GROUPS]):
        held = 0
        for m in range(plan[GROUP_START + g], plan[GROUP_START + g + 1]):
            piece = plan[MEMBERS + m]
            if piece < base:
                aid = state[S.PIECE_AMOEBA + 2 * piece]
                for index in range(plan[OLD_COUNT]):
                    if plan[OLD + index] == aid:
                        held |= 1 << index
        plan[HOLDS + g] = held


@njit(inline="always")
def bit_count(bits):
    return (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1)


@njit(inline="always")
def lowest_bit_index(bits):
    return 0 if bits & 1 else (1 if bits & 2 else 2)


@njit(inline="always")
def index_of(plan, aid):
    for index in range(plan[OLD_COUNT]):
        if plan[OLD + index] == aid:
            return index
    return -1


@njit
def parts_legal(game, plan, target_bit):
    """Two or three parts, each big enough; no bystander split (returns the parts' count, 0: illegal)."""
    parts = 0
    for g in range(plan[GROUPS]):
        if plan[HOLDS + g] & target_bit:
            parts += 1
            if group_size(plan, g) < game[S.G_MIN_PART]:
                return 0
    if parts < 2 or parts > 3:
        return 0
    for index in range(plan[OLD_COUNT]):
        if 1 << index == target_bit:
            continue
        holders = 0
        for g in range(plan[GROUPS]):
            holders += plan[HOLDS + g] >> index & 1
        if holders != 1:
            return 0
    return parts


@njit
def merged_part(plan, target_bit):
    """``_merge_in_split``: (the part that also joins another amoeba, that
    amoeba's index) or (-1, -1); (-2, -2) when the joins are not allowed."""
    merged = merged_by = -1
    for g in range(plan[GROUPS]):
        others = plan[HOLDS + g] & ~target_bit
        if plan[HOLDS + g] & target_bit:
            if bit_count(others) > 1:
                return -2, -2
            if others:
                if merged >= 0:
                    return -2, -2
                merged, merged_by = g, lowest_bit_index(others)
        elif bit_count(others) != 1:
            return -2, -2
    return merged, merged_by


@njit
def lowest_unit(state, units, plan, group, base):
    lowest = units * units
    for m in range(plan[GROUP_START + group], plan[GROUP_START + group + 1]):
        piece = plan[MEMBERS + m]
        for j in range(3):
            slot = (
                plan[NEW_SLOTS + 3 * (piece - base) + j]
                if piece >= base
                else piece_slot(state, units, piece, j)
            )
            if slot < 0:
                break
            lowest = min(lowest, slot // 4)
    return lowest


@njit
def keeper_of(state, units, plan, target_bit, merged, base):
    """The part that stays with the target's owner: the smallest by (size,
    smallest unit), groups in order on a tie, never the merged one."""
    best, best_size, best_unit = -1, 0, 0
    for g in range(plan[GROUPS]):
        if not plan[HOLDS + g] & target_bit or g == merged:
            continue
        size, unit = group_size(plan, g), lowest_unit(state, units, plan, g, base)
        if best < 0 or size < best_size or (size == best_size and unit < best_unit):
            best, best_size, best_unit = g, size, unit
    return best


@njit
def plan_top(state, game, oriented_tile, placement_index, mover, plan):
    """``_plan_top``: whether covering ground tile ``placement_index`` with ``oriented_tile`` is
    a legal split for ``mover``; the plan (owners included) is left in ``plan``."""
    units = game[S.G_UNITS]
    components(state, units, oriented_tile, placement_index, plan)
    target = split_target(state, game, plan, mover)
    if target < 0:
        return False
    for g in range(plan[GROUPS]):
        if plan[OPENS + g] != 0:
            return False
    base = count_pieces(state, count_placements(state))
    holdings(state, plan, base)
    target_bit = 1 << index_of(plan, target)
    parts = parts_legal(game, plan, target_bit)
    if parts == 0:
        return False
    merged, merged_by = merged_part(plan, target_bit)
    if merged == -2:
        return False
    merged_owner = state[amoeba_at(plan[OLD + merged_by], S.OWNER)] if merged_by >= 0 else -1
    if state[S.SUPPLY + mover] + (1 if merged_owner == mover else 0) < parts - 1:
        return False
    keeper = keeper_of(state, units, plan, target_bit, merged, base)
    for g in range(plan[GROUPS]):
        if g == keeper:
            plan[OWNERS + g] = state[amoeba_at(target, S.OWNER)]
        elif plan[HOLDS + g] & target_bit:
            plan[OWNERS + g] = mover
        else:
            plan[OWNERS + g] = state[amoeba_at(plan[OLD + lowest_bit_index(plan[HOLDS + g])], S.OWNER)]
    plan[KEEPER], plan[PARTS], plan[MERGED_OWNER] = keeper, parts, merged_owner
    return True


@njit
def commit_top(state, game, tile, rotation, plan):
    """``_resolve_split``: the supplies, then the top tile laid and the
    touched amoebas replaced by the plan's groups (new ids in group order)."""
    units, mover = game[S.G_UNITS], state[S.MOVER]
    if plan[MERGED_OWNER] >= 0:
        state[S.SUPPLY + plan[MERGED_OWNER]] += 1
    state[S.SUPPLY + mover] -= plan[PARTS] - 1
    covered = plan[COVERED_AT]
    state[S.COVERED + covered] = 1
    k = count_placements(state)
    base = count_pieces(state, k)
    record_placement(state, units, k, state[S.PLACEMENTS + 4 * covered], tile, rotation, 2)
    for j in range(3):
        piece = plan[COVERED_PIECES + j]
        if piece >= 0:
            state[S.PIECE_AMOEBA + 2 * piece], state[S.PIECE_AMOEBA + 2 * piece + 1] = -1, -1
    for index in range(plan[OLD_COUNT]):
        for word in range(S.AMOEBA_WORDS):
            state[amoeba_at(plan[OLD + index], word)] = -1
    for i in range(S.PIECE_COUNT[tile * 4 + rotation]):
        piece = base + i
        state[S.PIECE_PLACEMENT + piece], state[S.PIECE_NUMBER + piece] = k, i + 1
        state[S.PIECE_AMOEBA + 2 * piece], state[S.PIECE_AMOEBA + 2 * piece + 1] = -1, -1
        state[S.PLACEMENT_PIECES + 3 * k + i] = piece
    for g in range(plan[GROUPS]):
        aid = state[S.NEXT_AMOEBA_ID]
        state[S.NEXT_AMOEBA_ID] = aid + 1
        first, stop = plan[GROUP_START + g], plan[GROUP_START + g + 1]
        for m in range(first, stop):
            piece = plan[MEMBERS + m]
            state[S.PIECE_AMOEBA + 2 * piece] = aid
            state[S.PIECE_AMOEBA + 2 * piece + 1] = plan[MEMBERS + m + 1] if m + 1 < stop else -1
        at = amoeba_at(aid, 0)
        state[at + S.HEAD], state[at + S.TAIL], state[at + S.SIZE] = (
            plan[MEMBERS + first],
            plan[MEMBERS + stop - 1],
            stop - first,
        )
        state[at + S.OPEN], state[at + S.OWNER] = plan[OPENS + g], plan[OWNERS + g]
