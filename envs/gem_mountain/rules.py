"""Gem Mountain rules: the Game (one configuration) and the State (one position).

A turn is a chain of small decisions (see seeds/gem_mountain.md): an optional
PRE window for action tiles, the compulsory GRAB (maybe a SECTION choice), an
optional POST window, the Dark Tunnels INFO step, then the arrows turn.
Actions that need parameters ask for them one SUB-STEP at a time.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.ranking import rank_rewards, soft_rank_rewards
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
from meeplezoo.envs.gem_mountain import tiles as T
from meeplezoo.envs.gem_mountain.geometry import POINTED, POSITION_NAMES, geometry

# evaluate(): points of score still open at the end, and per gem tile left
SPREAD_AT_END, SPREAD_PER_CELL = 5.0, 0.5

PRE, GRAB, SECTION, POST, INFO, SUB, START = range(7)
PHASE_NAMES = ("PRE", "GRAB", "SECTION", "POST", "INFO", "SUB-STEP", "START")
START_TILES = ("none", "action", "action_secret", "any", "any_secret")
ACTION_LIMITS = ("per_window", "per_turn", "unlimited")
REWARD_MODES = ("rank", "score_diff")
NEEDS_ARROW = (T.GUST, T.COMPASS, T.FLARE, T.AVALANCHE)
# action types whose USE has a condition beyond holding the tile (table 2.4)
_CONDITIONAL = [
    t in (T.TUNNEL, T.ANCHOR, T.LANTERN, T.FLARE, T.PRISM, T.THIEF, T.GIFT) for t in range(T.NUM_ACTION_TYPES)
]


class GemMountainGame(Game):
    info = GameInfo(
        name="gem_mountain_v0",
        title="Gem Mountain",
        min_players=2,
        max_players=5,
        default_players=2,
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/gem_mountain.md",
    )
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "map_rows": 6,
        "map_cols": 6,
        "dark_tunnels": False,
        "second_arrow": False,
        "gemshards": False,
        "golden_actions": False,
        "start_tiles": "none",
        "start_player_chooses_arrow": False,
        "action_limit": "per_window",
        "max_turns": None,
        "reward_mode": "rank",
        "layout_override": None,
        "rotation_override": None,
        "arrow_override": None,
        "holdings_override": None,
    }
    _ALL = {"dark_tunnels": True, "second_arrow": True, "gemshards": True, "golden_actions": True}
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3, **_ALL, "map_rows": 8, "map_cols": 8},
        {"num_players": 5, **_ALL, "map_rows": 8, "map_cols": 8},
        {
            "num_players": 4,
            "dark_tunnels": True,
            "start_tiles": "any_secret",
            "start_player_chooses_arrow": True,
            "action_limit": "unlimited",
        },
        {
            "num_players": 3,
            "gemshards": True,
            "golden_actions": True,
            "start_tiles": "action",
            "action_limit": "per_turn",
            "map_rows": 5,
            "map_cols": 7,
            "reward_mode": "score_diff",
        },
    ]

    def validate(self) -> None:
        cfg = self.config
        for key in ("map_rows", "map_cols"):
            v = cfg[key]
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not 2 <= v <= 12:
                raise ValueError(f"gem_mountain_v0: {key} must be an integer from 2 to 12, got {v!r}")
        for key in T.MODULES + ("start_player_chooses_arrow",):
            if not isinstance(cfg[key], (bool, np.bool_)):
                raise ValueError(f"gem_mountain_v0: {key} must be True or False, got {cfg[key]!r}")
        for key, allowed in (
            ("start_tiles", START_TILES),
            ("action_limit", ACTION_LIMITS),
            ("reward_mode", REWARD_MODES),
        ):
            if cfg[key] not in allowed:
                raise ValueError(f"gem_mountain_v0: {key} must be one of {allowed}, got {cfg[key]!r}")
        self.rows, self.cols = int(cfg["map_rows"]), int(cfg["map_cols"])
        self.geo = geometry(self.rows, self.cols)
        M = self.m = self.rows * self.cols
        mt = cfg["max_turns"]
        if mt is None:
            mt = 4 * M
        if not isinstance(mt, (int, np.integer)) or isinstance(mt, bool) or mt < 1:
            raise ValueError(f"gem_mountain_v0: max_turns must be a positive integer or None, got {mt!r}")
        self.max_turns = int(mt)
        self.dark = bool(cfg["dark_tunnels"])
        self.two_arrows = bool(cfg["second_arrow"])
        self.limit = ACTION_LIMITS.index(cfg["action_limit"])
        self.secret_mode = cfg["start_tiles"] in ("action_secret", "any_secret")
        self.choose_arrow = bool(cfg["start_player_chooses_arrow"])
        # the pool as built: whole copies of the module pool until the map is covered
        one = T.module_pool(cfg)
        copies = -(-M // len(one))
        self.pool = one * copies
        self.layout = None
        if cfg["layout_override"] is not None:
            lay = cfg["layout_override"]
            if not isinstance(lay, (list, tuple)) or len(lay) != M:
                raise ValueError(f"gem_mountain_v0: layout_override must be a list of {M} tile names or None")
            self.layout = [None if x is None else T.design_of(x) for x in lay]
            self.pool = [d for d in self.layout if d is not None]
        self.rotations = None
        if cfg["rotation_override"] is not None:
            rot = cfg["rotation_override"]
            if not isinstance(rot, (list, tuple)) or len(rot) != M or any(x not in (0, 1, 2, 3) for x in rot):
                raise ValueError(f"gem_mountain_v0: rotation_override must be a list of {M} values in 0..3")
            self.rotations = [int(x) for x in rot]
        self.arrows0 = None
        if cfg["arrow_override"] is not None:
            arr = cfg["arrow_override"]
            if (
                not isinstance(arr, (list, tuple))
                or len(arr) != (2 if self.two_arrows else 1)
                or any(x not in range(8) for x in arr)
            ):
                raise ValueError("gem_mountain_v0: arrow_override must list one position 0..7 per arrow")
            self.arrows0 = [int(x) for x in arr]
        self.holdings = None
        if cfg["holdings_override"] is not None:
            hold = cfg["holdings_override"]
            if not isinstance(hold, (list, tuple)) or len(hold) != self.num_players:
                raise ValueError("gem_mountain_v0: holdings_override must hold one dict per seat")
            self.holdings = []
            for seat in hold:
                gems, acts, secret = [0] * 7, [0] * 16, -1
                for name, count in dict(seat).items():
                    if name == "secret":
                        secret = T.content_of(count)
                        continue
                    c = T.content_of(name)
                    if c < 7:
                        gems[c] += int(count)
                    else:
                        acts[c - 7] += int(count)
                self.holdings.append((gems, acts, secret))
        # per-shard counts of the pool as built (for the "unseen" observation)
        self.pool_counts = [0] * T.NUM_CONTENTS
        for d in self.pool:
            for c in T.SHARDS[d]:
                self.pool_counts[c] += 1
        # action layout
        self.SEC, self.USE, self.ARR, self.POS = M, M + 4, M + 20, M + 22
        self.DIR, self.OPP, self.GEM, self.DONE, self.PASS = M + 30, M + 32, M + 36, M + 43, M + 44
        self.num_actions = M + 45
        self.action_cells = np.concatenate([np.arange(M), np.full(45, -1)])  # grab cell i is action i
        if cfg["reward_mode"] == "rank":
            self.reward_range = (-1.0, 1.0)
        else:
            most = sum(T.GEM_VALUES[c] * (self.pool_counts[c] + self.num_players) for c in range(7))
            self.reward_range = (-2.0 * most / 20.0, 2.0 * most / 20.0)
        self._masks: dict[tuple, np.ndarray] = {}

    def new_initial_state(self, seed: int | None = None) -> GemMountainState:
        return GemMountainState.new(self, make_rng(seed))

    def state_from_dict(self, data: dict) -> GemMountainState:
        return GemMountainState.from_dict(self, data)


_FIELDS = (
    "cells",
    "rot",
    "up",
    "peek",
    "arrows",
    "gems",
    "acts",
    "secret",
    "unused",
    "seen",
    "player",
    "turn",
    "phase",
    "window",
    "res",
    "sub",
    "carrow",
    "owed",
    "gkind",
    "lantern",
    "pend",
    "pend_secs",
    "sec_mask",
    "used_pre",
    "used_post",
    "anchor",
    "prism_used",
    "prism_on",
    "wtaken",
    "wuses",
    "over",
    "trunc",
)


class GemMountainState(State):
    """One position. Plain Python lists throughout: cheap to copy and to step."""

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: GemMountainGame, rng: np.random.Generator) -> GemMountainState:
        s = cls.__new__(cls)
        s.game, s.rng = game, rng
        M, n = game.m, game.num_players
        if game.layout is None:
            order = rng.permutation(len(game.pool))
            shuffled = [game.pool[k] for k in order]
            s.cells, rest = shuffled[:M], shuffled[M:]
        else:
            s.cells, rest = list(game.layout), []
            s.cells = [-1 if d is None else d for d in s.cells]
        rot = [int(x) for x in rng.integers(0, 4, size=M)]
        s.rot = list(game.rotations) if game.rotations is not None else rot
        s.up = [not game.dark] * M
        s.peek = [0] * M
        s.gems = [[0] * 7 for _ in range(n)]
        s.acts = [[0] * 16 for _ in range(n)]
        s.secret = [-1] * n
        s.seen = [0] * T.NUM_CONTENTS
        s.coll_ver = s.gem_ver = s.map_ver = s.seen_ver = 0
        s.seat_ver = [0] * n
        s._ocache, s._log, s._scores = {}, [], None
        if not game.dark:
            for d in s.cells:
                if d >= 0:
                    for c in T.SHARDS[d]:
                        s.seen[c] += 1
        kind = game.config["start_tiles"]
        if kind != "none":
            s._deal_start_tiles(kind, rest)
        s.unused = rest
        if game.holdings is not None:
            for p, (gems, acts, secret) in enumerate(game.holdings):
                s.gems[p] = list(gems)
                s.acts[p] = list(acts)
                s.secret[p] = secret
        s.player = s.turn = 0
        s.window, s.res, s.sub, s.carrow, s.owed, s.gkind, s.lantern = -1, -1, 0, -1, 0, 0, 0
        s.pend, s.pend_secs, s.sec_mask = -1, [0, 0, 0, 0], 0
        s.used_pre = s.used_post = s.anchor = s.prism_used = s.prism_on = False
        s.wtaken, s.wuses = [0] * 16, 0
        s.over = s.trunc = False
        s.phase = PRE
        s._refresh()
        if game.arrows0 is not None:
            s.arrows = list(game.arrows0)
        elif game.choose_arrow:
            s.arrows = []
        else:
            p = int(rng.integers(0, 4)) * 2
            s.arrows = [p, (p + 4) % 8] if game.two_arrows else [p]
        if s.gem_left == 0:
            s.over = True
        elif not s.arrows:
            s.phase = START
        else:
            s._begin_turn()
        return s

    def _deal_start_tiles(self, kind: str, rest: list[int]) -> None:
        game = self.game
        want_action = kind.startswith("action")

        def fits(d: int) -> bool:
            return T.PLAIN[d] and (not want_action or not T.is_gem(T.SHARDS[d][0]))

        copy: list[int] | None = None
        for p in range(game.num_players):
            if p == 0 and game.choose_arrow:
                continue
            src = rest if copy is None else copy
            j = next((k for k, d in enumerate(src) if fits(d)), -1)
            if j < 0 and copy is None:
                base = T.module_pool(game.config) if game.layout is None else game.pool
                copy = [base[k] for k in self.rng.permutation(len(base))]
                src = copy
                j = next((k for k, d in enumerate(src) if fits(d)), -1)
            if j < 0:
                continue
            c = T.SHARDS[src.pop(j)][0]
            if game.secret_mode:
                self.secret[p] = c
            else:
                self._gain_to(p, c)
                self.seen[c] += 1

    def _refresh(self) -> None:
        """Recompute the derived counters from the map."""
        geo = self.game.geo
        self.cnt = [[0] * geo.depth[p] for p in range(8)]
        self.gem_left = self.down_left = 0
        for i, d in enumerate(self.cells):
            if d < 0:
                continue
            for p in range(8):
                self.cnt[p][geo.dist[p][i]] += 1
            if T.HAS_GEM[d]:
                self.gem_left += 1
            if not self.up[i]:
                self.down_left += 1
        self._mask = self._uc = None
        self._ocache, self._log, self._scores = {}, [], None

    # ------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        return -1 if (self.over or self.trunc) else self.player

    @property
    def terminal(self) -> bool:
        return self.over

    @property
    def truncated(self) -> bool:
        return self.trunc and not self.over

    def phase_name(self) -> str:
        return "OVER" if (self.over or self.trunc) else PHASE_NAMES[self.phase]

    # --------------------------------------------------------------- layers
    def top_k(self, p: int) -> int:
        """Index of the top layer of arrow position p (-1 on an empty map)."""
        for k, v in enumerate(self.cnt[p]):
            if v:
                return k
        return -1

    def second_k(self, p: int) -> int:
        cnt = self.cnt[p]
        found = False
        for k, v in enumerate(cnt):
            if v:
                if found:
                    return k
                found = True
        return -1

    def layer_cells(self, p: int, k: int) -> list[int]:
        if k < 0:
            return []
        cells = self.cells
        return [i for i in self.game.geo.layers[p][k] if cells[i] >= 0]

    def top_cells(self, p: int) -> list[int]:
        return self.layer_cells(p, self.top_k(p))

    def available(self) -> list[int]:
        """Cells a normal grab may take now (union of the arrows' top layers)."""
        if len(self.arrows) == 1:
            return self.top_cells(self.arrows[0])
        a = self.top_cells(self.arrows[0])
        return sorted(set(a).union(self.top_cells(self.arrows[1])))

    def tunnel_cells(self) -> list[int]:
        out: set[int] = set()
        for p in self.arrows:
            out.update(self.layer_cells(p, self.second_k(p)))
        return sorted(out)

    def _pointers(self, i: int, tunnel: bool) -> list[int]:
        """Arrow positions whose top (or second, for Tunnel) layer holds cell i."""
        dist = self.game.geo.dist
        return [p for p in self.arrows if dist[p][i] == (self.second_k(p) if tunnel else self.top_k(p))]

    def grab_options(self, i: int, tunnel: bool = False) -> dict[int, int]:
        """content -> lowest pointed section, for a grab of cell i now."""
        secs: set[int] = set()
        for p in self._pointers(i, tunnel):
            secs.update(POINTED[p])
        sc = T.SECTION_CONTENT[self.cells[i]][self.rot[i]]
        opts: dict[int, int] = {}
        for s in sorted(secs):
            opts.setdefault(sc[s], s)
        return opts

    # ---------------------------------------------------------------- masks
    def _usable(self) -> list[int]:
        """Action types the player may USE now (holds one not taken in this window)."""
        p = self.player
        acts, sec = self.acts[p], self.secret[p]
        wt = self.wtaken
        held = [t for t in range(15) if acts[t] > wt[t]]
        if sec >= 7 and sec - 7 not in held and sec - 7 < 15:
            held.append(sec - 7)
            held.sort()
        if not held:
            return held
        cond = _CONDITIONAL
        return [t for t in held if not cond[t] or self._use_condition(t)]

    def _use_condition(self, t: int) -> bool:
        if t == T.TUNNEL:
            return any(self.second_k(p) >= 0 for p in self.arrows)
        if t == T.ANCHOR:
            return not self.anchor
        if t == T.LANTERN:
            return self.down_left > 0
        if t == T.FLARE:
            return bool(self._flare_arrows())
        if t == T.PRISM:
            return self.phase == PRE and not self.prism_used
        if t == T.THIEF:
            return bool(self._thief_targets())
        if t == T.GIFT:
            return any(self.gems[self.player])
        return t != T.RESERVED

    def _flare_arrows(self) -> list[int]:
        up = self.up
        return [j for j, p in enumerate(self.arrows) if any(not up[i] for i in self.top_cells(p))]

    def _thief_targets(self) -> list[int]:
        n = self.game.num_players
        return [j for j in range(n - 1) if any(self.gems[(self.player + 1 + j) % n])]

    def _peek_cells(self) -> list[int]:
        """Face-down cells to peek at: those I don't know yet, or all if I know every one."""
        bit = 1 << self.player
        down = [i for i, d in enumerate(self.cells) if d >= 0 and not self.up[i]]
        fresh = [i for i in down if not self.peek[i] & bit]
        return fresh or down

    def _legal(self) -> list[int]:
        g = self.game
        ph = self.phase
        if ph == GRAB:
            return self.tunnel_cells() if self.gkind == 2 else self.available()
        if ph == SECTION:
            return [g.SEC + s for s in range(4) if self.sec_mask >> s & 1]
        if ph == PRE or ph == POST:
            usable = self._uc if self._uc is not None else self._usable()
            return [g.USE + t for t in usable] + [g.DONE]
        if ph == INFO:
            if self.used_pre or self.used_post:
                return [i for i, d in enumerate(self.cells) if d >= 0 and not self.up[i]]
            return self._peek_cells()
        if ph == START:
            return [g.POS + p for p in (0, 2, 4, 6)]
        t, sub = self.res, self.sub
        if t in NEEDS_ARROW and sub == 0:
            arrows = self._flare_arrows() if t == T.FLARE else range(len(self.arrows))
            if t == T.AVALANCHE:
                arrows = [j for j in arrows if self.top_cells(self.arrows[j])]
            return [g.ARR + j for j in arrows]
        if t == T.GUST or (t == T.TURN_STONE and sub == 1):
            return [g.DIR, g.DIR + 1]
        if t == T.COMPASS:
            cur = self.arrows[self.carrow]
            return [g.POS + p for p in range(8) if p != cur]
        if t == T.LANTERN:
            return self._peek_cells() + ([g.DONE] if sub == 1 else [])
        if t == T.TURN_STONE:
            return [i for i, d in enumerate(self.cells) if d >= 0]
        if t == T.THIEF:
            if sub == 0:
                return [g.OPP + j for j in self._thief_targets()]
            return [g.GEM + k for k in range(7) if self.gems[self.pend][k]]
        if t == T.GIFT:
            if sub == 0:
                return [g.OPP + j for j in range(g.num_players - 1)]
            return [g.GEM + k for k in range(7) if self.gems[self.player][k]]
        return [g.PASS]  # unreachable with these rules; keeps the mask non-empty

    def legal_action_mask(self) -> np.ndarray:
        if self._mask is None:
            if self.over or self.trunc:
                key: tuple = ()
            else:
                key = tuple(self._legal()) or (self.game.PASS,)
            masks = self.game._masks
            m = masks.get(key)
            if m is None:  # masks are shared per legal set and never written to
                m = np.zeros(self.game.num_actions, dtype=bool)
                m[list(key)] = True
                if len(masks) > 20000:
                    masks.clear()
                masks[key] = m
            self._mask = m
        return self._mask.copy()

    # ---------------------------------------------------------------- apply
    def _is_legal(self, action: int) -> bool:
        """The cached mask answers without a call when it is fresh."""
        mask = self._mask
        if mask is None:
            mask = self.legal_action_mask()
        return mask[action]

    def _apply_action(self, a: int) -> None:
        g = self.game
        self._mask = self._uc = None
        ph = self.phase
        if a == g.PASS:
            self._end_turn()
        elif ph == GRAB:
            self._grab(a)
        elif ph == SECTION:
            self._gain(self.pend_secs[a - g.SEC])
            self._after_grab()
        elif ph == PRE or ph == POST:
            if a == g.DONE:
                self._close_window()
            else:
                self._use(a - g.USE)
        elif ph == INFO:
            if self.used_pre or self.used_post:
                self._flip(a)
            else:
                self.peek[a] |= 1 << self.player
                self.map_ver += 1
                self._log.append(a)
            self._end_turn()
        elif ph == START:
            p = a - g.POS
            self.arrows = [p, (p + 4) % 8] if g.two_arrows else [p]
            self._begin_turn()
        else:
            self._sub_step(a)

    # ------------------------------------------------------------ turn flow
    def _begin_turn(self) -> None:
        self.used_pre = self.used_post = self.anchor = self.prism_used = self.prism_on = False
        self._open_window(0)

    def _open_window(self, w: int) -> None:
        self.window = w
        self.wtaken = [0] * 16
        self.wuses = 0
        self._offer_window()

    def _offer_window(self) -> None:
        g = self.game
        if g.limit == 0 and self.wuses:
            return self._close_window()
        if g.limit == 1 and (self.used_pre or self.used_post):
            return self._close_window()
        self.phase = PRE if self.window == 0 else POST
        if not g.secret_mode:
            usable = self._usable()
            if not usable:
                return self._close_window()
            self._uc = usable  # the mask of this window reuses it

    def _close_window(self) -> None:
        if self.window == 0:
            self.window = -1
            self.gkind, self.owed = 0, 0
            self.phase = GRAB
        else:
            self.window = -1
            if self.game.dark and self.down_left:
                self.phase = INFO
            else:
                self._end_turn()

    def _end_turn(self) -> None:
        if not self.anchor:
            self.arrows = [(p + 2) % 8 for p in self.arrows]
        self.turn += 1
        self.player = next_seat(self.player, self.game.num_players)
        self.res, self.sub, self.carrow = -1, 0, -1
        if self.turn >= self.game.max_turns:
            self.trunc = True
            return
        self._begin_turn()

    # ---------------------------------------------------------------- grabs
    def _remove(self, i: int) -> None:
        """Take tile i off the map (revealing it if face down)."""
        d = self.cells[i]
        self.map_ver += 1
        self._log.append(i)
        for c, k in zip(self.cnt, self.game.geo.cell_dist[i]):
            c[k] -= 1
        if T.HAS_GEM[d]:
            self.gem_left -= 1
        if not self.up[i]:
            self.down_left -= 1
            self.seen_ver += 1
            for c in T.SHARDS[d]:
                self.seen[c] += 1
        self.cells[i] = -1
        self.up[i] = True
        self.peek[i] = 0

    def _flip(self, i: int) -> None:
        self.map_ver += 1
        self.seen_ver += 1
        self._log.append(i)
        self.up[i] = True
        self.peek[i] = 0
        self.down_left -= 1
        for c in T.SHARDS[self.cells[i]]:
            self.seen[c] += 1

    def _grab(self, i: int) -> None:
        d, r = self.cells[i], self.rot[i]
        if self.prism_on:
            self.prism_on = False
            self._remove(i)
            for c in T.SHARDS[d]:
                self._gain(c)
            return self._after_grab()
        if T.PLAIN[d]:
            self._remove(i)
            self._gain(d if d < 7 else d)  # plain design id == its content id
            return self._after_grab()
        opts = self.grab_options(i, self.gkind == 2)
        self._remove(i)
        if len(opts) == 1:
            self._gain(next(iter(opts)))
            return self._after_grab()
        self.pend_secs = list(T.SECTION_CONTENT[d][r])
        self.sec_mask = sum(1 << s for s in opts.values())
        self.phase = SECTION

    def _gain_to(self, p: int, c: int) -> None:
        self.coll_ver += 1
        self.seat_ver[p] += 1
        if c < 7:
            self.gem_ver += 1
            self.gems[p][c] += 1
        else:
            self.acts[p][c - 7] += 1

    def _gain(self, c: int) -> None:
        self._gain_to(self.player, c)
        if c >= 7 and self.window >= 0:
            self.wtaken[c - 7] += 1

    def _after_grab(self) -> None:
        self.sec_mask = 0
        if self.gem_left == 0:
            self.over = True
            return
        if self.owed:
            self.owed -= 1
            self.phase = GRAB
            return
        if self.gkind == 0:
            return self._open_window(1)
        self._action_done()

    # -------------------------------------------------------------- actions
    def _use(self, t: int) -> None:
        p = self.player
        self.coll_ver += 1
        self.seat_ver[p] += 1
        if self.acts[p][t] - self.wtaken[t] > 0:
            self.acts[p][t] -= 1
        else:  # the secret start tile; now revealed
            self.secret[p] = -1
            self.seen[7 + t] += 1
            self.seen_ver += 1
        self.wuses += 1
        if self.window == 0:
            self.used_pre = True
        else:
            self.used_post = True
        self.res, self.sub, self.carrow = t, 0, -1
        two = len(self.arrows) == 2
        if t in NEEDS_ARROW:
            if two:
                self.phase = SUB
                return
            self.carrow = 0
            if t == T.FLARE:
                self._flare(0)
                return self._action_done()
            if t == T.AVALANCHE:
                return self._avalanche(0)
            self.sub = 1
            self.phase = SUB
        elif t == T.PICKAXE or t == T.GREED or t == T.TUNNEL:
            self.gkind = 2 if t == T.TUNNEL else 1
            self.owed = 1 if t == T.GREED else 0
            self.phase = GRAB
        elif t == T.ANCHOR:
            self.anchor = True
            self._action_done()
        elif t == T.PRISM:
            self.prism_on = self.prism_used = True
            self._action_done()
        elif t == T.EARTHQUAKE:
            self._earthquake()
            self._action_done()
        elif t == T.TWISTER:
            self.arrows = [(x + 4) % 8 for x in self.arrows]
            self._action_done()
        else:  # Lantern, Turn Stone, Thief, Gift
            if t == T.LANTERN:
                self.lantern = 2
            self.phase = SUB

    def _action_done(self) -> None:
        self.res, self.sub, self.carrow, self.pend, self.lantern = -1, 0, -1, -1, 0
        self._offer_window()

    def _sub_step(self, a: int) -> None:
        g, t = self.game, self.res
        if t in NEEDS_ARROW and self.sub == 0:
            self.carrow = a - g.ARR
            if t == T.FLARE:
                self._flare(self.carrow)
                return self._action_done()
            if t == T.AVALANCHE:
                return self._avalanche(self.carrow)
            self.sub = 1
            return
        if t == T.GUST:
            step = 1 if a == g.DIR else -1
            self.arrows[self.carrow] = (self.arrows[self.carrow] + step) % 8
            return self._action_done()
        if t == T.COMPASS:
            self.arrows[self.carrow] = a - g.POS
            return self._action_done()
        if t == T.LANTERN:
            if a == g.DONE:
                return self._action_done()
            self.peek[a] |= 1 << self.player
            self.map_ver += 1
            self._log.append(a)
            self.lantern -= 1
            if self.lantern == 0:
                return self._action_done()
            self.sub = 1
            return
        if t == T.TURN_STONE:
            if self.sub == 0:
                self.pend, self.sub = a, 1
                return
            step = 1 if a == g.DIR else -1
            self.rot[self.pend] = (self.rot[self.pend] + step) % 4
            self.map_ver += 1
            self._log.append(self.pend)
            return self._action_done()
        # Thief / Gift
        if self.sub == 0:
            self.pend = (self.player + 1 + a - g.OPP) % g.num_players
            self.sub = 1
            return
        gem = a - g.GEM
        src, dst = (self.pend, self.player) if t == T.THIEF else (self.player, self.pend)
        self.gems[src][gem] -= 1
        self.gems[dst][gem] += 1
        self.coll_ver += 1
        self.gem_ver += 1
        self.seat_ver[src] += 1
        self.seat_ver[dst] += 1
        self._action_done()

    def _flare(self, j: int) -> None:
        for i in self.top_cells(self.arrows[j]):
            if not self.up[i]:
                self._flip(i)

    def _avalanche(self, j: int) -> None:
        for i in self.top_cells(self.arrows[j]):
            self._remove(i)
        if self.gem_left == 0:
            self.over = True
            return
        self._action_done()

    def _earthquake(self) -> None:
        occ = [i for i, d in enumerate(self.cells) if d >= 0]
        perm = self.rng.permutation(len(occ))
        cells, rot, up = list(self.cells), list(self.rot), list(self.up)
        for j, src in enumerate(perm):
            self.cells[occ[j]] = cells[occ[src]]
            self.rot[occ[j]] = rot[occ[src]]
            self.up[occ[j]] = up[occ[src]]
        self.peek = [0] * len(self.cells)
        self.map_ver += 1
        self._log.extend(range(len(self.cells)))

    # --------------------------------------------------------------- scores
    def gem_counts(self, include_secret_of=None) -> list[list[int]]:
        """Gems per seat; secret gems of the seats in include_secret_of are added."""
        n = self.game.num_players
        seats = range(n) if include_secret_of is None else include_secret_of
        counts = [list(g) for g in self.gems]
        for p in seats:
            if 0 <= self.secret[p] < 7:
                counts[p][self.secret[p]] += 1
        return counts

    @staticmethod
    def score_counts(counts: list[list[int]]) -> list[int]:
        """Most of a gem: +value per gem; least: -value per gem (all tied: net 0)."""
        if len(counts) == 2:
            s0 = s1 = 0
            for v, x, y in zip(T.GEM_VALUES, counts[0], counts[1]):
                if x > y:
                    s0 += v * x
                    s1 -= v * y
                elif y > x:
                    s1 += v * y
                    s0 -= v * x
            return [s0, s1]
        scores = [0] * len(counts)
        for v, col in zip(T.GEM_VALUES, zip(*counts)):
            hi, lo = max(col), min(col)
            if hi == lo:
                continue
            for p, x in enumerate(col):
                if x == hi:
                    scores[p] += v * x
                elif x == lo:
                    scores[p] -= v * x
        return scores

    def public_scores(self) -> list[int]:
        """Scores from the public collections (no secret tiles), cached per change."""
        cached = self._scores
        if cached is None or cached[0] != self.gem_ver:
            cached = self._scores = (self.gem_ver, self.score_counts(self.gems))
        return cached[1]

    def scores(self) -> list[int]:
        return self.score_counts(self.gem_counts())

    def returns(self) -> np.ndarray:
        s = self.scores()
        if self.game.config["reward_mode"] == "rank":
            return rank_rewards(s)
        n = len(s)
        tot = sum(s)
        return np.array([(x - (tot - x) / (n - 1)) / 20.0 for x in s])

    def evaluate(self) -> np.ndarray:
        """Estimated returns of an unfinished position (``returns()`` once over).

        With rank rewards, the current scores give a smooth rank estimate
        whose blur shrinks as the gem tiles run out: a lead of a few points
        early counts for little, the same lead near the end almost for the
        whole rank. The score-difference reward is smooth already."""
        if self.over or self.trunc or self.game.config["reward_mode"] != "rank":
            return self.returns()
        spread = SPREAD_AT_END + SPREAD_PER_CELL * self.gem_left
        return soft_rank_rewards(self.scores(), spread)

    # -------------------------------------------------------------- copies
    def clone(self) -> GemMountainState:
        s = GemMountainState.__new__(GemMountainState)
        d = self.__dict__
        s.__dict__.update(d)
        s.rng = clone_rng(self.rng)
        for k in ("cells", "rot", "up", "peek", "arrows", "secret", "unused", "seen", "pend_secs", "wtaken"):
            setattr(s, k, list(d[k]))
        s.gems = [list(x) for x in self.gems]
        s.acts = [list(x) for x in self.acts]
        s.cnt = [list(x) for x in self.cnt]
        s._mask = None
        s.seat_ver = list(self.seat_ver)
        s._ocache, s._log, s._scores = {}, [], None
        return s

    def to_dict(self) -> dict:
        out = {}
        for k in _FIELDS:
            v = getattr(self, k)
            out[k] = (
                [list(x) for x in v] if k in ("gems", "acts") else (list(v) if isinstance(v, list) else v)
            )
        out["cells"] = [None if d < 0 else T.DESIGN_NAMES[d] for d in self.cells]
        out["unused"] = [T.DESIGN_NAMES[d] for d in self.unused]
        out["rng"] = rng_to_dict(self.rng)
        return out

    @classmethod
    def from_dict(cls, game: GemMountainGame, data: dict) -> GemMountainState:
        missing = [k for k in _FIELDS + ("rng",) if k not in data]
        if missing:
            raise ValueError(f"gem_mountain_v0: state dict lacks {missing}")
        s = cls.__new__(cls)
        s.game = game
        for k in _FIELDS:
            v = data[k]
            setattr(
                s,
                k,
                [list(x) for x in v] if k in ("gems", "acts") else (list(v) if isinstance(v, list) else v),
            )
        s.cells = [
            -1 if x is None else (T.design_of(x) if isinstance(x, str) else int(x)) for x in data["cells"]
        ]
        s.unused = [T.design_of(x) if isinstance(x, str) else int(x) for x in data["unused"]]
        if len(s.cells) != game.m or len(s.gems) != game.num_players:
            raise ValueError("gem_mountain_v0: state dict does not match this configuration")
        s.rng = rng_from_dict(data["rng"])
        s.coll_ver = s.gem_ver = s.map_ver = s.seen_ver = 0
        s.seat_ver = [0] * game.num_players
        s._ocache, s._log = {}, []
        s._refresh()
        return s

    # ---------------------------------------------------------- determinize
    def determinize(self, player: int, rng: np.random.Generator) -> GemMountainState:
        """Keep what `player` knows; deal the tiles it cannot see afresh from rng.

        The hidden tiles (face-down cells it has not peeked at, the unused pool
        and the other players' secret start tiles) are pooled in sorted order,
        so the result depends only on what the player knows and on rng, never
        on where the hidden tiles really lie. Secret start tiles are drawn first
        (each from the tiles of a fitting kind), then the face-down cells (with
        fresh rotations), the rest stays unused. Other players' peeks keep their
        public part (which cell was looked at); what they saw is whatever now
        lies there."""
        s = self.clone()
        bit = 1 << player
        hidden_cells = [i for i, d in enumerate(s.cells) if d >= 0 and not s.up[i] and not s.peek[i] & bit]
        secret_seats = [p for p in range(self.game.num_players) if p != player and s.secret[p] >= 0]
        # a plain design's id is its content id, so a secret tile joins the bag as is
        bag = sorted(
            [s.cells[i] for i in hidden_cells] + list(s.unused) + [s.secret[p] for p in secret_seats]
        )
        bag = [bag[k] for k in rng.permutation(len(bag))]
        want_action = self.game.config["start_tiles"] == "action_secret"
        for p in secret_seats:
            # each secret put one fitting tile in the bag, so there is always one left
            fits = [k for k, d in enumerate(bag) if T.PLAIN[d] and (not want_action or d >= 7)]
            s.secret[p] = bag.pop(fits[int(rng.integers(len(fits)))])
        for j, i in enumerate(hidden_cells):
            s.cells[i] = bag[j]
            s.rot[i] = int(rng.integers(0, 4))
        s.unused = bag[len(hidden_cells) :]
        s.rng = derive_rng(rng)
        s._refresh()
        return s

    # --------------------------------------------------------------- words
    def action_to_string(self, action: int) -> str:
        g = self.game
        a = int(action)
        if 0 <= a < g.m:
            r, c = divmod(a, g.cols)
            verb = "cell"
            if self.phase == GRAB:
                verb = "tunnel" if self.gkind == 2 else "grab"
            elif self.phase == INFO:
                verb = "flip" if (self.used_pre or self.used_post) else "peek"
            elif self.phase == SUB:
                verb = "lantern" if self.res == T.LANTERN else "turn"
            return f"{verb} ({r},{c})"
        if a < g.USE:
            s = a - g.SEC
            name = T.CONTENT_NAMES[self.pend_secs[s]] if self.phase == SECTION else ""
            return f"section {T.SECTION_NAMES[s]}" + (f" {name}" if name else "")
        if a < g.ARR:
            return f"use {T.ACTION_NAMES[a - g.USE]}"
        if a < g.POS:
            return f"arrow {a - g.ARR + 1}"
        if a < g.DIR:
            return f"position {POSITION_NAMES[a - g.POS]}"
        if a < g.OPP:
            return "clockwise" if a == g.DIR else "counter-clockwise"
        if a < g.GEM:
            return f"opponent +{a - g.OPP + 1}"
        if a < g.DONE:
            return f"gem {T.GEM_NAMES[a - g.GEM]}"
        if a == g.DONE:
            return "done"
        if a == g.PASS:
            return "pass"
        return f"invalid {a}"

    # ------------------------------------------------------------ pictures

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.gem_mountain.render import ansi

        return ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.gem_mountain.render import rgb

        return rgb(self, viewer)
