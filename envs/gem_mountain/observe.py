"""Observation encoder: one int8 vector from a player's point of view.

Layout (seeds/gem_mountain.md and the env docstring have the full tables):
PLANES planes of M = R*C cells each (plane k, cell i at k*M + i, so the
front part reshapes to (PLANES, R, C)), then GLOBAL features. Everything that
depends only on the configuration is a lookup table built once per Game.

The :class:`Observer` reads the state and nothing in the rules knows it.
Two encoders give the same vector: :func:`encode` builds it from scratch;
:meth:`Observer.encode` keeps each seat's last vector and rewrites only what
changed since: the cells and seats the rules logged (``changed_cells``,
``changed_seats``), the arrow planes when a top layer or an arrow moved, the
small per-step block. A clone or a loaded position has logs of its own, so
a view never reads another state's changes: it is built afresh there.
Tests check that the two agree over random play.
"""

from __future__ import annotations

import weakref

import numpy as np

from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.decisions import ARROWS

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
CONTENT_SLOTS = tiles.UNKNOWN + 1  # a content one-hot: every content, then "not known to me"
ARROW_SLOTS = 9  # per arrow in the globals: present, then one flag per position
ARROW_GLOBALS = ARROWS * ARROW_SLOTS  # the first arrow's block, then the optional second's
ARROW_CACHE_LIMIT = 50_000  # arrow blocks kept per game before that cache starts over


def _peek_rows(me: int, num_players: int) -> np.ndarray:
    """Per peek bitmask: which seats, relative to ``me``, have peeked."""
    rel = np.zeros((1 << num_players, 5), dtype=np.int8)
    for mask in range(1 << num_players):
        for q in range(num_players):
            if mask >> q & 1:
                rel[mask, (q - me) % num_players] = 1
    return rel


def _arrow_rows() -> dict[tuple, np.ndarray]:
    """Globals 0..ARROW_GLOBALS-1 for every tuple of arrow positions (none, one or two)."""
    rows = {}
    for key in [()] + [(p,) for p in range(8)] + [(p, q) for p in range(8) for q in range(8)]:
        row = np.zeros(ARROW_GLOBALS, dtype=np.int8)
        for j, p in enumerate(key):
            row[ARROW_SLOTS * j] = 1
            row[ARROW_SLOTS * j + 1 + p] = 1
        rows[key] = row
    return rows


class _Tables:
    """Everything the encoder needs that depends only on the configuration."""

    def __init__(self, game) -> None:
        geo = game.geometry
        n = game.num_players
        nd = tiles.NUM_DESIGNS
        M = self.m = game.num_cells
        # planes 0..98 of a cell: present, face-up, known, 4 x 24 section one-hots
        tab = np.zeros((nd * 8 + 2, P_PEEK), dtype=np.int8)
        for d in range(nd):
            for r in range(4):
                for up in (0, 1):
                    row = tab[(d * 4 + r) * 2 + up]
                    row[0], row[1], row[2] = 1, up, 1
                    for s, c in enumerate(tiles.SECTION_CONTENT[d][r]):
                        row[P_SECTIONS + CONTENT_SLOTS * s + c] = 1
        self.unknown = nd * 8
        self.empty = nd * 8 + 1
        tab[self.unknown, 0] = 1
        for s in range(4):
            tab[self.unknown, P_SECTIONS + CONTENT_SLOTS * s + tiles.UNKNOWN] = 1
        self.cell_rows = tab
        self.dist = [np.array(d, dtype=np.int8) for d in geo.distances]
        self.layer = [
            [np.array([x == k for x in geo.distances[p]], dtype=np.int8) for k in range(geo.depth[p])]
            for p in range(8)
        ]
        self.arrow_cache: dict[tuple, np.ndarray] = {}
        self.peekrel = [_peek_rows(me, n) for me in range(n)]
        self.arrow_rows = _arrow_rows()
        self.dyn_cache: dict[tuple, np.ndarray] = {}
        self.dyn_bytes: dict[tuple, bytes] = {}
        # the same rows as bytes, for the cached encoder's bytearray writes
        self.cell_bytes = [row.tobytes() for row in tab]
        self.peek_bytes = [[row.tobytes() for row in rel] for rel in self.peekrel]
        self.arrow_bytes = {k: v.tobytes() for k, v in self.arrow_rows.items()}
        self.secret_bytes = {}
        for sec in range(-1, tiles.NUM_CONTENTS):
            row = np.zeros(CONTENT_SLOTS, dtype=np.int8)
            row[sec if sec >= 0 else tiles.UNKNOWN] = 1
            self.secret_bytes[sec] = row.tobytes()
        self.zero_tail = bytes(PLANES - P_ARROWS)
        cfg = game.config
        self.tail = np.array(
            [bool(cfg[k]) for k in tiles.MODULES] + [game.action_limit == k for k in range(3)], dtype=np.int8
        )
        self.pool_counts = list(game.pool_counts)
        self.orders = [[(me + k) % n for k in range(n)] for me in range(n)]
        # a grab can yield more than one shard only where the map holds split tiles
        layout = game.fixed_layout
        self.split = layout is not None and not all(tiles.PLAIN[d] for d in layout if d is not None)
        self.split = self.split or (layout is None and bool(cfg["gemshards"]))
        self.size = PLANES * M + GLOBAL
        self.dark_tunnels = game.dark_tunnels
        # the public scores, kept for the gem counts they were computed from
        self.scored_gems: list[list[int]] = []
        self.public_scores: list[int] = []

    def arrow_block(self, arrows, key) -> np.ndarray:
        """Planes 104..112 for these arrows and layer indices (before masking
        out empty cells), cached per key."""
        blk = np.zeros((P_SHARDS + 1 - P_ARROWS, self.m), dtype=np.int8)
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
        blk[8] = blk[6]  # shards: one per grabbable tile, where every tile is known (no Dark Tunnels)
        if len(self.arrow_cache) > ARROW_CACHE_LIMIT:
            self.arrow_cache.clear()
        self.arrow_cache[key] = blk
        return blk

    def dyn_row(self, key: tuple) -> np.ndarray:
        """Globals G_PHASE..G_UNSEEN for one (phase, action, sub-step, flags) key."""
        row = np.zeros(G_UNSEEN - G_PHASE, dtype=np.int8)
        phase, resolving, sub_step, chosen_arrow = key[:4]
        if phase >= 0:
            row[phase] = 1
        if resolving >= 0:
            row[G_RES - G_PHASE + resolving] = 1
            row[G_SUB - G_PHASE + sub_step] = 1
            if chosen_arrow >= 0:
                row[G_ARROW - G_PHASE + chosen_arrow] = 1
        row[G_OWED - G_PHASE :] = key[4:]
        self.dyn_cache[key] = row
        self.dyn_bytes[key] = row.tobytes()
        return row


class Observer:
    """The game's observation encoder: declares the observation Box on the
    game, builds its tables on first use and keeps each seat's last view."""

    def __init__(self, game) -> None:
        game.cell_features = PLANES
        game.global_features = GLOBAL
        game.observation_shape = (PLANES * game.num_cells + GLOBAL,)
        game.observation_planes = (PLANES, game.rows, game.cols)
        game.observation_dtype = np.int8
        game.observation_low, game.observation_high = -CAP, CAP
        self.game = game
        self._tables: _Tables | None = None
        self._views: dict[int, _View] = {}
        self._first_seen: dict[int, int] = {}  # per seat: the cell log of the state last encoded afresh

    def tables(self) -> _Tables:
        if self._tables is None:
            self._tables = _Tables(self.game)
        return self._tables

    def encode(self, st, me: int) -> np.ndarray:
        """Same vector as :func:`encode`, updated from the seat's previous
        observation. Returns a fresh copy."""
        view = self._views.get(me)
        # the logs name the state a view follows: a clone or a loaded position has its own
        if view is not None and view.cell_log is st.changed_cells and view.seat_log is st.changed_seats:
            view.update(st, me, self._tables)
            return view.obs.copy()
        # another state (a clone, a new game): building afresh beats a long diff.
        # The view moves to it when the state it followed is gone (a new game),
        # else only to a state observed twice (a clone observed once does not take it)
        obs = encode(st, me)
        log = id(st.changed_cells)
        if view is None or view.orphaned() or self._first_seen.get(me) == log:
            self._views[me] = _View(st, obs, me)
        else:
            self._first_seen[me] = log
        return obs


# ------------------------------------------------------------------ pieces
def _arrow_key(st) -> tuple:
    """(arrow positions..., top layer per arrow..., second layer per arrow...)."""
    arrows = st.arrows
    tops, seconds = [], []
    for p in arrows:
        top = second = -1
        for k, v in enumerate(st.layer_counts[p]):
            if v:
                if top < 0:
                    top = k
                else:
                    second = k
                    break
        tops.append(top)
        seconds.append(second)
    return tuple(arrows + tops + seconds)


def _dyn_key(st) -> tuple:
    return (
        -1 if (st.over or st.cut_short) else st.phase,
        st.resolving,
        st.sub_step,
        st.chosen_arrow,
        st.grabs_owed,
        st.lantern_peeks_left,
        st.used_before,
        st.used_after,
        st.anchored,
        st.prism_active,
    )


def _codes_at(st, me: int, cells_idx, tables) -> list[int]:
    """Table rows of what `me` sees at the given cells."""
    cells, rotations = st.cells, st.rotations
    if not st.game.dark_tunnels:
        empty = tables.empty
        return [empty if cells[i] < 0 else cells[i] * 8 + rotations[i] * 2 + 1 for i in cells_idx]
    bit = 1 << me
    face_up, peeks = st.face_up, st.peeks
    out = []
    for i in cells_idx:
        d = cells[i]
        if d < 0:
            out.append(tables.empty)
        elif face_up[i]:
            out.append((d * 4 + rotations[i]) * 2 + 1)
        elif peeks[i] & bit:
            out.append((d * 4 + rotations[i]) * 2)
        else:
            out.append(tables.unknown)
    return out


def _write_arrow_planes(st, tables, planes, key) -> None:
    """Planes 104..112: distances, top/second layers, grabbable, Tunnel, shards."""
    block = tables.arrow_cache.get(key)
    if block is None:
        block = tables.arrow_block(st.arrows, key)
    # plain tiles yield one shard; known split tiles are counted below
    if tables.dark_tunnels:
        np.multiply(block[:-1], planes[P_PRESENT], out=planes[P_ARROWS:P_SHARDS])
        np.multiply(planes[P_AVAIL], planes[P_KNOWN], out=planes[P_SHARDS])
    else:  # every tile on the map is known: the shards plane starts as the grabbable one
        np.multiply(block, planes[P_PRESENT], out=planes[P_ARROWS:])
    if tables.split and st.arrows:
        cells = st.cells
        prism = st.prism_active
        shards = planes[P_SHARDS]
        for i in np.flatnonzero(shards).tolist():
            d = cells[i]
            if not tiles.PLAIN[d]:
                shards[i] = len(tiles.SHARDS[d]) if prism else len(st.grab_options(i))


def _seat_row(st, me: int, seat: int) -> list[int]:
    row = st.gems[seat] + st.action_tiles[seat]
    secret = st.secret_tiles[seat]
    if seat == me and 0 <= secret < tiles.NUM_GEMS:
        row = list(row)
        row[secret] += 1
    row.append(1 if secret >= 0 else 0)
    if max(row) > CAP:
        row = [min(x, CAP) for x in row]
    return row


def _scores(st, me: int, tables) -> list[int]:
    """The scores ``me`` may know: its own secret gem counts for it."""
    if 0 <= st.secret_tiles[me] < tiles.NUM_GEMS:
        return st.score_counts(st.gem_counts([me]))
    if st.gems != tables.scored_gems:  # every seat without a secret gem sees the same scores
        tables.scored_gems = list(map(list, st.gems))
        tables.public_scores = st.public_scores()
    return tables.public_scores


def _write_scores(st, me: int, tables, gl) -> None:
    scores = _scores(st, me, tables)
    n = st.game.num_players
    gl[G_SEATS + 25 : G_SEATS + SEAT * n : SEAT] = [max(-CAP, min(CAP, scores[q])) for q in tables.orders[me]]


def _peeked_by(st, me: int) -> list[int]:
    """The face-down tiles ``me`` has peeked at (peeks are wiped when a tile turns)."""
    bit = 1 << me
    cells, face_up = st.cells, st.face_up
    return [i for i, peek in enumerate(st.peeks) if peek & bit and cells[i] >= 0 and not face_up[i]]


def _unseen(st, me: int, tables, peeked=None) -> list[int]:
    """Per content: shards ``me`` has not seen (``peeked``: its peeked
    face-down tiles, when the caller knows them)."""
    unseen = [a - b for a, b in zip(tables.pool_counts, st.seen)]
    if st.game.dark_tunnels:
        cells = st.cells
        for i in _peeked_by(st, me) if peeked is None else peeked:
            for c in tiles.SHARDS[cells[i]]:
                unseen[c] -= 1
    secret = st.secret_tiles[me]
    if secret >= 0:
        unseen[secret] -= 1
    return [x if 0 < x <= CAP else (0 if x <= 0 else CAP) for x in unseen]


def _turn_pair(st) -> tuple[int, int]:
    return min(st.turn, CAP), min(st.game.max_turns - st.turn, CAP)


# ------------------------------------------------------------------ encoders
def encode(st, me: int) -> np.ndarray:
    """The observation of seat `me`, built from scratch."""
    g = st.game
    t = g.observer.tables()
    M = g.num_cells
    obs = np.zeros(t.size, dtype=np.int8)
    planes = obs[: PLANES * M].reshape(PLANES, M)
    planes[:P_PEEK] = t.cell_rows[_codes_at(st, me, range(M), t)].T
    if g.dark_tunnels:
        planes[P_PEEK:P_ARROWS] = t.peekrel[me][st.peeks].T
    _write_arrow_planes(st, t, planes, _arrow_key(st))
    gl = obs[PLANES * M :]
    gl[0:ARROW_GLOBALS] = t.arrow_rows[tuple(st.arrows)]
    for k, q in enumerate(t.orders[me]):
        o = G_SEATS + SEAT * k
        gl[o] = 1
        gl[o + 1 : o + 25] = _seat_row(st, me, q)
    _write_scores(st, me, t, gl)
    secret = st.secret_tiles[me]
    gl[G_SECRET + (secret if secret >= 0 else tiles.UNKNOWN)] = 1
    key = _dyn_key(st)
    gl[G_PHASE:G_UNSEEN] = t.dyn_cache.get(key) if key in t.dyn_cache else t.dyn_row(key)
    gl[G_UNSEEN:G_TAIL] = _unseen(st, me, t)
    gl[G_TAIL:G_TURN] = t.tail
    gl[G_TURN:] = _turn_pair(st)
    return obs


class _View:
    """The last observation built for one seat, and how far it has read the
    state's change logs. The vector lives in a bytearray (cheap item and
    slice writes from Python) with a numpy view over the same memory for the
    vectorised plane updates. The logs it holds name the state it follows:
    a clone or a loaded position has logs of its own."""

    __slots__ = (
        "state",
        "buf",
        "obs",
        "planes",
        "globals_at",
        "cell_log",
        "cells_read",
        "seat_log",
        "seats_read",
        "key",
        "secret",
        "seen",
        "arrows",
        "prism",
        "dyn",
        "turn",
        "my_peeks",
    )

    def __init__(self, st, obs, me) -> None:
        self.state = weakref.ref(st)  # only to tell when it is gone
        self.buf = bytearray(obs.tobytes())
        self._views()
        self.cell_log, self.cells_read = st.changed_cells, len(st.changed_cells)
        self.seat_log, self.seats_read = st.changed_seats, len(st.changed_seats)
        self.key = _arrow_key(st)
        self.secret = st.secret_tiles[me]
        self.seen = list(st.seen)
        self.arrows = list(st.arrows)
        self.prism = st.prism_active
        self.dyn = _dyn_key(st)
        self.turn = st.turn
        self.my_peeks = set(_peeked_by(st, me))

    def orphaned(self) -> bool:
        """Whether the state it followed is gone (unknown after unpickling)."""
        return self.state is not None and self.state() is None

    def _views(self) -> None:
        self.obs = np.frombuffer(self.buf, dtype=np.int8)
        self.globals_at = len(self.buf) - GLOBAL
        m = self.globals_at // PLANES
        self.planes = self.obs[: PLANES * m].reshape(PLANES, m)

    def __getstate__(self) -> dict:  # the numpy views are rebuilt, never pickled, nor the weak reference
        return {
            k: getattr(self, k) for k in self.__slots__ if k not in ("state", "obs", "planes", "globals_at")
        }

    def __setstate__(self, data: dict) -> None:
        for k, v in data.items():
            setattr(self, k, v)
        self.state = None
        self._views()

    def update(self, st, me: int, tables) -> None:
        """Bring the vector up to date with ``st``. One function on purpose:
        it runs for every observation, and each call costs."""
        my_peeks_moved = False
        changed = self.cell_log[self.cells_read :]
        if changed:
            self.cells_read += len(changed)
            if len(changed) > 1:
                changed = sorted(set(changed))
            my_peeks_moved = self._write_cells(st, me, tables, changed)
        arrows = st.arrows
        if changed or self.prism != st.prism_active or self.arrows != arrows:
            self._update_arrow_planes(st, tables, changed)
        buf, G = self.buf, self.globals_at
        if self.arrows != arrows:
            self.arrows = arrows[:]
            buf[G : G + ARROW_GLOBALS] = tables.arrow_bytes[tuple(arrows)]
        my_secret_moved = False
        if self.seats_read != len(self.seat_log):
            seats = self.seat_log[self.seats_read :]
            self.seats_read += len(seats)
            self._update_seats(st, me, tables, seats)
            secret = st.secret_tiles[me]
            if secret != self.secret:
                self.secret, my_secret_moved = secret, True
                buf[G + G_SECRET : G + G_PHASE] = tables.secret_bytes[secret]
        # my peeks, a flip or a reveal change what I have not seen
        if my_peeks_moved or my_secret_moved or self.seen != st.seen:
            self.seen = st.seen[:]
            buf[G + G_UNSEEN : G + G_TAIL] = bytes(_unseen(st, me, tables, self.my_peeks))
        key = _dyn_key(st)
        if key != self.dyn:
            self.dyn = key
            row = tables.dyn_bytes.get(key)
            if row is None:
                tables.dyn_row(key)
                row = tables.dyn_bytes[key]
            buf[G + G_PHASE : G + G_UNSEEN] = row
        if self.turn != st.turn:
            self.turn = st.turn
            buf[G + G_TURN : G + G_TURN + 2] = bytes(_turn_pair(st))

    def _note_my_peeks(self, st, me: int, cells) -> bool:
        """Bring the set of face-down tiles ``me`` has peeked at up to date
        at ``cells``; whether it moved there."""
        bit = 1 << me
        peeks, tiles_now, face_up, mine = st.peeks, st.cells, st.face_up, self.my_peeks
        moved = False
        for i in cells:
            if peeks[i] & bit and tiles_now[i] >= 0 and not face_up[i]:
                if i not in mine:
                    mine.add(i)
                    moved = True
            elif i in mine:
                mine.discard(i)
                moved = True
        return moved

    def _write_cells(self, st, me: int, tables, changed: list[int]) -> bool:
        """The cell planes of ``changed``; whether the tiles ``me`` has peeked at moved."""
        buf, M = self.buf, tables.m
        cell_bytes = tables.cell_bytes
        for i, code in zip(changed, _codes_at(st, me, changed, tables)):
            buf[i : i + P_PEEK * M : M] = cell_bytes[code]
        if not tables.dark_tunnels:
            return False
        peeks, relative = st.peeks, tables.peek_bytes[me]
        for i in changed:
            buf[i + P_PEEK * M : i + P_ARROWS * M : M] = relative[peeks[i]]
        return self._note_my_peeks(st, me, changed)

    def _update_arrow_planes(self, st, tables, changed: list[int]) -> None:
        key = _arrow_key(st)
        cells = st.cells
        only_removed = True
        for i in changed:
            if cells[i] >= 0:
                only_removed = False
                break
        if key != self.key or (tables.split and self.prism != st.prism_active) or not only_removed:
            _write_arrow_planes(st, tables, self.planes, key)
            self.key = key
        elif changed:  # tiles left the map, the layers did not move: clear their columns
            buf, M, zero = self.buf, tables.m, tables.zero_tail
            for i in changed:
                buf[i + P_ARROWS * M : PLANES * M : M] = zero
        self.prism = st.prism_active

    def _update_seats(self, st, me: int, tables, seats: list[int]) -> None:
        """The rows of the seats whose holdings changed, and the scores."""
        buf, G = self.buf, self.globals_at
        n = st.game.num_players
        for q in set(seats):
            o = G + G_SEATS + SEAT * ((q - me) % n) + 1
            buf[o : o + 24] = bytes(_seat_row(st, me, q))
        scores = _scores(st, me, tables)
        o = G + G_SEATS + 25
        for q in tables.orders[me]:
            x = scores[q]
            buf[o] = (x if x <= CAP else CAP) & 255 if x >= -CAP else 129
            o += SEAT
