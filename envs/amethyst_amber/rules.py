"""Amethyst and Amber rules: the pure state machine (no PettingZoo).

Internally everything is in the absolute frame (Amethyst's). Actions come in
and masks go out in the acting seat's frame; ``Board.rot_action`` converts.

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

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.amethyst_amber import board as B
from meeplezoo.envs.amethyst_amber import heuristic
from meeplezoo.envs.amethyst_amber.board import (
    A_DEST,
    A_END,
    A_PASS,
    A_PLACE_ATT,
    A_PLACE_DEF,
    A_PLACE_RES,
    A_SELECT,
    A_STEP,
    NUM_ACTIONS,
    H,
    T,
)
from meeplezoo.envs.core.state import Game, GameInfo, State, clone_rng, make_rng
from meeplezoo.envs.core.trihex import DIRECTION_NAMES

PLACEMENT, MAIN = 0, 1
STEP_MEMO_SIZE = 1 << 16  # attacker-step neighbourhoods kept per frame
TURN_START, CHOOSE_DEST, CONTINUE = 0, 1, 2
PHASES = ("placement", "main")
SUBSTEPS = ("turn_start", "choose_dest", "continue")
NEUTRAL = 2  # res[h] code of a neutral resource (0 / 1 = owner seat, -1 = none)


class AmethystAmberGame(Game):
    info = GameInfo(
        name="amethyst_amber_v0",
        title="Amethyst and Amber",
        min_players=2,
        max_players=2,
        default_players=2,
        hidden_information=False,
        chance=False,
        zero_sum=True,
        rules_page="seeds/amethyst_amber.md",
    )
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "max_main_turns": 300,
        "win_resources": 5,
        "defenders_per_player": 8,
        "attackers_per_player": 5,
        "defender_range": 7,
        "max_defenders_per_turn": 3,
        "group_limit": 3,
        "group_limit_scope": "own",
        "resource_capacity": 2,
        "green_scope": "any",
        "truncation_result": "draw",
        "main_first": "amber",
        "relative_frame": True,
    }
    test_configs: ClassVar[list[dict]] = [
        {"group_limit_scope": "all", "green_scope": "own_half", "truncation_result": "resources"},
        {"main_first": "amethyst", "relative_frame": False, "max_main_turns": 40},
        {"defenders_per_player": 4, "attackers_per_player": 3, "win_resources": 3, "defender_range": 3},
    ]

    def validate(self) -> None:
        c = self.config

        def int_key(key: str, lo: int, hi: int) -> int:
            v = c[key]
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not lo <= v <= hi:
                raise ValueError(f"{self.info.name}: {key} must be an integer from {lo} to {hi}, got {v!r}")
            return int(v)

        def choice_key(key: str, allowed: tuple) -> Any:
            v = c[key]
            if not isinstance(v, str) or v not in allowed:
                raise ValueError(f"{self.info.name}: {key} must be one of {list(allowed)}, got {v!r}")
            return v

        self.max_main_turns = int_key("max_main_turns", 1, 100000)
        self.win_resources = int_key("win_resources", 1, 6)
        self.defenders_per_player = int_key("defenders_per_player", 0, 12)
        self.attackers_per_player = int_key("attackers_per_player", 1, 10)
        self.defender_range = int_key("defender_range", 1, 30)
        self.max_defenders_per_turn = int_key("max_defenders_per_turn", 1, 12)
        self.group_limit = int_key("group_limit", 1, 16)
        self.group_all = choice_key("group_limit_scope", ("own", "all")) == "all"
        self.resource_capacity = int_key("resource_capacity", 1, 10)
        self.green_own_half = choice_key("green_scope", ("any", "own_half")) == "own_half"
        self.truncation_by_resources = choice_key("truncation_result", ("draw", "resources")) == "resources"
        self.main_first = 1 if choice_key("main_first", ("amber", "amethyst")) == "amber" else 0
        rf = c["relative_frame"]
        if not isinstance(rf, (bool, np.bool_)):
            raise ValueError(f"{self.info.name}: relative_frame must be one of [True, False], got {rf!r}")
        self.relative_frame = bool(rf)
        self.board = B.board()
        self.num_actions = NUM_ACTIONS
        self.reward_range = (-1.0, 1.0)
        self.max_turns = self.max_main_turns
        bd = self.board
        self.green_for = (bd.green_half[0], bd.green_half[1]) if self.green_own_half else (bd.green, bd.green)
        self.frame_tables = (B.FrameTables(bd, 0, self.green_for), B.FrameTables(bd, 1, self.green_for))
        self.step_memo: tuple[dict, dict] = ({}, {})  # see AmethystAmberState._fill_mask
        self.heuristic_dist = bd.geo.hexes.distance.tolist()  # for evaluate()

    def __getstate__(self) -> dict:
        # the attacker-step memo is a cache: pickles and copies start empty
        d = dict(self.__dict__)
        d["step_memo"] = ({}, {})
        return d

    def new_initial_state(self, seed: int | None = None) -> AmethystAmberState:
        s = AmethystAmberState(self, make_rng(seed))
        for h in self.board.red:
            s.res[h] = NEUTRAL
        s.rhex = list(self.board.red)
        s.rbits[NEUTRAL] = sum(self.board.geo.bit_hex[h] for h in self.board.red)
        s.unplaced = [self.defenders_per_player, self.defenders_per_player]
        s.reserve = [self.attackers_per_player, self.attackers_per_player]
        if self.defenders_per_player == 0:
            s.phase = MAIN
            s.cur = self.main_first
            s._start_turn()
        return s

    def state_from_dict(self, data: dict) -> AmethystAmberState:
        from meeplezoo.envs.amethyst_amber.serial import state_from_dict

        return state_from_dict(self, data)


class AmethystAmberState(State):
    """One position. ``dbits[p]`` are seat p's defenders (bitboards); hex
    lists ``att`` (attacker owner or -1), ``res`` (-1, NEUTRAL or owner) and
    ``under`` (attackers held under a placed resource)."""

    def __init__(self, game: AmethystAmberGame, rng: np.random.Generator) -> None:
        self.game = game
        self.rng = rng
        self.phase = PLACEMENT
        self.cur = 0
        self.sub = TURN_START
        self.sel = -1  # selected defender's triangle
        self.moved = 0  # bitboard: where this turn's moved defenders now stand
        self.n_moved = 0
        self.dbits = [0, 0]
        self.att = [-1] * H
        self.apos: list[list[int]] = [[], []]
        self.res = [-1] * H
        self.under = [0] * H
        self.rhex: list[int] = []  # hexes holding a resource token
        # the same pieces as brick-grid bitboards (for the observation):
        # abits[p] = seat p's attackers, rbits[code] = resources by res code
        self.abits = [0, 0]
        self.rbits = [0, 0, 0]
        self.reserve = [0, 0]
        self.unplaced = [0, 0]
        self.hand = [0, 0]
        self.placed = [0, 0]
        self.main_turns = 0
        self.winner = -1
        self._terminal = False
        self._truncated = False
        self._mask: np.ndarray | None = None
        self._dests = 0  # bitboard of the selected defender's destinations
        # per seat: (dbits[0], dbits[1], movable defenders) or None; replaced, never mutated
        self._mv: list = [None, None]

    # --- copies -----------------------------------------------------------------
    def clone(self) -> AmethystAmberState:
        s = AmethystAmberState.__new__(AmethystAmberState)
        s.game = self.game
        s.rng = clone_rng(self.rng)
        s.phase, s.cur, s.sub, s.sel = self.phase, self.cur, self.sub, self.sel
        s.moved, s.n_moved = self.moved, self.n_moved
        s.dbits = self.dbits[:]
        s.att = self.att[:]
        s.apos = [self.apos[0][:], self.apos[1][:]]
        s.res = self.res[:]
        s.under = self.under[:]
        s.rhex = self.rhex[:]
        s.abits = self.abits[:]
        s.rbits = self.rbits[:]
        s.reserve = self.reserve[:]
        s.unplaced = self.unplaced[:]
        s.hand = self.hand[:]
        s.placed = self.placed[:]
        s.main_turns = self.main_turns
        s.winner, s._terminal, s._truncated = self.winner, self._terminal, self._truncated
        s._mask = self._mask
        s._dests = self._dests
        s._mv = self._mv
        return s

    def to_dict(self) -> dict:
        from meeplezoo.envs.amethyst_amber.serial import state_to_dict

        return state_to_dict(self)

    # --- whose move -------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if (self._terminal or self._truncated) else self.cur

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
            a, b = self.placed
            if a != b:
                out[:] = (1.0, -1.0) if a > b else (-1.0, 1.0)
        return out

    def evaluate(self) -> np.ndarray:
        """returns() once over, else a material-and-threat estimate
        (see envs.amethyst_amber.heuristic)."""
        return heuristic.evaluate(self)

    def phase_name(self) -> str:
        if self._terminal or self._truncated:
            return "over"
        if self.phase == PLACEMENT:
            return "placement"
        return SUBSTEPS[self.sub]

    # --- rule helpers -----------------------------------------------------------
    def _group_pieces(self, p: int) -> int:
        return (self.dbits[0] | self.dbits[1]) if self.game.group_all else self.dbits[p]

    def _within_limit(self, bits: int, pieces: int, geo) -> int:
        """The triangles of ``bits`` where a defender's group would stay within the limit."""
        ok = 0
        while bits:
            low = bits & -bits
            bits ^= low
            if self._group_ok(low, pieces, geo):
                ok |= low
        return ok

    def _group_ok(self, u_bit: int, pieces: int, geo) -> bool:
        """Would a defender on ``u_bit`` form a group within the limit?
        (a depth-first walk over the neighbour table that stops as soon as
        the group is too big)"""
        lim = self.game.group_limit
        nbr = self.game.board.tri_nbr_bits
        pieces &= ~u_bit
        size = 1
        todo = [u_bit]
        while todo:
            x = nbr[todo.pop().bit_length() - 1] & pieces
            while x:
                low = x & -x
                x ^= low
                pieces ^= low
                size += 1
                if size > lim:
                    return False
                todo.append(low)
        return True

    def _dest_bits(self, p: int, t: int) -> int:
        """All legal destinations of seat p's defender on triangle t.

        The flood fills step sideways with plain shifts: two triangles side
        by side in a brick row always touch, and a shift that wraps to the
        next row lands on a hex row, which ``free`` never contains (the
        Board checks both facts when it is built). Only the vertical step
        needs the ``edge_down`` mask."""
        game = self.game
        geo = game.board.geo
        dn, w2 = geo.edge_down, 2 * geo.width
        tb = geo.bit_tri[t]
        left = free = game.board.black_bits & ~(self.dbits[0] | self.dbits[1])
        front = tb
        for _ in range(game.defender_range):
            front = ((front << 1) | (front >> 1) | ((front & dn) << w2) | ((front >> w2) & dn)) & left
            if not front:
                break
            left ^= front
        reach = free ^ left
        if not reach:
            return 0
        pieces = self._group_pieces(p) & ~tb
        danger = reach & ((pieces << 1) | (pieces >> 1) | ((pieces & dn) << w2) | ((pieces >> w2) & dn))
        return (reach ^ danger) | self._within_limit(danger, pieces, geo)

    def _has_dest(self, p: int, t: int) -> bool:
        """Whether seat p's defender on t has any legal destination: the
        flood fill stops at the first reached triangle that touches no other
        defender of the group-counting kind (always a legal stop)."""
        game = self.game
        geo = game.board.geo
        dn, w2 = geo.edge_down, 2 * geo.width
        tb = geo.bit_tri[t]
        left = free = game.board.black_bits & ~(self.dbits[0] | self.dbits[1])
        pieces = self._group_pieces(p) & ~tb
        far = free & ~((pieces << 1) | (pieces >> 1) | ((pieces & dn) << w2) | ((pieces >> w2) & dn))
        front = tb
        for _ in range(game.defender_range):
            front = ((front << 1) | (front >> 1) | ((front & dn) << w2) | ((front >> w2) & dn)) & left
            if not front:
                break
            if front & far:
                return True
            left ^= front
        danger = free ^ left
        while danger:
            low = danger & -danger
            danger ^= low
            if self._group_ok(low, pieces, geo):
                return True
        return False

    def _movable(self, p: int) -> int:
        """Bitboard of seat p's defenders that have a legal destination.

        Only defenders decide this (attackers and resources live on hexes),
        so the answer is kept per seat with the defender layout it was found
        for, and reused until some defender moves (the opponent's attacker
        turns leave it valid). Bulk test first: a defender next to an empty
        black triangle whose only neighbouring defender (of the
        group-counting kind) is itself can always step there. Defenders with
        no empty black neighbour cannot move. Only the rest get a flood fill
        of their own, which stops at the first legal stop it meets."""
        d0, d1 = self.dbits
        cache = self._mv
        e = cache[p]
        if e is not None and e[0] == d0 and e[1] == d1:
            return e[2]
        geo = self.game.board.geo
        dn, w2 = geo.edge_down, 2 * geo.width  # sideways steps unmasked: see _dest_bits
        cand = d0 if p == 0 else d1
        free = self.game.board.black_bits & ~(d0 | d1)
        pieces = (d0 | d1) if self.game.group_all else cand
        f1 = cand & ((free << 1) | (free >> 1) | ((free & dn) << w2) | ((free >> w2) & dn))
        if f1:
            # free triangles with exactly one neighbour among the pieces
            a, b = pieces << 1, pieces >> 1
            c, d = (pieces & dn) << w2, (pieces >> w2) & dn
            two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
            lone = free & (a | b | c | d) & ~two
            easy = cand & ((lone << 1) | (lone >> 1) | ((lone & dn) << w2) | ((lone >> w2) & dn))
            hard = f1 & ~easy
            b2t = geo.brick_to_tri
            while hard:
                low = hard & -hard
                hard ^= low
                if self._has_dest(p, b2t[low.bit_length() - 1]):
                    easy |= low
        else:
            easy = 0
        cache = self._mv = list(cache)
        cache[p] = (d0, d1, easy)
        return easy

    def _selectable(self, p: int, cand: int) -> list[int]:
        """DEF_SELECT actions for seat p's defenders in bitboard ``cand``."""
        x = self._movable(p) & cand
        b2t = self.game.board.geo.brick_to_tri
        acts = []
        while x:
            low = x & -x
            acts.append(A_SELECT + b2t[low.bit_length() - 1])
            x ^= low
        return acts

    def _has_available(self, p: int) -> bool:
        cap = self.game.resource_capacity
        res, under = self.res, self.under
        for h in self.rhex:
            if res[h] == p and under[h] < cap:
                return True
        return False

    # --- legal moves ------------------------------------------------------------
    def _fill_mask(self, buf: bytearray) -> None:
        """Set the bytes of the current seat's legal actions (in its own
        frame, through the Game's per-frame action tables) in ``buf``."""
        p = self.cur
        game = self.game
        tab = game.frame_tables[1 if p == 1 and game.relative_frame else 0]
        sel = tab.select
        if self.sub == CONTINUE:
            x = self._movable(p) & ~self.moved
            while x:
                low = x & -x
                buf[sel[low.bit_length() - 1]] = 1
                x ^= low
            buf[A_END] = 1
            return
        # turn start
        att, res = self.att, self.res
        if self.hand[p]:
            found = False
            for h, a in tab.place_res[p]:
                if res[h] < 0 and att[h] < 0:
                    buf[a] = 1
                    found = True
            if found:
                return
        found = False
        if self.reserve[p]:
            for h, a in tab.place_att[p]:
                if att[h] < 0 and res[h] < 0:
                    buf[a] = 1
                    found = True
        apos = self.apos[p]
        if apos:
            # Which steps an attacker on h may take depends only on h's six
            # neighbours (own pieces; enemy attackers when no prisoner can be
            # taken) and the enemy defenders on h's corners (the gates): the
            # six mask bytes are kept per such neighbourhood in the Game.
            opp = 1 - p
            bd = game.board
            nbits, cbits = bd.neighbor_bits, bd.corner_bits
            memo = game.step_memo[1 if p == 1 and game.relative_frame else 0]
            own = self.abits[p] | self.rbits[p]
            enemy = self.abits[opp]
            od = self.dbits[opp]
            avail = None
            for h in apos:
                nb = nbits[h]
                foe = enemy & nb
                if foe:
                    if avail is None:
                        avail = self._has_available(p)
                    if avail:
                        foe = 0
                key = (h, own & nb, foe, od & cbits[h])
                e = memo.get(key)
                if e is None:
                    e = self._step_bytes(tab, h, p)
                    if len(memo) >= STEP_MEMO_SIZE:
                        memo.clear()
                    memo[key] = e
                lo, pattern = e
                if pattern:
                    buf[lo : lo + 6] = pattern
                    found = True
        if self.dbits[p]:
            x = self._movable(p)
            if x:
                found = True
            while x:
                low = x & -x
                buf[sel[low.bit_length() - 1]] = 1
                x ^= low
        if not found:
            buf[A_PASS] = 1

    def _step_bytes(self, tab, h: int, p: int) -> tuple[int, bytes]:
        """(first action, six mask bytes) of the steps seat p's attacker on
        h may take now, or (first action, b"") when it has none."""
        opp = 1 - p
        att, res = self.att, self.res
        od = self.dbits[opp]
        lo = tab.step_lo[h]
        out = bytearray(6)
        for a, n, gate in tab.steps[h]:
            if od & gate == gate:
                continue
            o = att[n]
            if o == p or (o == opp and not self._has_available(p)) or (o < 0 and res[n] == p):
                continue
            out[a - lo] = 1
        return lo, bytes(out) if any(out) else b""

    def _placeable(self) -> int:
        """Bitboard of the triangles where the current seat may place a
        defender: free black triangles whose group would stay in the limit."""
        p = self.cur
        game = self.game
        geo = game.board.geo
        d0, d1 = self.dbits
        pieces = self._group_pieces(p)
        free = game.board.black_bits & ~(d0 | d1)
        danger = free & geo.spread(pieces)
        return (free ^ danger) | self._within_limit(danger, pieces, geo)

    def _triangle_mask(self, bits: int, base: int) -> np.ndarray:
        """Mask of the actions ``base + t`` for the triangles in ``bits``
        (unpacked by numpy), or of ``pass`` when there are none."""
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if not bits:
            mask[A_PASS] = True
            return mask
        bd = self.game.board
        raw = np.frombuffer(bits.to_bytes(bd.brick_bytes, "big"), dtype=np.uint8)
        order = bd.tri_unpack[1 if self.cur == 1 and self.game.relative_frame else 0]
        mask[base : base + T] = np.unpackbits(raw)[order]
        return mask

    def legal_action_mask(self) -> np.ndarray:
        mask = self._mask
        if mask is None:
            if self._terminal or self._truncated:
                mask = np.zeros(NUM_ACTIONS, dtype=bool)
            elif self.sub == CHOOSE_DEST:
                mask = self._triangle_mask(self._dests, A_DEST)
            elif self.phase == PLACEMENT:
                mask = self._triangle_mask(self._placeable(), A_PLACE_DEF)
            else:
                buf = bytearray(NUM_ACTIONS)
                self._fill_mask(buf)
                mask = np.frombuffer(buf, dtype=bool)
            mask.flags.writeable = False
            self._mask = mask
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_action_mask())

    # --- transitions --------------------------------------------------------------
    def _apply_action(self, a: int) -> None:
        p = self.cur
        if p == 1 and self.game.relative_frame:
            a = self.game.board.rot_action[a]
        self._mask = None
        geo = self.game.board.geo
        if a >= A_STEP:
            if a == A_END:
                self._end_turn()
            elif a == A_PASS:
                if self.phase == PLACEMENT:
                    self._after_placement(p)
                else:
                    self._end_turn()
            else:
                h, d = divmod(a - A_STEP, 6)
                self._step_attacker(p, h, d)
                self._end_turn()
        elif a >= A_PLACE_RES:
            h = a - A_PLACE_RES
            self.res[h] = p
            self.under[h] = 0
            self.rhex.append(h)
            self.rbits[p] |= geo.bit_hex[h]
            self.hand[p] -= 1
            self.placed[p] += 1
            self._end_turn()
        elif a >= A_PLACE_ATT:
            h = a - A_PLACE_ATT
            self.att[h] = p
            self.apos[p].append(h)
            self.abits[p] |= geo.bit_hex[h]
            self.reserve[p] -= 1
            self._end_turn()
        elif a >= A_DEST:
            t = a - A_DEST
            src, dst = geo.bit_tri[self.sel], geo.bit_tri[t]
            self.dbits[p] = (self.dbits[p] & ~src) | dst
            self.moved |= dst
            self.n_moved += 1
            self.sel = -1
            self._dests = 0
            if self.n_moved >= self.game.max_defenders_per_turn:
                self._end_turn()
            else:
                # "move another or stop": when no unmoved defender can move,
                # stopping is the only answer, so the turn simply ends
                if self._movable(p) & ~self.moved:
                    self.sub = CONTINUE
                else:
                    self._end_turn()
        elif a >= A_SELECT:
            t = a - A_SELECT
            self.sel = t
            self._dests = self._dest_bits(p, t)
            self.sub = CHOOSE_DEST
        else:
            self.dbits[p] |= geo.bit_tri[a - A_PLACE_DEF]
            self.unplaced[p] -= 1
            self._after_placement(p)

    def _after_placement(self, p: int) -> None:
        if self.unplaced[0] <= 0 and self.unplaced[1] <= 0:
            self.phase = MAIN
            self.cur = self.game.main_first
            self._start_turn()
        elif self.unplaced[1 - p] > 0:
            self.cur = 1 - p

    def _step_attacker(self, p: int, h: int, d: int) -> None:
        geo = self.game.board.geo
        n = int(geo.hexes.neighbors[h, d])
        bn = geo.bit_hex[n]
        att, res = self.att, self.res
        opp = 1 - p
        if att[n] == opp:
            # the prisoner goes under p's nearest available resource
            cap = self.game.resource_capacity
            under = self.under
            for r in self.game.board.nearest_order[p][n]:
                if res[r] == p and under[r] < cap:
                    under[r] += 1
                    break
            self.apos[opp].remove(n)
            self.abits[opp] ^= bn
        elif res[n] >= 0:
            if res[n] == opp:
                self.reserve[p] += self.under[n]
                self.placed[opp] -= 1
            self.under[n] = 0
            self.rbits[res[n]] ^= bn
            res[n] = -1
            self.rhex.remove(n)
            self.hand[p] += 1
        att[h] = -1
        att[n] = p
        self.abits[p] ^= geo.bit_hex[h] | bn
        ap = self.apos[p]
        ap[ap.index(h)] = n

    def _end_turn(self) -> None:
        if self.phase == MAIN:
            self.main_turns += 1
        self.cur = 1 - self.cur
        self.sub = TURN_START
        self.sel = -1
        self.moved = 0
        self.n_moved = 0
        self._dests = 0
        self._start_turn()

    def _start_turn(self) -> None:
        """Win check, then the turn limit, at the start of a main turn."""
        if self.phase != MAIN or self.sub != TURN_START:
            return
        if self.placed[self.cur] >= self.game.win_resources:
            self._terminal = True
            self.winner = self.cur
        elif self.main_turns >= self.game.max_main_turns:
            self._truncated = True

    # --- views ------------------------------------------------------------------------
    def frame_of(self, seat: int | None) -> int:
        """1 when seat's view is the board turned 180 degrees."""
        return 1 if seat == 1 and self.game.relative_frame else 0

    def encode(self, kind: str, *args: Any, seat: int | None = None) -> int:
        """Action index, in ``seat``'s frame (default: the seat to act), from
        a kind and ABSOLUTE coordinates: ``place_defender (X, Y)``,
        ``select (X, Y)``, ``dest (X, Y)``, ``place_attacker (q, r)``,
        ``place_resource (q, r)``, ``step (q, r) d`` (d an index or a name
        such as "NE"), ``end``, ``pass``."""
        bd = self.game.board
        geo = bd.geo
        seat = self.cur if seat is None else seat

        def xy(c):
            return geo.tri_index[(int(c[0]), int(c[1]))]

        def qr(c):
            return geo.hexes.index[(int(c[0]), int(c[1]))]

        if kind == "place_defender":
            a = A_PLACE_DEF + xy(args[0])
        elif kind == "select":
            a = A_SELECT + xy(args[0])
        elif kind == "dest":
            a = A_DEST + xy(args[0])
        elif kind == "place_attacker":
            a = A_PLACE_ATT + qr(args[0])
        elif kind == "place_resource":
            a = A_PLACE_RES + qr(args[0])
        elif kind == "step":
            d = args[1]
            if isinstance(d, str):
                d = DIRECTION_NAMES.index(d.upper())
            a = A_STEP + 6 * qr(args[0]) + int(d)
        elif kind == "end":
            a = A_END
        elif kind == "pass":
            a = A_PASS
        else:
            raise ValueError(f"amethyst_amber_v0: unknown action kind {kind!r}")
        return bd.rot_action[a] if self.frame_of(seat) else a

    def decode(self, action: int, seat: int | None = None) -> tuple:
        """Inverse of :meth:`encode`: (kind, *absolute coordinates)."""
        bd = self.game.board
        geo = bd.geo
        seat = self.cur if seat is None else seat
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"amethyst_amber_v0: action {action!r} is outside 0..{NUM_ACTIONS - 1}")
        if self.frame_of(seat):
            a = bd.rot_action[a]
        if a < A_SELECT:
            return ("place_defender", geo.tri_xy[a])
        if a < A_DEST:
            return ("select", geo.tri_xy[a - A_SELECT])
        if a < A_PLACE_ATT:
            return ("dest", geo.tri_xy[a - A_DEST])
        if a < A_PLACE_RES:
            return ("place_attacker", bd.hex_qr[a - A_PLACE_ATT])
        if a < A_STEP:
            return ("place_resource", bd.hex_qr[a - A_PLACE_RES])
        if a < A_END:
            h, d = divmod(a - A_STEP, 6)
            return ("step", bd.hex_qr[h], d)
        return ("end",) if a == A_END else ("pass",)

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


__all__ = ["AmethystAmberGame", "AmethystAmberState", "NEUTRAL", "PLACEMENT", "MAIN", "T", "H"]
