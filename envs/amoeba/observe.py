"""Observation encoder: compact int8 planes plus a small global block.

Every unit of a tile has exactly one outer port on a vertical side (N or S)
and one on a horizontal side (E or W); which ones follows from the unit's
quarter of its tile (planes 2 and 3). So two port channels per unit (V, H)
carry everything the four sides would, at half the size.

Planes (each U x U, row-major, plane-major), values are small integers:
  0 occupied            1 top tile (second storey)
  2 unit is in the top row of its tile   3 unit is in the left column
  4/5   piece number 1..3 within the tile of the V/H port (0 = blue/none)
  6/7   the V/H port is pink and open (faces an empty unit or the edge)
  8/9   size of the V/H port's amoeba (capped at 127)
  10/11 that amoeba is complete
  12/13 that amoeba's owner: 0 none, 1 + relative seat
  14/15 that amoeba is the one on offer (claim step)
The global block follows (see ``global_size``).

The planes are painted by an :class:`Observer` from the state's facts and
kept between calls: per line of play it remembers how many placements and
which amoeba records (by identity: the rules replace a record when it
changes, and clones share them) it has painted, and paints only what is new
(the amoebas the rules logged in ``changed_amoebas`` since its last call).
A clone, or a later position of the same game, starts from the planes of an
earlier position when its placements continue that position's: the deepest
such position among the views painted lately (:class:`Bases`), so a search
that replays its tree from fresh samples of one root, or several games
searched side by side, paints only the placements below the branch point.

The observer runs once per env step, so the painting is kept lean: the view
observed last is found by its state's log (no lookup), a table that has not
changed is not repainted, the cells a placement writes are worked out once
per game, an amoeba that only grew repaints its size and its new pieces, and
each seat's owner planes and the scores are kept until they change.
"""

from __future__ import annotations

import weakref

import numpy as np

from meeplezoo.envs.amoeba.tiles import NUM_TILES, PORT_PIECE_NUM

NUM_PLANES = 16
HAND_SLOTS = 3
SEATS = 4
CAP = 127  # int8 ceiling for sizes and scores
# plane offsets, in planes of U x U
OCCUPIED, TOP, TOP_ROW, LEFT_COLUMN, PIECE, OPEN, SIZE, COMPLETE, OWNER, OFFER = (
    0,
    1,
    2,
    3,
    4,
    6,
    8,
    10,
    12,
    14,
)
OWNER_CODE = 200  # the painted owner planes hold OWNER_CODE + seat (0 = no owner)


def global_size() -> int:
    # hand 3 x (present + 8 ports), selection 12, die, left, phase 3,
    # first tile pending, 4 seats x 5, pile size, unknown tiles 84, turn
    return HAND_SLOTS * 9 + 12 + 1 + 1 + 3 + 1 + SEATS * 5 + 1 + NUM_TILES + 1


def _owner_table(num_players: int, player: int) -> bytes:
    """Byte translation table for the owner planes: OWNER_CODE + seat ->
    1 + seat relative to the observer; every other value unchanged."""
    table = list(range(256))
    for seat in range(num_players):
        table[OWNER_CODE + seat] = 1 + (seat - player) % num_players
    return bytes(table)


_FLIP = bytes([1, 0] + list(range(2, 256)))  # on the table (1) -> not unseen (0)
_SELECTION = [bytes(12)] + [bytes(i == j for j in range(12)) for i in range(12)]
_PHASE = {0: b"\x01\x00\x00", 1: b"\x00\x01\x00", 2: b"\x00\x00\x01"}
_NO_PHASE = b"\x00\x00\x00"
_HAND_PADS = [bytes(9 * (HAND_SLOTS - size)) for size in range(HAND_SLOTS)]  # the empty hand slots
INT8 = np.dtype(np.int8)
HAND9 = [bytes([1] + PORT_PIECE_NUM[t * 4].tolist()) for t in range(NUM_TILES)]


class PaintedPlanes:
    """The board planes of one position, with what they were painted from:
    the first ``count`` placements (the last of them ``last``), each amoeba
    record in ``painted``, the offered amoeba's members, and the state's log
    (``changed_amoebas``, read up to ``log_read``; its identity names the
    state, as a clone or a loaded position has a log of its own)."""

    __slots__ = (
        "planes",
        "count",
        "last",
        "painted",
        "offer_members",
        "log",
        "log_read",
        "scores",
        "owner_views",
    )

    def __init__(self, size: int) -> None:
        self.planes = bytearray(size)
        self.count = 0
        self.last = None
        self.painted: dict = {}
        self.offer_members: tuple = ()
        self.log: list | None = None
        self.log_read = 0
        self.scores: tuple | None = None  # (scores, largest) of the painted amoebas
        # per seat, the owner planes as that seat sees them (until an owner cell changes)
        self.owner_views: dict[int, bytes] = {}

    def continues(self, state) -> bool:
        """Whether ``state``'s placements start with the ones painted here."""
        count = self.count
        placements = state.placements
        return count <= len(placements) and (count == 0 or placements[count - 1] is self.last)

    def copy(self) -> PaintedPlanes:
        new = PaintedPlanes.__new__(PaintedPlanes)
        new.planes = self.planes[:]
        new.count = self.count
        new.last = self.last
        new.painted = dict(self.painted)
        new.offer_members = self.offer_members
        new.log, new.log_read, new.scores = None, 0, self.scores
        new.owner_views = dict(self.owner_views)
        return new


class Bases:
    """The views painted lately, found by their last placement: the starting
    point of a new view is the deepest one whose placements the new state
    continues. Bounded, least recently used first out; an entry whose view
    has since moved on (its state advanced) no longer matches and is skipped."""

    __slots__ = ("limit", "entries")

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self.entries: dict[int, tuple] = {}  # id(last placement) -> (that placement, view)

    def add(self, view: PaintedPlanes) -> None:
        last = view.last
        if last is None:
            return
        entries = self.entries
        entries.pop(id(last), None)
        entries[id(last)] = (last, view)
        if len(entries) > self.limit:
            del entries[next(iter(entries))]

    def deepest(self, placements: list) -> PaintedPlanes | None:
        """The view painted up to the longest prefix of ``placements``."""
        entries = self.entries
        for k in range(len(placements) - 1, -1, -1):
            placement = placements[k]
            entry = entries.get(id(placement))  # the entry holds its placement: ids are not reused
            if entry is None:
                continue
            view = entry[1]
            if view.last is placement and view.count == k + 1:
                del entries[id(placement)]  # used: to the back of the queue
                entries[id(placement)] = entry
                return view
        return None


class Cells:
    """Where a placement writes, worked out once per game: per anchor,
    the plane cells a ground tile and a top tile set to 1; per port slot, the
    cell of its port in each plane pair (plane offset + ``slot_cell[s]``)."""

    def __init__(self, geo, area: int) -> None:
        self.slot_cell = geo.slot_plane
        self.ground: list[tuple[int, ...]] = []
        self.top: list[tuple[int, ...]] = []
        for u0, u1, u2, u3 in geo.block_units:
            self.ground.append(
                (u0, u1, u2, u3, TOP_ROW * area + u0, TOP_ROW * area + u1)
                + (LEFT_COLUMN * area + u0, LEFT_COLUMN * area + u3)
            )
            self.top.append(tuple(TOP * area + u for u in (u0, u1, u2, u3)))
        self.piece_at, self.open_at = PIECE * area, OPEN * area
        self.size_at, self.complete_at, self.owner_at = SIZE * area, COMPLETE * area, OWNER * area
        self.offer_at = OFFER * area


class Observer:
    """The observation encoder of one Amoeba game: reads a state, writes the
    int8 vector of one player (a fresh array each call)."""

    def __init__(self, game) -> None:
        self.game = game
        units = game.units
        self.area = units * units
        game.num_planes = NUM_PLANES
        game.observation_shape = (NUM_PLANES * self.area + global_size(),)
        game.observation_planes = (NUM_PLANES, units, units)
        game.ownership_planes = (OWNER, OWNER + 1)  # the V and H ports' amoeba owners
        game.observation_dtype = np.int8
        game.observation_low = 0
        game.observation_high = 127
        self.owner_tables = [_owner_table(game.num_players, p) for p in range(game.num_players)]
        self.cells = Cells(game.geo, self.area)
        self.turn_scale = max(1, game.max_turns)  # the turn is shown as a percentage of the limit
        n = game.num_players
        # per player, the seats from its own on; the block of the seats this game has not
        self.seat_orders = [tuple((player + k) % n for k in range(n)) for player in range(n)]
        self.absent_seats = bytes(5 * (SEATS - n))
        self._views: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._recent: PaintedPlanes | None = None
        self._bases = Bases()

    def __getstate__(self) -> dict:
        """Pickled without the painted planes (weak references do not pickle)."""
        state = dict(self.__dict__)
        state["_views"] = None
        state["_recent"] = None
        state["_bases"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views = weakref.WeakKeyDictionary()
        self._bases = Bases()

    # ------------------------------------------------------------ planes
    def planes(self, state) -> bytearray:
        """The board planes of ``state`` (owners as OWNER_CODE + seat). The
        view observed last follows the state whose log it holds; one whose
        log and placements have not grown since needs no paint."""
        view = self._recent
        log = state.changed_amoebas
        if view is None or view.log is not log:
            view = self._view_of(state)
            self._paint_table(view, state)
            self._bases.add(view)
        elif view.log_read != len(log) or view.count != len(state.placements):
            self._paint_table(view, state)
            self._bases.add(view)
        if state.offers or view.offer_members:
            self._paint_offer(view, state)
        return view.planes

    def _view_of(self, state) -> PaintedPlanes:
        """The state's own view, else a copy of the deepest view painted
        lately that the state's placements continue, else a blank one."""
        view = self._views.get(state)
        if view is None or not view.continues(state):
            base = self._bases.deepest(state.placements)
            if base is not None:
                view = base.copy()
            else:
                view = PaintedPlanes(NUM_PLANES * self.area)
            self._views[state] = view
        self._recent = view
        return view

    def _paint_table(self, view: PaintedPlanes, state) -> None:
        """The placements not painted yet, then every amoeba whose record is
        not the one painted: those the state logged since the last call, or
        all of them for a view that has not followed this state (new, or
        copied from another position). The scores are kept unless a record
        with an owner changed or went."""
        placements = state.placements
        if view.count != len(placements):
            for k in range(view.count, len(placements)):
                self._paint_placement(view.planes, state, k)
            view.count = len(placements)
            view.last = placements[-1]
        log = state.changed_amoebas
        amoebas = state.amoebas
        if view.log is log:
            changed = log[view.log_read :]  # an id twice is painted once: its record is then the painted one
        else:
            view.log = log
            # the records painted are those of the table (a clone of the position painted): nothing to do
            changed = () if view.painted == amoebas else amoebas
            if changed:
                view.scores = None
        view.log_read = len(log)
        painted = view.painted
        for aid in changed:
            amoeba = amoebas.get(aid)
            old = painted.get(aid)
            if amoeba is old:
                continue
            if amoeba is None:
                del painted[aid]
            else:
                self._paint_amoeba(view, state, amoeba, old)
                painted[aid] = amoeba
            if (amoeba is not None and amoeba[2] >= 0) or (old is not None and old[2] >= 0):
                view.scores = None

    def _paint_placement(self, planes: bytearray, state, placement_index: int) -> None:
        """A tile's units, quarters, piece numbers and open ports (a ground
        tile also closes the ports of the tiles it meets)."""
        cells = self.cells
        slot_cell = cells.slot_cell
        piece_at = cells.piece_at
        number = state.piece_number
        piece_slots = state.piece_slots
        placement = state.placements[placement_index]
        if placement.level == 2:
            top0, top1, top2, top3 = cells.top[placement.anchor]
            planes[top0] = planes[top1] = planes[top2] = planes[top3] = 1
            for pid in state.placement_pieces[placement_index]:
                for s in piece_slots[pid]:
                    planes[piece_at + slot_cell[s]] = number[pid]
            return
        unit0, unit1, unit2, unit3, row0, row1, column0, column3 = cells.ground[placement.anchor]
        planes[unit0] = planes[unit1] = planes[unit2] = planes[unit3] = 1
        planes[row0] = planes[row1] = planes[column0] = planes[column3] = 1
        open_at = cells.open_at
        face = self.game.geo.face
        vis = state.unit_placement
        for pid in state.placement_pieces[placement_index]:
            value = number[pid]
            for s in piece_slots[pid]:
                cell = slot_cell[s]
                planes[piece_at + cell] = value
                f = face[s]
                if f < 0 or vis[f >> 2] < 0:
                    planes[open_at + cell] = 1
                else:
                    planes[open_at + slot_cell[f]] = 0

    def _paint_amoeba(self, view: PaintedPlanes, state, amoeba, old) -> None:
        """An amoeba's size, completeness and owner on its ports. An amoeba
        only gains pieces, at the end of its members, so where ``old`` (its
        record painted before) shows the same completeness and owner, only
        the size goes on its pieces and the rest on the new ones. The seats'
        owner views are dropped when an owner cell changes."""
        members, open_ports, owner = amoeba
        size = len(members) if len(members) < CAP else CAP
        complete = 1 if open_ports == 0 else 0
        owner_code = 0 if owner < 0 else OWNER_CODE + owner
        cells = self.cells
        slot_cell = cells.slot_cell
        planes = view.planes
        piece_slots = state.piece_slots
        size_at, complete_at, owner_at = cells.size_at, cells.complete_at, cells.owner_at
        kept = 0
        if old is not None and old[2] == owner and (old[1] == 0) == (open_ports == 0):
            old_members = old[0]
            if members[: len(old_members)] == old_members:
                kept = len(old_members)
                if size != (kept if kept < CAP else CAP):
                    for p in old_members:
                        for s in piece_slots[p]:
                            planes[size_at + slot_cell[s]] = size
        owners_moved = False
        for p in members[kept:] if kept else members:
            for s in piece_slots[p]:
                i = slot_cell[s]
                planes[size_at + i] = size
                planes[complete_at + i] = complete
                if planes[owner_at + i] != owner_code:
                    planes[owner_at + i] = owner_code
                    owners_moved = True
        if owners_moved:
            view.owner_views = {}

    def _paint_offer(self, view: PaintedPlanes, state) -> None:
        """Move the offer plane to the amoeba on offer now (if it changed)."""
        offered = state.offered()
        members = state.amoebas[offered].members if offered is not None else ()
        if members is view.offer_members:
            return
        cells = self.cells
        slot_cell, at = cells.slot_cell, cells.offer_at
        planes = view.planes
        piece_slots = state.piece_slots
        for value, pieces in ((0, view.offer_members), (1, members)):
            for p in pieces:
                for s in piece_slots[p]:
                    planes[at + slot_cell[s]] = value
        view.offer_members = members

    # ------------------------------------------------------------ vector
    def encode(self, state, player: int) -> np.ndarray:
        """The observation of ``player``, assembled as bytes."""
        game = self.game
        n = game.num_players
        planes = self.planes(state)
        view = self._recent
        if view.scores is None:
            view.scores = _scores(state, n)
        scores, largest = view.scores
        owners = view.owner_views.get(player)
        lo = self.cells.owner_at
        hi = lo + 2 * self.area
        if owners is None:
            owners = view.owner_views[player] = planes[lo:hi].translate(self.owner_tables[player])
        buf = planes[:]
        buf[lo:hi] = owners
        hand = state.hands[player]
        for t in hand[:HAND_SLOTS]:
            buf += HAND9[t]
        if len(hand) < HAND_SLOTS:
            buf += _HAND_PADS[len(hand)]
        phase = state.phase
        selection = state.selection
        shown = selection is not None and state.mover == player and phase == 1
        buf += _SELECTION[1 + selection[0] * 4 + selection[1] if shown else 0]
        buf.append(state.die)
        left = state.placements_left
        buf.append(left if left > 0 else 0)
        buf += _PHASE.get(phase, _NO_PHASE)
        buf.append(1 if state.first_tile_pending else 0)
        supply = state.supply
        hands = state.hands
        for s in self.seat_orders[player]:
            buf += bytes((1, supply[s], scores[s], largest[s], len(hands[s])))
        buf += self.absent_seats
        buf.append(len(state.pile.draw_pile))
        unseen = state.on_board.translate(_FLIP)
        for t in hand:
            unseen[t] = 0
        for t in state.removed[player]:
            unseen[t] = 0
        buf += unseen
        progress = (100 * state.turn) // self.turn_scale
        buf.append(progress if progress < CAP else CAP)
        return np.frombuffer(buf, INT8)  # a positional dtype is the quicker call


def _scores(state, num_players: int) -> tuple[list[int], list[int]]:
    """(scores, largest amoeba) per seat, capped at 127."""
    scores = [0] * num_players
    largest = [0] * num_players
    amoebas = state.amoebas
    for aid in state.claimed:
        members, _, owner = amoebas[aid]
        size = len(members)
        scores[owner] += size
        if size > largest[owner]:
            largest[owner] = size
    return [min(x, CAP) for x in scores], [min(x, CAP) for x in largest]


def encode(state, player: int) -> np.ndarray:
    """The observation of ``player`` (through the game's observer)."""
    return state.game.observer.encode(state, player)


def encode_reference(st, player: int) -> np.ndarray:
    """The same observation built from scratch from the table (slow; for tests)."""
    game = st.game
    geo = game.geo
    U = game.units
    UU = U * U
    n = game.num_players
    out = np.zeros(game.observation_shape[0], dtype=np.int8)
    pl = out[: NUM_PLANES * UU].reshape(NUM_PLANES, UU)
    offer = st.offered()
    for u in range(UU):
        k = st.unit_placement[u]
        if k < 0:
            continue
        a, _tile, _rot, level = st.placements[k]
        ar, ac = geo.anchor_rc(a)
        r, c = divmod(u, U)
        pl[0, u] = 1
        pl[1, u] = level == 2
        pl[2, u] = r == ar
        pl[3, u] = c == ac
        for d in range(4):
            s = u * 4 + d
            f = geo.face[s]
            if f >= 0 and st.unit_placement[f >> 2] == k:
                continue
            p = st.slot_piece[s]
            if p < 0:
                continue
            port = d & 1
            members, nopen, owner = st.amoebas[st.piece_amoeba[p]]
            pl[4 + port, u] = st.piece_number[p]
            pl[6 + port, u] = f < 0 or st.unit_placement[f >> 2] < 0
            pl[8 + port, u] = min(len(members), 127)
            pl[10 + port, u] = nopen == 0
            pl[12 + port, u] = 0 if owner < 0 else 1 + (owner - player) % n
            pl[14 + port, u] = offer is not None and st.piece_amoeba[p] == offer
    _reference_globals(st, player, out, NUM_PLANES * UU)
    return out


def _reference_globals(st, player: int, out: np.ndarray, offset: int) -> None:
    """The global block of :func:`encode_reference`, from ``offset``."""
    game = st.game
    n = game.num_players
    hand = st.hands[player]
    for j in range(HAND_SLOTS):
        if j < len(hand):
            out[offset] = 1
            out[offset + 1 : offset + 9] = PORT_PIECE_NUM[hand[j] * 4]
        offset += 9
    if st.selection is not None and st.mover == player and st.phase == 1:
        out[offset + st.selection[0] * 4 + st.selection[1]] = 1
    offset += 12
    out[offset] = st.die
    out[offset + 1] = max(st.placements_left, 0)
    if 0 <= st.phase <= 2:
        out[offset + 2 + st.phase] = 1
    out[offset + 5] = st.first_tile_pending
    offset += 6
    scores, largest = st.scores(), st.largest()
    for k in range(n):
        s = (player + k) % n
        out[offset : offset + 5] = (
            1,
            st.supply[s],
            min(scores[s], 127),
            min(largest[s], 127),
            len(st.hands[s]),
        )
        offset += 5
    offset += 5 * (SEATS - n)
    out[offset] = len(st.pile)
    offset += 1
    known = {pl_[1] for pl_ in st.placements} | set(hand) | set(st.removed[player])
    for t in range(NUM_TILES):
        out[offset + t] = t not in known
    offset += NUM_TILES
    out[offset] = min(127, (100 * st.turn) // max(1, game.max_turns))
