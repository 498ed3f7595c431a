"""Observation encoder: one float32 vector from a player's point of view.

Layout (seeds/gem_mountain.md has the full table): M cells x 113 features,
then 238 global features. Everything that depends only on the configuration
is a lookup table built once per Game; a step costs a handful of numpy calls.
"""

from __future__ import annotations

import numpy as np

from envs.gem_mountain import tiles as T

F = 113
GLOBAL = 238
# offsets inside the global block
G_SEATS, G_SECRET, G_PHASE, G_RES, G_SUB, G_ARROW = 18, 148, 172, 179, 195, 199
G_OWED, G_LANTERN, G_FLAGS, G_UNSEEN, G_TAIL = 201, 202, 203, 207, 230


class _Tables:
    def __init__(self, game) -> None:
        geo = game.geo
        n = game.num_players
        nd = T.NUM_DESIGNS
        # rows 0..99 of a cell: present, face-up, known, 4 x 24 section one-hots
        tab = np.zeros((nd * 8 + 2, 99), dtype=np.float32)
        for d in range(nd):
            for r in range(4):
                for up in (0, 1):
                    row = tab[(d * 4 + r) * 2 + up]
                    row[0], row[1], row[2] = 1.0, up, 1.0
                    for s, c in enumerate(T.SECTION_CONTENT[d][r]):
                        row[3 + 24 * s + c] = 1.0
        self.unknown = nd * 8
        self.empty = nd * 8 + 1
        tab[self.unknown, 0] = 1.0
        for s in range(4):
            tab[self.unknown, 3 + 24 * s + T.UNKNOWN] = 1.0
        self.cell_rows = tab
        norm = float(game.rows + game.cols)
        self.dnorm = [np.array(d, dtype=np.float32) / norm for d in geo.dist]
        self.layer = [
            [np.array([1.0 if x == k else 0.0 for x in geo.dist[p]], dtype=np.float32)
             for k in range(geo.depth[p])]
            for p in range(8)
        ]
        self.arrow_cache: dict[tuple, np.ndarray] = {}
        self.m = game.m
        self.peekrel = []
        for me in range(n):
            rel = np.zeros((1 << n, 5), dtype=np.float32)
            for mask in range(1 << n):
                for q in range(n):
                    if mask >> q & 1:
                        rel[mask, (q - me) % n] = 1.0
            self.peekrel.append(rel)
        cfg = game.config
        self.tail = [float(bool(cfg[k])) for k in T.MODULES] + [float(game.limit == k) for k in range(3)]
        self.pool_counts = list(game.pool_counts)
        self.orders = [[(me + k) % n for k in range(n)] for me in range(n)]


    def arrow_block(self, arrows, key) -> np.ndarray:
        """Columns 104..111 of every cell for these arrows and layer indices
        (before masking out empty cells), cached per key."""
        blk = np.zeros((self.m, 8), dtype=np.float32)
        na = len(arrows)
        for j, p in enumerate(arrows):
            blk[:, 3 * j] = self.dnorm[p]
            tk, sk = key[na + j], key[2 * na + j]
            if tk >= 0:
                blk[:, 3 * j + 1] = self.layer[p][tk]
            if sk >= 0:
                blk[:, 3 * j + 2] = self.layer[p][sk]
        blk[:, 6] = np.maximum(blk[:, 1], blk[:, 4])
        blk[:, 7] = np.maximum(blk[:, 2], blk[:, 5])
        if len(self.arrow_cache) > 50000:
            self.arrow_cache.clear()
        self.arrow_cache[key] = blk
        return blk


def _tables(game) -> _Tables:
    t = game._obs_tables
    if t is None:
        t = game._obs_tables = _Tables(game)
    return t


def encode(st, me: int) -> np.ndarray:
    g = st.game
    t = _tables(g)
    M, n = g.m, g.num_players
    obs = np.zeros(g.observation_shape[0], dtype=np.float32)
    cb = obs[: M * F].reshape(M, F)
    cells, rot = st.cells, st.rot
    empty = t.empty
    if g.dark:
        bit = 1 << me
        unknown = t.unknown
        codes = [
            empty if d < 0 else ((d * 4 + r) * 2 + 1 if u else ((d * 4 + r) * 2 if pk & bit else unknown))
            for d, r, u, pk in zip(cells, rot, st.up, st.peek)
        ]
        cb[:, 99:104] = t.peekrel[me][st.peek]
    else:
        codes = [empty if d < 0 else d * 8 + r * 2 + 1 for d, r in zip(cells, rot)]
    cb[:, :99] = t.cell_rows[codes]
    present = cb[:, 0]
    arrows = st.arrows
    key = tuple(arrows) + tuple(st.top_k(p) for p in arrows) + tuple(st.second_k(p) for p in arrows)
    atab = t.arrow_cache.get(key)
    if atab is None:
        atab = t.arrow_block(arrows, key)
    np.multiply(atab, present[:, None], out=cb[:, 104:112])
    if arrows:
        prism = st.prism_on
        for i in st.available():
            if cb[i, 2]:  # content known to me
                d = cells[i]
                if T.PLAIN[d]:
                    cb[i, 112] = 0.25
                else:
                    k = len(T.SHARDS[d]) if prism else len(st.grab_options(i))
                    cb[i, 112] = k / 4.0

    # ---- global block, built as one list and written once
    gl = [0.0] * GLOBAL
    for j, p in enumerate(arrows):
        gl[9 * j] = 1.0
        gl[9 * j + 1 + p] = 1.0
    counts = st.gem_counts([me])
    scores = st.score_counts(counts)
    o = G_SEATS
    for q in t.orders[me]:
        gl[o] = 1.0
        gl[o + 1: o + 8] = [x * 0.125 for x in counts[q]]
        gl[o + 8: o + 24] = [x / 3.0 for x in st.acts[q]]
        gl[o + 24] = 1.0 if st.secret[q] >= 0 else 0.0
        gl[o + 25] = max(-8.0, min(8.0, scores[q] / 50.0))
        o += 26
    sec = st.secret[me]
    gl[G_SECRET + (sec if sec >= 0 else T.UNKNOWN)] = 1.0
    if not (st.over or st.trunc):
        gl[G_PHASE + st.phase] = 1.0
    if st.res >= 0:
        gl[G_RES + st.res] = 1.0
        gl[G_SUB + st.sub] = 1.0
        if st.carrow >= 0:
            gl[G_ARROW + st.carrow] = 1.0
    gl[G_OWED: G_UNSEEN] = (st.owed / 2.0, st.lantern / 2.0, float(st.used_pre), float(st.used_post),
                            float(st.anchor), float(st.prism_on))
    unseen = [a - b for a, b in zip(t.pool_counts, st.seen)]
    if g.dark:
        bit = 1 << me
        for i, d in enumerate(cells):
            if d >= 0 and st.peek[i] & bit and not st.up[i]:
                for c in T.SHARDS[d]:
                    unseen[c] -= 1
    if sec >= 0:
        unseen[sec] -= 1
    gl[G_UNSEEN: G_TAIL] = [x * 0.125 if x > 0 else 0.0 for x in unseen]
    gl[G_TAIL: G_TAIL + 7] = t.tail
    gl[GLOBAL - 1] = min(st.turn / g.max_turns, 1.0)
    obs[M * F:] = gl
    return obs


class _ViewCache:
    """The last observation built for one seat, and what it was built from."""

    __slots__ = ("obs", "logpos", "key", "coll", "seat_ver", "seen_ver", "secret", "marked",
                 "arrows", "prism")

    def __init__(self, st, obs, me) -> None:
        self.obs = obs
        self.logpos = len(st._log)
        self.key = _arrow_key(st)
        self.coll = st.coll_ver
        self.seat_ver = list(st.seat_ver)
        self.seen_ver = st.seen_ver
        self.secret = st.secret[me]
        self.marked = _marked(obs, st.game.m)
        self.arrows = list(st.arrows)
        self.prism = st.prism_on


def encode_cached(st, me: int) -> np.ndarray:
    """Same vector as :func:`encode`, updated from the seat's previous
    observation of this state: only the cells logged as changed, the arrow
    columns when a top layer moved, the seats whose collection changed and the
    per-step flags are rewritten. Returns a fresh copy."""
    cache = st._ocache.get(me)
    if cache is None:
        obs = encode(st, me)
        st._ocache[me] = _ViewCache(st, obs, me)
        return obs.copy()
    g = st.game
    t = _tables(g)
    M = g.m
    obs = cache.obs
    cb = obs[: M * F].reshape(M, F)
    arrows = st.arrows
    log = st._log
    map_moved = cache.logpos != len(log)
    arrows_moved = cache.arrows != arrows
    if map_moved:
        changed = sorted(set(log[cache.logpos:]))
        cache.logpos = len(log)
        codes = _codes_at(st, me, changed, t)
        if g.dark:
            cb[changed, :99] = t.cell_rows[[c >> 5 for c in codes]]
            cb[changed, 99:104] = t.peekrel[me][[c & 31 for c in codes]]
        else:
            cb[changed, :99] = t.cell_rows[codes]
    if map_moved or arrows_moved:
        key = _arrow_key(st)
        if map_moved or key != cache.key:
            atab = t.arrow_cache.get(key)
            if atab is None:
                atab = t.arrow_block(arrows, key)
            np.multiply(atab, cb[:, 0:1], out=cb[:, 104:112])
            cache.key = key
    if map_moved or arrows_moved or cache.prism != st.prism_on:
        cache.prism = st.prism_on
        # distinct-shard column: clear the old marks, set the new ones
        for i in cache.marked:
            cb[i, 112] = 0.0
        marked = []
        if arrows:
            prism = st.prism_on
            cells = st.cells
            for i in st.available():
                if cb[i, 2]:
                    d = cells[i]
                    if T.PLAIN[d]:
                        cb[i, 112] = 0.25
                    else:
                        k = len(T.SHARDS[d]) if prism else len(st.grab_options(i))
                        cb[i, 112] = k / 4.0
                    marked.append(i)
        cache.marked = marked
    gl = obs[M * F:]
    if arrows_moved:
        cache.arrows = list(arrows)
        gl[0:18] = _arrow_rows(arrows)
    if cache.coll != st.coll_ver:
        cache.coll = st.coll_ver
        n = g.num_players
        sv, cv = st.seat_ver, cache.seat_ver
        secret = st.secret
        for k, q in enumerate(t.orders[me]):
            if sv[q] != cv[q]:
                cv[q] = sv[q]
                row = [x * 0.125 for x in st.gems[q]] + [x / 3.0 for x in st.acts[q]]
                if q == me and 0 <= secret[q] < 7:
                    row[secret[q]] += 0.125
                row.append(1.0 if secret[q] >= 0 else 0.0)
                o = G_SEATS + 26 * k + 1
                gl[o: o + 24] = row
        if 0 <= secret[me] < 7:
            scores = st.score_counts(st.gem_counts([me]))
        else:
            scores = st.public_scores()
        gl[G_SEATS + 25: G_SEATS + 26 * n: 26] = [
            max(-8.0, min(8.0, scores[q] / 50.0)) for q in t.orders[me]]
        if secret[me] != cache.secret:
            cache.secret = secret[me]
            gl[G_SECRET: G_PHASE] = 0.0
            gl[G_SECRET + (secret[me] if secret[me] >= 0 else T.UNKNOWN)] = 1.0
    if cache.seen_ver != st.seen_ver or (map_moved and g.dark):
        cache.seen_ver = st.seen_ver
        gl[G_UNSEEN: G_TAIL] = _unseen(st, me, t)
    dyn = [0.0] * (G_UNSEEN - G_PHASE)
    if not (st.over or st.trunc):
        dyn[st.phase] = 1.0
    if st.res >= 0:
        dyn[G_RES - G_PHASE + st.res] = 1.0
        dyn[G_SUB - G_PHASE + st.sub] = 1.0
        if st.carrow >= 0:
            dyn[G_ARROW - G_PHASE + st.carrow] = 1.0
    dyn[G_OWED - G_PHASE:] = (st.owed / 2.0, st.lantern / 2.0, float(st.used_pre),
                              float(st.used_post), float(st.anchor), float(st.prism_on))
    gl[G_PHASE: G_UNSEEN] = dyn
    gl[GLOBAL - 1] = min(st.turn / g.max_turns, 1.0)
    return obs.copy()


def _codes_at(st, me: int, cells_idx: list[int], t) -> list[int]:
    """Table rows of what `me` sees at the given cells (dark: row * 32 + peek bits)."""
    cells, rot = st.cells, st.rot
    if not st.game.dark:
        return [t.empty if cells[i] < 0 else cells[i] * 8 + rot[i] * 2 + 1 for i in cells_idx]
    bit = 1 << me
    out = []
    for i in cells_idx:
        d = cells[i]
        if d < 0:
            out.append(t.empty << 5)
            continue
        pk = st.peek[i]
        if st.up[i]:
            row = (d * 4 + rot[i]) * 2 + 1
        elif pk & bit:
            row = (d * 4 + rot[i]) * 2
        else:
            row = t.unknown
        out.append(row << 5 | pk)
    return out


def _arrow_rows(arrows) -> list[float]:
    row = [0.0] * 18
    for j, p in enumerate(arrows):
        row[9 * j] = 1.0
        row[9 * j + 1 + p] = 1.0
    return row


def _arrow_key(st) -> tuple:
    arrows = st.arrows
    return tuple(arrows) + tuple(st.top_k(p) for p in arrows) + tuple(st.second_k(p) for p in arrows)


def _marked(obs, m: int) -> list[int]:
    return [int(i) for i in np.flatnonzero(obs[112: m * F: F])]


def _unseen(st, me: int, t) -> list[float]:
    unseen = [a - b for a, b in zip(t.pool_counts, st.seen)]
    if st.game.dark:
        bit = 1 << me
        for i, d in enumerate(st.cells):
            if d >= 0 and st.peek[i] & bit and not st.up[i]:
                for c in T.SHARDS[d]:
                    unseen[c] -= 1
    sec = st.secret[me]
    if sec >= 0:
        unseen[sec] -= 1
    return [x * 0.125 if x > 0 else 0.0 for x in unseen]
