"""Amoeba rules: the Game (config, tables) and the State (position, moves).

The state is split by job: ``table.py`` keeps the tiles, pieces, amoebas and
the anchor frontier up to date; ``splits.py`` works out where a selected tile
may go (ground anchors, and top placements with their split plans); this
module holds the turn flow and the kinds of action, each declared once in
``ACTION_KINDS`` (its phase, block size, legal actions, effect and name),
from which the mask, ``apply`` and the action names are read. The state holds
the game's facts only; the observation planes are painted by the observer
(observe.py), which reads these facts and is never imported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.amoeba import position, rows
from meeplezoo.envs.amoeba.config import OPTIONS, check_pile_deals
from meeplezoo.envs.amoeba.geometry import geometry
from meeplezoo.envs.amoeba.records import (
    ANCHOR,
    CLAIM,
    FIRST_ANCHOR_ACTION,
    HAND_SLOTS,
    OVER,
    PHASE_NAMES,
    ROTATIONS,
    SELECT,
    ActionBlock,
    Amoeba,
    Phase,
    Placement,
    SplitPlan,
    record,
)
from meeplezoo.envs.amoeba.splits import Splits
from meeplezoo.envs.amoeba.table import Table
from meeplezoo.envs.amoeba.tiles import DISTINCT_ROTS, NUM_TILES, ORIENTED, notation
from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out
from meeplezoo.envs.core.dice import roll, scripted_or_rolled
from meeplezoo.envs.core.fields import Field, generated_clone, generator_field, saved
from meeplezoo.envs.core.positions import flag_entry, integer_entry, integer_list, integer_rows, seat_entry
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import Game, GameInfo, State, derive_rng, make_rng
from meeplezoo.envs.core.turns import next_seat

__all__ = [
    "ANCHOR",
    "CLAIM",
    "OVER",
    "SELECT",
    "ActionBlock",
    "AmoebaGame",
    "AmoebaState",
    "Amoeba",
    "Phase",
    "Placement",
    "SplitPlan",
]


MASK_DTYPE = np.dtype(np.bool_)


class AmoebaGame(Game):
    kernel = "meeplezoo.envs.amoeba.kernel.spec:KERNEL"
    info = GameInfo(
        name="amoeba_v0",
        title="Amoeba",
        players=OPTIONS["num_players"],
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/amoeba.md",
    )
    options: ClassVar[dict] = OPTIONS
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "board_units": 12, "nuclei_per_player": 3},
        {"num_players": 3, "allow_rotation": False, "reward_mode": "score_diff"},
        {"num_players": 2, "remove_stuck_hand": False, "max_turns": 60},
    ]

    def validate(self) -> None:
        config = self.config
        check_pile_deals(config, self.info.name)
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
        pile = state.pile.draw_pile  # the top is the end
        for hand in state.hands:
            for _ in range(config["hand_size"]):
                if pile:
                    hand.append(pile.pop())
        state._begin_turn()
        return state

    def empty_state(self) -> AmoebaState:
        """An empty table with empty hands (for building positions in tests)."""
        state = AmoebaState(self)
        state.rng = make_rng(0)
        return state

    def _state_from_dict(self, data: dict) -> AmoebaState:
        return AmoebaState.from_dict(self, data)


# The position dict holds copies, never the state's own lists (the
# converters build new lists for a loaded state).
def _copied_lists(value: list[list[int]], _context: Any) -> list[list[int]]:
    return [list(row) for row in value]


def _copied_list(value: list[int], _context: Any) -> list[int]:
    return list(value)


def _seats(game: Any) -> int:
    return game.num_players


def _tile_rows(name: str, row_dim: str) -> Field:
    """One list of tile ids per seat."""
    return saved(
        name,
        "lists",
        to_json=_copied_lists,
        from_json=integer_rows(0, NUM_TILES - 1, _seats),
        shape=("seats", row_dim),
        fill=-1,
    )


def _number(name: str, from_json: Callable[[Any, Any], Any], **slot: Any) -> Field:
    """A saved scalar of the turn, one word of the compiled row."""
    return saved(name, from_json=from_json, shape=(), **slot)


class AmoebaState(Table, Splits, State):
    layout_dims: ClassVar[dict] = rows.LAYOUT_DIMS
    fields = (
        generator_field(),
        _tile_rows("hands", "hand"),
        saved(
            "pile",
            "copy",
            to_json=lambda deck, _s: deck.draw_pile[:],
            from_json=position.pile_from_json,
            shape=("tiles",),
            fill=-1,
            to_row=rows.pile_to_row,
            from_row=rows.pile_from_row,
        ),
        _tile_rows("removed", "tiles"),
        saved(
            "supply",
            "list",
            to_json=_copied_list,
            from_json=integer_list(0, lambda game: game.config["nuclei_per_player"], _seats),
            shape=("seats",),
        ),
        # the table (rebuilt from the placements when a position is loaded);
        # the compiled row holds what the kernel cannot work out (rows.py)
        Field("placements", "list", shape=("tiles", 4), fill=-1),
        Field("covered", "list", shape=("tiles",), fill=-1),  # per placement: 1 once a top tile lies on it
        # per placement: its piece ids (never changed in place)
        Field("placement_pieces", "list", shape=("tiles", 3), fill=-1),
        # per unit: the visible placement, -1 empty
        Field("unit_placement", "list", shape=("units",), fill=-1),
        Field("on_board", "list", shape=("tile_ids",)),  # per tile id: 1 once laid
        Field("slot_piece", "list"),  # per port slot: the visible pink piece, -1 none
        Field("piece_slots", "list"),
        Field("piece_placement", "list", shape=("pieces",), fill=-1),
        Field("piece_number", "list", shape=("pieces",), fill=-1),  # 1..3 within its tile
        # per piece: its amoeba, and in the row the next member of it
        Field("piece_amoeba", "list", shape=("pieces", 2), fill=-1, to_row=rows.piece_links_to_row),
        # amoeba id -> Amoeba
        Field(
            "amoebas", "copy", shape=("amoeba_ids", rows.AMOEBA_WORDS), fill=-1, to_row=rows.amoebas_to_row
        ),
        Field("changed_amoebas", "new_list"),  # ids whose record was replaced (a clone starts afresh)
        Field("claimed", "copy"),  # ids of the owned amoebas
        Field("complete_unclaimed", "copy"),  # id -> canonical key
        Field("next_amoeba_id", shape=()),
        Field("blue_required", "list"),  # per anchor: ports that must be blue
        Field("pink_required", "list"),  # per anchor: ports that must be pink
        # per anchor: its block is empty; in the row, what the frontier needs there
        Field("anchor_free", "list", shape=("anchors",), fill=-1, to_row=rows.anchor_needs_to_row),
        Field("frontier", "dict_of_copies"),  # fit mask -> anchors next to the table
        # the amoebas offered at this claim step (saved by their keys)
        Field("offers", "list", shape=("pieces",), fill=-1),
        # the turn
        _number("first_tile_pending", flag_entry(), kind="bool"),
        _number("mover", seat_entry()),
        _number("phase", position.phase_from_json, from_row=rows.phase_from_row),
        _number("die", integer_entry(0, 3)),
        _number("placements_left", integer_entry(0, 3)),
        _number("placed", integer_entry(0, 3)),
        saved(
            "selection",
            to_json=lambda sel, _s: list(sel) if sel else None,
            from_json=position.selection_from_json,
            shape=(2,),
            to_row=rows.selection_to_row,
            from_row=rows.selection_from_row,
        ),
        _number("offer_index", integer_entry(0, NUM_TILES)),
        _number("turn", integer_entry(0, lambda game: game.max_turns)),
        _number("_terminal", flag_entry(), key="terminal", kind="bool"),
        _number("_truncated", flag_entry(), key="truncated", kind="bool"),
        _number("dice_used", integer_entry(0, 10**9)),
        Field("last_split"),
        Field("_cache", "new_dict"),  # legal-move caches; a clone starts without
    )
    clone = generated_clone()  # compiled from ``fields`` when the class is made (envs.core.fields)

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

    # ------------------------------------------------------------ saving
    def _to_dict(self) -> dict:
        data = super()._to_dict()
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
        if "placements" not in data:  # read from a compiled row
            rows.rebuild_from_row(self)
            return
        self._init_table()
        first_tile_pending = self.first_tile_pending
        self.first_tile_pending = True
        position.lay_placements(self, data)
        self.first_tile_pending = first_tile_pending
        position.read_owners(self, data)
        self.offers = position.read_offers(self, data)
        self.last_split = None
        self._cache = {}

    def check_position(self) -> None:
        """Every tile once, nuclei conserved, the turn and phase consistent
        (see ``position.py``)."""
        position.check_position(self)

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
        return np.frombuffer(self._mask_bytes()[:], MASK_DTYPE)  # a positional dtype is the quicker call

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
        self.amoebas[aid] = record(Amoeba, (v.members, v.open_ports, self.mover))
        self.changed_amoebas.append(aid)
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
        pile = self.pile.draw_pile  # the top is the end: drawn as a list, as this runs every turn
        while len(hand) < self.game.config["hand_size"] and pile:
            hand.append(pile.pop())
        self.turn += 1
        if (not pile and not any(self.hands)) or not any(self.supply):
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
