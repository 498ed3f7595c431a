"""Amethyst and Amber rules: the pure state machine (no PettingZoo).

Internally everything is in the absolute frame (Amethyst's). Actions come in
and masks go out in the acting seat's frame; ``Board.rot_action`` converts.
Each action kind (``actions.py``) names the methods here that give its legal
targets and play it; the mask and ``apply`` dispatch through those records.

Defenders are kept as two Python-int bitboards over the brick grid, so the
flood fill of a defender's move (up to 7 steps through empty black
triangles) is a handful of shifts, and "does this defender have any legal
destination" usually stops after the first ring. Which defenders can move is
kept per seat with the defender layout it was found for (attacker turns do
not change it). The full destination set is computed only for the selected
defender, once, and cached for the destination sub-step. Attacker steps come
from a per-Game memo keyed by the attacker's neighbourhood. Masks are written
straight in the acting seat's frame through per-frame action tables.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from meeplezoo.envs.amethyst_amber import defenders, heuristic
from meeplezoo.envs.amethyst_amber.actions import (
    CHOOSE_DESTINATION,
    CONTINUE,
    KIND_BY_NAME,
    KIND_OF_ACTION,
    KINDS,
    NUM_ACTIONS,
    NUM_DIRECTIONS,
    NUM_HEXES,
    NUM_TRIANGLES,
    PLACEMENT_TURN,
    SUBSTEP_NAMES,
    TARGET_OF_ACTION,
    TURN_START,
    ActionBlock,
    ActionKind,
    Phase,
    Substep,
    Target,
    offered,
)
from meeplezoo.envs.amethyst_amber.board import NEUTRAL, FrameTables, board
from meeplezoo.envs.core.fields import Dim, Field, generated_clone, generator_field
from meeplezoo.envs.core.options import choice, flag, integer
from meeplezoo.envs.core.state import Game, GameInfo, State, make_rng
from meeplezoo.envs.core.trihex import DIRECTION_NAMES

PLACEMENT, MAIN = Phase.PLACEMENT, Phase.MAIN
# module names for the substeps: the hot paths skip the enum class's attribute lookup
SUBSTEP_TURN_START, SUBSTEP_CHOOSE_DESTINATION = Substep.TURN_START, Substep.CHOOSE_DESTINATION
SUBSTEP_CONTINUE = Substep.CONTINUE
# dtype objects passed positionally: numpy's quicker call on the per-move paths
BOOL, UINT8 = np.dtype(bool), np.dtype(np.uint8)
STEP_MEMO_SIZE = 1 << 16  # attacker-step neighbourhoods kept per frame
PASS_ACTION, END_ACTION = int(ActionBlock.PASS), int(ActionBlock.END_DEFENDER_MOVES)
BITBOARD_WORDS = 6  # a brick-grid bitboard (19 x 19 cells) in the compiled row: words of 64 bits


class AmethystAmberGame(Game):
    info = GameInfo(
        name="amethyst_amber_v0",
        title="Amethyst and Amber",
        players=integer(2, 2, 2, "seats at the table: always Amethyst and Amber"),
        hidden_information=False,
        chance=False,
        zero_sum=True,
        rules_page="seeds/amethyst_amber.md",
    )
    kernel = "meeplezoo.envs.amethyst_amber.kernel.spec:KERNEL"  # compiled by default (backend="python": these rules)
    options: ClassVar[dict] = {
        "num_players": info.players,
        "max_main_turns": integer(
            300, 1, 100_000, "main turns before the game is cut short (placement turns not counted)"
        ),
        "win_resources": integer(5, 1, 6, "placed resources needed at the start of one's own turn to win"),
        "defenders_per_player": integer(8, 0, 12, "defenders each seat places before the main phase"),
        "attackers_per_player": integer(5, 1, 10, "attackers each seat starts with in reserve"),
        "defender_range": integer(7, 1, 30, "most steps of one defender move through empty black triangles"),
        "max_defenders_per_turn": integer(3, 1, 12, "most defenders one seat moves in one turn"),
        "group_limit": integer(3, 1, 16, "largest allowed group of touching defenders"),
        "group_limit_scope": choice(
            "own", ("own", "all"), "`all`: touching defenders of both colours form one group"
        ),
        "resource_capacity": integer(2, 1, 10, "prisoners one resource can hold"),
        "green_scope": choice(
            "any", ("any", "own_half"), "`own_half`: resources go only on the six greens of the placer's half"
        ),
        "truncation_result": choice(
            "draw", ("draw", "resources"), "`resources`: a cut-short game goes to whoever has more placed"
        ),
        "main_first": choice("amber", ("amber", "amethyst"), "who takes the first main turn"),
        "relative_frame": flag(True, "Amber's observations and actions use the board turned 180 degrees"),
    }
    test_configs: ClassVar[list[dict]] = [
        {"group_limit_scope": "all", "green_scope": "own_half", "truncation_result": "resources"},
        {"main_first": "amethyst", "relative_frame": False, "max_main_turns": 40},
        {"defenders_per_player": 4, "attackers_per_player": 3, "win_resources": 3, "defender_range": 3},
    ]

    def validate(self) -> None:
        config = self.config
        for key in (
            "max_main_turns", "win_resources", "defenders_per_player", "attackers_per_player",
            "defender_range", "max_defenders_per_turn", "group_limit", "resource_capacity", "relative_frame",
        ):  # fmt: skip
            setattr(self, key, config[key])
        self.group_both_colours = config["group_limit_scope"] == "all"
        self.green_own_half = config["green_scope"] == "own_half"
        self.truncation_by_resources = config["truncation_result"] == "resources"
        self.main_first = 1 if config["main_first"] == "amber" else 0
        self.board = board()
        self.num_actions = NUM_ACTIONS
        self.reward_range = (-1.0, 1.0)
        self.max_turns = self.max_main_turns
        bd = self.board
        self.resource_greens = (
            (bd.green_half[0], bd.green_half[1]) if self.green_own_half else (bd.green, bd.green)
        )
        self.frame_tables = (
            FrameTables(bd, 0, self.resource_greens),
            FrameTables(bd, 1, self.resource_greens),
        )
        self.step_memo: tuple[dict, dict] = ({}, {})  # see AmethystAmberState._legal_steps
        self.hex_distance = bd.geo.hexes.distance.tolist()  # for evaluate()

    def __getstate__(self) -> dict:
        # the attacker-step memo is a cache: pickles and copies start empty
        d = dict(self.__dict__)
        d["step_memo"] = ({}, {})
        return d

    def new_initial_state(self, seed: int | None = None) -> AmethystAmberState:
        s = AmethystAmberState(self, make_rng(seed))
        for h in self.board.red:
            s.resource_at[h] = NEUTRAL
        s.resource_hexes = list(self.board.red)
        s.resource_bits[NEUTRAL] = sum(self.board.geo.bit_hex[h] for h in self.board.red)
        s.unplaced = [self.defenders_per_player, self.defenders_per_player]
        s.reserve = [self.attackers_per_player, self.attackers_per_player]
        if self.defenders_per_player == 0:
            s.phase = MAIN
            s.acting_seat = self.main_first
            s._start_turn()
        return s

    def _state_from_dict(self, data: dict) -> AmethystAmberState:
        from meeplezoo.envs.amethyst_amber.serial import state_from_dict

        return state_from_dict(self, data)


class AmethystAmberState(State):
    """One position. ``defender_bits[p]`` are seat p's defenders (bitboards);
    per hex, ``attacker_at`` (owner or -1), ``resource_at`` (-1, NEUTRAL or
    owner) and ``prisoners_under`` (attackers held under a placed resource).
    ``attacker_bits`` / ``resource_bits`` hold the same pieces as brick-grid
    bitboards (``resource_bits`` by resource_at code)."""

    # The position dict is written by serial.py (pieces as lists, absolute
    # coordinates); these declarations give the compiled clone().
    fields = (
        generator_field(),
        Field("phase", shape=()),
        Field("acting_seat", shape=()),
        Field("substep", shape=()),
        Field("selected", shape=()),  # the selected defender's triangle, or -1
        # bitboard: where this turn's moved defenders now stand
        Field("moved_defenders", shape=(BITBOARD_WORDS,), kind="bits"),
        Field("moves_this_turn", shape=()),
        Field("defender_bits", "list", shape=(2, BITBOARD_WORDS), kind="bits"),
        Field("attacker_at", "list", shape=("hexes",), fill=-1),
        Field("attacker_hexes", "list_pair", shape=(2, "attackers"), fill=-1),
        Field("resource_at", "list", shape=("hexes",), fill=-1),
        Field("prisoners_under", "list", shape=("hexes",)),
        Field("resource_hexes", "list", shape=("resources",), fill=-1),  # hexes holding a resource token
        Field("attacker_bits", "list", shape=(2, BITBOARD_WORDS), kind="bits"),
        Field("resource_bits", "list", shape=(3, BITBOARD_WORDS), kind="bits"),
        Field("reserve", "list", shape=(2,)),  # attackers in reserve
        Field("unplaced", "list", shape=(2,)),  # defenders still to place
        Field("hand", "list", shape=(2,)),  # captured resources still to place
        Field("placed", "list", shape=(2,)),  # placed resources of each colour
        Field("main_turns", shape=()),
        Field("winner", shape=()),
        Field("_terminal", shape=(), kind="bool"),
        Field("_truncated", shape=(), kind="bool"),
        Field("_mask"),  # read-only once built: shared by clones
        Field("_destinations"),  # bitboard of the selected defender's destinations
        # per seat: (defender_bits[0], defender_bits[1], movable defenders)
        # or None; replaced, never mutated, so clones share it
        Field("_movable_cache"),
    )
    clone = generated_clone()  # compiled from ``fields`` when the class is made (envs.core.fields)
    # the compiled layout's lists: every hex; a seat's attackers on the
    # board (at most attackers_per_player's largest value); the resource tokens
    layout_dims: ClassVar[dict] = {
        "hexes": Dim(NUM_HEXES, lambda game: NUM_HEXES),
        "attackers": Dim(AmethystAmberGame.options["attackers_per_player"].high),
        "resources": Dim(6),  # the six neutral resources of the red ring, never more
    }

    def __init__(self, game: AmethystAmberGame, rng: np.random.Generator) -> None:
        self.game = game
        self.rng = rng
        self.phase = PLACEMENT
        self.acting_seat = 0
        self.substep = SUBSTEP_TURN_START
        self.selected = -1
        self.moved_defenders = 0
        self.moves_this_turn = 0
        self.defender_bits = [0, 0]
        self.attacker_at = [-1] * NUM_HEXES
        self.attacker_hexes: list[list[int]] = [[], []]
        self.resource_at = [-1] * NUM_HEXES
        self.prisoners_under = [0] * NUM_HEXES
        self.resource_hexes: list[int] = []
        self.attacker_bits = [0, 0]
        self.resource_bits = [0, 0, 0]
        self.reserve = [0, 0]
        self.unplaced = [0, 0]
        self.hand = [0, 0]
        self.placed = [0, 0]
        self.main_turns = 0
        self.winner = -1
        self._terminal = False
        self._truncated = False
        self._mask: np.ndarray | None = None
        self._destinations = 0
        self._movable_cache: list = [None, None]

    def check_position(self) -> None:
        """The rules a loaded position must keep (see checks.py)."""
        from meeplezoo.envs.amethyst_amber.checks import check_position

        check_position(self)

    def _after_load(self, data: dict) -> None:
        """A state read back from a compiled row: the caches start empty and
        the selected defender's destinations are found again."""
        self._mask = None
        self._movable_cache = [None, None]
        self._destinations = 0
        seat = self.acting_seat
        if self.selected >= 0 and self.defender_bits[seat] & self.game.board.geo.bit_tri[self.selected]:
            self._destinations = self._dest_bits(seat, self.selected)

    def _to_dict(self) -> dict:
        from meeplezoo.envs.amethyst_amber.serial import state_to_dict

        return state_to_dict(self)

    # --- whose move -------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if (self._terminal or self._truncated) else self.acting_seat

    @property
    def terminal(self) -> bool:
        return self._terminal

    @property
    def truncated(self) -> bool:
        return self._truncated

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self._terminal and self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0
        elif self._truncated and self.game.truncation_by_resources:
            amethyst, amber = self.placed
            if amethyst != amber:
                out[:] = (1.0, -1.0) if amethyst > amber else (-1.0, 1.0)
        return out

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        """returns() once over, else a material-and-threat estimate
        (see envs.amethyst_amber.heuristic). Nothing is hidden, so every
        ``viewer`` gets the same estimate."""
        return heuristic.evaluate(self)

    def phase_name(self) -> str:
        if self._terminal or self._truncated:
            return "over"
        if self.phase == PLACEMENT:
            return PLACEMENT_TURN
        return SUBSTEP_NAMES[self.substep]

    # --- rule helpers -----------------------------------------------------------
    def _group_pieces(self, seat: int) -> int:
        """The defenders that count towards seat's groups."""
        if self.game.group_both_colours:
            return self.defender_bits[0] | self.defender_bits[1]
        return self.defender_bits[seat]

    def _dest_bits(self, seat: int, tri_index: int) -> int:
        """All legal destinations of seat's defender on triangle ``tri_index``."""
        d0, d1 = self.defender_bits
        game = self.game
        pieces = (d0 | d1) if game.group_both_colours else (d0 if seat == 0 else d1)
        return defenders.destinations(game, d0 | d1, pieces, tri_index)

    def _movable(self, seat: int) -> int:
        """Bitboard of seat's defenders that have a legal destination.

        Only defenders decide this (attackers and resources live on hexes),
        so the answer is kept per seat with the defender layout it was found
        for, and reused until some defender moves (the opponent's attacker
        turns leave it valid)."""
        d0, d1 = self.defender_bits
        cache = self._movable_cache
        entry = cache[seat]
        if entry is not None and entry[0] == d0 and entry[1] == d1:
            return entry[2]
        own = d0 if seat == 0 else d1
        pieces = (d0 | d1) if self.game.group_both_colours else own
        found = defenders.movable(self.game, own, d0 | d1, pieces)
        cache = self._movable_cache = list(cache)
        cache[seat] = (d0, d1, found)
        return found

    def _has_available(self, seat: int) -> bool:
        """Whether seat has a placed resource with room for a prisoner."""
        capacity = self.game.resource_capacity
        resource_at, under = self.resource_at, self.prisoners_under
        for h in self.resource_hexes:
            if resource_at[h] == seat and under[h] < capacity:
                return True
        return False

    # --- legal targets, one predicate per action kind (see actions.py) -----------
    def _placeable_bits(self, seat: int) -> int:
        """place_defender: free black triangles whose group would stay in the limit."""
        d0, d1 = self.defender_bits
        return defenders.placeable(self.game, d0 | d1, self._group_pieces(seat))

    def _selectable_bits(self, seat: int) -> int:
        """select: own defenders that have a destination (after a move, only
        those not yet moved this turn)."""
        if self.substep == SUBSTEP_CONTINUE:
            return self._movable(seat) & ~self.moved_defenders
        return self._movable(seat) if self.defender_bits[seat] else 0

    def _destination_bits(self, seat: int) -> int:
        """dest: where the selected defender may go (found when it was selected)."""
        return self._destinations

    def _legal_resource_placements(self, buf: bytearray, tables: FrameTables, seat: int) -> bool:
        """place_resource (forced): a resource in hand goes on a free green."""
        if not self.hand[seat]:
            return False
        attacker_at, resource_at = self.attacker_at, self.resource_at
        found = False
        for h, action in tables.resource_places[seat]:
            if resource_at[h] < 0 and attacker_at[h] < 0:
                buf[action] = 1
                found = True
        return found

    def _legal_attacker_placements(self, buf: bytearray, tables: FrameTables, seat: int) -> bool:
        """place_attacker: a reserve attacker enters on a free own blue hex."""
        if not self.reserve[seat]:
            return False
        attacker_at, resource_at = self.attacker_at, self.resource_at
        found = False
        for h, action in tables.attacker_entries[seat]:
            if attacker_at[h] < 0 and resource_at[h] < 0:
                buf[action] = 1
                found = True
        return found

    def _legal_steps(self, buf: bytearray, tables: FrameTables, seat: int) -> bool:
        """step: an attacker moves or captures one hex over.

        Which steps an attacker on h may take depends only on h's six
        neighbours (own pieces; enemy attackers when no prisoner can be
        taken) and the enemy defenders on h's corners (the gates): the six
        mask bytes are kept per such neighbourhood in the Game."""
        positions = self.attacker_hexes[seat]
        if not positions:
            return False
        game = self.game
        opponent = 1 - seat
        neighbour_bits, corner_bits = game.board.neighbor_bits, game.board.corner_bits
        memo = game.step_memo[1 if seat == 1 and game.relative_frame else 0]
        own = self.attacker_bits[seat] | self.resource_bits[seat]
        enemy = self.attacker_bits[opponent]
        enemy_defenders = self.defender_bits[opponent]
        available = None
        found = False
        for h in positions:
            around = neighbour_bits[h]
            foe = enemy & around
            if foe:
                if available is None:
                    available = self._has_available(seat)
                if available:
                    foe = 0
                    # with room for a prisoner, enemy attackers are targets like empty hexes
            key = (h, own & around, foe, enemy_defenders & corner_bits[h])
            entry = memo.get(key)
            if entry is None:
                entry = self._step_bytes(tables, h, seat)
                if len(memo) >= STEP_MEMO_SIZE:
                    memo.clear()
                memo[key] = entry
            first, pattern = entry
            if pattern:
                buf[first : first + NUM_DIRECTIONS] = pattern
                found = True
        return found

    def _step_bytes(self, tables: FrameTables, hex_index: int, seat: int) -> tuple[int, bytes]:
        """(first action, six mask bytes) of the steps seat's attacker on
        ``hex_index`` may take now, or (first action, b"") when it has none."""
        opponent = 1 - seat
        attacker_at, resource_at = self.attacker_at, self.resource_at
        enemy_defenders = self.defender_bits[opponent]
        first = tables.first_step[hex_index]
        out = bytearray(NUM_DIRECTIONS)
        for action, n, gate in tables.steps[hex_index]:
            if enemy_defenders & gate == gate:
                continue  # an enemy wall closes the gate
            owner = attacker_at[n]
            if owner == seat or (owner < 0 and resource_at[n] == seat):
                continue  # never onto own pieces
            if owner == opponent and not self._has_available(seat):
                continue  # no room for a prisoner
            out[action - first] = 1
        return first, bytes(out) if any(out) else b""

    def _legal_end(self, buf: bytearray, tables: FrameTables, seat: int) -> bool:
        """end: after a defender move, stopping is always allowed."""
        buf[END_ACTION] = 1
        return True

    # --- the mask -----------------------------------------------------------------
    def _triangle_mask(self, bits: int, base: int) -> np.ndarray:
        """Mask of the actions ``base + t`` for the triangles in ``bits``
        (unpacked by numpy), or of ``pass`` when there are none."""
        mask = np.zeros(NUM_ACTIONS, BOOL)
        if not bits:
            mask[PASS_ACTION] = True
            return mask
        bd = self.game.board
        raw = np.frombuffer(bits.to_bytes(bd.brick_bytes, "big"), UINT8)
        order = bd.tri_unpack[1 if self.acting_seat == 1 and self.game.relative_frame else 0]
        mask[base : base + NUM_TRIANGLES] = np.unpackbits(raw)[order]
        return mask

    def _fill_mask(self, buf: bytearray, plan: tuple) -> None:
        """Set the bytes of the current seat's legal actions in ``buf`` (in
        its own frame, through the Game's per-frame action tables), kind by
        kind as ``plan`` offers them; pass when none has a legal action."""
        seat = self.acting_seat
        game = self.game
        tables = game.frame_tables[1 if seat == 1 and game.relative_frame else 0]
        found = False
        for legal, forced, block in plan:
            if block is None:
                wrote = legal(self, buf, tables, seat)
            else:
                x = legal(self, seat)
                wrote = bool(x)
                actions = tables.by_brick[block]
                while x:
                    low = x & -x
                    buf[actions[low.bit_length() - 1]] = 1
                    x ^= low
            if wrote:
                if forced:
                    return
                found = True
        if not found:
            buf[PASS_ACTION] = 1

    def legal_action_mask(self) -> np.ndarray:
        mask = self._mask
        if mask is None:
            if self._terminal or self._truncated:
                mask = np.zeros(NUM_ACTIONS, BOOL)
            else:
                triangles, block, plan = MASK_PLANS[self.phase][self.substep]
                if triangles is not None:
                    mask = self._triangle_mask(triangles(self, self.acting_seat), block)
                else:
                    buf = bytearray(NUM_ACTIONS)
                    self._fill_mask(buf, plan)
                    mask = np.frombuffer(buf, BOOL)
            mask.setflags(write=False)
            self._mask = mask
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_action_mask())

    # --- effects, one per action kind (see actions.py) ----------------------------
    def _apply_action(self, action: int) -> None:
        seat = self.acting_seat
        if seat == 1 and self.game.relative_frame:
            action = self.game.board.rot_action[action]
        self._mask = None
        EFFECT_OF_ACTION[action](self, seat, TARGET_OF_ACTION[action])

    def _place_defender(self, seat: int, tri_index: int) -> None:
        self.defender_bits[seat] |= self.game.board.geo.bit_tri[tri_index]
        self.unplaced[seat] -= 1
        self._after_placement(seat)

    def _select(self, seat: int, tri_index: int) -> None:
        self.selected = tri_index
        self._destinations = self._dest_bits(seat, tri_index)
        self.substep = SUBSTEP_CHOOSE_DESTINATION

    def _move_selected(self, seat: int, tri_index: int) -> None:
        bit_tri = self.game.board.geo.bit_tri
        source, target = bit_tri[self.selected], bit_tri[tri_index]
        self.defender_bits[seat] = (self.defender_bits[seat] & ~source) | target
        self.moved_defenders |= target
        self.moves_this_turn += 1
        self.selected = -1
        self._destinations = 0
        if self.moves_this_turn >= self.game.max_defenders_per_turn:
            self._end_turn()
        elif self._movable(seat) & ~self.moved_defenders:
            self.substep = SUBSTEP_CONTINUE
        else:
            # "move another or stop": when no unmoved defender can move,
            # stopping is the only answer, so the turn simply ends
            self._end_turn()

    def _place_attacker(self, seat: int, hex_index: int) -> None:
        self.attacker_at[hex_index] = seat
        self.attacker_hexes[seat].append(hex_index)
        self.attacker_bits[seat] |= self.game.board.geo.bit_hex[hex_index]
        self.reserve[seat] -= 1
        self._end_turn()

    def _place_resource(self, seat: int, hex_index: int) -> None:
        self.resource_at[hex_index] = seat
        self.prisoners_under[hex_index] = 0
        self.resource_hexes.append(hex_index)
        self.resource_bits[seat] |= self.game.board.geo.bit_hex[hex_index]
        self.hand[seat] -= 1
        self.placed[seat] += 1
        self._end_turn()

    def _step(self, seat: int, target: tuple[int, int]) -> None:
        """The attacker on target's hex steps in target's direction,
        taking what stands there; the turn ends."""
        h, direction = target
        geo = self.game.board.geo
        n = int(geo.hexes.neighbors[h, direction])
        bit = geo.bit_hex[n]
        attacker_at, resource_at = self.attacker_at, self.resource_at
        opponent = 1 - seat
        if attacker_at[n] == opponent:
            self._take_prisoner(seat, n, bit)
        elif resource_at[n] >= 0:
            self._take_resource(seat, n, bit)
        attacker_at[h] = -1
        attacker_at[n] = seat
        self.attacker_bits[seat] ^= geo.bit_hex[h] | bit
        positions = self.attacker_hexes[seat]
        positions[positions.index(h)] = n
        self._end_turn()

    def _end_defender_moves(self, seat: int, _target: None) -> None:
        self._end_turn()

    def _pass(self, seat: int, _target: None) -> None:
        if self.phase == PLACEMENT:
            self._after_placement(seat)
        else:
            self._end_turn()

    def _after_placement(self, seat: int) -> None:
        if self.unplaced[0] <= 0 and self.unplaced[1] <= 0:
            self.phase = MAIN
            self.acting_seat = self.game.main_first
            self._start_turn()
        elif self.unplaced[1 - seat] > 0:
            self.acting_seat = 1 - seat  # the other of the two seats

    def _take_prisoner(self, seat: int, hex_index: int, bit: int) -> None:
        """The enemy attacker on ``hex_index`` goes under seat's nearest available resource."""
        capacity = self.game.resource_capacity
        resource_at, under = self.resource_at, self.prisoners_under
        for r in self.game.board.nearest_order[seat][hex_index]:
            if resource_at[r] == seat and under[r] < capacity:
                under[r] += 1
                break
        opponent = 1 - seat
        self.attacker_hexes[opponent].remove(hex_index)
        self.attacker_bits[opponent] ^= bit

    def _take_resource(self, seat: int, hex_index: int, bit: int) -> None:
        """The resource on ``hex_index`` goes to seat's hand; an enemy one frees seat's prisoners under it."""
        resource_at = self.resource_at
        if resource_at[hex_index] == 1 - seat:
            self.reserve[seat] += self.prisoners_under[hex_index]
            self.placed[1 - seat] -= 1
        self.prisoners_under[hex_index] = 0
        self.resource_bits[resource_at[hex_index]] ^= bit
        resource_at[hex_index] = -1
        self.resource_hexes.remove(hex_index)
        self.hand[seat] += 1

    def _end_turn(self) -> None:
        if self.phase == MAIN:
            self.main_turns += 1
        self.acting_seat = 1 - self.acting_seat  # the other of the two seats
        self.substep = SUBSTEP_TURN_START
        self.selected = -1
        self.moved_defenders = 0
        self.moves_this_turn = 0
        self._destinations = 0
        self._start_turn()

    def _start_turn(self) -> None:
        """Win check, then the turn limit, at the start of a main turn."""
        if self.phase != MAIN or self.substep != SUBSTEP_TURN_START:
            return
        if self.placed[self.acting_seat] >= self.game.win_resources:
            self._terminal = True
            self.winner = self.acting_seat
        elif self.main_turns >= self.game.max_main_turns:
            self._truncated = True

    # --- views ------------------------------------------------------------------------
    def frame_of(self, seat: int | None) -> int:
        """1 when seat's view is the board turned 180 degrees."""
        return 1 if seat == 1 and self.game.relative_frame else 0

    def encode(self, kind: str, *args, seat: int | None = None) -> int:
        """Action index, in ``seat``'s frame (default: the seat to act), from
        a kind and ABSOLUTE coordinates: ``place_defender (X, Y)``,
        ``select (X, Y)``, ``dest (X, Y)``, ``place_attacker (q, r)``,
        ``place_resource (q, r)``, ``step (q, r) d`` (d an index or a name
        such as "NE"), ``end``, ``pass``."""
        record = KIND_BY_NAME.get(kind)
        if record is None:
            raise ValueError(f"amethyst_amber_v0: unknown action kind {kind!r}")
        action = record.block + self._target_offset(record, args)
        seat = self.acting_seat if seat is None else seat
        return self.game.board.rot_action[action] if self.frame_of(seat) else action

    def _target_offset(self, record: ActionKind, args: tuple) -> int:
        """The place of the target named by ``args`` in the kind's block."""
        geo = self.game.board.geo
        if record.target is Target.NONE:
            return 0
        coords = (int(args[0][0]), int(args[0][1]))
        if record.target is Target.TRIANGLE:
            return geo.tri_index[coords]
        h = geo.hexes.index[coords]
        if record.target is Target.HEX:
            return h
        direction = args[1]
        if isinstance(direction, str):
            direction = DIRECTION_NAMES.index(direction.upper())
        return NUM_DIRECTIONS * h + int(direction)

    def decode(self, action: int, seat: int | None = None) -> tuple:
        """Inverse of :meth:`encode`: (kind, *absolute coordinates)."""
        bd = self.game.board
        seat = self.acting_seat if seat is None else seat
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"amethyst_amber_v0: action {action!r} is outside 0..{NUM_ACTIONS - 1}")
        if self.frame_of(seat):
            a = bd.rot_action[a]
        kind, target = KIND_OF_ACTION[a], TARGET_OF_ACTION[a]
        if kind.target is Target.TRIANGLE:
            return (kind.name, bd.geo.tri_xy[target])
        if kind.target is Target.HEX:
            return (kind.name, bd.hex_qr[target])
        if kind.target is Target.HEX_STEP:
            return (kind.name, bd.hex_qr[target[0]], target[1])
        return (kind.name,)

    def action_to_string(self, action: int) -> str:
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"amethyst_amber_v0: action {action!r} is outside 0..{NUM_ACTIONS - 1}")
        return self.game.board.names[a]

    def string_to_action(self, text: str) -> int:
        key = " ".join(str(text).strip().lower().replace("(", " ").replace(")", " ").split())
        key = key.replace(", ", ",").replace(" ,", ",")
        a = self.game.board.name_to_action.get(key)
        if a is None:
            raise ValueError(f"amethyst_amber_v0: no action named {text!r}")
        return a

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.amethyst_amber.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.amethyst_amber.render import render_rgb

        return render_rgb(self, viewer)


# Each action index's effect: the State method its kind names.
EFFECT_OF_ACTION = tuple(getattr(AmethystAmberState, kind.effect) for kind in KIND_OF_ACTION)


def _mask_plan(situation: str) -> tuple:
    """How the mask of ``situation`` is built from the kinds it offers, as
    (triangle predicate, its block, None) when one triangle kind alone is
    offered (its bitboard is unpacked by numpy), else (None, None, plan):
    per kind, (predicate, forced, triangle block or None), each writing its
    bytes in turn."""
    kinds = offered(situation)
    if len(kinds) == 1 and kinds[0].target is Target.TRIANGLE:
        return (getattr(AmethystAmberState, kinds[0].legal), int(kinds[0].block), None)
    plan = tuple(
        (
            getattr(AmethystAmberState, kind.legal),
            kind.forced,
            int(kind.block) if kind.target is Target.TRIANGLE else None,
        )
        for kind in kinds
    )
    return (None, None, plan)


# MASK_PLANS[phase][substep]; placement turns stay at TURN_START
_PLANS = {
    situation: _mask_plan(situation)
    for situation in (PLACEMENT_TURN, TURN_START, CHOOSE_DESTINATION, CONTINUE)
}
MASK_PLANS = (
    (_PLANS[PLACEMENT_TURN], _PLANS[CHOOSE_DESTINATION], _PLANS[PLACEMENT_TURN]),
    (_PLANS[TURN_START], _PLANS[CHOOSE_DESTINATION], _PLANS[CONTINUE]),
)
if any(kind.legal and not hasattr(AmethystAmberState, kind.legal) for kind in KINDS):
    raise RuntimeError("amethyst_amber: an action kind names a predicate the state lacks")

__all__ = [
    "AmethystAmberGame",
    "AmethystAmberState",
    "NEUTRAL",
    "PLACEMENT",
    "MAIN",
    "NUM_TRIANGLES",
    "NUM_HEXES",
    "ActionBlock",
    "Phase",
    "Substep",
]
