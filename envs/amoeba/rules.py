"""Amoeba rules: the Game (config, tables) and the State (position, moves).

Bookkeeping is incremental. Ground tiles only ever join pieces, so amoebas
are kept as records (member pieces, open-port count, owner; merge the
smaller into the larger), with the claimed and the complete unclaimed ones
indexed. A top tile (a split) rebuilds only the amoebas that touch the covered
tile. Legal ground anchors come from a frontier of empty blocks next to the
table: per block, the ports that must be blue and pink (8-bit masks), and the
frontier grouped by the big-int mask of the 336 oriented tiles that fit there,
so "does this tile fit anywhere" is a few ANDs and "where" one pass over the
groups. A new tile updates only the blocks around it (contact tables per block
offset, built once per board size).

The state holds the game's facts only; the observation planes are painted by
the observer (observe.py), which reads these facts.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar, NamedTuple

import numpy as np

from meeplezoo.envs.amoeba.geometry import geometry
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
from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out
from meeplezoo.envs.core.dice import check_die_script, roll, scripted_or_rolled
from meeplezoo.envs.core.fields import Field, generator_field, saved
from meeplezoo.envs.core.options import choice, custom, flag, integer
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import Game, GameInfo, State, derive_rng, make_rng
from meeplezoo.envs.core.turns import next_seat


class Phase(IntEnum):
    """The decision the mover faces (OVER once the game has ended)."""

    SELECT = 0  # choose a hand tile and its rotation
    ANCHOR = 1  # choose where the selected tile goes
    CLAIM = 2  # claim or decline the amoeba on offer
    OVER = -1


SELECT, ANCHOR, CLAIM, OVER = Phase.SELECT, Phase.ANCHOR, Phase.CLAIM, Phase.OVER
PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}

# The action space, block by block: hand slot x rotation, then one action per
# anchor, then claim and decline (the anchor block's size depends on the board).
HAND_SLOTS = 3
ROTATIONS = 4
FIRST_ANCHOR_ACTION = HAND_SLOTS * ROTATIONS


class ActionBlock(IntEnum):
    """The kinds of action, in the order of their blocks in the action space."""

    SELECT = 0
    ANCHOR = 1
    CLAIM = 2
    DECLINE = 3


class Placement(NamedTuple):
    """One tile laid on the table (immutable, so clones share it)."""

    anchor: int
    tile: int
    rotation: int
    level: int  # 1 ground, 2 top


class Amoeba(NamedTuple):
    """One amoeba: its pieces, how many of its pink ports are open, its owner
    (-1: none). Replaced on change, so clones share it."""

    members: tuple[int, ...]
    open_ports: int
    owner: int


def _amoeba(members: tuple[int, ...], open_ports: int, owner: int) -> Amoeba:
    return tuple.__new__(Amoeba, (members, open_ports, owner))


@dataclass(slots=True)
class SplitPlan:
    """A legal top placement worked out: the covered tile, the new amoebas
    (piece groups, open ports, owners) and what the split does to supplies."""

    ground_index: int
    oriented: int
    new_slots: list[tuple[int, ...]]
    old: list[int]
    groups: list[list[int]]
    opens: list[int]
    owners: list[int]
    keeper: int
    parts: list[int]
    merged: int
    merged_owner: int
    target_owner: int


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


def _check_die_faces(value: Any, key: str, game_name: str) -> tuple[int, ...]:
    ok = isinstance(value, (list, tuple)) and value
    if not ok or not all(
        isinstance(f, (int, np.integer)) and not isinstance(f, (bool, np.bool_)) and 1 <= f <= 3
        for f in value
    ):
        raise ValueError(f"{game_name}: {key} must be a non-empty list of integers 1..3, got {value!r}")
    return tuple(int(f) for f in value)


def _check_board_units(value: Any, key: str, game_name: str) -> int:
    value = integer(24, 6, 64, "").check(value, key, game_name)
    if value % 2:
        raise ValueError(f"{game_name}: {key} must be even, got {value!r}")
    return value


def _check_pile(value: Any, key: str, game_name: str) -> list[int] | None:
    if value is None:
        return None
    if (
        not isinstance(value, (list, tuple))
        or len(set(value)) != len(value)
        or not all(
            isinstance(t, (int, np.integer)) and not isinstance(t, bool) and 0 <= t < NUM_TILES for t in value
        )
    ):
        raise ValueError(
            f"{game_name}: {key} must be None or a list of distinct tile ids 0..83, got {value!r}"
        )
    return [int(t) for t in value]


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
    options: ClassVar[dict] = {
        "num_players": integer(2, 2, 4, "seats at the table"),
        "board_units": custom(24, "U: the board is U x U half-tile units", "even, 6..64", _check_board_units),
        "nuclei_per_player": integer(10, 1, 40, "nuclei in each supply"),
        "hand_size": integer(3, 1, HAND_SLOTS, "tiles held"),
        "die_faces": custom(
            (1, 1, 2, 2, 3, 3),
            "the die's faces: placements per turn",
            "non-empty list of 1..3",
            _check_die_faces,
        ),
        "min_claim_size": integer(2, 1, 20, "segments an amoeba needs to be claimed"),
        "min_split_size": integer(4, 2, 40, "segments an owned amoeba needs to be split"),
        "min_part_size": integer(2, 1, 20, "segments each part of a split needs"),
        "allow_rotation": flag(True, "tiles may be turned (false: rotation 0 only)"),
        "remove_stuck_hand": flag(True, "a hand that cannot place a tile leaves the game"),
        "max_turns": integer(400, 1, 100000, "turns before the game is truncated"),
        "reward_mode": choice("rank", ("rank", "score_diff"), "rank rewards, or score difference / 50"),
        "dice_override": custom(
            None,
            "test hook: the first die results, in order",
            "none or a list of 1..3",
            lambda value, key, name: check_die_script(value, key, 1, 3, name),
        ),
        "pile_override": custom(
            None,
            "test hook: the pile order (drawn from the end)",
            "none or a list of distinct tile ids 0..83",
            _check_pile,
        ),
    }
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "board_units": 12, "nuclei_per_player": 3},
        {"num_players": 3, "allow_rotation": False, "reward_mode": "score_diff"},
        {"num_players": 2, "remove_stuck_hand": False, "max_turns": 60},
    ]

    def validate(self) -> None:
        config = self.config
        self.units = config["board_units"]
        self.geo = geometry(self.units)
        self.num_anchors = self.geo.num_anchors
        self.first_anchor_action = FIRST_ANCHOR_ACTION
        self.claim_action = FIRST_ANCHOR_ACTION + self.num_anchors
        self.decline_action = self.claim_action + 1
        self.num_actions = self.decline_action + 1
        self.action_blocks = _action_blocks(self)
        self.reward_range = (-1.0, 1.0) if config["reward_mode"] == "rank" else (-6.0, 6.0)
        self.max_turns = config["max_turns"]
        # per tile: the oriented tiles a player may choose (distinct rotations,
        # or rotation 0 only), as a tuple and as a bit mask
        rotations = DISTINCT_ROTS if config["allow_rotation"] else [(0,)] * NUM_TILES
        self.tile_orientations = [tuple(t * 4 + r for r in rotations[t]) for t in range(NUM_TILES)]
        self.tile_orientation_bits = [sum(1 << o for o in os_) for os_ in self.tile_orientations]

    # Names kept for callers outside the rules (web move labels, older tests).
    @property
    def ANCHOR0(self) -> int:  # noqa: N802
        return self.first_anchor_action

    @property
    def CLAIM_YES(self) -> int:  # noqa: N802
        return self.claim_action

    @property
    def CLAIM_NO(self) -> int:  # noqa: N802
        return self.decline_action

    def new_initial_state(self, seed: int | None = None) -> AmoebaState:
        state = AmoebaState(self)
        state.rng = make_rng(seed)
        config = self.config
        if config["pile_override"] is not None:
            state.pile = Deck(config["pile_override"])
        else:
            state.pile = Deck.shuffled(range(NUM_TILES), state.rng)
        for hand in state.hands:
            for _ in range(config["hand_size"]):
                if state.pile:
                    hand.append(state.pile.draw())
        state._begin_turn()
        return state

    def empty_state(self) -> AmoebaState:
        """An empty table with empty hands (for building positions in tests)."""
        state = AmoebaState(self)
        state.rng = make_rng(0)
        return state

    def state_from_dict(self, data: dict) -> AmoebaState:
        return AmoebaState.from_dict(self, data)


def _selection_from_json(data: Any, _game: Any) -> tuple[int, int] | None:
    return tuple(data) if data is not None else None


# The position dict holds copies, never the state's own lists (nor a loaded
# state the dict's).
def _copied_lists(value: list[list[int]], _context: Any) -> list[list[int]]:
    return [list(row) for row in value]


def _copied_list(value: list[int], _context: Any) -> list[int]:
    return list(value)


def _lists_field(name: str) -> Field:
    return saved(name, "lists", to_json=_copied_lists, from_json=_copied_lists)


class AmoebaState(State):
    fields = (
        generator_field(),
        _lists_field("hands"),
        saved("pile", "copy", to_json=lambda deck, _s: deck.draw_pile[:], from_json=lambda d, _g: Deck(d)),
        _lists_field("removed"),
        saved("supply", "list", to_json=_copied_list, from_json=_copied_list),
        # the table (rebuilt from the placements when a position is loaded)
        Field("placements", "list"),
        Field("covered", "list"),  # per placement: 1 once a top tile lies on it
        Field("placement_pieces", "list"),  # per placement: its piece ids (never changed in place)
        Field("unit_placement", "list"),  # per unit: the visible placement, -1 empty
        Field("on_board", "list"),  # per tile id: 1 once laid
        Field("slot_piece", "list"),  # per port slot: the visible pink piece, -1 none
        Field("piece_slots", "list"),
        Field("piece_placement", "list"),
        Field("piece_number", "list"),  # 1..3 within its tile
        Field("piece_amoeba", "list"),
        Field("amoebas", "copy"),  # amoeba id -> Amoeba
        Field("claimed", "copy"),  # ids of the owned amoebas
        Field("complete_unclaimed", "copy"),  # id -> canonical key
        Field("next_amoeba_id"),
        Field("blue_required", "list"),  # per anchor: ports that must be blue
        Field("pink_required", "list"),  # per anchor: ports that must be pink
        Field("anchor_free", "list"),  # per anchor: its block is empty
        Field("frontier", "dict_of_copies"),  # fit mask -> anchors next to the table
        Field("offers", "list"),  # the amoebas offered at this claim step (saved by their keys)
        # the turn
        saved("first_tile_pending"),
        saved("mover"),
        saved("phase", from_json=lambda value, _g: Phase(value)),
        saved("die"),
        saved("placements_left"),
        saved("placed"),
        saved(
            "selection", to_json=lambda sel, _s: list(sel) if sel else None, from_json=_selection_from_json
        ),
        saved("offer_index"),
        saved("turn"),
        saved("_terminal", key="terminal"),
        saved("_truncated", key="truncated"),
        saved("dice_used"),
        Field("last_split"),
        Field("_cache", "new_dict"),  # legal-move caches; a clone starts without
    )

    def __init__(self, game: AmoebaGame) -> None:
        self.game = game
        n = game.num_players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.pile = Deck()
        self.removed: list[list[int]] = [[] for _ in range(n)]
        self.supply = [game.config["nuclei_per_player"]] * n
        self._init_table()
        self.first_tile_pending = True
        self.mover = 0
        self.phase = SELECT
        self.die = 0
        self.placements_left = 0
        self.placed = 0
        self.selection: tuple[int, int] | None = None
        self.offers: list[int] = []
        self.offer_index = 0
        self.turn = 0
        self._terminal = False
        self._truncated = False
        self.dice_used = 0
        self.last_split: dict | None = None
        self._cache: dict = {}

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
        self.claimed: set[int] = set()
        # a complete amoeba's pieces never change, so its key is worked out once
        self.complete_unclaimed: dict[int, int] = {}
        self.next_amoeba_id = 0
        self.blue_required = bytearray(anchors)
        self.pink_required = bytearray(anchors)
        self.anchor_free = bytearray(b"\x01") * anchors
        # the frontier, grouped by FIT_BLUE[blue_required] & FIT_PINK[pink_required]
        self.frontier: dict[int, set[int]] = {}

    # ------------------------------------------------------------ saving
    def to_dict(self) -> dict:
        data = super().to_dict()
        width = self.game.geo.W
        data["placements"] = [
            [p.anchor // width, p.anchor % width, p.tile, p.rotation, p.level] for p in self.placements
        ]
        data["owners"] = sorted(
            [self.amoeba_key(aid), v.owner] for aid, v in self.amoebas.items() if v.owner >= 0
        )
        data["offers"] = [self.amoeba_key(aid) for aid in self.offers]
        return data

    def _after_load(self, data: dict) -> None:
        """Rebuild the table by laying the saved placements again."""
        self._init_table()
        first_tile_pending = self.first_tile_pending
        width = self.game.geo.W
        for r, c, tile, rotation, level in data["placements"]:
            if level == 1:
                self.put_ground(tile, rotation, r * width + c)
            else:
                self.put_top(tile, rotation, r * width + c)
        self.first_tile_pending = first_tile_pending
        for key, seat in data["owners"]:
            self.set_owner(self.piece_amoeba[self.slot_piece[key]], seat)
        self.offers = [self.piece_amoeba[self.slot_piece[key]] for key in data["offers"]]
        self.last_split = None
        self._cache = {}

    # ------------------------------------------------------------ ground tiles
    def put_ground(self, tile: int, rot: int, a: int, check: bool = True) -> int:
        """Lay a ground tile (legality checked only as far as empty units and
        matching colours, and not at all with check=False, for moves already
        known legal); keeps amoebas, open ports and the anchor frontier up to date."""
        oriented = tile * 4 + rot
        self._check_ground(a, oriented, check)
        k = self._record_placement(Placement(a, tile, rot, 1))
        self._take_block(a)
        self._require_around(a, PINK8_LIST[oriented])
        new_pieces = self._add_pieces(k, self.game.geo.port_slot[a], ORIENTED[oriented])
        self._join_contacts(new_pieces)
        self._index_complete(new_pieces)
        self.first_tile_pending = False
        self._cache = {}
        return k

    def _check_ground(self, a: int, oriented: int, check: bool) -> None:
        """The block must be empty; with ``check``, pink must meet pink."""
        geo = self.game.geo
        vis = self.unit_placement
        u0, u1, u2, u3 = geo.block_units[a]
        if vis[u0] >= 0 or vis[u1] >= 0 or vis[u2] >= 0 or vis[u3] >= 0:
            raise ValueError("amoeba_v0: the block is not empty")
        if not check:
            return
        pink8 = PINK8_LIST[oriented]
        face = geo.face
        slot_piece = self.slot_piece
        for port, slot in enumerate(geo.port_slot[a]):
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

    def _leave_frontier(self, anchor: int, blue: int, pink: int) -> None:
        if blue | pink:
            mask = FIT_BLUE[blue] & FIT_PINK[pink]
            group = self.frontier[mask]
            group.discard(anchor)
            if not group:
                del self.frontier[mask]

    def _take_block(self, a: int) -> None:
        """The blocks overlapping the new tile are no longer free anchors."""
        free = self.anchor_free
        blue, pink = self.blue_required, self.pink_required
        for other in self.game.geo.overlap[a]:
            if free[other]:
                free[other] = 0
                self._leave_frontier(other, blue[other], pink[other])

    def _require_around(self, a: int, pink8: int) -> None:
        """The free blocks touching the new tile must now match its ports:
        move each to the frontier group of what fits there now."""
        free = self.anchor_free
        frontier = self.frontier
        blue_required, pink_required = self.blue_required, self.pink_required
        for other, table in self.game.geo.contact_tables[a]:
            if not free[other]:
                continue
            pink_bits, blue_bits = table[pink8]
            blue, pink = blue_required[other], pink_required[other]
            self._leave_frontier(other, blue, pink)
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

    def _add_pieces(self, k: int, slots: tuple[int, ...], pieces) -> list[int]:
        """The ground tile's pieces, each an amoeba of its own for now."""
        amoebas = self.amoebas
        piece_amoeba = self.piece_amoeba
        piece_slots = self.piece_slots
        slot_piece = self.slot_piece
        new_pieces = []
        aid = self.next_amoeba_id
        pid = len(piece_slots)
        for piece in pieces:
            own_slots = tuple([slots[p] for p in piece])
            piece_slots.append(own_slots)
            piece_amoeba.append(aid)
            amoebas[aid] = _amoeba((pid,), 0, -1)
            for s in own_slots:
                slot_piece[s] = pid
            new_pieces.append(pid)
            pid += 1
            aid += 1
        self.next_amoeba_id = aid
        count = len(new_pieces)
        self.piece_placement.extend([k] * count)
        self.piece_number.extend(range(1, count + 1))
        self.placement_pieces.append(new_pieces)
        return new_pieces

    def _join_contacts(self, new_pieces: list[int]) -> None:
        """Each new pink port is open (it faces an empty unit or the edge) or
        closes the pink port it meets, joining the two amoebas."""
        face = self.game.geo.face
        vis = self.unit_placement
        slot_piece = self.slot_piece
        piece_amoeba = self.piece_amoeba
        amoebas = self.amoebas
        for pid in new_pieces:
            for s in self.piece_slots[pid]:
                f = face[s]
                if f < 0 or vis[f >> 2] < 0:
                    aid = piece_amoeba[pid]
                    v = amoebas[aid]
                    amoebas[aid] = _amoeba(v[0], v[1] + 1, v[2])
                    continue
                met = piece_amoeba[slot_piece[f]]
                v = amoebas[met]
                amoebas[met] = _amoeba(v[0], v[1] - 1, v[2])
                mine = piece_amoeba[pid]
                if mine != met:
                    self._union(mine, met)

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

    def _union(self, keep: int, absorb: int) -> None:
        """Merge two amoebas: the smaller one's pieces join the larger."""
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
        amoebas[keep] = _amoeba(tuple(kept[0]) + tuple(absorbed[0]), kept[1] + absorbed[1], owner)
        self.claimed.discard(absorb)
        self.complete_unclaimed.pop(absorb, None)
        del amoebas[absorb]

    def _new_amoeba(self, members: list[int], open_ports: int, owner: int) -> int:
        aid = self.next_amoeba_id
        self.next_amoeba_id += 1
        self.amoebas[aid] = _amoeba(tuple(members), open_ports, owner)
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
        self.amoebas[aid] = _amoeba(v.members, v.open_ports, seat)
        if seat >= 0:
            self.claimed.add(aid)
            self.complete_unclaimed.pop(aid, None)
        else:
            self.claimed.discard(aid)
            if v.open_ports == 0:
                self.complete_unclaimed[aid] = self.amoeba_key(aid)
        self._cache = {}

    # ------------------------------------------------------------ top tiles
    def _top_components(self, o: int, k: int):
        """Amoebas after covering ground tile k with oriented tile o: returns
        (the new pieces' slots, old amoeba ids, new amoebas as lists of piece
        ids where new pieces get ids len(piece_slots) + i, open counts)."""
        slots = self.game.geo.port_slot[self.placements[k].anchor]
        base = len(self.piece_slots)
        new_slots = [tuple(slots[p] for p in piece) for piece in ORIENTED[o]]
        covered_pieces = self.placement_pieces[k]
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

    def put_top(self, tile: int, rot: int, a: int, owners: list[int] | None = None) -> int:
        """Cover the ground tile anchored at a with a top tile (structure
        only: new amoebas get ``owners`` per group, or none)."""
        k = self.unit_placement[self.game.geo.block_units[a][0]]
        if k < 0 or self.placements[k].anchor != a or self.placements[k].level != 1 or self.covered[k]:
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

    def amoeba_of_unit(self, r: int, c: int, d: int | None = None) -> int:
        """Amoeba id of the pink port of unit (r, c) (direction d, or the
        first pink side), -1 if none."""
        u = r * self.game.units + c
        for side in range(4) if d is None else (d,):
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

    # ------------------------------------------------------ legal placements
    def _hand_fit(self) -> int:
        """Bit mask of the mover's oriented hand tiles (bit o) that fit at some
        ground anchor (scans the frontier's groups until every one is found)."""
        fit = self._cache.get("handfit")
        if fit is None:
            bits = self.game.tile_orientation_bits
            hand_mask = 0
            for t in self.hands[self.mover]:
                hand_mask |= bits[t]
            if self.first_tile_pending:
                fit = hand_mask
            else:
                fit = 0
                for mask in self.frontier:
                    fit |= mask & hand_mask
                    if fit == hand_mask:
                        break
            self._cache["handfit"] = fit
        return fit

    def _ground_anchors(self, o: int) -> list[int]:
        """Legal ground anchors of oriented tile o."""
        if self.first_tile_pending:
            return [self.game.geo.center_anchor]
        out: list[int] = []
        for mask, group in self.frontier.items():
            if (mask >> o) & 1:
                out.extend(group)
        return out

    def _top_candidates(self) -> list[int]:
        """Uncovered ground tiles of opponents' complete amoebas big enough to split."""
        found = self._cache.get("topcand")
        if found is None:
            least = self.game.config["min_split_size"]
            mover = self.mover
            candidates = set()
            for aid in self.claimed:
                members, open_ports, owner = self.amoebas[aid]
                if owner != mover and open_ports == 0 and len(members) >= least:
                    for p in members:
                        k = self.piece_placement[p]
                        if self.placements[k].level == 1 and not self.covered[k]:
                            candidates.add(k)
            found = sorted(candidates)
            self._cache["topcand"] = found
        return found

    def _top_plans(self, o: int) -> dict[int, SplitPlan]:
        """{anchor: split plan} of the legal top placements of oriented tile o."""
        key = ("top", o)
        plans = self._cache.get(key)
        if plans is None:
            plans = {}
            candidates = self._top_candidates()
            if candidates:
                pink8 = PINK8_LIST[o]
                for k in candidates:
                    placement = self.placements[k]
                    below = placement.tile * 4 + placement.rotation
                    if PINK8_LIST[below] != pink8 or ORIENTED[below] == ORIENTED[o]:
                        continue
                    plan = self._plan_top(o, k, self.mover)
                    if plan is not None:
                        plans[placement.anchor] = plan
            self._cache[key] = plans
        return plans

    def _placements_of(self, o: int):
        """(legal ground anchors, {anchor: split plan}) for oriented tile o."""
        return self._ground_anchors(o), self._top_plans(o)

    def _hand_oriented(self) -> list[int]:
        orientations = self.game.tile_orientations
        return [o for t in self.hands[self.mover] for o in orientations[t]]

    def _any_select(self) -> bool:
        if self._hand_fit():
            return True
        return any(self._top_plans(o) for o in self._hand_oriented())

    # ---------------------------------------------------------------- splits
    def _split_target(self, k: int, mover: int) -> int | None:
        """The one opponent's complete amoeba, big enough, that covering
        ground tile k would split (None: the cover is not a legal split)."""
        amoebas = self.amoebas
        touched = {self.piece_amoeba[p] for p in self.placement_pieces[k]}
        if any(amoebas[aid].open_ports != 0 for aid in touched):
            return None
        least = self.game.config["min_split_size"]
        targets = [
            aid
            for aid in touched
            if amoebas[aid].owner >= 0 and amoebas[aid].owner != mover and len(amoebas[aid].members) >= least
        ]
        return targets[0] if len(targets) == 1 else None

    def _plan_top(self, o: int, k: int, mover: int) -> SplitPlan | None:
        """Check a split of ground tile k by oriented tile o (rules of the
        top placement); return the resolution plan, or None if illegal."""
        target = self._split_target(k, mover)
        if target is None:
            return None
        new_slots, old, groups, opens = self._top_components(o, k)
        if any(opens):
            return None
        base = len(self.piece_slots)
        # which old amoebas each new amoeba holds (new pieces hold none)
        holds = [{self.piece_amoeba[p] for p in members if p < base} for members in groups]
        parts = [i for i, held in enumerate(holds) if target in held]
        least = self.game.config["min_part_size"]
        if not 2 <= len(parts) <= 3 or any(len(groups[i]) < least for i in parts):
            return None
        for bystander in old:
            if bystander != target and sum(1 for held in holds if bystander in held) != 1:
                return None  # a bystander would be split
        merge = self._merge_in_split(holds, parts, target)
        if merge is None:
            return None
        merged, merged_by = merge
        merged_owner = self.amoebas[merged_by].owner if merged_by >= 0 else -1
        supply = self.supply[mover] + (1 if merged_owner == mover else 0)
        if supply < len(parts) - 1:
            return None
        keeper = next(
            i for i in sorted(parts, key=lambda i: self._part_key(groups[i], new_slots, base)) if i != merged
        )
        owners = self._part_owners(holds, parts, keeper, target, mover)
        return SplitPlan(
            k,
            o,
            new_slots,
            old,
            groups,
            opens,
            owners,
            keeper,
            parts,
            merged,
            merged_owner,
            self.amoebas[target].owner,
        )

    def _merge_in_split(self, holds, parts, target) -> tuple[int, int] | None:
        """(the part that also joins another amoeba, that amoeba) or (-1, -1);
        None when the new groups join amoebas in a way the rules forbid."""
        merged = merged_by = -1
        for i, held in enumerate(holds):
            others = held - {target}
            if i in parts:
                if len(others) > 1:
                    return None
                if others:
                    if merged >= 0:
                        return None
                    merged, merged_by = i, next(iter(others))
            elif len(others) != 1:
                return None  # a stray piece, or two amoebas joined outside the split
        return merged, merged_by

    def _part_key(self, members, new_slots, base) -> tuple[int, int]:
        """Parts are ranked by size, then by their smallest unit."""
        piece_slots = self.piece_slots
        lowest = min(
            min(s // 4 for s in (new_slots[p - base] if p >= base else piece_slots[p])) for p in members
        )
        return (len(members), lowest)

    def _part_owners(self, holds, parts, keeper, target, mover) -> list[int]:
        """The owner of each new amoeba: the smallest part stays with the
        target's owner, the other parts go to the mover, the rest keep theirs."""
        owners = []
        for i, held in enumerate(holds):
            if i == keeper:
                owners.append(self.amoebas[target].owner)
            elif i in parts:
                owners.append(mover)
            else:
                owners.append(self.amoebas[next(iter(held))].owner)
        return owners

    def _resolve_split(self, tile: int, rot: int, plan: SplitPlan) -> None:
        mover = self.mover
        if plan.merged_owner >= 0:
            self.supply[plan.merged_owner] += 1
        self.supply[mover] -= len(plan.parts) - 1
        self._commit_top(
            tile, rot, plan.ground_index, plan.new_slots, plan.old, plan.groups, plan.opens, plan.owners
        )
        self.last_split = {
            "mover": mover,
            "target_owner": plan.target_owner,
            "parts": len(plan.parts),
            "merged": plan.merged >= 0,
        }

    # ------------------------------------------------------------ contract
    @property
    def current_player(self) -> int:
        return -1 if self._terminal or self._truncated else self.mover

    @property
    def terminal(self) -> bool:
        return self._terminal

    @property
    def truncated(self) -> bool:
        return self._truncated and not self._terminal

    def _mask_bytes(self) -> bytearray:
        """The legal actions as one byte per action (cached until the next change)."""
        mask = self._cache.get("mask")
        if mask is not None:
            return mask
        mask = bytearray(self.game.num_actions)
        if not (self._terminal or self._truncated):
            for kind, first, _stop in self.game.action_blocks[self.phase]:
                kind.mark_legal(self, mask, first)
        self._cache["mask"] = mask
        return mask

    def legal_action_mask(self) -> np.ndarray:
        return np.frombuffer(self._mask_bytes()[:], dtype=np.bool_)

    def _is_legal(self, action: int) -> bool:
        """The byte mask answers without building the numpy mask."""
        return bool(self._mask_bytes()[action])

    def _apply_action(self, action: int) -> None:
        for kind, first, stop in self.game.action_blocks[self.phase]:
            if first <= action < stop:
                kind.apply(self, action - first)
                return

    # ---------------------------------------------- the kinds of action
    def _mark_selects(self, mask: bytearray, first: int) -> None:
        """A hand tile and rotation may be selected if it fits somewhere."""
        rotations_allowed = self.game.config["allow_rotation"]
        fit = self._hand_fit()
        for slot, t in enumerate(self.hands[self.mover]):
            for r in DISTINCT_ROTS[t] if rotations_allowed else (0,):
                o = t * 4 + r
                if (fit >> o) & 1 or self._top_plans(o):
                    mask[first + ROTATIONS * slot + r] = 1

    def _select(self, offset: int) -> None:
        self.selection = divmod(offset, ROTATIONS)
        self.phase = ANCHOR
        self._cache.pop("mask", None)

    def _mark_anchors(self, mask: bytearray, first: int) -> None:
        """The selected tile's ground anchors (the centre for the first tile)
        and the anchors where it would split an amoeba."""
        slot, r = self.selection
        o = self.hands[self.mover][slot] * 4 + r
        if self.first_tile_pending:
            mask[first + self.game.geo.center_anchor] = 1
        else:
            bit = 1 << o
            for fit, group in self.frontier.items():
                if fit & bit:
                    for a in group:
                        mask[first + a] = 1
        for a in self._top_plans(o):
            mask[first + a] = 1

    def _lay_selected(self, anchor: int) -> None:
        slot, r = self.selection
        hand = self.hands[self.mover]
        tile = hand[slot]
        plan = self._top_plans(tile * 4 + r).get(anchor)
        self.last_split = None
        if plan is not None:
            self._resolve_split(tile, r, plan)
        else:
            self.put_ground(tile, r, anchor, check=False)
        hand.pop(slot)
        self.selection = None
        self.placements_left -= 1
        self.placed += 1
        self._cache = {}
        self._advance_from_placements()

    def _mark_claim_step(self, mask: bytearray, first: int) -> None:
        mask[first] = 1

    def _claim(self, _offset: int) -> None:
        aid = self.offers[self.offer_index]
        v = self.amoebas[aid]
        self.amoebas[aid] = _amoeba(v.members, v.open_ports, self.mover)
        self.claimed.add(aid)
        self.complete_unclaimed.pop(aid, None)
        self.supply[self.mover] -= 1
        self._next_offer()

    def _decline(self, _offset: int) -> None:
        self._next_offer()

    def _next_offer(self) -> None:
        self.offer_index += 1
        self._cache = {}
        if self.offer_index < len(self.offers) and self.supply[self.mover] > 0:
            return
        self.offers = []
        self.offer_index = 0
        self._end_turn()

    def _select_name(self, offset: int) -> str:
        slot, r = divmod(offset, ROTATIONS)
        hand = self.hands[self.mover] if self.mover >= 0 else []
        tail = f" (tile {hand[slot]}: {notation(ORIENTED[hand[slot] * 4 + r])})" if slot < len(hand) else ""
        return f"select slot {slot} rot {r}{tail}"

    def _anchor_name(self, offset: int) -> str:
        r, c = self.game.geo.anchor_rc(offset)
        return f"anchor {r} {c}"

    # ----------------------------------------------------------- turn flow
    def _roll(self) -> int:
        config = self.game.config
        faces = config["die_faces"]
        result, self.dice_used = scripted_or_rolled(
            config["dice_override"], self.dice_used, lambda: faces[roll(self.rng, len(faces)) - 1]
        )
        return result

    def _begin_turn(self) -> None:
        self.die = self._roll()
        self.placements_left = self.die
        self.placed = 0
        self.selection = None
        self._cache = {}
        self._advance_from_placements()

    def _advance_from_placements(self) -> None:
        """Run the turn forward to the next real decision: another placement,
        else the claims, else the end of the turn."""
        while True:
            hand = self.hands[self.mover]
            if self.placements_left > 0 and hand and self._any_select():
                self.phase = SELECT
                return
            if self.placed == 0 and hand and self.game.config["remove_stuck_hand"]:
                self.removed[self.mover].extend(hand)
                self.hands[self.mover] = []
                self._cache = {}
            if self._offer_claims() or not self._end_turn(advance=False):
                return

    def _offer_claims(self) -> bool:
        """Start the claim step if the mover has a nucleus and something to claim."""
        if self.supply[self.mover] <= 0:
            return False
        offers = self.claimable()
        if not offers:
            return False
        self.offers = offers
        self.offer_index = 0
        self.phase = CLAIM
        self._cache = {}
        return True

    def _end_turn(self, advance: bool = True) -> bool:
        """Draw up, check the end, pass to the next seat and roll; with
        ``advance``, run its turn to its first decision. Returns whether a
        next turn began."""
        hand = self.hands[self.mover]
        while len(hand) < self.game.config["hand_size"] and self.pile:
            hand.append(self.pile.draw())
        self.turn += 1
        if (not self.pile and not any(self.hands)) or not any(self.supply):
            self._terminal = True
        elif self.turn >= self.game.max_turns:
            self._truncated = True
        if self._terminal or self._truncated:
            self.phase = OVER
            self._cache = {}
            return False
        self.mover = next_seat(self.mover, self.game.num_players)
        self.die = self._roll()
        self.placements_left = self.die
        self.placed = 0
        self.selection = None
        self._cache = {}  # new mover: options change, the board does not
        if advance:
            self._advance_from_placements()
        return True

    def returns(self) -> np.ndarray:
        scores = self.scores()
        if self.game.config["reward_mode"] == "score_diff":
            n = len(scores)
            total = sum(scores)
            return np.array([(s - (total - s) / (n - 1)) / 50.0 for s in scores], dtype=np.float64)
        return rank_rewards(list(zip(scores, self.largest())))

    # -------------------------------------------------------------- hidden
    def determinize(self, player: int, rng: np.random.Generator) -> AmoebaState:
        """Redeal the tiles ``player`` has not seen: the pile, the other
        hands and the other seats' removed tiles."""
        state = self.clone()
        others = [p for p in range(self.game.num_players) if p != player]
        hidden = list(self.pile.draw_pile)
        sizes = []
        for p in others:
            hidden += self.hands[p] + self.removed[p]
            sizes += [len(self.hands[p]), len(self.removed[p])]
        dealt, rest = deal_out(canonical_shuffle(hidden, rng), sizes)
        for i, p in enumerate(others):
            state.hands[p] = dealt[2 * i]
            state.removed[p] = dealt[2 * i + 1]
        state.pile = Deck(rest)
        state.rng = derive_rng(rng)
        state._cache = {}
        return state

    # ----------------------------------------------------------------- views
    def phase_name(self) -> str:
        return PHASE_NAMES[OVER if (self._terminal or self._truncated) else self.phase]

    def action_to_string(self, action: int) -> str:
        a = int(action)
        for blocks in self.game.action_blocks.values():
            for kind, first, stop in blocks:
                if first <= a < stop:
                    return kind.describe(self, a - first)
        return f"action {a}"

    def string_to_action(self, text: str) -> int:
        game = self.game
        words = text.strip().lower()
        numbers = [int(x) for x in re.findall(r"-?\d+", words.split("(")[0])]
        if words.startswith("select") and len(numbers) == 2:
            slot, r = numbers
            if 0 <= slot < HAND_SLOTS and 0 <= r < ROTATIONS:
                return ROTATIONS * slot + r
        if words.startswith("anchor") and len(numbers) == 2 and all(0 <= x < game.geo.W for x in numbers):
            return game.first_anchor_action + game.geo.anchor_index(*numbers)
        if words in ("claim", "claim yes", "yes"):
            return game.claim_action
        if words in ("decline", "claim no", "no"):
            return game.decline_action
        raise ValueError(f"amoeba_v0: no action named {text!r}")

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.amoeba.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.amoeba.render import render_rgb

        return render_rgb(self, viewer)


@dataclass(frozen=True, slots=True)
class ActionKind:
    """One kind of action, the one place that says everything about it: the
    phase it belongs to, its block's size, which of its actions are legal,
    what it does and its name (``offset`` is the index within the block)."""

    block: ActionBlock
    phase: Phase
    size: Callable[[AmoebaGame], int]
    mark_legal: Callable[[AmoebaState, bytearray, int], None]
    apply: Callable[[AmoebaState, int], None]
    describe: Callable[[AmoebaState, int], str]


def _select_block_size(_game: AmoebaGame) -> int:
    return HAND_SLOTS * ROTATIONS


def _anchor_block_size(game: AmoebaGame) -> int:
    return game.num_anchors


def _one_action(_game: AmoebaGame) -> int:
    return 1


def _claim_name(_state: AmoebaState, _offset: int) -> str:
    return "claim"


def _decline_name(_state: AmoebaState, _offset: int) -> str:
    return "decline"


ACTION_KINDS = (
    ActionKind(
        ActionBlock.SELECT,
        SELECT,
        _select_block_size,
        AmoebaState._mark_selects,
        AmoebaState._select,
        AmoebaState._select_name,
    ),
    ActionKind(
        ActionBlock.ANCHOR,
        ANCHOR,
        _anchor_block_size,
        AmoebaState._mark_anchors,
        AmoebaState._lay_selected,
        AmoebaState._anchor_name,
    ),
    ActionKind(
        ActionBlock.CLAIM, CLAIM, _one_action, AmoebaState._mark_claim_step, AmoebaState._claim, _claim_name
    ),
    ActionKind(
        ActionBlock.DECLINE,
        CLAIM,
        _one_action,
        AmoebaState._mark_claim_step,
        AmoebaState._decline,
        _decline_name,
    ),
)


def _action_blocks(game: AmoebaGame) -> dict[Phase, list[tuple[ActionKind, int, int]]]:
    """Per phase, its kinds of action with the range (first, stop) of each
    one's block (blocks laid out in ACTION_KINDS order)."""
    blocks: dict[Phase, list[tuple[ActionKind, int, int]]] = {phase: [] for phase in Phase}
    first = 0
    for kind in ACTION_KINDS:
        stop = first + kind.size(game)
        blocks[kind.phase].append((kind, first, stop))
        first = stop
    return blocks
