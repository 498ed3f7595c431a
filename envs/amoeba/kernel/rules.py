"""Amoeba's compiled rules over a state row and a game row: the deal, the
legal mask, apply, the turn flow, returns and the game's end (``rules.py``'s
``AmoebaState`` is the reference; the differential tests hold them equal).

Every function takes ``state`` (the int64 row of
:func:`~meeplezoo.envs.core.compiled.layout.layout_of`, its generator words
included) and ``game`` (``kernel.game_row.game_row(game)``).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.amoeba.kernel.split import commit_top, new_plan, plan_top
from meeplezoo.envs.amoeba.kernel.table import (
    amoeba_at,
    fitting_anchors,
    ground_fits,
    oriented,
    piece_slot,
    put_ground,
)
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.batch import pick_legal
from meeplezoo.envs.core.compiled.jit import njit

ONE = np.int64(1)  # an int64 bound: a plain int would compile the generator's draw once more


@njit(inline="always")
def is_done(state):
    """The game is over or cut short."""
    return state[S.TERMINAL] != 0 or state[S.TRUNCATED] != 0


@njit(inline="always")
def current_player(state):
    """The seat to move, -1 once the game is over or cut short."""
    return -1 if is_done(state) else state[S.MOVER]


@njit(inline="always")
def is_terminal(state):
    """The tiles or the nuclei ran out."""
    return state[S.TERMINAL] != 0


@njit(inline="always")
def is_truncated(state):
    """The turn limit was reached before the end."""
    return state[S.TRUNCATED] != 0 and state[S.TERMINAL] == 0


@njit(inline="always")
def hand_length(state, seat):
    for slot in range(S.HAND_SLOTS):
        if state[S.HANDS + seat * S.HAND_SLOTS + slot] < 0:
            return slot
    return S.HAND_SLOTS


@njit(inline="always")
def pile_length(state):
    for k in range(S.TILES):
        if state[S.PILE + k] < 0:
            return k
    return S.TILES


@njit(inline="always")
def may_choose(game, oriented_tile):
    """A rotation a player may choose: a distinct one, or rotation 0 only."""
    return S.DISTINCT[oriented_tile] if game[S.G_ALLOW_ROTATION] else oriented_tile % 4 == 0


@njit
def top_candidates(state, game):
    """``_top_candidates``: the uncovered ground tiles of opponents' complete
    amoebas big enough to split, as placement bits (a pair of words: placements
    0..63, then 64..), so that no array is made per call."""
    mover, low, high = state[S.MOVER], 0, 0
    for aid in range(state[S.NEXT_AMOEBA_ID]):
        at = amoeba_at(aid, 0)
        owner = state[at + S.OWNER]
        if state[at + S.SIZE] <= 0 or owner < 0 or owner == mover or state[at + S.OPEN] != 0:
            continue
        if state[at + S.SIZE] < game[S.G_MIN_SPLIT]:
            continue
        piece = state[at + S.HEAD]
        while piece >= 0:
            k = state[S.PIECE_PLACEMENT + piece]
            if state[S.PLACEMENTS + 4 * k + 3] == 1 and state[S.COVERED + k] == 0:
                if k < 64:
                    low |= ONE << k
                else:
                    high |= ONE << (k - 64)
            piece = state[S.PIECE_AMOEBA + 2 * piece + 1]
    return low, high


@njit(inline="always")
def is_candidate(candidates, placement_index):
    """Whether placement ``placement_index`` is among the bits of :func:`top_candidates`."""
    low, high = candidates
    bits = low >> placement_index if placement_index < 64 else high >> (placement_index - 64)
    return bits & 1 != 0


@njit
def splits_at(state, game, oriented_tile, placement_index, plan):
    """Covering ground tile ``placement_index`` with ``oriented_tile`` is a legal
    split (same pink ports, another pattern; the plan is left in ``plan``)."""
    below = oriented(state, placement_index)
    if S.PINK8[below] != S.PINK8[oriented_tile] or S.PATTERN[below] == S.PATTERN[oriented_tile]:
        return False
    return plan_top(state, game, oriented_tile, placement_index, state[S.MOVER], plan)


@njit
def has_top_plan(state, game, oriented_tile, candidates):
    """``_top_plans(oriented_tile)`` is not empty."""
    plan = new_plan()
    for k in range(S.TILES):
        if is_candidate(candidates, k) and splits_at(state, game, oriented_tile, k, plan):
            return True
    return False


@njit
def mark_top_plans(state, game, oriented_tile, candidates, mask, first):
    """``_top_plans(oriented_tile)``: mark the anchors of its legal splits, from action ``first``."""
    if candidates[0] == 0 and candidates[1] == 0:
        return
    plan = new_plan()
    for k in range(S.TILES):
        if is_candidate(candidates, k) and splits_at(state, game, oriented_tile, k, plan):
            mask[first + state[S.PLACEMENTS + 4 * k]] = True


@njit
def choosable(state, game):
    """The mover's hand tiles and rotations a player may choose, as bits
    ``slot * 4 + rotation``."""
    mover, choices = state[S.MOVER], 0
    for slot in range(hand_length(state, mover)):
        for rotation in range(4):
            if may_choose(game, state[S.HANDS + mover * S.HAND_SLOTS + slot] * 4 + rotation):
                choices |= ONE << (slot * 4 + rotation)
    return choices


@njit
def legal_choices(state, game, probe):
    """``_mark_selects``: the bits ``slot * 4 + rotation`` of the hand tiles
    and rotations that fit somewhere (with ``probe``, only some bit when any do)."""
    choices = choosable(state, game)
    if state[S.FIRST_TILE_PENDING]:
        return choices
    hand = S.HANDS + state[S.MOVER] * S.HAND_SLOTS
    found = ground_fits(state, game[S.G_UNITS], hand, choices, probe)
    if (probe and found != 0) or found == choices:
        return found
    candidates = top_candidates(state, game)
    if candidates[0] == 0 and candidates[1] == 0:
        return found
    for choice in range(4 * S.HAND_SLOTS):
        bit = ONE << choice
        if choices & bit != 0 and found & bit == 0:
            oriented_tile = state[hand + choice // 4] * 4 + choice % 4
            if has_top_plan(state, game, oriented_tile, candidates):
                found |= bit
                if probe:
                    return found
    return found


@njit
def mark_anchors(state, game, mask):
    """``_mark_anchors``: the selected tile's ground anchors (the centre for
    the first tile) and the anchors where it would split an amoeba."""
    units, mover = game[S.G_UNITS], state[S.MOVER]
    o = state[S.HANDS + mover * S.HAND_SLOTS + state[S.SELECTION]] * 4 + state[S.SELECTION + 1]
    first = S.FIRST_ANCHOR_ACTION
    if state[S.FIRST_TILE_PENDING]:
        mask[first + game[S.G_CENTER]] = True
    else:
        fitting_anchors(state, units, o, mask, first)
    mark_top_plans(state, game, o, top_candidates(state, game), mask, first)


@njit
def legal_mask(state, game, mask):
    """``legal_action_mask()``: the legal actions of the phase (none once done)."""
    mask[:] = False
    if is_done(state):
        return
    phase = state[S.PHASE]
    if phase == S.SELECT:
        choices = legal_choices(state, game, False)
        for choice in range(4 * S.HAND_SLOTS):
            if choices >> choice & 1:
                mask[choice] = True
    elif phase == S.ANCHOR:
        mark_anchors(state, game, mask)
    elif phase == S.CLAIM:
        mask[game[S.G_CLAIM_ACTION]] = True
        mask[game[S.G_CLAIM_ACTION] + 1] = True


@njit
def roll(state, game):
    """``_roll``: the next scripted result while the script lasts, else a face."""
    used = state[S.DICE_USED]
    faces = game[S.G_NUM_FACES]
    if used < game[S.G_SCRIPT_SIZE]:
        state[S.DICE_USED] = used + 1
        return game[S.G_FACES + faces + used]
    gen = state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)
    return game[S.G_FACES + pcg64.bounded(gen, ONE, faces + ONE) - 1]


@njit
def amoeba_key(state, units, aid):
    """``amoeba_key``: its smallest port slot."""
    key = units * units * 4
    piece = state[amoeba_at(aid, S.HEAD)]
    while piece >= 0:
        for j in range(3):
            slot = piece_slot(state, units, piece, j)
            if slot < 0:
                break
            key = min(key, slot)
        piece = state[S.PIECE_AMOEBA + 2 * piece + 1]
    return key


@njit(inline="always")
def claimable(state, game, aid):
    """A complete unclaimed amoeba, big enough to claim."""
    at = amoeba_at(aid, 0)
    if state[at + S.SIZE] < max(1, game[S.G_MIN_CLAIM]) or state[at + S.OWNER] >= 0:
        return False
    return state[at + S.OPEN] == 0


@njit
def offer_claims(state, game):
    """``_offer_claims``: the claim step starts if the mover has a nucleus and
    a complete unclaimed amoeba is big enough (offered in key order)."""
    if state[S.SUPPLY + state[S.MOVER]] <= 0:
        return False
    first = 0
    while first < state[S.NEXT_AMOEBA_ID] and not claimable(state, game, first):
        first += 1
    if first == state[S.NEXT_AMOEBA_ID]:
        return False  # the usual case: no list of keys to make
    units, count = game[S.G_UNITS], 0
    keys = np.empty(S.MOST_PIECES, dtype=np.int64)
    for aid in range(first, state[S.NEXT_AMOEBA_ID]):
        if not claimable(state, game, aid):
            continue
        key = amoeba_key(state, units, aid)
        j = count
        while j > 0 and keys[j - 1] > key:  # insertion in key order
            keys[j], state[S.OFFERS + j] = keys[j - 1], state[S.OFFERS + j - 1]
            j -= 1
        keys[j], state[S.OFFERS + j] = key, aid
        count += 1
    state[S.OFFER_INDEX] = 0
    state[S.PHASE] = S.CLAIM
    return True


@njit
def end_turn(state, game):
    """``_end_turn(advance=False)``: draw up, check the end, pass to the next
    seat and roll. Returns whether a next turn began."""
    mover, players = state[S.MOVER], game[S.G_NUM_PLAYERS]
    held, left = hand_length(state, mover), pile_length(state)
    while held < game[S.G_HAND_SIZE] and left > 0:
        left -= 1
        state[S.HANDS + mover * S.HAND_SLOTS + held] = state[S.PILE + left]
        state[S.PILE + left] = -1
        held += 1
    state[S.TURN] += 1
    hands_empty, supplies_empty = True, True
    for seat in range(players):
        hands_empty = hands_empty and hand_length(state, seat) == 0
        supplies_empty = supplies_empty and state[S.SUPPLY + seat] == 0
    if (left == 0 and hands_empty) or supplies_empty:
        state[S.TERMINAL] = 1
    elif state[S.TURN] >= game[S.G_MAX_TURNS]:
        state[S.TRUNCATED] = 1
    if state[S.TERMINAL] or state[S.TRUNCATED]:
        state[S.PHASE] = S.OVER
        return False
    state[S.MOVER] = (mover + 1) % players
    state[S.DIE] = roll(state, game)
    state[S.PLACEMENTS_LEFT], state[S.PLACED] = state[S.DIE], 0
    state[S.SELECTION], state[S.SELECTION + 1] = -1, -1
    return True


@njit
def advance(state, game):
    """``_advance_from_placements``: run the turn forward to the next real
    decision: another placement, else the claims, else the end of the turn."""
    while True:
        mover = state[S.MOVER]
        held = hand_length(state, mover)
        if state[S.PLACEMENTS_LEFT] > 0 and held > 0 and legal_choices(state, game, True) != 0:
            state[S.PHASE] = S.SELECT
            return
        if state[S.PLACED] == 0 and held > 0 and game[S.G_REMOVE_STUCK]:
            gone = 0
            while state[S.REMOVED + mover * S.TILES + gone] >= 0:
                gone += 1
            for slot in range(held):
                state[S.REMOVED + mover * S.TILES + gone + slot] = state[
                    S.HANDS + mover * S.HAND_SLOTS + slot
                ]
                state[S.HANDS + mover * S.HAND_SLOTS + slot] = -1
        if offer_claims(state, game) or not end_turn(state, game):
            return


@njit
def next_offer(state, game):
    """``_next_offer``: the next amoeba on offer while the mover has a
    nucleus, else the claim step ends with the turn."""
    state[S.OFFER_INDEX] += 1
    index = state[S.OFFER_INDEX]
    if index < S.MOST_PIECES and state[S.OFFERS + index] >= 0 and state[S.SUPPLY + state[S.MOVER]] > 0:
        return
    for j in range(S.MOST_PIECES):
        state[S.OFFERS + j] = -1
    state[S.OFFER_INDEX] = 0
    if end_turn(state, game):
        advance(state, game)


@njit
def lay_selected(state, game, anchor):
    """``_lay_selected``: the selected tile goes on the anchor (a split when
    the block holds a tile), leaves the hand, and the turn runs on."""
    units, mover = game[S.G_UNITS], state[S.MOVER]
    slot, rotation = state[S.SELECTION], state[S.SELECTION + 1]
    hand = S.HANDS + mover * S.HAND_SLOTS
    tile = state[hand + slot]
    top = (anchor // (units - 1)) * units + anchor % (units - 1)
    k = state[S.UNIT_PLACEMENT + top]
    if k >= 0:
        plan = new_plan()
        plan_top(state, game, tile * 4 + rotation, k, mover, plan)
        commit_top(state, game, tile, rotation, plan)
    else:
        put_ground(state, units, tile, rotation, anchor)
    for j in range(slot, S.HAND_SLOTS - 1):
        state[hand + j] = state[hand + j + 1]
    state[hand + S.HAND_SLOTS - 1] = -1
    state[S.SELECTION], state[S.SELECTION + 1] = -1, -1
    state[S.PLACEMENTS_LEFT] -= 1
    state[S.PLACED] += 1
    advance(state, game)


@njit
def apply_action(state, game, action):
    """``_apply_action`` of a legal ``action``."""
    phase = state[S.PHASE]
    if phase == S.SELECT:
        state[S.SELECTION], state[S.SELECTION + 1] = action // 4, action % 4
        state[S.PHASE] = S.ANCHOR
    elif phase == S.ANCHOR:
        lay_selected(state, game, action - S.FIRST_ANCHOR_ACTION)
    elif action == game[S.G_CLAIM_ACTION]:
        aid = state[S.OFFERS + state[S.OFFER_INDEX]]
        state[amoeba_at(aid, S.OWNER)] = state[S.MOVER]
        state[S.SUPPLY + state[S.MOVER]] -= 1
        next_offer(state, game)
    else:
        next_offer(state, game)


@njit
def clear_row(state, game):
    """An empty table and empty hands, every list at its fill."""
    state[:] = -1
    for k in range(S.TILES):
        state[S.ON_BOARD + k] = 0
    for seat in range(S.MOST_SEATS):
        state[S.SUPPLY + seat] = game[S.G_NUCLEI] if seat < game[S.G_NUM_PLAYERS] else 0
    state[S.NEXT_AMOEBA_ID] = 0
    for anchor in range((game[S.G_UNITS] - 1) * (game[S.G_UNITS] - 1)):
        state[S.ANCHOR_NEED + anchor] = 0  # every block free, none next to the table
    state[S.FIRST_TILE_PENDING], state[S.MOVER], state[S.PHASE] = 1, 0, S.SELECT
    state[S.DIE], state[S.PLACEMENTS_LEFT], state[S.PLACED] = 0, 0, 0
    state[S.OFFER_INDEX], state[S.TURN], state[S.TERMINAL] = 0, 0, 0
    state[S.TRUNCATED], state[S.DICE_USED] = 0, 0


@njit
def new_game(state, game, seed):
    """``new_initial_state(seed)``: shuffle the pile (or take the override),
    deal every hand from its top, roll and run to the first decision."""
    clear_row(state, game)
    gen = state[S.RNG : S.RNG + pcg64.WORDS].view(np.uint64)
    pcg64.seed(gen, seed)
    if game[S.G_PILE_OVERRIDE_SIZE] >= 0:
        left = game[S.G_PILE_OVERRIDE_SIZE]
        for k in range(left):
            state[S.PILE + k] = game[S.G_PILE_OVERRIDE + k]
    else:
        left = S.TILES
        order = np.arange(S.TILES)
        pcg64.shuffle(gen, order, S.TILES)
        for k in range(S.TILES):
            state[S.PILE + k] = order[k]
    for seat in range(game[S.G_NUM_PLAYERS]):
        for slot in range(game[S.G_HAND_SIZE]):
            if left > 0:
                left -= 1
                state[S.HANDS + seat * S.HAND_SLOTS + slot] = state[S.PILE + left]
                state[S.PILE + left] = -1
    state[S.DIE] = roll(state, game)
    state[S.PLACEMENTS_LEFT] = state[S.DIE]
    advance(state, game)


@njit
def scores(state, players, score, largest):
    """Per seat: the segments of its amoebas, and its largest amoeba."""
    score[:] = 0
    largest[:] = 0
    for aid in range(state[S.NEXT_AMOEBA_ID]):
        owner, size = state[amoeba_at(aid, S.OWNER)], state[amoeba_at(aid, S.SIZE)]
        if size > 0 and owner >= 0:
            score[owner] += size
            largest[owner] = max(largest[owner], size)


@njit
def points(state, game, out):
    """``scores()``: per seat, the segments of its amoebas."""
    largest = np.zeros(game[S.G_NUM_PLAYERS], dtype=np.int64)
    scores(state, game[S.G_NUM_PLAYERS], out, largest)


@njit
def returns(state, game, out):
    """``returns()``: rank rewards on (score, largest amoeba), or the score
    difference / 50."""
    players = game[S.G_NUM_PLAYERS]
    score = np.zeros(players, dtype=np.int64)
    largest = np.zeros(players, dtype=np.int64)
    scores(state, players, score, largest)
    if not game[S.G_RANK_REWARDS]:
        total = score.sum()
        for seat in range(players):
            out[seat] = (score[seat] - (total - score[seat]) / (players - 1)) / 50.0
        return
    for seat in range(players):
        better = tied = 0
        for other in range(players):
            if score[other] > score[seat] or (score[other] == score[seat] and largest[other] > largest[seat]):
                better += 1
            elif score[other] == score[seat] and largest[other] == largest[seat]:
                tied += 1
        share = 0.0
        for rank in range(better, better + tied):
            share += 1.0 - 2.0 * rank / (players - 1)
        out[seat] = share / tied


@njit
def evaluate(state, game, viewer, out):
    """``evaluate(viewer)``: Amoeba's estimate is its returns (public scores)."""
    returns(state, game, out)


@njit
def play_random(state, game, gen, mask, max_steps):
    """Play uniformly random legal actions (the k-th legal one, k drawn from
    ``gen``) until the game is done or ``max_steps``; returns the steps taken."""
    steps = 0
    while steps < max_steps and not is_done(state):
        legal_mask(state, game, mask)
        apply_action(state, game, pick_legal(mask, gen))
        steps += 1
    return steps
