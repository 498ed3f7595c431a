"""Amoeba rules: the Game (config, tables) and the State (position, moves).

Bookkeeping is incremental. Ground tiles only ever join pieces, so amoebas
are kept as components (member tuple, open-port count, owner; merge the
smaller into the larger), with the claimed and the complete unclaimed ones
indexed. A top tile (a split) rebuilds only the amoebas that touch the covered
tile. Legal ground anchors come from a frontier of empty blocks next to the
table: per block, the ports that must be blue and pink (8-bit masks), and the
frontier grouped by the big-int mask of the 336 oriented tiles that fit there,
so "does this tile fit anywhere" is a few ANDs and "where" one pass over the
groups. A new tile updates only the blocks around it (contact tables per block
offset, built once per board size).
"""

from __future__ import annotations

import re
from array import array
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.amoeba.geometry import geometry
from meeplezoo.envs.amoeba.observe import NUM_PLANES, OWNER_CODE, encode, global_size
from meeplezoo.envs.amoeba.tiles import (
    ALL_ORIENTED,
    BLUE_AT,
    DISTINCT_ROTS,
    NUM_TILES,
    ORIENTED,
    PINK8_LIST,
    PINK_AT,
    notation,
)
from meeplezoo.envs.core.dice import check_die_script, roll, scripted_or_rolled
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import (
    Game,
    GameInfo,
    State,
    clone_rng,
    derive_rng,
    make_rng,
    rng_from_dict,
    rng_to_dict,
)
from meeplezoo.envs.core.turns import next_seat

SELECT, ANCHOR, CLAIM, OVER = 0, 1, 2, -1
PHASE_NAMES = {SELECT: "select", ANCHOR: "anchor", CLAIM: "claim", OVER: "over"}


# The oriented tiles (bit o) that fit an empty block whose ports in the bit
# set b must be blue (FIT_BLUE[b]) and in q must be pink (FIT_PINK[q]): a tile
# fits when both hold, so FIT_BLUE[b] & FIT_PINK[q].
def _fit_table(per_port: list[int]) -> list[int]:
    table = []
    for req in range(256):
        m = ALL_ORIENTED
        for p in range(8):
            if (req >> p) & 1:
                m &= per_port[p]
        table.append(m)
    return table


FIT_BLUE = _fit_table(BLUE_AT)
FIT_PINK = _fit_table(PINK_AT)


class AmoebaGame(Game):
    info = GameInfo(
        name="amoeba_v0",
        title="Amoeba",
        min_players=2,
        max_players=4,
        default_players=2,
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/amoeba.md",
    )
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "board_units": 24,
        "nuclei_per_player": 10,
        "hand_size": 3,
        "die_faces": (1, 1, 2, 2, 3, 3),
        "min_claim_size": 2,
        "min_split_size": 4,
        "min_part_size": 2,
        "allow_rotation": True,
        "remove_stuck_hand": True,
        "max_turns": 400,
        "reward_mode": "rank",
        "die_override": None,
        "pile_override": None,
    }
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "board_units": 12, "nuclei_per_player": 3},
        {"num_players": 3, "allow_rotation": False, "reward_mode": "score_diff"},
        {"num_players": 2, "remove_stuck_hand": False, "max_turns": 60},
    ]

    def validate(self) -> None:
        cfg = self.config

        def check_int(key, lo, hi):
            v = cfg[key]
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not lo <= v <= hi:
                raise ValueError(f"amoeba_v0: {key} must be an integer from {lo} to {hi}, got {v!r}")

        check_int("board_units", 6, 64)
        if cfg["board_units"] % 2:
            raise ValueError(f"amoeba_v0: board_units must be even, got {cfg['board_units']!r}")
        check_int("nuclei_per_player", 1, 40)
        check_int("hand_size", 1, 3)
        check_int("min_claim_size", 1, 20)
        check_int("min_split_size", 2, 40)
        check_int("min_part_size", 1, 20)
        check_int("max_turns", 1, 100000)
        faces = cfg["die_faces"]
        if (
            not isinstance(faces, (list, tuple))
            or not faces
            or not all(
                isinstance(f, (int, np.integer)) and not isinstance(f, bool) and 1 <= f <= 3 for f in faces
            )
        ):
            raise ValueError(f"amoeba_v0: die_faces must be a non-empty list of integers 1..3, got {faces!r}")
        cfg["die_faces"] = tuple(int(f) for f in faces)
        for key in ("allow_rotation", "remove_stuck_hand"):
            if not isinstance(cfg[key], bool):
                raise ValueError(f"amoeba_v0: {key} must be True or False, got {cfg[key]!r}")
        if cfg["reward_mode"] not in ("rank", "score_diff"):
            raise ValueError(
                f"amoeba_v0: reward_mode must be 'rank' or 'score_diff', got {cfg['reward_mode']!r}"
            )
        cfg["die_override"] = check_die_script(cfg["die_override"], "die_override", 1, 3, "amoeba_v0")
        pov = cfg["pile_override"]
        if pov is not None:
            if (
                not isinstance(pov, (list, tuple))
                or len(set(pov)) != len(pov)
                or not all(isinstance(t, (int, np.integer)) and 0 <= t < NUM_TILES for t in pov)
            ):
                raise ValueError(
                    f"amoeba_v0: pile_override must be None or a list of distinct tile ids 0..83, got {pov!r}"
                )
            cfg["pile_override"] = [int(t) for t in pov]

        self.U = U = int(cfg["board_units"])
        self.geo = geometry(U)
        A = self.geo.num_anchors
        self.A = A
        self.ANCHOR0 = 12
        self.CLAIM_YES = 12 + A
        self.CLAIM_NO = 13 + A
        self.num_actions = A + 14
        self.num_planes = NUM_PLANES
        face = np.array(self.geo.face + [-1], dtype=np.int64)
        # unit faced by each slot; off board (and the dummy slot) -> U*U, an always-empty unit
        self.obs_face_unit = np.where(face >= 0, face // 4, U * U)
        self.observation_shape = (NUM_PLANES * U * U + global_size(),)
        self.observation_planes = (NUM_PLANES, U, U)
        self.observation_dtype = np.int8
        self.observation_low = 0
        self.observation_high = 127
        self.reward_range = (-1.0, 1.0) if cfg["reward_mode"] == "rank" else (-6.0, 6.0)
        self.max_turns = int(cfg["max_turns"])
        # per tile: the oriented tiles a player may choose (distinct rotations,
        # or rotation 0 only), as a tuple and as a bit mask
        self.tile_os = [
            tuple(t * 4 + r for r in (DISTINCT_ROTS[t] if cfg["allow_rotation"] else (0,)))
            for t in range(NUM_TILES)
        ]
        self.tile_bits = [sum(1 << o for o in os_) for os_ in self.tile_os]

    def new_initial_state(self, seed: int | None = None) -> AmoebaState:
        st = AmoebaState(self)
        st.rng = make_rng(seed)
        cfg = self.config
        if cfg["pile_override"] is not None:
            st.pile = list(cfg["pile_override"])
        else:
            st.pile = st.rng.permutation(NUM_TILES).tolist()
        for p in range(self.num_players):
            for _ in range(cfg["hand_size"]):
                if st.pile:
                    st.hands[p].append(st.pile.pop())
        st._begin_turn()
        return st

    def empty_state(self) -> AmoebaState:
        """An empty table with empty hands (for building positions in tests)."""
        st = AmoebaState(self)
        st.rng = make_rng(0)
        return st

    def state_from_dict(self, data: dict) -> AmoebaState:
        st = AmoebaState(self)
        st.rng = rng_from_dict(data["rng"])
        W = self.geo.W
        for r, c, tile, rot, level in data["placements"]:
            a = r * W + c
            if level == 1:
                st.put_ground(tile, rot, a)
            else:
                st.put_top(tile, rot, a)
        for key, seat in data["owners"]:
            st.set_owner(st.piece_comp[int(st.slot_piece[key])], seat)
        st.hands = [list(h) for h in data["hands"]]
        st.pile = list(data["pile"])
        st.removed = [list(h) for h in data["removed"]]
        st.supply = list(data["supply"])
        st.cur = data["cur"]
        st.phase = data["phase"]
        st.die = data["die"]
        st.left = data["left"]
        st.placed = data["placed"]
        st.sel = tuple(data["sel"]) if data["sel"] is not None else None
        st.offers = [st.piece_comp[int(st.slot_piece[k])] for k in data["offers"]]
        st.offer_i = data["offer_i"]
        if st.phase == CLAIM and st.offers:
            st._paint_offer(st.offers[st.offer_i], 1)
        st.turn = data["turn"]
        st._terminal = data["terminal"]
        st._truncated = data["truncated"]
        st.die_idx = data["die_idx"]
        st.first_pending = data["first_pending"]
        return st


class AmoebaState(State):
    def __init__(self, game: AmoebaGame) -> None:
        self.game = game
        g = game.geo
        U = game.U
        n = game.num_players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = []
        self.removed: list[list[int]] = [[] for _ in range(n)]
        self.supply = [game.config["nuclei_per_player"]] * n
        # table
        self.placements: list[list[int]] = []  # [anchor, tile, rot, level, covered]
        self.place_pieces: list[list[int]] = []
        # flat per-unit / per-slot / per-anchor tables are arrays, so that a
        # clone copies them with one memcpy each
        self.unit_vis = array("i", [-1]) * (U * U)
        # the observation's board planes, kept up to date move by move (see
        # observe.py); a bytearray, as single-byte writes to it are cheap.
        # Owners are stored as OWNER_CODE + seat, which encode() translates
        # to the observer's relative seats in one pass over all the bytes.
        self.planes = bytearray(game.num_planes * U * U)
        self.on_board = bytearray(NUM_TILES)
        self.slot_piece = array("i", [-1]) * (U * U * 4 + 1)  # last entry: a dummy slot
        self.piece_slots: list[tuple[int, ...]] = []
        self.piece_place: list[int] = []
        self.piece_num: list[int] = []
        self.piece_comp: list[int] = []
        # cid -> (member piece ids, open ports, owner); tuples, replaced on
        # change, so that a clone may share them
        self.comps: dict[int, tuple] = {}
        self.owned: set[int] = set()  # cids of the claimed amoebas
        # the complete, unclaimed amoebas: cid -> canonical key (a complete
        # amoeba's pieces never change, so its key is worked out once)
        self.closed: dict[int, int] = {}
        self.next_cid = 0
        self.breq = bytearray(g.num_anchors)  # ports that must be blue, per anchor
        self.preq = bytearray(g.num_anchors)  # ports that must be pink, per anchor
        self.free = bytearray(b"\x01") * g.num_anchors
        # the frontier (empty blocks next to the table), grouped by the mask
        # of the oriented tiles that fit there (FIT_BLUE[breq] & FIT_PINK[preq])
        self.fgroups: dict[int, set[int]] = {}
        self.first_pending = True
        # turn
        self.cur = 0
        self.phase = SELECT
        self.die = 0
        self.left = 0
        self.placed = 0
        self.sel: tuple[int, int] | None = None
        self.offers: list[int] = []
        self.offer_i = 0
        self.turn = 0
        self._terminal = False
        self._truncated = False
        self.die_idx = 0
        self.last_split: dict | None = None
        self._cache: dict = {}
        self._board_cache = None

    # ------------------------------------------------------------------ copies
    def clone(self) -> AmoebaState:
        st = AmoebaState.__new__(AmoebaState)
        st.game = self.game
        st.rng = clone_rng(self.rng)
        st.hands = [h[:] for h in self.hands]
        st.pile = self.pile[:]
        st.removed = [h[:] for h in self.removed]
        st.supply = self.supply[:]
        st.placements = [p[:] for p in self.placements]
        st.place_pieces = self.place_pieces[:]  # entries are never changed in place
        st.unit_vis = self.unit_vis[:]
        st.planes = self.planes[:]
        st.on_board = self.on_board[:]
        st.slot_piece = self.slot_piece[:]
        st.piece_slots = self.piece_slots[:]
        st.piece_place = self.piece_place[:]
        st.piece_num = self.piece_num[:]
        st.piece_comp = self.piece_comp[:]
        st.comps = dict(self.comps)  # values are immutable tuples
        st.owned = set(self.owned)
        st.closed = dict(self.closed)
        st.next_cid = self.next_cid
        st.breq = self.breq[:]
        st.preq = self.preq[:]
        st.free = self.free[:]
        st.fgroups = {k: set(v) for k, v in self.fgroups.items()}
        st.first_pending = self.first_pending
        st.cur = self.cur
        st.phase = self.phase
        st.die = self.die
        st.left = self.left
        st.placed = self.placed
        st.sel = self.sel
        st.offers = self.offers[:]
        st.offer_i = self.offer_i
        st.turn = self.turn
        st._terminal = self._terminal
        st._truncated = self._truncated
        st.die_idx = self.die_idx
        st.last_split = self.last_split
        st._cache = {}
        st._board_cache = self._board_cache  # immutable once built
        return st

    def to_dict(self) -> dict:
        W = self.game.geo.W
        return {
            "placements": [[p[0] // W, p[0] % W, p[1], p[2], p[3]] for p in self.placements],
            "owners": sorted([self.comp_key(cid), v[2]] for cid, v in self.comps.items() if v[2] >= 0),
            "hands": [h[:] for h in self.hands],
            "pile": self.pile[:],
            "removed": [h[:] for h in self.removed],
            "supply": self.supply[:],
            "cur": self.cur,
            "phase": self.phase,
            "die": self.die,
            "left": self.left,
            "placed": self.placed,
            "sel": list(self.sel) if self.sel is not None else None,
            "offers": [self.comp_key(c) for c in self.offers],
            "offer_i": self.offer_i,
            "turn": self.turn,
            "terminal": self._terminal,
            "truncated": self._truncated,
            "die_idx": self.die_idx,
            "first_pending": self.first_pending,
            "rng": rng_to_dict(self.rng),
        }

    # ------------------------------------------------------------ table edits
    def _new_comp(self, members: list[int], open_ports: int, owner: int) -> int:
        cid = self.next_cid
        self.next_cid += 1
        self.comps[cid] = (tuple(members), open_ports, owner)
        if owner >= 0:
            self.owned.add(cid)
        elif open_ports == 0:
            self.closed[cid] = self.comp_key(cid)
        pc = self.piece_comp
        for p in members:
            pc[p] = cid
        return cid

    def _dirty(self) -> None:
        self._cache = {}
        self._board_cache = None

    def put_ground(self, tile: int, rot: int, a: int, check: bool = True) -> int:
        """Lay a ground tile (legality checked only as far as empty units and
        matching colours, and not at all with check=False, for moves already
        known legal); keeps amoebas, open ports and the anchor frontier up to date."""
        g = self.game.geo
        units = g.block_units[a]
        vis = self.unit_vis
        u0, u1, u2, u3 = units
        if vis[u0] >= 0 or vis[u1] >= 0 or vis[u2] >= 0 or vis[u3] >= 0:
            raise ValueError("amoeba_v0: the block is not empty")
        o = tile * 4 + rot
        pink8 = PINK8_LIST[o]
        slots = g.port_slot[a]
        face = g.face
        sp = self.slot_piece
        if check:
            for p in range(8):
                f = face[slots[p]]
                if f >= 0 and vis[f >> 2] >= 0 and bool(sp[f] >= 0) != bool((pink8 >> p) & 1):
                    raise ValueError("amoeba_v0: pink would touch blue")
        k = len(self.placements)
        self.placements.append([a, tile, rot, 1, 0])
        pl = self.planes
        UU = self.game.U * self.game.U
        pl[u0] = pl[u1] = pl[u2] = pl[u3] = 1
        pl[2 * UU + u0] = pl[2 * UU + u1] = 1
        pl[3 * UU + u0] = pl[3 * UU + u3] = 1
        vis[u0] = vis[u1] = vis[u2] = vis[u3] = k
        self.on_board[tile] = 1
        spi = g.slot_plane
        free = self.free
        groups = self.fgroups
        breq, preq = self.breq, self.preq
        for a2 in g.overlap[a]:
            if free[a2]:
                free[a2] = 0
                b, q = breq[a2], preq[a2]
                if b | q:
                    m = FIT_BLUE[b] & FIT_PINK[q]
                    grp = groups[m]
                    grp.discard(a2)
                    if not grp:
                        del groups[m]
        for a2, tb in g.contact_tables[a]:
            if not free[a2]:
                continue
            pb, bb = tb[pink8]
            b, q = breq[a2], preq[a2]
            if b | q:
                m = FIT_BLUE[b] & FIT_PINK[q]
                grp = groups[m]
                grp.discard(a2)
                if not grp:
                    del groups[m]
            b |= bb
            q |= pb
            breq[a2] = b
            preq[a2] = q
            m = FIT_BLUE[b] & FIT_PINK[q]
            grp = groups.get(m)
            if grp is None:
                groups[m] = {a2}
            else:
                grp.add(a2)
        # pieces and amoebas: each new piece starts as an amoeba of its own
        comps = self.comps
        pc = self.piece_comp
        piece_slots = self.piece_slots
        new_pids = []
        cid = self.next_cid
        pid = len(piece_slots)
        off4 = 4 * UU
        for i, piece in enumerate(ORIENTED[o]):
            pslots = tuple([slots[p] for p in piece])
            piece_slots.append(pslots)
            pc.append(cid)
            comps[cid] = ((pid,), 0, -1)
            for s in pslots:
                sp[s] = pid
                pl[off4 + spi[s]] = i + 1
            new_pids.append(pid)
            pid += 1
            cid += 1
        self.next_cid = cid
        npieces = len(new_pids)
        self.piece_place.extend([k] * npieces)
        self.piece_num.extend(range(1, npieces + 1))
        off6 = 6 * UU
        for pid in new_pids:
            for s in piece_slots[pid]:
                f = face[s]
                if f < 0 or vis[f >> 2] < 0:
                    c = pc[pid]
                    v = comps[c]
                    comps[c] = (v[0], v[1] + 1, v[2])
                    pl[off6 + spi[s]] = 1
                    continue
                q = sp[f]
                cq = pc[q]
                v = comps[cq]
                comps[cq] = (v[0], v[1] - 1, v[2])
                pl[off6 + spi[f]] = 0
                cp = pc[pid]
                if cp != cq:
                    self._union(cp, cq)
        self.place_pieces.append(new_pids)
        off8 = 8 * UU
        off10 = 10 * UU
        painted = set()
        for p in new_pids:
            c = pc[p]
            if c not in painted:
                # a ground tile only touches open, unclaimed amoebas: repaint
                # sizes, and completeness if the amoeba just closed (owner planes
                # stay 0)
                painted.add(c)
                members, nopen, owner = comps[c]
                if owner >= 0:  # only in positions set up by hand
                    self._paint(c)
                    continue
                n_ = len(members)
                vs = n_ if n_ < 127 else 127
                for p2 in members:
                    for s in piece_slots[p2]:
                        pl[off8 + spi[s]] = vs
                if nopen == 0:
                    self.closed[c] = self.comp_key(c)
                    for p2 in members:
                        for s in piece_slots[p2]:
                            pl[off10 + spi[s]] = 1
        self.first_pending = False
        self._cache = {}
        self._board_cache = None
        return k

    def _paint(self, cid: int) -> None:
        """Write an amoeba's size, completeness and owner on the planes."""
        members, nopen, owner = self.comps[cid]
        ps = self.piece_slots
        spi = self.game.geo.slot_plane
        UU = self.game.U * self.game.U
        pl = self.planes
        n = len(members)
        vs = n if n < 127 else 127
        vc = 1 if nopen == 0 else 0
        vo = 0 if owner < 0 else OWNER_CODE + owner
        o8 = 8 * UU
        o10 = 10 * UU
        o12 = 12 * UU
        for p in members:
            for s in ps[p]:
                i = spi[s]
                pl[o8 + i] = vs
                pl[o10 + i] = vc
                pl[o12 + i] = vo

    def _paint_offer(self, cid: int, val: int) -> None:
        ps = self.piece_slots
        spi = self.game.geo.slot_plane
        off = 14 * self.game.U * self.game.U
        pl = self.planes
        for p in self.comps[cid][0]:
            for s in ps[p]:
                pl[off + spi[s]] = val

    def set_owner(self, cid: int, seat: int) -> None:
        """Put seat's nucleus on an amoeba (-1: none); no supply change."""
        v = self.comps[cid]
        self.comps[cid] = (v[0], v[1], seat)
        if seat >= 0:
            self.owned.add(cid)
            self.closed.pop(cid, None)
        else:
            self.owned.discard(cid)
            if self.comps[cid][1] == 0:
                self.closed[cid] = self.comp_key(cid)
        self._paint(cid)
        self._cache = {}
        self._board_cache = None

    def _union(self, ca: int, cb: int) -> None:
        comps = self.comps
        A, B = comps[ca], comps[cb]
        if len(A[0]) < len(B[0]):
            ca, cb, A, B = cb, ca, B, A
        pc = self.piece_comp
        for p in B[0]:
            pc[p] = ca
        owner = A[2]
        if B[2] >= 0 and owner < 0:
            owner = B[2]
            self.owned.add(ca)
        comps[ca] = (tuple(A[0]) + tuple(B[0]), A[1] + B[1], owner)
        self.owned.discard(cb)
        self.closed.pop(cb, None)
        del comps[cb]

    def _top_components(self, o: int, k: int):
        """Amoebas after covering ground tile k with oriented tile o: returns
        (the new pieces' slots, old component ids, new components as lists of
        piece ids where new pieces get ids len(piece_slots) + i, open counts)."""
        g = self.game.geo
        a = self.placements[k][0]
        slots = g.port_slot[a]
        base = len(self.piece_slots)
        new_slots = [tuple(slots[p] for p in piece) for piece in ORIENTED[o]]
        override = {}
        for i, ps in enumerate(new_slots):
            for s in ps:
                override[s] = base + i
        gp = self.place_pieces[k]
        gset = set(gp)
        pc = self.piece_comp
        old = []
        for p in gp:
            c = pc[p]
            if c not in old:
                old.append(c)
        nodes = [p for c in old for p in self.comps[c][0] if p not in gset]
        nodes.extend(range(base, base + len(new_slots)))
        face = g.face
        sp = self.slot_piece
        vis = self.unit_vis
        label: dict[int, int] = {}
        groups: list[list[int]] = []
        opens: list[int] = []
        ps_all = self.piece_slots
        for start in nodes:
            if start in label:
                continue
            gi = len(groups)
            label[start] = gi
            stack = [start]
            members = []
            nopen = 0
            while stack:
                p = stack.pop()
                members.append(p)
                for s in new_slots[p - base] if p >= base else ps_all[p]:
                    f = face[s]
                    if f < 0 or vis[f >> 2] < 0:
                        nopen += 1
                        continue
                    q = override.get(f)
                    if q is None:
                        q = int(sp[f])
                        if q < 0 or q in gset:
                            continue
                    if q not in label:
                        label[q] = gi
                        stack.append(q)
            groups.append(members)
            opens.append(nopen)
        return new_slots, old, groups, opens

    def put_top(self, tile: int, rot: int, a: int, owners: list[int] | None = None) -> int:
        """Cover the ground tile anchored at a with a top tile (structure
        only: new amoebas get ``owners`` per group, or none)."""
        k_g = self.unit_vis[self.game.geo.block_units[a][0]]
        if k_g < 0 or self.placements[k_g][0] != a or self.placements[k_g][3] != 1 or self.placements[k_g][4]:
            raise ValueError("amoeba_v0: a top tile must lie exactly on an uncovered ground tile")
        o = tile * 4 + rot
        new_slots, old, groups, opens = self._top_components(o, k_g)
        return self._commit_top(tile, rot, k_g, new_slots, old, groups, opens, owners)

    def _commit_top(self, tile, rot, k_g, new_slots, old, groups, opens, owners) -> int:
        g = self.game.geo
        a = self.placements[k_g][0]
        k = len(self.placements)
        self.placements[k_g][4] = 1
        self.placements.append([a, tile, rot, 2, 0])
        UU = self.game.U * self.game.U
        pl = self.planes
        spi = g.slot_plane
        self.on_board[tile] = 1
        for u in g.block_units[a]:
            self.unit_vis[u] = k
            pl[UU + u] = 1
        pc = self.piece_comp
        for p in self.place_pieces[k_g]:
            pc[p] = -1
        for c in old:
            del self.comps[c]
            self.owned.discard(c)
            self.closed.pop(c, None)
        sp = self.slot_piece
        new_pids = []
        for i, ps in enumerate(new_slots):
            pid = len(self.piece_slots)
            self.piece_slots.append(ps)
            self.piece_place.append(k)
            self.piece_num.append(i + 1)
            self.piece_comp.append(-1)
            for s in ps:
                sp[s] = pid
                pl[4 * UU + spi[s]] = i + 1
            new_pids.append(pid)
        self.place_pieces.append(new_pids)
        for gi, members in enumerate(groups):
            self._paint(self._new_comp(list(members), opens[gi], -1 if owners is None else owners[gi]))
        self._cache = {}
        self._board_cache = None
        return k

    # --------------------------------------------------------------- queries
    @property
    def height(self) -> np.ndarray:
        """Height per unit (0 empty, 1 ground, 2 top), read off the planes."""
        UU = self.game.U * self.game.U
        occ_top = np.frombuffer(self.planes, dtype=np.int8, count=2 * UU).reshape(2, UU)
        return occ_top[0] + occ_top[1]

    def piece_num_arr(self) -> np.ndarray:
        """Piece number (1..3 within its tile) per piece id, with a trailing 0
        so that index -1 (no piece) reads 0."""
        arr = self._cache.get("pnum")
        if arr is None or len(arr) != len(self.piece_num) + 1:
            arr = np.array(self.piece_num + [0], dtype=np.int8)
            self._cache["pnum"] = arr
        return arr

    def comp_key(self, cid: int) -> int:
        """Canonical key of an amoeba: its smallest port slot (unit*4+dir)."""
        ps = self.piece_slots
        return min(min(ps[p]) for p in self.comps[cid][0])

    def amoeba_of_unit(self, r: int, c: int, d: int | None = None) -> int:
        """Component id of the pink port of unit (r, c) (direction d, or the
        first pink side), -1 if none."""
        U = self.game.U
        u = r * U + c
        for dd in range(4) if d is None else (d,):
            p = int(self.slot_piece[u * 4 + dd])
            if p >= 0:
                return self.piece_comp[p]
        return -1

    def scores(self) -> list[int]:
        sc = [0] * self.game.num_players
        for members, _, owner in self.comps.values():
            if owner >= 0:
                sc[owner] += len(members)
        return sc

    def largest(self) -> list[int]:
        lg = [0] * self.game.num_players
        for members, _, owner in self.comps.values():
            if owner >= 0 and len(members) > lg[owner]:
                lg[owner] = len(members)
        return lg

    def claimable(self) -> list[int]:
        """Complete, unclaimed amoebas of at least min_claim_size, in key order."""
        m = self.game.config["min_claim_size"]
        comps = self.comps
        closed = self.closed
        out = [cid for cid in closed if len(comps[cid][0]) >= m]
        out.sort(key=closed.__getitem__)
        return out

    # --------------------------------------------------------------- options
    def _hand_fit(self) -> int:
        """Bit mask of the mover's oriented hand tiles (bit o) that fit at some
        ground anchor (scans the frontier's groups until every one is found)."""
        hf = self._cache.get("handfit")
        if hf is None:
            tile_bits = self.game.tile_bits
            hm = 0
            for t in self.hands[self.cur]:
                hm |= tile_bits[t]
            if self.first_pending:
                hf = hm
            else:
                hf = 0
                for m in self.fgroups:
                    hf |= m & hm
                    if hf == hm:
                        break
            self._cache["handfit"] = hf
        return hf

    def _ground(self, o: int) -> list[int]:
        """Legal ground anchors of oriented tile o."""
        if self.first_pending:
            return [self.game.geo.center_anchor]
        out: list[int] = []
        for m, grp in self.fgroups.items():
            if (m >> o) & 1:
                out.extend(grp)
        return out

    def _top_candidates(self):
        tc = self._cache.get("topcand")
        if tc is None:
            cfg = self.game.config
            mover = self.cur
            ms = cfg["min_split_size"]
            cand = set()
            pl = self.placements
            pp = self.piece_place
            comps = self.comps
            for cid in self.owned:
                members, nopen, owner = comps[cid]
                if owner != mover and nopen == 0 and len(members) >= ms:
                    for p in members:
                        k = pp[p]
                        if pl[k][3] == 1 and not pl[k][4]:
                            cand.add(k)
            tc = sorted(cand)
            self._cache["topcand"] = tc
        return tc

    def _tops(self, o: int) -> dict:
        """{anchor: split plan} of the legal top placements of oriented tile o."""
        key = ("top", o)
        tops = self._cache.get(key)
        if tops is None:
            tops = {}
            cands = self._top_candidates()
            if cands:
                pink8 = PINK8_LIST[o]
                for k in cands:
                    pl = self.placements[k]
                    go = pl[1] * 4 + pl[2]
                    if PINK8_LIST[go] != pink8 or ORIENTED[go] == ORIENTED[o]:
                        continue
                    plan = self._plan_top(o, k, self.cur)
                    if plan is not None:
                        tops[pl[0]] = plan
            self._cache[key] = tops
        return tops

    def _options(self, o: int):
        """(legal ground anchors, {anchor: split plan}) for oriented tile o."""
        return self._ground(o), self._tops(o)

    def _hand_oriented(self) -> list[int]:
        tile_os = self.game.tile_os
        return [o for t in self.hands[self.cur] for o in tile_os[t]]

    def _plan_top(self, o: int, k: int, mover: int):
        """Check a split of ground tile k by oriented tile o (rules of the
        top placement); return the resolution plan, or None if illegal."""
        cfg = self.game.config
        comps = self.comps
        pc = self.piece_comp
        old_c = {pc[p] for p in self.place_pieces[k]}
        if any(comps[c][1] != 0 for c in old_c):
            return None
        targets = [
            c
            for c in old_c
            if comps[c][2] >= 0 and comps[c][2] != mover and len(comps[c][0]) >= cfg["min_split_size"]
        ]
        if len(targets) != 1:
            return None
        A = targets[0]
        new_slots, old, groups, opens = self._top_components(o, k)
        if any(opens):
            return None
        base = len(self.piece_slots)
        # which old amoebas each new amoeba holds (new pieces hold none)
        holds = []
        for members in groups:
            h = set()
            for p in members:
                if p < base:
                    h.add(pc[p])
            holds.append(h)
        parts = [i for i, h in enumerate(holds) if A in h]
        if not 2 <= len(parts) <= 3:
            return None
        if any(len(groups[i]) < cfg["min_part_size"] for i in parts):
            return None
        bystanders = [c for c in old if c != A]
        for b in bystanders:
            if sum(1 for h in holds if b in h) != 1:
                return None  # a bystander would be split
        merged = -1
        merged_by = -1
        for i, h in enumerate(holds):
            others = h - {A}
            if i in parts:
                if len(others) > 1:
                    return None
                if others:
                    if merged >= 0:
                        return None
                    merged = i
                    merged_by = next(iter(others))
            elif len(others) != 1:
                return None  # a stray piece, or two amoebas joined outside the split
        supply = self.supply[mover]
        if merged_by >= 0 and comps[merged_by][2] == mover:
            supply += 1
        if supply < len(parts) - 1:
            return None
        U4 = 4
        ps_all = self.piece_slots

        def part_key(i):
            lo = min(
                min(s // U4 for s in (new_slots[p - base] if p >= base else ps_all[p])) for p in groups[i]
            )
            return (len(groups[i]), lo)

        order = sorted(parts, key=part_key)
        keeper = next(i for i in order if i != merged)
        owners = []
        for i, h in enumerate(holds):
            if i == keeper:
                owners.append(comps[A][2])
            elif i in parts:
                owners.append(mover)
            else:
                owners.append(comps[next(iter(h))][2])
        return {
            "k": k,
            "o": o,
            "new_slots": new_slots,
            "old": old,
            "groups": groups,
            "opens": opens,
            "owners": owners,
            "keeper": keeper,
            "parts": parts,
            "merged": merged,
            "merged_owner": comps[merged_by][2] if merged_by >= 0 else -1,
            "target_owner": comps[A][2],
        }

    def _any_select(self) -> bool:
        if self._hand_fit():
            return True
        for o in self._hand_oriented():
            if self._tops(o):
                return True
        return False

    # ------------------------------------------------------------ contract
    @property
    def current_player(self) -> int:
        return -1 if self._terminal or self._truncated else self.cur

    @property
    def terminal(self) -> bool:
        return self._terminal

    @property
    def truncated(self) -> bool:
        return self._truncated and not self._terminal

    def _mask_bytes(self) -> bytearray:
        """The legal actions as one byte per action (cached until the next change)."""
        m = self._cache.get("mask")
        if m is not None:
            return m
        game = self.game
        m = bytearray(game.num_actions)
        if self._terminal or self._truncated:
            pass
        elif self.phase == SELECT:
            rot_ok = game.config["allow_rotation"]
            gu = self._hand_fit()
            for s, t in enumerate(self.hands[self.cur]):
                for r in DISTINCT_ROTS[t] if rot_ok else (0,):
                    o = t * 4 + r
                    if (gu >> o) & 1 or self._tops(o):
                        m[4 * s + r] = 1
        elif self.phase == ANCHOR:
            s, r = self.sel
            o = self.hands[self.cur][s] * 4 + r
            if self.first_pending:
                m[12 + self.game.geo.center_anchor] = 1
            else:
                bo = 1 << o
                for fm, grp in self.fgroups.items():
                    if fm & bo:
                        for a in grp:
                            m[12 + a] = 1
            for a in self._tops(o):
                m[12 + a] = 1
        elif self.phase == CLAIM:
            m[game.CLAIM_YES] = 1
            m[game.CLAIM_NO] = 1
        self._cache["mask"] = m
        return m

    def legal_action_mask(self) -> np.ndarray:
        return np.frombuffer(self._mask_bytes()[:], dtype=np.bool_)

    def _is_legal(self, action: int) -> bool:
        """The byte mask answers without building the numpy mask."""
        return bool(self._mask_bytes()[action])

    def _apply_action(self, a: int) -> None:
        game = self.game
        if self.phase == SELECT:
            self.sel = (a // 4, a % 4)
            self.phase = ANCHOR
            self._cache.pop("mask", None)
            return
        if self.phase == ANCHOR:
            s, r = self.sel
            hand = self.hands[self.cur]
            t = hand[s]
            o = t * 4 + r
            anchor = a - 12
            plan = self._tops(o).get(anchor)
            self.last_split = None
            if plan is not None:
                self._resolve_split(t, r, plan)
            else:
                self.put_ground(t, r, anchor, check=False)
            hand.pop(s)
            self.sel = None
            self.left -= 1
            self.placed += 1
            self._cache = {}
            self._board_cache = None
            self._advance(0)
            return
        # CLAIM
        cid = self.offers[self.offer_i]
        self._paint_offer(cid, 0)
        if a == game.CLAIM_YES:
            v = self.comps[cid]
            self.comps[cid] = (v[0], v[1], self.cur)
            self.owned.add(cid)
            self.closed.pop(cid, None)
            self.supply[self.cur] -= 1
            self._paint(cid)
        self.offer_i += 1
        self._cache = {}
        self._board_cache = None
        if self.offer_i < len(self.offers) and self.supply[self.cur] > 0:
            self._paint_offer(self.offers[self.offer_i], 1)
            return
        self.offers = []
        self.offer_i = 0
        self._cache = {}
        self._advance(2)

    def _resolve_split(self, tile: int, rot: int, plan: dict) -> None:
        mover = self.cur
        if plan["merged_owner"] >= 0:
            self.supply[plan["merged_owner"]] += 1
        self.supply[mover] -= len(plan["parts"]) - 1
        self._commit_top(
            tile,
            rot,
            plan["k"],
            plan["new_slots"],
            plan["old"],
            plan["groups"],
            plan["opens"],
            plan["owners"],
        )
        self.last_split = {
            "mover": mover,
            "target_owner": plan["target_owner"],
            "parts": len(plan["parts"]),
            "merged": plan["merged"] >= 0,
        }

    # ----------------------------------------------------------- turn flow
    def _roll(self) -> int:
        cfg = self.game.config
        faces = cfg["die_faces"]
        result, self.die_idx = scripted_or_rolled(
            cfg["die_override"], self.die_idx, lambda: faces[roll(self.rng, len(faces)) - 1]
        )
        return result

    def _begin_turn(self) -> None:
        self.die = self._roll()
        self.left = self.die
        self.placed = 0
        self.sel = None
        self._cache = {}
        self._advance(0)

    def _advance(self, stage: int) -> None:
        """Run the turn forward to the next real decision: 0 = placements
        (after one, or at the start), 1 = claims, 2 = end of turn."""
        cfg = self.game.config
        n = self.game.num_players
        while True:
            if stage == 0:
                hand = self.hands[self.cur]
                if self.left > 0 and hand and self._any_select():
                    self.phase = SELECT
                    return
                if self.placed == 0 and hand and cfg["remove_stuck_hand"]:
                    self.removed[self.cur].extend(hand)
                    self.hands[self.cur] = []
                    self._cache = {}
                stage = 1
            if stage == 1:
                if self.supply[self.cur] > 0:
                    offers = self.claimable()
                    if offers:
                        self.offers = offers
                        self.offer_i = 0
                        self.phase = CLAIM
                        self._paint_offer(offers[0], 1)
                        self._cache = {}
                        self._board_cache = None
                        return
                stage = 2
            # end of turn: draw, end check, next seat
            hand = self.hands[self.cur]
            while len(hand) < cfg["hand_size"] and self.pile:
                hand.append(self.pile.pop())
            self._cache = {}
            self.turn += 1
            if (not self.pile and not any(self.hands)) or not any(self.supply):
                self._terminal = True
            elif self.turn >= self.game.max_turns:
                self._truncated = True
            if self._terminal or self._truncated:
                self.phase = OVER
                self._cache = {}
                self._board_cache = None
                return
            self.cur = next_seat(self.cur, n)
            self.die = self._roll()
            self.left = self.die
            self.placed = 0
            self.sel = None
            self._cache = {}  # new mover: options change, the board does not
            stage = 0

    def returns(self) -> np.ndarray:
        sc = self.scores()
        if self.game.config["reward_mode"] == "score_diff":
            n = len(sc)
            tot = sum(sc)
            return np.array([(s - (tot - s) / (n - 1)) / 50.0 for s in sc], dtype=np.float64)
        lg = self.largest()
        return rank_rewards(list(zip(sc, lg)))

    # -------------------------------------------------------------- hidden
    def determinize(self, player: int, rng: np.random.Generator) -> AmoebaState:
        st = self.clone()
        n = self.game.num_players
        pool = list(self.pile)
        for p in range(n):
            if p != player:
                pool.extend(self.hands[p])
                pool.extend(self.removed[p])
        pool.sort()
        order = rng.permutation(len(pool))
        pool = [pool[i] for i in order]
        pos = 0
        for p in range(n):
            if p != player:
                k = len(self.hands[p])
                st.hands[p] = pool[pos : pos + k]
                pos += k
                k = len(self.removed[p])
                st.removed[p] = pool[pos : pos + k]
                pos += k
        st.pile = pool[pos:]
        st.rng = derive_rng(rng)
        st._cache = {}
        return st

    # ----------------------------------------------------------------- views
    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def phase_name(self) -> str:
        return PHASE_NAMES[OVER if (self._terminal or self._truncated) else self.phase]

    def action_to_string(self, action: int) -> str:
        game = self.game
        a = int(action)
        if 0 <= a < 12:
            s, r = divmod(a, 4)
            hand = self.hands[self.cur] if self.cur >= 0 else []
            tail = ""
            if s < len(hand):
                tail = f" (tile {hand[s]}: {notation(ORIENTED[hand[s] * 4 + r])})"
            return f"select slot {s} rot {r}{tail}"
        if 12 <= a < 12 + game.A:
            r, c = game.geo.anchor_rc(a - 12)
            return f"anchor {r} {c}"
        if a == game.CLAIM_YES:
            return "claim"
        if a == game.CLAIM_NO:
            return "decline"
        return f"action {a}"

    def string_to_action(self, text: str) -> int:
        game = self.game
        t = text.strip().lower()
        nums = [int(x) for x in re.findall(r"-?\d+", t.split("(")[0])]
        if t.startswith("select") and len(nums) == 2 and 0 <= nums[0] < 3 and 0 <= nums[1] < 4:
            return 4 * nums[0] + nums[1]
        if t.startswith("anchor") and len(nums) == 2 and all(0 <= x < game.geo.W for x in nums):
            return 12 + game.geo.anchor_index(*nums)
        if t in ("claim", "claim yes", "yes"):
            return game.CLAIM_YES
        if t in ("decline", "claim no", "no"):
            return game.CLAIM_NO
        raise ValueError(f"amoeba_v0: no action named {text!r}")

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.amoeba.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.amoeba.render import render_rgb

        return render_rgb(self, viewer)
