"""Gold Rush Gangs rules: the Game (one configuration) and its States.

Three gangs race to carry 8 sacks of gold into their own base. The state
keeps units, sacks and the deck in plain lists so a step is a handful of
list operations; geometry comes from :mod:`.geometry`, built once per Game.
Actions and observations are in the acting seat's frame (its home drawn at
the bottom-left corner) unless ``relative_frame`` is off.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, card_rank, rank_counts, stack_ranks, standard_52
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
from meeplezoo.envs.gold_rush_gangs.geometry import (
    BANK,
    DIR_NAMES,
    ORIGIN_NAMES,
    SLOT_BASE,
    SLOT_NAMES,
    STORE,
    Geometry,
    deploy_candidates,
)

UNDEPLOYED, ACTIVE, INCAP = 0, 1, 2
STATE_NAMES = ("undeployed", "active", "incapacitated")
PHASE_NAMES = ("store", "deploy", "movement")


class GoldRushGangsGame(Game):
    info = GameInfo(
        name="gold_rush_gangs_v0",
        title="Gold Rush Gangs",
        min_players=3,
        max_players=3,
        default_players=3,
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/gold_rush_gangs.md",
    )
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 3,
        "radius": 9,
        "territory_radius": 5,
        "base_radius": 1,
        "min_unit_spacing": 4,
        "base_ap": 5,
        "win_sacks": 8,
        "bank_sacks": 3,
        "bank_threshold": 7,
        "bank_progress": "shared",
        "store_placement": "choice",
        "deck_mode": "deck",
        "ap_bonus_immediate": True,
        "max_rounds": 150,
        "reward_scheme": "zero_sum",
        "truncation_scoring": "draw",
        "relative_frame": True,
    }
    test_configs: ClassVar[list[dict]] = [
        {"store_placement": "fixed", "max_rounds": 40},
        {
            "deck_mode": "iid",
            "bank_progress": "per_player",
            "reward_scheme": "win_only",
            "truncation_scoring": "rank",
            "max_rounds": 40,
        },
        {
            "relative_frame": False,
            "ap_bonus_immediate": False,
            "win_sacks": 3,
            "base_ap": 8,
            "max_rounds": 60,
        },
        {"radius": 7, "territory_radius": 4, "min_unit_spacing": 3, "bank_threshold": 3, "max_rounds": 40},
    ]

    _INTS = {
        "radius": (4, 15),
        "territory_radius": (2, 14),
        "base_radius": (1, 3),
        "min_unit_spacing": (1, 10),
        "base_ap": (1, 30),
        "win_sacks": (1, 21),
        "bank_sacks": (0, 9),
        "bank_threshold": (0, 100),
        "max_rounds": (1, 100000),
    }
    _CHOICES = {
        "bank_progress": ("shared", "per_player"),
        "store_placement": ("choice", "fixed"),
        "deck_mode": ("deck", "iid"),
        "reward_scheme": ("zero_sum", "win_only"),
        "truncation_scoring": ("draw", "rank"),
    }

    def validate(self) -> None:
        cfg = self.config
        for key, (lo, hi) in self._INTS.items():
            v = cfg[key]
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise ValueError(f"{self.info.name}: {key} must be an integer from {lo} to {hi}, got {v!r}")
            cfg[key] = int(v)
        for key, allowed in self._CHOICES.items():
            if cfg[key] not in allowed:
                raise ValueError(f"{self.info.name}: {key} must be one of {allowed}, got {cfg[key]!r}")
        for key in ("ap_bonus_immediate", "relative_frame"):
            if not isinstance(cfg[key], (bool, np.bool_)):
                raise ValueError(f"{self.info.name}: {key} must be True or False, got {cfg[key]!r}")
            cfg[key] = bool(cfg[key])
        R, T, B = cfg["radius"], cfg["territory_radius"], cfg["base_radius"]
        if not B < T < R:
            raise ValueError(
                f"{self.info.name}: need base_radius < territory_radius < radius, "
                f"got base_radius={B}, territory_radius={T}, radius={R}"
            )
        geo = Geometry(R, T, B, cfg["min_unit_spacing"], cfg["relative_frame"])
        if not geo.triples[0]:
            raise ValueError(
                f"{self.info.name}: min_unit_spacing={cfg['min_unit_spacing']} leaves no legal deployment "
                f"in a territory of radius {T}"
            )
        self.choose_stores = cfg["store_placement"] == "choice"
        if self.choose_stores and len(geo.neutral_border) < 3:
            raise ValueError(
                f"{self.info.name}: radius={R} with territory_radius={T} leaves fewer than 3 neutral rim "
                "cells for stores (store_placement='choice')"
            )
        self.geo = geo
        n = geo.n
        self.n_cells = n
        self.A_DEPLOY = n
        self.A_MOVE = 2 * n
        self.A_PICKUP = 2 * n + 18
        self.A_BREAK = 2 * n + 21
        self.A_END = 2 * n + 24
        self.num_actions = 2 * n + 25
        side = 2 * R + 1
        self.side = side
        self.n_planes = 30
        self.n_scalars = 47
        self.observation_shape = (self.n_planes * side * side + self.n_scalars,)
        self.observation_planes = (self.n_planes, side, side)
        self.observation_dtype = np.float32
        self.observation_low = 0.0
        self.observation_high = 1.0
        self.reward_range = (-1.0, 1.0)
        self.max_turns = 3 * cfg["max_rounds"]
        self.base_ap = cfg["base_ap"]
        self.win_sacks = cfg["win_sacks"]
        self.threshold = cfg["bank_threshold"]
        self.per_player_bank = cfg["bank_progress"] == "per_player"
        self.iid = cfg["deck_mode"] == "iid"
        self.bonus = cfg["ap_bonus_immediate"]
        self.ap_scale = float(max(12, self.base_ap + self.win_sacks - 1))
        self.setup_len = 4 if self.choose_stores else 3
        self.zero_mask = np.zeros(self.num_actions, dtype=bool)
        self.action_names = self._names()
        self.action_index = {name.lower(): a for a, name in enumerate(self.action_names)}

    def _names(self) -> list[str]:
        geo = self.geo
        names = []
        for kind in ("store", "deploy"):
            for c in range(geo.n):
                q, r = geo.coords[c]
                names.append(f"{kind} ({q},{r})")
        for slot in range(3):
            for d in range(6):
                names.append(f"move {SLOT_NAMES[slot]} {DIR_NAMES[d]}")
        names += [f"pickup {s}" for s in SLOT_NAMES]
        names += [f"break {s}" for s in SLOT_NAMES]
        names.append("end")
        return names

    # --- absolute-frame action helpers (the specification's test hooks) ------
    def encode(self, player: int, kind: str, *args) -> int:
        """Action index for ``player`` from absolute coordinates/directions:
        ``store (q,r)``, ``deploy (q,r)``, ``move slot d``, ``pickup slot``,
        ``break slot``, ``end``."""
        geo = self.geo
        if kind in ("store", "deploy"):
            (q, r) = args[0] if len(args) == 1 else args
            rel = geo.abs2rel[player][geo.index[(int(q), int(r))]]
            return rel + (0 if kind == "store" else self.A_DEPLOY)
        if kind == "move":
            slot, d = args
            rel_d = geo.dir_rel2abs[player].index(int(d))
            return self.A_MOVE + 6 * int(slot) + rel_d
        if kind == "pickup":
            return self.A_PICKUP + int(args[0])
        if kind == "break":
            return self.A_BREAK + int(args[0])
        if kind == "end":
            return self.A_END
        raise ValueError(f"unknown action kind {kind!r}")

    def decode(self, player: int, action: int) -> tuple:
        """Inverse of :meth:`encode`."""
        geo = self.geo
        a = int(action)
        if a < self.A_MOVE:
            kind = "store" if a < self.A_DEPLOY else "deploy"
            return (kind, geo.coords[geo.rel2abs[player][a % self.A_DEPLOY]])
        if a < self.A_PICKUP:
            slot, d = divmod(a - self.A_MOVE, 6)
            return ("move", slot, geo.dir_rel2abs[player][d])
        if a < self.A_BREAK:
            return ("pickup", a - self.A_PICKUP)
        if a < self.A_END:
            return ("break", a - self.A_BREAK)
        if a == self.A_END:
            return ("end",)
        raise ValueError(f"action {a} out of range")

    # --- states -----------------------------------------------------------------
    def new_initial_state(
        self, seed: int | None = None, first_player: int | None = None, deck: list[int] | None = None
    ) -> GoldRushGangsState:
        """A fresh game. ``deck`` (ranks, first drawn first) stacks the top of
        the shuffled deck; ``first_player`` skips the first-player draw."""
        s = GoldRushGangsState.__new__(GoldRushGangsState)
        s.game = self
        s.rng = make_rng(seed)
        n = self.n_cells
        s.deck = Deck.shuffled(standard_52(), s.rng)
        if deck:
            stack_ranks(s.deck, list(deck))
        s.ucell = [-1] * 9
        s.ustate = [UNDEPLOYED] * 9
        s.umiss = [0] * 9
        s.ucarry = [-1] * 9
        s.occ = [-1] * n
        s.sacks = {}
        if self.config["bank_sacks"]:
            s.sacks[self.geo.bank] = [0, 0, 0, 0, self.config["bank_sacks"]]
        s.delivered = [0, 0, 0]
        s.damage = [0, 0, 0]
        s.turns = 0
        s.ap = 0
        s.winner = -1
        s.is_truncated = False
        s.last_combat = []
        s.first_draw = []
        s._mask = None
        s._dc = None
        s.stores = []
        if not self.choose_stores:
            for c in self.geo.fixed_stores:
                s.stores.append(c)
                s.sacks[c] = [0, 0, 0, 1, 0]
        if first_player is None:
            first_player = s._draw_first_player()
        elif first_player not in (0, 1, 2):
            raise ValueError(f"first_player must be 0, 1 or 2, got {first_player!r}")
        s.first = int(first_player)
        s.phase = 0 if self.choose_stores else 1
        s.setup_pos = 0
        s.cur = s.first
        return s

    def state_from_dict(self, data: dict) -> GoldRushGangsState:
        return GoldRushGangsState.from_dict(self, data)


class GoldRushGangsState(State):
    """One position. Units are numbered u = 3 * seat + slot (slot 0 pro)."""

    # --- chance -------------------------------------------------------------
    def _draw(self) -> int:
        if self.game.iid:
            return int(self.rng.integers(52))
        self._dc = None
        return self.deck.draw(self.rng)

    def _draw_first_player(self) -> int:
        contenders = [0, 1, 2]
        while True:
            drawn = [(p, self._draw()) for p in contenders]
            self.first_draw.append([[p, c] for p, c in drawn])
            if not self.game.iid:
                self.deck.discard.extend(c for _, c in drawn)
            best = max(card_rank(c) for _, c in drawn)
            contenders = [p for p, c in drawn if card_rank(c) == best]
            if len(contenders) == 1:
                return contenders[0]

    def stack_deck(self, ranks) -> None:
        """Make the next cards drawn have these ranks, in order (test hook)."""
        stack_ranks(self.deck, list(ranks))
        self._dc = None
        self._mask = None

    # --- whose move -----------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.winner >= 0 or self.is_truncated:
            return -1
        return self.cur

    @property
    def terminal(self) -> bool:
        return self.winner >= 0

    @property
    def truncated(self) -> bool:
        return self.is_truncated and self.winner < 0

    def bank_broken(self, player: int) -> bool:
        return self.damage[player if self.game.per_player_bank else 0] >= self.game.threshold

    def setup_step(self) -> tuple[int, int]:
        """(kind, slot) of the setup step now: kind 0 store, 1 deploy."""
        per = self.game.setup_len
        j = self.setup_pos % per
        if self.game.choose_stores:
            return (0, -1) if j == 0 else (1, j - 1)
        return (1, j)

    def phase_name(self) -> str:
        if self.winner >= 0 or self.is_truncated:
            return "over"
        return PHASE_NAMES[self.phase]

    # --- legal moves ------------------------------------------------------------
    def legal_action_mask(self) -> np.ndarray:
        """Bool mask in the acting seat's frame (cached until the next apply;
        treat it as read-only)."""
        if self._mask is not None:
            return self._mask
        g = self.game
        m = g.zero_mask.copy()
        if self.winner >= 0 or self.is_truncated:
            self._mask = m
            return m
        P = self.cur
        geo = g.geo
        if self.phase < 2:
            kind, slot = self.setup_step()
            r2a = geo.abs2rel[P]
            if kind == 0:
                taken = self.stores
                for c in geo.neutral_border:
                    if c not in taken:
                        m[r2a[c]] = True
            else:
                placed = [self.ucell[3 * P + k] for k in range(slot)]
                off = g.A_DEPLOY
                occ = self.occ
                for c in deploy_candidates(geo, P, placed):
                    if occ[c] < 0 and c not in self.sacks:
                        m[off + r2a[c]] = True
            if not m.any():  # only reachable from hand-made positions
                m[g.A_END] = True
            self._mask = m
            return m
        m[g.A_END] = True
        ap = self.ap
        broken = self.bank_broken(P)
        bank = geo.bank
        bank_nb = geo.nbset[bank]
        nbr = geo.nbr_rel[P]
        forb = geo.forbidden[P]
        occ = self.occ
        sacks = self.sacks
        ustate, ucell, ucarry = self.ustate, self.ucell, self.ucarry
        a_move, a_pick, a_break = g.A_MOVE, g.A_PICKUP, g.A_BREAK
        for slot in range(3):
            u = 3 * P + slot
            if ustate[u] != ACTIVE:
                continue
            c = ucell[u]
            carry = ucarry[u]
            if carry < 0:
                s = sacks.get(c)
                if s is not None and sum(s) > s[P]:
                    m[a_pick + slot] = True
            if ap <= 0:
                continue
            if not broken and c in bank_nb:
                m[a_break + slot] = True
            cost = 2 if (slot == 0 or carry >= 0) else 1
            if ap < cost:
                continue
            base = a_move + 6 * slot
            for d, n in enumerate(nbr[c]):
                if n < 0 or forb[n] or occ[n] >= 0:
                    continue
                if n == bank and not broken:
                    continue
                if carry >= 0 and n in sacks:
                    continue
                m[base + d] = True
        self._mask = m
        return m

    # --- transitions --------------------------------------------------------------
    def _apply_action(self, a: int) -> None:
        g = self.game
        self._mask = None
        self.last_combat = []
        P = self.cur
        geo = g.geo
        if self.phase < 2:
            if a == g.A_END:  # dead-end hand-made setup position: skip the step
                self._advance_setup()
                return
            kind, slot = self.setup_step()
            if kind == 0:
                c = geo.rel2abs[P][a]
                self.stores.append(c)
                self.sacks.setdefault(c, [0, 0, 0, 0, 0])[STORE] += 1
            else:
                c = geo.rel2abs[P][a - g.A_DEPLOY]
                u = 3 * P + slot
                self.ucell[u] = c
                self.ustate[u] = ACTIVE
                self.occ[c] = u
                self.sacks.setdefault(c, [0, 0, 0, 0, 0])[P] += 3 if slot == 0 else 2
            self._advance_setup()
            return
        if a >= g.A_END:
            self._end_turn()
        elif a >= g.A_BREAK:
            self.ap -= 1
            self.damage[P if g.per_player_bank else 0] += 1
        elif a >= g.A_PICKUP:
            u = 3 * P + a - g.A_PICKUP
            c = self.ucell[u]
            s = self.sacks[c]
            for o in (STORE, (P + 1) % 3, (P + 2) % 3, BANK):
                if s[o]:
                    s[o] -= 1
                    self.ucarry[u] = o
                    break
            if not any(s):
                del self.sacks[c]
        else:
            slot, d = divmod(a - g.A_MOVE, 6)
            u = 3 * P + slot
            c = self.ucell[u]
            n = geo.nbr_rel[P][c][d]
            carry = self.ucarry[u]
            self.ap -= 2 if (slot == 0 or carry >= 0) else 1
            self.occ[c] = -1
            self.ucell[u] = n
            if n != geo.homes[P]:
                self.occ[n] = u
            if carry >= 0 and geo.base_of[n] == P:
                self.ucarry[u] = -1
                self.delivered[P] += 1
                if g.bonus:
                    self.ap += 1
                if self.delivered[P] >= g.win_sacks:
                    self.winner = P
                    return
            self._combat(u, n)

    def _advance_setup(self) -> None:
        g = self.game
        self.setup_pos += 1
        if self.setup_pos >= 3 * g.setup_len:
            self.phase = 2
            self.cur = self.first
            self._start_turn()
            return
        self.cur = (self.first + self.setup_pos // g.setup_len) % 3
        self.phase = self.setup_step()[0]

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.game.max_turns:
            self.is_truncated = True
            return
        self.cur = next_seat(self.cur, 3)
        self._start_turn()

    def _start_turn(self) -> None:
        P = self.cur
        for u in range(3 * P, 3 * P + 3):
            if self.ustate[u] == INCAP:
                if self.umiss[u] == 0:
                    self.ustate[u] = ACTIVE
                else:
                    self.umiss[u] -= 1
        self.ap = self.game.base_ap + self.delivered[P]

    def _support(self, u: int) -> int:
        p = u // 3
        ustate, ucell = self.ustate, self.ucell
        nb = self.game.geo.nbset[ucell[u]]
        k = SLOT_BASE[u % 3]
        for w in range(3 * p, 3 * p + 3):
            if w != u and ustate[w] == ACTIVE and ucell[w] in nb:
                k += SLOT_BASE[w % 3]
        return k

    def _combat(self, u: int, n: int) -> None:
        P = u // 3
        ustate, ucell = self.ustate, self.ucell
        nb = self.game.geo.nbset[n]
        foes = [
            v
            for q in ((P + 1) % 3, (P + 2) % 3)
            for v in range(3 * q, 3 * q + 3)
            if ustate[v] == ACTIVE and ucell[v] in nb
        ]
        if not foes:
            return
        iid = self.game.iid
        for v in foes:
            if ustate[v] != ACTIVE:
                continue
            na, nd = self._support(u), self._support(v)
            att = [self._draw() for _ in range(na)]
            dfn = [self._draw() for _ in range(nd)]
            if not iid:
                self.deck.discard.extend(att)
                self.deck.discard.extend(dfn)
            won = max(map(card_rank, att)) >= max(map(card_rank, dfn))
            self.last_combat.append(
                {
                    "attacker": [P, u % 3],
                    "defender": [v // 3, v % 3],
                    "attacker_cards": att,
                    "defender_cards": dfn,
                    "attacker_won": won,
                }
            )
            self._send_home(v if won else u)
            if not won:
                return

    def _send_home(self, v: int) -> None:
        geo = self.game.geo
        p = v // 3
        c = self.ucell[v]
        carry = self.ucarry[v]
        if carry >= 0:
            spot = geo.bank if carry == BANK else c
            self.sacks.setdefault(spot, [0, 0, 0, 0, 0])[carry] += 1
            self.ucarry[v] = -1
        if self.occ[c] == v:
            self.occ[c] = -1
        self.ucell[v] = geo.homes[p]
        self.ustate[v] = INCAP
        self.umiss[v] = 1

    # --- end of game --------------------------------------------------------------
    def returns(self) -> np.ndarray:
        g = self.game
        if self.winner >= 0:
            if g.config["reward_scheme"] == "zero_sum":
                r = np.full(3, -0.5)
            else:
                r = np.zeros(3)
            r[self.winner] = 1.0
            return r
        if self.is_truncated and g.config["truncation_scoring"] == "rank":
            return rank_rewards(self.delivered)
        return np.zeros(3)

    def evaluate(self) -> np.ndarray:
        """Heuristic return of an unfinished position (``returns()`` once over).

        Each gang's progress is its delivered sacks plus part of a sack for
        each sack it carries (more the nearer the carrier is to home) and a
        little for each empty-handed thief near gold it may steal. Progress
        becomes win chances by a softmax (one sack ahead roughly doubles the
        odds), win chances become the expected win reward, and that is
        blended toward the truncation result as the round limit nears."""
        if self.winner >= 0 or self.is_truncated:
            return np.asarray(self.returns(), dtype=np.float64)
        g = self.game
        geo = g.geo
        dist = geo.dist
        span = 2.0 * geo.radius
        progress = [float(x) for x in self.delivered]
        sacks = self.sacks
        for u in range(9):
            if self.ustate[u] != ACTIVE:
                continue
            p = u // 3
            c = self.ucell[u]
            if self.ucarry[u] >= 0:
                progress[p] += 0.25 + 0.65 * (1.0 - dist[c][geo.homes[p]] / span)
            else:
                near = span
                row = dist[c]
                for cell, s in sacks.items():
                    if sum(s) > s[p] and row[cell] < near:
                        near = row[cell]
                progress[p] += 0.15 * (1.0 - near / span)
        k = 6.0 / g.win_sacks
        top = max(progress)
        w = np.exp([k * (x - top) for x in progress])
        win = w / w.sum()
        if g.config["reward_scheme"] == "zero_sum":
            value = 1.5 * win - 0.5
        else:
            value = win
        if g.config["truncation_scoring"] == "rank":
            at_limit = np.asarray(rank_rewards(self.delivered), dtype=np.float64)
        else:
            at_limit = np.zeros(3)
        late = min(1.0, self.turns / g.max_turns)
        return (1.0 - late) * value + late * at_limit

    # --- views ----------------------------------------------------------------------
    def draw_counts(self) -> list[int]:
        """Cards of each rank (index 1..13) left in the draw pile (public)."""
        if self._dc is None:
            self._dc = rank_counts(self.deck.draw_pile)
        return self._dc

    def determinize(self, player: int, rng: np.random.Generator) -> GoldRushGangsState:
        """Everything on the table is public; only the draw-pile order is
        unknown (to everyone). The pile is put in sorted order and then
        shuffled, so the result depends only on its (public) contents and
        ``rng``; the copy gets a fresh generator."""
        s = self.clone()
        s.deck.draw_pile = sorted(s.deck.draw_pile)
        s.deck.shuffle(rng)
        s.rng = derive_rng(rng)
        return s

    def clone(self) -> GoldRushGangsState:
        s = GoldRushGangsState.__new__(GoldRushGangsState)
        s.game = self.game
        s.rng = clone_rng(self.rng)
        s.deck = Deck(self.deck.draw_pile, self.deck.discard)
        s.ucell = self.ucell[:]
        s.ustate = self.ustate[:]
        s.umiss = self.umiss[:]
        s.ucarry = self.ucarry[:]
        s.occ = self.occ[:]
        s.sacks = {c: v[:] for c, v in self.sacks.items()}
        s.delivered = self.delivered[:]
        s.damage = self.damage[:]
        s.stores = self.stores[:]
        s.turns = self.turns
        s.ap = self.ap
        s.winner = self.winner
        s.is_truncated = self.is_truncated
        s.last_combat = list(self.last_combat)
        s.first_draw = list(self.first_draw)
        s.first = self.first
        s.phase = self.phase
        s.setup_pos = self.setup_pos
        s.cur = self.cur
        s._mask = None
        s._dc = self._dc
        return s

    def to_dict(self) -> dict:
        geo = self.game.geo
        xy = lambda c: list(geo.coords[c])  # noqa: E731
        units = []
        for u in range(9):
            units.append(
                {
                    "player": u // 3,
                    "slot": u % 3,
                    "cell": None if self.ucell[u] < 0 else xy(self.ucell[u]),
                    "state": STATE_NAMES[self.ustate[u]],
                    "miss": self.umiss[u],
                    "carry": None if self.ucarry[u] < 0 else ORIGIN_NAMES[self.ucarry[u]],
                }
            )
        sacks = []
        for c in sorted(self.sacks):
            for o, k in enumerate(self.sacks[c]):
                if k:
                    sacks.append([*geo.coords[c], ORIGIN_NAMES[o], k])
        return {
            "phase": PHASE_NAMES[self.phase],
            "setup_pos": self.setup_pos,
            "current": self.cur,
            "first_player": self.first,
            "ap": self.ap,
            "turns": self.turns,
            "units": units,
            "sacks": sacks,
            "stores": [xy(c) for c in self.stores],
            "bank_damage": list(self.damage),
            "delivered": list(self.delivered),
            "deck": self.deck.to_dict(),
            "winner": self.winner,
            "truncated": self.is_truncated,
            "last_combat": self.last_combat,
            "first_draw": self.first_draw,
            "rng": rng_to_dict(self.rng),
        }

    @classmethod
    def from_dict(cls, game: GoldRushGangsGame, d: dict) -> GoldRushGangsState:
        geo = game.geo
        s = cls.__new__(cls)
        s.game = game
        cell = lambda xy: geo.index[(int(xy[0]), int(xy[1]))]  # noqa: E731
        s.rng = rng_from_dict(d["rng"]) if d.get("rng") else make_rng(None)
        deck = d.get("deck") or {"draw_pile": standard_52(), "discard": []}
        s.deck = Deck.from_dict(deck)
        s.ucell, s.ustate, s.umiss, s.ucarry = [-1] * 9, [0] * 9, [0] * 9, [-1] * 9
        s.occ = [-1] * geo.n
        for e in d["units"]:
            u = 3 * int(e["player"]) + int(e["slot"])
            st = STATE_NAMES.index(e["state"])
            s.ustate[u] = st
            s.umiss[u] = int(e.get("miss", 0))
            carry = e.get("carry")
            s.ucarry[u] = -1 if carry is None else ORIGIN_NAMES.index(carry)
            if st == INCAP:
                s.ucell[u] = geo.homes[u // 3]
            elif st == ACTIVE:
                c = cell(e["cell"])
                s.ucell[u] = c
                if c != geo.homes[u // 3]:
                    if s.occ[c] >= 0:
                        raise ValueError(f"two units on cell {tuple(e['cell'])}")
                    s.occ[c] = u
        s.sacks = {}
        for q, r, origin, k in d.get("sacks", []):
            if k:
                s.sacks.setdefault(cell((q, r)), [0, 0, 0, 0, 0])[ORIGIN_NAMES.index(origin)] += int(k)
        s.stores = [cell(c) for c in d.get("stores", [])]
        s.damage = [int(x) for x in d.get("bank_damage", [0, 0, 0])]
        s.delivered = [int(x) for x in d.get("delivered", [0, 0, 0])]
        s.phase = PHASE_NAMES.index(d.get("phase", "movement"))
        s.setup_pos = int(d.get("setup_pos", 3 * game.setup_len if s.phase == 2 else 0))
        s.cur = int(d.get("current", 0))
        s.first = int(d.get("first_player", 0))
        s.ap = int(d.get("ap", 0))
        s.turns = int(d.get("turns", 0))
        s.winner = int(d.get("winner", -1))
        s.is_truncated = bool(d.get("truncated", False))
        s.last_combat = list(d.get("last_combat", []))
        s.first_draw = list(d.get("first_draw", []))
        s._mask = None
        s._dc = None
        return s

    # --- words -----------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return self.game.action_names[int(action)]

    def string_to_action(self, text: str) -> int:
        key = " ".join(text.strip().lower().replace(", ", ",").split())
        a = self.game.action_index.get(key)
        if a is None:
            raise ValueError(f"{self.game.info.name}: no action named {text!r}")
        return a

    # --- pictures --------------------------------------------------------------------
    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.gold_rush_gangs.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.gold_rush_gangs.render import render_rgb

        return render_rgb(self, viewer)
