"""The table of an Amoeba position: tiles laid, pieces, amoebas, frontier.

Ground tiles only ever join pieces, so amoebas are kept as records (member
pieces, open-port count, owner; merge the smaller into the larger), with the
claimed and the complete unclaimed ones indexed. A top tile rebuilds only the
amoebas that touch the covered tile. Legal ground anchors come from a
frontier of empty blocks next to the table: per block, the ports that must be
blue and pink (8-bit masks), and the frontier grouped by the big-int mask of
the 336 oriented tiles that fit there. A new tile updates only the blocks
around it (contact tables per block offset, built once per board size).
"""

from __future__ import annotations

from array import array

import numpy as np

from meeplezoo.envs.amoeba.records import CLAIM, Amoeba, Placement, record
from meeplezoo.envs.amoeba.tiles import ALL_ORIENTED, BLUE_AT, NUM_TILES, ORIENTED, PINK8_LIST, PINK_AT


# The oriented tiles (bit o) that fit an empty block whose ports in the bit
# set b must be blue (FIT_BLUE[b]) and in q must be pink (FIT_PINK[q]): a tile
# fits when both hold, so FIT_BLUE[b] & FIT_PINK[q].
def _fit_table(per_port: list[int]) -> list[int]:
    table = []
    for required in range(256):
        mask = ALL_ORIENTED
        for port in range(8):
            if (required >> port) & 1:
                mask &= per_port[port]
        table.append(mask)
    return table


FIT_BLUE = _fit_table(BLUE_AT)
FIT_PINK = _fit_table(PINK_AT)


class Table:
    """The table part of AmoebaState (its fields are declared there)."""

    def _init_table(self) -> None:
        """An empty table. Flat per-unit / per-slot / per-anchor tables are
        arrays, so that a clone copies each with one memcpy."""
        units = self.game.units
        anchors = self.game.num_anchors
        self.placements: list[Placement] = []
        self.covered = bytearray()
        self.placement_pieces: list[list[int]] = []
        self.unit_placement = array("i", [-1]) * (units * units)
        self.on_board = bytearray(NUM_TILES)
        self.slot_piece = array("i", [-1]) * (units * units * 4 + 1)  # last entry: a dummy slot
        self.piece_slots: list[tuple[int, ...]] = []
        self.piece_placement: list[int] = []
        self.piece_number: list[int] = []
        self.piece_amoeba: list[int] = []
        self.amoebas: dict[int, Amoeba] = {}
        # ids of the amoebas whose record was replaced, in order, for readers
        # that follow one state move by move (a clone starts an empty log)
        self.changed_amoebas: list[int] = []
        self.claimed: set[int] = set()
        # a complete amoeba's pieces never change, so its key is worked out once
        self.complete_unclaimed: dict[int, int] = {}
        self.next_amoeba_id = 0
        self.blue_required = bytearray(anchors)
        self.pink_required = bytearray(anchors)
        self.anchor_free = bytearray(b"\x01") * anchors
        # the frontier, grouped by FIT_BLUE[blue_required] & FIT_PINK[pink_required]
        self.frontier: dict[int, set[int]] = {}

    # ------------------------------------------------------------ ground tiles
    def put_ground(self, tile: int, rot: int, anchor: int, check: bool = True) -> int:
        """Lay a ground tile (legality checked only as far as empty units and
        matching colours, and not at all with check=False, for moves already
        known legal); keeps amoebas, open ports and the anchor frontier up to date."""
        oriented = tile * 4 + rot
        self._check_ground(anchor, oriented, check)
        k = self._record_placement(record(Placement, (anchor, tile, rot, 1)))
        self._update_frontier(anchor, PINK8_LIST[oriented])
        contacts = self._add_pieces(k, self.game.geo.port_slot[anchor], ORIENTED[oriented])
        self._join_contacts(contacts)
        self._index_complete(self.placement_pieces[k])
        self.first_tile_pending = False
        self._cache = {}
        return k

    def _check_ground(self, anchor: int, oriented: int, check: bool) -> None:
        """The block must be empty; with ``check``, pink must meet pink."""
        geo = self.game.geo
        vis = self.unit_placement
        u0, u1, u2, u3 = geo.block_units[anchor]
        if vis[u0] >= 0 or vis[u1] >= 0 or vis[u2] >= 0 or vis[u3] >= 0:
            raise ValueError("amoeba_v0: the block is not empty")
        if not check:
            return
        pink8 = PINK8_LIST[oriented]
        face = geo.face
        slot_piece = self.slot_piece
        for port, slot in enumerate(geo.port_slot[anchor]):
            f = face[slot]
            if f >= 0 and vis[f >> 2] >= 0 and bool(slot_piece[f] >= 0) != bool((pink8 >> port) & 1):
                raise ValueError("amoeba_v0: pink would touch blue")

    def _record_placement(self, placement: Placement) -> int:
        """Append a placement; its units now show it."""
        k = len(self.placements)
        self.placements.append(placement)
        self.covered.append(0)
        vis = self.unit_placement
        for unit in self.game.geo.block_units[placement.anchor]:
            vis[unit] = k
        self.on_board[placement.tile] = 1
        return k

    def _update_frontier(self, anchor: int, pink8: int) -> None:
        """The blocks overlapping the new tile leave the frontier (no longer
        free anchors); the free blocks touching it must now match its ports,
        so each moves to the frontier group of what fits there now. (A block
        with no requirement is in no group; the group moves are written out
        here, as this runs per tile laid.)"""
        free = self.anchor_free
        frontier = self.frontier
        blue_required, pink_required = self.blue_required, self.pink_required
        geo = self.game.geo
        for other in geo.overlap[anchor]:
            if free[other]:
                free[other] = 0
                blue, pink = blue_required[other], pink_required[other]
                if blue | pink:
                    mask = FIT_BLUE[blue] & FIT_PINK[pink]
                    group = frontier[mask]
                    group.discard(other)
                    if not group:
                        del frontier[mask]
        for other, table in geo.contact_tables[anchor]:
            if not free[other]:
                continue
            pink_bits, blue_bits = table[pink8]
            blue, pink = blue_required[other], pink_required[other]
            if blue | pink:
                mask = FIT_BLUE[blue] & FIT_PINK[pink]
                group = frontier[mask]
                group.discard(other)
                if not group:
                    del frontier[mask]
            blue |= blue_bits
            pink |= pink_bits
            blue_required[other] = blue
            pink_required[other] = pink
            mask = FIT_BLUE[blue] & FIT_PINK[pink]
            group = frontier.get(mask)
            if group is None:
                frontier[mask] = {other}
            else:
                group.add(other)

    def _add_pieces(self, placement_index: int, slots: tuple[int, ...], pieces) -> list[tuple[int, int]]:
        """The ground tile's pieces, each an amoeba of its own for now with
        its open ports (those facing an empty unit or the edge). Returns the
        contacts, (new piece, the slot its port meets), in piece order."""
        face = self.game.geo.face
        vis = self.unit_placement
        amoebas = self.amoebas
        piece_amoeba = self.piece_amoeba
        piece_slots = self.piece_slots
        slot_piece = self.slot_piece
        new_pieces = []
        contacts = []
        aid = self.next_amoeba_id
        pid = len(piece_slots)
        self.changed_amoebas.extend(range(aid, aid + len(pieces)))
        for piece in pieces:
            own_slots = tuple([slots[p] for p in piece])
            piece_slots.append(own_slots)
            piece_amoeba.append(aid)
            opened = 0
            for s in own_slots:
                slot_piece[s] = pid
                f = face[s]
                if f < 0 or vis[f >> 2] < 0:
                    opened += 1
                else:
                    contacts.append((pid, f))
            amoebas[aid] = record(Amoeba, ((pid,), opened, -1))
            new_pieces.append(pid)
            pid += 1
            aid += 1
        self.next_amoeba_id = aid
        count = len(new_pieces)
        self.piece_placement.extend([placement_index] * count)
        self.piece_number.extend(range(1, count + 1))
        self.placement_pieces.append(new_pieces)
        return contacts

    def _join_contacts(self, contacts: list[tuple[int, int]]) -> None:
        """Each contact closes the pink port the new piece meets and joins
        the two amoebas (one port fewer open; the union adds the rest)."""
        slot_piece = self.slot_piece
        piece_amoeba = self.piece_amoeba
        amoebas = self.amoebas
        for pid, met_slot in contacts:
            met = piece_amoeba[slot_piece[met_slot]]
            mine = piece_amoeba[pid]
            if mine != met:
                self._union(mine, met, closed=1)
                continue
            v = amoebas[met]
            amoebas[met] = record(Amoeba, (v[0], v[1] - 1, v[2]))
            self.changed_amoebas.append(met)

    def _index_complete(self, new_pieces: list[int]) -> None:
        """Index the amoebas the new tile completed (they may be claimed)."""
        seen = set()
        for pid in new_pieces:
            aid = self.piece_amoeba[pid]
            if aid in seen:
                continue
            seen.add(aid)
            v = self.amoebas[aid]
            if v.owner < 0 and v.open_ports == 0:
                self.complete_unclaimed[aid] = self.amoeba_key(aid)

    def _union(self, keep: int, absorb: int, closed: int = 0) -> None:
        """Merge two amoebas: the smaller one's pieces join the larger (with
        the open ports of both, less the ``closed`` ones that joined them)."""
        amoebas = self.amoebas
        kept, absorbed = amoebas[keep], amoebas[absorb]
        if len(kept[0]) < len(absorbed[0]):
            keep, absorb, kept, absorbed = absorb, keep, absorbed, kept
        piece_amoeba = self.piece_amoeba
        for p in absorbed[0]:
            piece_amoeba[p] = keep
        owner = kept[2]
        if absorbed[2] >= 0 and owner < 0:
            owner = absorbed[2]
            self.claimed.add(keep)
        amoebas[keep] = record(Amoeba, (kept[0] + absorbed[0], kept[1] + absorbed[1] - closed, owner))
        self.changed_amoebas.append(keep)
        self.claimed.discard(absorb)
        self.complete_unclaimed.pop(absorb, None)
        del amoebas[absorb]

    def _new_amoeba(self, members: list[int], open_ports: int, owner: int) -> int:
        aid = self.next_amoeba_id
        self.next_amoeba_id += 1
        self.amoebas[aid] = record(Amoeba, (tuple(members), open_ports, owner))
        self.changed_amoebas.append(aid)
        if owner >= 0:
            self.claimed.add(aid)
        elif open_ports == 0:
            self.complete_unclaimed[aid] = self.amoeba_key(aid)
        piece_amoeba = self.piece_amoeba
        for p in members:
            piece_amoeba[p] = aid
        return aid

    def set_owner(self, aid: int, seat: int) -> None:
        """Put seat's nucleus on an amoeba (-1: none); no supply change."""
        v = self.amoebas[aid]
        self.amoebas[aid] = record(Amoeba, (v.members, v.open_ports, seat))
        self.changed_amoebas.append(aid)
        if seat >= 0:
            self.claimed.add(aid)
            self.complete_unclaimed.pop(aid, None)
        else:
            self.claimed.discard(aid)
            if v.open_ports == 0:
                self.complete_unclaimed[aid] = self.amoeba_key(aid)
        self._cache = {}

    # ------------------------------------------------------------ top tiles
    def _top_components(self, oriented_tile: int, placement_index: int):
        """Amoebas after covering ground tile ``placement_index`` with ``oriented_tile``: returns
        (the new pieces' slots, old amoeba ids, new amoebas as lists of piece
        ids where new pieces get ids len(piece_slots) + i, open counts)."""
        slots = self.game.geo.port_slot[self.placements[placement_index].anchor]
        base = len(self.piece_slots)
        new_slots = [tuple(slots[p] for p in piece) for piece in ORIENTED[oriented_tile]]
        covered_pieces = self.placement_pieces[placement_index]
        old = []
        for p in covered_pieces:
            aid = self.piece_amoeba[p]
            if aid not in old:
                old.append(aid)
        nodes = [p for aid in old for p in self.amoebas[aid].members if p not in covered_pieces]
        nodes.extend(range(base, base + len(new_slots)))
        groups, opens = self._flood(nodes, new_slots, base, set(covered_pieces))
        return new_slots, old, groups, opens

    def _flood(self, nodes, new_slots, base, covered_pieces):
        """Connected groups of pieces (and their open ports) once the covered
        pieces are replaced by the new ones (ids ``base`` + i)."""
        override = {s: base + i for i, own in enumerate(new_slots) for s in own}
        face = self.game.geo.face
        slot_piece = self.slot_piece
        vis = self.unit_placement
        piece_slots = self.piece_slots
        label: dict[int, int] = {}
        groups: list[list[int]] = []
        opens: list[int] = []
        for start in nodes:
            if start in label:
                continue
            label[start] = len(groups)
            stack = [start]
            members = []
            open_ports = 0
            while stack:
                p = stack.pop()
                members.append(p)
                for s in new_slots[p - base] if p >= base else piece_slots[p]:
                    f = face[s]
                    if f < 0 or vis[f >> 2] < 0:
                        open_ports += 1
                        continue
                    q = override.get(f)
                    if q is None:
                        q = int(slot_piece[f])
                        if q < 0 or q in covered_pieces:
                            continue
                    if q not in label:
                        label[q] = len(groups)
                        stack.append(q)
            groups.append(members)
            opens.append(open_ports)
        return groups, opens

    def put_top(self, tile: int, rot: int, anchor: int, owners: list[int] | None = None) -> int:
        """Cover the ground tile anchored at ``anchor`` with a top tile (structure
        only: new amoebas get ``owners`` per group, or none)."""
        k = self.unit_placement[self.game.geo.block_units[anchor][0]]
        if k < 0 or self.placements[k].anchor != anchor or self.placements[k].level != 1 or self.covered[k]:
            raise ValueError("amoeba_v0: a top tile must lie exactly on an uncovered ground tile")
        new_slots, old, groups, opens = self._top_components(tile * 4 + rot, k)
        return self._commit_top(tile, rot, k, new_slots, old, groups, opens, owners)

    def _commit_top(self, tile, rot, covered, new_slots, old, groups, opens, owners) -> int:
        """Lay the top tile on ground tile ``covered``: its pieces replace the
        covered ones and the touched amoebas are rebuilt as ``groups``."""
        self.covered[covered] = 1
        k = self._record_placement(Placement(self.placements[covered].anchor, tile, rot, 2))
        for p in self.placement_pieces[covered]:
            self.piece_amoeba[p] = -1
        for aid in old:
            del self.amoebas[aid]
            self.claimed.discard(aid)
            self.complete_unclaimed.pop(aid, None)
        new_pieces = []
        for number, own_slots in enumerate(new_slots, 1):
            pid = len(self.piece_slots)
            self.piece_slots.append(own_slots)
            self.piece_placement.append(k)
            self.piece_number.append(number)
            self.piece_amoeba.append(-1)
            for s in own_slots:
                self.slot_piece[s] = pid
            new_pieces.append(pid)
        self.placement_pieces.append(new_pieces)
        for i, members in enumerate(groups):
            self._new_amoeba(list(members), opens[i], -1 if owners is None else owners[i])
        self._cache = {}
        return k

    # ------------------------------------------------------------- queries
    @property
    def height(self) -> np.ndarray:
        """Height per unit (0 empty, 1 ground, 2 top)."""
        levels = np.array([p.level for p in self.placements] + [0], dtype=np.int8)
        return levels[np.frombuffer(self.unit_placement, dtype=np.int32)]

    def amoeba_key(self, aid: int) -> int:
        """Canonical key of an amoeba: its smallest port slot (unit*4+dir)."""
        piece_slots = self.piece_slots
        return min(min(piece_slots[p]) for p in self.amoebas[aid].members)

    def amoeba_of_unit(self, r: int, c: int, direction: int | None = None) -> int:
        """Amoeba id of the pink port of unit (r, c) (``direction``, or the
        first pink side), -1 if none."""
        u = r * self.game.units + c
        for side in range(4) if direction is None else (direction,):
            p = int(self.slot_piece[u * 4 + side])
            if p >= 0:
                return self.piece_amoeba[p]
        return -1

    def scores(self) -> list[int]:
        scores = [0] * self.game.num_players
        for members, _, owner in self.amoebas.values():
            if owner >= 0:
                scores[owner] += len(members)
        return scores

    def largest(self) -> list[int]:
        largest = [0] * self.game.num_players
        for members, _, owner in self.amoebas.values():
            if owner >= 0 and len(members) > largest[owner]:
                largest[owner] = len(members)
        return largest

    def claimable(self) -> list[int]:
        """Complete, unclaimed amoebas of at least min_claim_size, in key order."""
        least = self.game.config["min_claim_size"]
        amoebas = self.amoebas
        complete = self.complete_unclaimed
        out = [aid for aid in complete if len(amoebas[aid].members) >= least]
        out.sort(key=complete.__getitem__)
        return out

    def offered(self) -> int | None:
        """The amoeba on offer now (claim step), or None."""
        if self.phase == CLAIM and self.offers:
            return self.offers[self.offer_index]
        return None
