"""The global features of a seat's observation, compiled (``observe.encode``'s globals).

``write_globals(state, game, me, gl, scratch)`` fills ``gl``, the GLOBAL
bytes after the planes, which the caller has cleared: the arrows, a row per
seat in ``me``'s seat order (holdings, secret flag, score), ``me``'s secret,
the phase / action / sub-step block, the unseen shard counts, the
configuration's tail and the turn pair.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit_borrowing
from meeplezoo.envs.gem_mountain.decisions import ARROWS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.observe import (
    ARROW_SLOTS,
    CAP,
    G_ARROW,
    G_FLAGS,
    G_LANTERN,
    G_OWED,
    G_PHASE,
    G_RES,
    G_SEATS,
    G_SECRET,
    G_SUB,
    G_TAIL,
    G_TURN,
    G_UNSEEN,
    SEAT,
)
from meeplezoo.envs.gem_mountain.tiles import MODULES, NUM_ACTION_TYPES, NUM_CONTENTS, NUM_GEMS, UNKNOWN

SEAT_SCORE = SEAT - 1  # the last byte of a seat's row
SECRET_FLAG = SEAT_SCORE - 1  # ... after its gems and action tiles
FLAG_SLOTS = (S.USED_BEFORE, S.USED_AFTER, S.ANCHORED, S.PRISM_ACTIVE)  # G_FLAGS.. in this order
LIMIT_AT = len(MODULES)  # the action limit's one-hot follows the module flags in the tail
SCRATCH = max(NUM_CONTENTS, 2 * NUM_GEMS)  # int64 words: per gem most and fewest, or per content unseen


@njit_borrowing
def capped(value):
    """``value`` clipped to [-CAP, CAP] as an int8."""
    return np.int8(min(max(value, -CAP), CAP))


@njit_borrowing
def write_globals(state, game, me, gl, scratch):
    """Every global of seat ``me`` into the cleared ``gl`` (``scratch``: SCRATCH int64 words)."""
    _arrows(state, gl)
    _seats(state, game, me, gl, scratch)
    secret = state[S.SECRET_TILES + me]
    gl[G_SECRET + (secret if secret >= 0 else UNKNOWN)] = 1
    _turn_block(state, gl)
    _unseen(state, game, me, gl, scratch)
    _tail(state, game, gl)


@njit_borrowing
def _arrows(state, gl):
    """Globals 0..ARROW_GLOBALS-1: per arrow on the board, present and its position one-hot."""
    for j in range(ARROWS):
        p = state[S.ARROWS_AT + j]
        if p >= 0:
            gl[ARROW_SLOTS * j] = 1
            gl[ARROW_SLOTS * j + 1 + p] = 1


@njit_borrowing
def _seats(state, game, me, gl, scratch):
    """Globals G_SEATS..G_SECRET-1: per seat from ``me`` on, present, gems, action tiles,
    secret flag and score (``me``'s own secret gem counted)."""
    n = game[S.G_NUM_PLAYERS]
    my_secret = state[S.SECRET_TILES + me]
    my_gem = my_secret if my_secret < NUM_GEMS else -1  # -1: no secret gem of mine to count
    _extremes(state, n, me, my_gem, scratch)
    for k in range(n):
        q = (me + k) % n
        o = G_SEATS + SEAT * k
        gl[o] = 1
        score = 0
        for g in range(NUM_GEMS):
            x = _gems_seen(state, me, my_gem, q, g)
            gl[o + 1 + g] = capped(x)
            most, fewest = scratch[g], scratch[NUM_GEMS + g]
            if most != fewest:  # all tied: nobody scores the gem
                if x == most:
                    score += S.GEM_VALUE_TABLE[g] * x
                elif x == fewest:
                    score -= S.GEM_VALUE_TABLE[g] * x
        for a in range(NUM_ACTION_TYPES):
            gl[o + 1 + NUM_GEMS + a] = capped(state[S.ACTION_TILES_AT + q * S.ACTION_ROW + a])
        gl[o + SECRET_FLAG] = 1 if state[S.SECRET_TILES + q] >= 0 else 0
        gl[o + SEAT_SCORE] = capped(score)


@njit_borrowing
def _gems_seen(state, me, my_gem, seat, gem):
    """Gems of kind ``gem`` seat ``me`` counts for ``seat``: public ones, plus its own secret gem."""
    x = state[S.GEMS + seat * S.GEM_ROW + gem]
    if seat == me and gem == my_gem:
        x += 1
    return x


@njit_borrowing
def _extremes(state, num_players, me, my_gem, scratch):
    """Per gem, the most and the fewest any seat holds as ``me`` counts them
    (``score_counts``): into ``scratch[g]`` and ``scratch[NUM_GEMS + g]``."""
    for g in range(NUM_GEMS):
        most = fewest = _gems_seen(state, me, my_gem, 0, g)
        for q in range(1, num_players):
            x = _gems_seen(state, me, my_gem, q, g)
            most, fewest = max(most, x), min(fewest, x)
        scratch[g], scratch[NUM_GEMS + g] = most, fewest


@njit_borrowing
def _turn_block(state, gl):
    """Globals G_PHASE..G_UNSEEN-1: phase (none once over or cut short), the action tile being
    resolved, its sub-step and arrow, grabs owed, Lantern peeks and the turn's flags."""
    if not state[S.OVER] and not state[S.CUT_SHORT]:
        gl[G_PHASE + state[S.PHASE]] = 1
    resolving = state[S.RESOLVING]
    if resolving >= 0:
        gl[G_RES + resolving] = 1
        gl[G_SUB + state[S.SUB_STEP]] = 1
        if state[S.CHOSEN_ARROW] >= 0:
            gl[G_ARROW + state[S.CHOSEN_ARROW]] = 1
    gl[G_OWED] = np.int8(state[S.GRABS_OWED])
    gl[G_LANTERN] = np.int8(state[S.LANTERN_PEEKS_LEFT])
    for f in range(len(FLAG_SLOTS)):
        gl[G_FLAGS + f] = np.int8(state[FLAG_SLOTS[f]])


@njit_borrowing
def _unseen(state, game, me, gl, scratch):
    """Globals G_UNSEEN..G_TAIL-1: per content, shards ``me`` has not seen (the pool less the
    seen ones, its peeked face-down tiles and its secret), clipped to [0, CAP]."""
    for c in range(NUM_CONTENTS):
        scratch[c] = game[S.G_POOL_COUNTS + c] - state[S.SEEN + c]
    if game[S.G_DARK_TUNNELS]:
        for i in range(game[S.G_NUM_CELLS]):
            d = state[S.CELLS + i]
            if d >= 0 and not state[S.FACE_UP + i] and (state[S.PEEKS + i] >> me) & 1:
                for k in range(S.SHARD_COUNT[d]):
                    scratch[S.SHARD_TABLE[d, k]] -= 1
    secret = state[S.SECRET_TILES + me]
    if secret >= 0:
        scratch[secret] -= 1
    for c in range(NUM_CONTENTS):
        gl[G_UNSEEN + c] = np.int8(min(max(scratch[c], 0), CAP))


@njit_borrowing
def _tail(state, game, gl):
    """Globals G_TAIL..: module flags, the action limit's one-hot, then the turn pair."""
    for f in range(LIMIT_AT):
        gl[G_TAIL + f] = 1 if game[S.G_MODULE_FLAGS + f] else 0
    gl[G_TAIL + LIMIT_AT + game[S.G_ACTION_LIMIT]] = 1
    turn = state[S.TURN]
    gl[G_TURN] = np.int8(min(turn, CAP))
    gl[G_TURN + 1] = np.int8(min(game[S.G_MAX_TURNS] - turn, CAP))
