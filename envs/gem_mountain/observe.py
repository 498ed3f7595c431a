"""Observation encoder: one int8 vector from a player's point of view.

Layout (seeds/gem_mountain.md and the env docstring have the full tables):
PLANES planes of M = R*C cells each (plane k, cell i at k*M + i, so the
front part reshapes to (PLANES, R, C)), then GLOBAL features. Everything that
depends only on the configuration is a lookup table built once per Game.

Two encoders give the same vector: :func:`encode` builds it from scratch;
:func:`encode_cached` keeps each seat's last vector on the state and rewrites
only what changed since (cells logged by the rules, the arrow planes when a
top layer or an arrow moved, the seats whose holdings changed, the small
per-step block). Tests check that they agree over random play.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.gem_mountain import tiles as T

PLANES = 113
GLOBAL = 239
CAP = 127  # int8 ceiling for counts and scores
# plane offsets
P_PRESENT, P_UP, P_KNOWN, P_SECTIONS, P_PEEK, P_ARROWS = 0, 1, 2, 3, 99, 104
P_AVAIL, P_TUNNEL, P_SHARDS = 110, 111, 112
# offsets inside the global block
G_SEATS, G_SECRET, G_PHASE, G_RES, G_SUB, G_ARROW = 18, 148, 172, 179, 195, 199
G_OWED, G_LANTERN, G_FLAGS, G_UNSEEN, G_TAIL, G_TURN = 201, 202, 203, 207, 230, 237
SEAT = 26


class _Tables:
    def __init__(self, game) -> None:
        geo = game.geo
        n = game.num_players
        nd = T.NUM_DESIGNS
        M = self.m = game.m
        # planes 0..98 of a cell: present, face-up, known, 4 x 24 section one-hots
        tab = np.zeros((nd * 8 + 2, P_PEEK), dtype=np.int8)
        for d in range(nd):
            for r in range(4):
                for up in (0, 1):
                    row = tab[(d * 4 + r) * 2 + up]
                    row[0], row[1], row[2] = 1, up, 1
                    for s, c in enumerate(T.SECTION_CONTENT[d][r]):
                        row[P_SECTIONS + 24 * s + c] = 1
        self.unknown = nd * 8
        self.empty = nd * 8 + 1
        tab[self.unknown, 0] = 1
        for s in range(4):
            tab[self.unknown, P_SECTIONS + 24 * s + T.UNKNOWN] = 1
        self.cell_rows = tab
        self.dist = [np.array(d, dtype=np.int8) for d in geo.dist]
        self.layer = [
            [np.array([x == k for x in geo.dist[p]], dtype=np.int8) for k in range(geo.depth[p])]
            for p in range(8)
        ]
        self.arrow_cache: dict[tuple, np.ndarray] = {}
        self.peekrel = []
        for me in range(n):
            rel = np.zeros((1 << n, 5), dtype=np.int8)
            for mask in range(1 << n):
                for q in range(n):
                    if mask >> q & 1:
                        rel[mask, (q - me) % n] = 1
            self.peekrel.append(rel)
        self.arrow_rows: dict[tuple, np.ndarray] = {}
        for key in [()] + [(p,) for p in range(8)] + [(p, q) for p in range(8) for q in range(8)]:
            row = np.zeros(18, dtype=np.int8)
            for j, p in enumerate(key):
                row[9 * j] = 1
                row[9 * j + 1 + p] = 1
            self.arrow_rows[key] = row
        self.dyn_cache: dict[tuple, np.ndarray] = {}
        self.dyn_bytes: dict[tuple, bytes] = {}
        # the same rows as bytes, for the cached encoder's bytearray writes
        self.cell_bytes = [row.tobytes() for row in tab]
        self.peek_bytes = [[row.tobytes() for row in rel] for rel in self.peekrel]
        self.arrow_bytes = {k: v.tobytes() for k, v in self.arrow_rows.items()}
        self.secret_bytes = {}
        for sec in range(-1, T.NUM_CONTENTS):
            row = np.zeros(24, dtype=np.int8)
            row[sec if sec >= 0 else T.UNKNOWN] = 1
            self.secret_bytes[sec] = row.tobytes()
        self.zero_tail = bytes(PLANES - P_ARROWS)
        cfg = game.config
        self.tail = np.array(
            [bool(cfg[k]) for k in T.MODULES] + [game.limit == k for k in range(3)], dtype=np.int8
        )
        self.pool_counts = list(game.pool_counts)
        self.orders = [[(me + k) % n for k in range(n)] for me in range(n)]
        # a grab can yield more than one shard only where the map holds split tiles
        self.split = game.layout is not None and not all(T.PLAIN[d] for d in game.layout if d is not None)
        self.split = self.split or (game.layout is None and bool(cfg["gemshards"]))
        self.size = PLANES * M + GLOBAL

    def arrow_block(self, arrows, key) -> np.ndarray:
        """Planes 104..111 for these arrows and layer indices (before masking
        out empty cells), cached per key."""
        blk = np.zeros((8, self.m), dtype=np.int8)
        na = len(arrows)
        for j, p in enumerate(arrows):
            blk[3 * j] = self.dist[p]
            tk, sk = key[na + j], key[2 * na + j]
            if tk >= 0:
                blk[3 * j + 1] = self.layer[p][tk]
            if sk >= 0:
                blk[3 * j + 2] = self.layer[p][sk]
        blk[6] = np.maximum(blk[1], blk[4])
        blk[7] = np.maximum(blk[2], blk[5])
        if len(self.arrow_cache) > 50000:
            self.arrow_cache.clear()
        self.arrow_cache[key] = blk
        return blk

    def dyn_row(self, key: tuple) -> np.ndarray:
        """Globals G_PHASE..G_UNSEEN for one (phase, action, sub-step, flags) key."""
        row = np.zeros(G_UNSEEN - G_PHASE, dtype=np.int8)
        phase, res, sub, carrow = key[:4]
        if phase >= 0:
            row[phase] = 1
        if res >= 0:
            row[G_RES - G_PHASE + res] = 1
            row[G_SUB - G_PHASE + sub] = 1
            if carrow >= 0:
                row[G_ARROW - G_PHASE + carrow] = 1
        row[G_OWED - G_PHASE :] = key[4:]
        self.dyn_cache[key] = row
        self.dyn_bytes[key] = row.tobytes()
        return row


class Observer:
    """The game's observation encoder: declares the observation Box on the
    game; its tables are built on first use (``_tables``)."""

    def __init__(self, game) -> None:
        game.cell_features = PLANES
        game.global_features = GLOBAL
        game.observation_shape = (PLANES * game.m + GLOBAL,)
        game.observation_planes = (PLANES, game.rows, game.cols)
        game.observation_dtype = np.int8
        game.observation_low, game.observation_high = -CAP, CAP
        game._obs_tables = None

    def encode(self, st, me: int) -> np.ndarray:
        return encode_cached(st, me)


def _tables(game) -> _Tables:
    t = game._obs_tables
    if t is None:
        t = game._obs_tables = _Tables(game)
    return t


# ------------------------------------------------------------------ pieces
def _arrow_key(st) -> tuple:
    """(arrow positions..., top layer per arrow..., second layer per arrow...)."""
    arrows = st.arrows
    tops, secs = [], []
    for p in arrows:
        top = sec = -1
        for k, v in enumerate(st.cnt[p]):
            if v:
                if top < 0:
                    top = k
                else:
                    sec = k
                    break
        tops.append(top)
        secs.append(sec)
    return tuple(arrows + tops + secs)


def _dyn_key(st) -> tuple:
    return (
        -1 if (st.over or st.trunc) else st.phase,
        st.res,
        st.sub,
        st.carrow,
        st.owed,
        st.lantern,
        st.used_pre,
        st.used_post,
        st.anchor,
        st.prism_on,
    )


def _codes_at(st, me: int, cells_idx, t) -> list[int]:
    """Table rows of what `me` sees at the given cells."""
    cells, rot = st.cells, st.rot
    if not st.game.dark:
        empty = t.empty
        return [empty if cells[i] < 0 else cells[i] * 8 + rot[i] * 2 + 1 for i in cells_idx]
    bit = 1 << me
    up, peek = st.up, st.peek
    out = []
    for i in cells_idx:
        d = cells[i]
        if d < 0:
            out.append(t.empty)
        elif up[i]:
            out.append((d * 4 + rot[i]) * 2 + 1)
        elif peek[i] & bit:
            out.append((d * 4 + rot[i]) * 2)
        else:
            out.append(t.unknown)
    return out


def _write_arrow_planes(st, t, planes, key) -> None:
    """Planes 104..112: distances, top/second layers, grabbable, Tunnel, shards."""
    atab = t.arrow_cache.get(key)
    if atab is None:
        atab = t.arrow_block(st.arrows, key)
    np.multiply(atab, planes[P_PRESENT], out=planes[P_ARROWS:P_SHARDS])
    # plain tiles yield one shard; known split tiles are counted below
    np.multiply(planes[P_AVAIL], planes[P_KNOWN], out=planes[P_SHARDS])
    if t.split and st.arrows:
        cells = st.cells
        prism = st.prism_on
        shards = planes[P_SHARDS]
        for i in np.flatnonzero(shards).tolist():
            d = cells[i]
            if not T.PLAIN[d]:
                shards[i] = len(T.SHARDS[d]) if prism else len(st.grab_options(i))


def _seat_row(st, me: int, q: int) -> list[int]:
    row = st.gems[q] + st.acts[q]
    sec = st.secret[q]
    if q == me and 0 <= sec < 7:
        row = list(row)
        row[sec] += 1
    row.append(1 if sec >= 0 else 0)
    if max(row) > CAP:
        row = [min(x, CAP) for x in row]
    return row


def _scores(st, me: int) -> list[int]:
    if 0 <= st.secret[me] < 7:
        return st.score_counts(st.gem_counts([me]))
    return st.public_scores()


def _write_scores(st, me: int, t, gl) -> None:
    scores = _scores(st, me)
    n = st.game.num_players
    gl[G_SEATS + 25 : G_SEATS + SEAT * n : SEAT] = [max(-CAP, min(CAP, scores[q])) for q in t.orders[me]]


def _unseen(st, me: int, t) -> list[int]:
    unseen = [a - b for a, b in zip(t.pool_counts, st.seen)]
    if st.game.dark:
        bit = 1 << me
        up, cells = st.up, st.cells
        for i in [i for i, pk in enumerate(st.peek) if pk & bit]:  # peeks are wiped when a tile turns
            if cells[i] >= 0 and not up[i]:
                for c in T.SHARDS[cells[i]]:
                    unseen[c] -= 1
    sec = st.secret[me]
    if sec >= 0:
        unseen[sec] -= 1
    return [x if 0 < x <= CAP else (0 if x <= 0 else CAP) for x in unseen]


def _turn_pair(st) -> tuple[int, int]:
    return min(st.turn, CAP), min(st.game.max_turns - st.turn, CAP)


# ------------------------------------------------------------------ encoders
def encode(st, me: int) -> np.ndarray:
    """The observation of seat `me`, built from scratch."""
    g = st.game
    t = _tables(g)
    M, _n = g.m, g.num_players
    obs = np.zeros(t.size, dtype=np.int8)
    planes = obs[: PLANES * M].reshape(PLANES, M)
    planes[:P_PEEK] = t.cell_rows[_codes_at(st, me, range(M), t)].T
    if g.dark:
        planes[P_PEEK:P_ARROWS] = t.peekrel[me][st.peek].T
    _write_arrow_planes(st, t, planes, _arrow_key(st))
    gl = obs[PLANES * M :]
    gl[0:18] = t.arrow_rows[tuple(st.arrows)]
    for k, q in enumerate(t.orders[me]):
        o = G_SEATS + SEAT * k
        gl[o] = 1
        gl[o + 1 : o + 25] = _seat_row(st, me, q)
    _write_scores(st, me, t, gl)
    sec = st.secret[me]
    gl[G_SECRET + (sec if sec >= 0 else T.UNKNOWN)] = 1
    key = _dyn_key(st)
    gl[G_PHASE:G_UNSEEN] = t.dyn_cache.get(key) if key in t.dyn_cache else t.dyn_row(key)
    gl[G_UNSEEN:G_TAIL] = _unseen(st, me, t)
    gl[G_TAIL:G_TURN] = t.tail
    gl[G_TURN:] = _turn_pair(st)
    return obs


class _ViewCache:
    """The last observation built for one seat, and what it was built from.
    The vector lives in a bytearray (cheap item and slice writes from Python)
    with a numpy view over the same memory for the vectorised plane updates."""

    __slots__ = (
        "buf",
        "obs",
        "planes",
        "logpos",
        "key",
        "coll",
        "gemv",
        "seat_ver",
        "seen_ver",
        "secret",
        "arrows",
        "prism",
        "dyn",
        "turn",
    )

    def __init__(self, st, obs, me) -> None:
        self.buf = bytearray(obs.tobytes())
        self._views()
        self.logpos = len(st._log)
        self.key = _arrow_key(st)
        self.coll = st.coll_ver
        self.gemv = st.gem_ver
        self.seat_ver = list(st.seat_ver)
        self.seen_ver = st.seen_ver
        self.secret = st.secret[me]
        self.arrows = list(st.arrows)
        self.prism = st.prism_on
        self.dyn = _dyn_key(st)
        self.turn = st.turn

    def _views(self) -> None:
        self.obs = np.frombuffer(self.buf, dtype=np.int8)
        m = (len(self.buf) - GLOBAL) // PLANES
        self.planes = self.obs[: PLANES * m].reshape(PLANES, m)

    def __getstate__(self) -> dict:  # the numpy views are rebuilt, never pickled
        return {k: getattr(self, k) for k in self.__slots__ if k not in ("obs", "planes")}

    def __setstate__(self, data: dict) -> None:
        for k, v in data.items():
            setattr(self, k, v)
        self._views()


def encode_cached(st, me: int) -> np.ndarray:
    """Same vector as :func:`encode`, updated from the seat's previous
    observation of this state. Returns a fresh copy."""
    cache = st._ocache.get(me)
    if cache is None:
        obs = encode(st, me)
        st._ocache[me] = _ViewCache(st, obs, me)
        return obs
    g = st.game
    t = g._obs_tables
    buf = cache.buf
    M = g.m
    arrows = st.arrows
    log = st._log
    map_moved = cache.logpos != len(log)
    only_removed = False
    if map_moved:
        changed = log[cache.logpos :]
        cache.logpos = len(log)
        if len(changed) > 1:
            changed = sorted(set(changed))
        cells = st.cells
        only_removed = True
        for i, code in zip(changed, _codes_at(st, me, changed, t)):
            buf[i : i + P_PEEK * M : M] = t.cell_bytes[code]
            if cells[i] >= 0:
                only_removed = False
        if g.dark:
            peek = st.peek
            rel = t.peek_bytes[me]
            for i in changed:
                buf[i + P_PEEK * M : i + P_ARROWS * M : M] = rel[peek[i]]
    if map_moved or cache.prism != st.prism_on or cache.arrows != arrows:
        key = _arrow_key(st)
        if key != cache.key or (t.split and cache.prism != st.prism_on) or (map_moved and not only_removed):
            _write_arrow_planes(st, t, cache.planes, key)
            cache.key = key
        elif map_moved:  # tiles left the map, the layers did not move: clear their columns
            zero = t.zero_tail
            for i in changed:
                buf[i + P_ARROWS * M : PLANES * M : M] = zero
        cache.prism = st.prism_on
    G = PLANES * M
    if cache.arrows != arrows:
        cache.arrows = list(arrows)
        buf[G : G + 18] = t.arrow_bytes[tuple(arrows)]
    if cache.coll != st.coll_ver:
        cache.coll = st.coll_ver
        sv, cv = st.seat_ver, cache.seat_ver
        for k, q in enumerate(t.orders[me]):
            if sv[q] != cv[q]:
                cv[q] = sv[q]
                o = G + G_SEATS + SEAT * k + 1
                buf[o : o + 24] = bytes(_seat_row(st, me, q))
        if cache.gemv != st.gem_ver:
            cache.gemv = st.gem_ver
            scores = _scores(st, me)
            o = G + G_SEATS + 25
            for q in t.orders[me]:
                x = scores[q]
                buf[o] = (x if x <= CAP else CAP) & 255 if x >= -CAP else 129
                o += SEAT
        sec = st.secret[me]
        if sec != cache.secret:
            cache.secret = sec
            buf[G + G_SECRET : G + G_PHASE] = t.secret_bytes[sec]
    # my peeks change what I have not seen: a peek of mine, or an Earthquake (logs every cell)
    if cache.seen_ver != st.seen_ver or (
        map_moved and g.dark and (len(changed) > 1 or st.peek[changed[0]] >> me & 1)
    ):
        cache.seen_ver = st.seen_ver
        buf[G + G_UNSEEN : G + G_TAIL] = bytes(_unseen(st, me, t))
    key = (
        -1 if (st.over or st.trunc) else st.phase,
        st.res,
        st.sub,
        st.carrow,
        st.owed,
        st.lantern,
        st.used_pre,
        st.used_post,
        st.anchor,
        st.prism_on,
    )
    if key != cache.dyn:
        cache.dyn = key
        row = t.dyn_bytes.get(key)
        if row is None:
            t.dyn_row(key)
            row = t.dyn_bytes[key]
        buf[G + G_PHASE : G + G_UNSEEN] = row
    if cache.turn != st.turn:
        cache.turn = st.turn
        buf[G + G_TURN : G + GLOBAL] = bytes(_turn_pair(st))
    return cache.obs.copy()
