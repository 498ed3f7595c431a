"""Gem Mountain rules: the Game (one configuration) and the State (one position).

A turn is a chain of small decisions (see seeds/gem_mountain.md): an optional
PRE window for action tiles, the compulsory GRAB (maybe a SECTION choice), an
optional POST window, the Dark Tunnels INFO step, then the arrows turn.
Actions that need parameters ask for them one SUB-STEP at a time; what each
action tile does, and when, is its row of ``action_tiles.ACTION_TILES``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out
from meeplezoo.envs.core.fields import generated_clone
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import Game, GameInfo, State, derive_rng, make_rng
from meeplezoo.envs.gem_mountain import estimate, tiles
from meeplezoo.envs.gem_mountain.action_tiles import ACTION_TILES, USABLE
from meeplezoo.envs.gem_mountain.config import (  # noqa: F401 (re-exported: the settings' names)
    ACTION_LIMITS,
    MAX_TURNS_BOUND,
    OPTIONS,
    PER_TURN,
    PER_WINDOW,
    REWARD_MODES,
    START_TILES,
    UNLIMITED,
)
from meeplezoo.envs.gem_mountain.decisions import (
    CORNERS,
    NOTHING,
    PHASE_NAMES,
    POSITIONS,
    SECTIONS,
    ActionBlocks,
)
from meeplezoo.envs.gem_mountain.estimate import SCORE_DIFF_SCALE
from meeplezoo.envs.gem_mountain.geometry import POINTED, POSITION_NAMES, geometry
from meeplezoo.envs.gem_mountain.moves import (  # noqa: F401 (re-exported: the phases' plain names)
    EXTRA_GRAB,
    GRAB,
    INFO,
    MAIN_GRAB,
    NO_WINDOW,
    POST,
    POST_WINDOW,
    PRE,
    PRE_WINDOW,
    SECTION,
    START,
    SUB_STEP,
    TUNNEL_GRAB,
    Moves,
)
from meeplezoo.envs.gem_mountain.positions import (
    check_position,
    content_limits,
)
from meeplezoo.envs.gem_mountain.state_fields import FIELDS, LAYOUT_DIMS
from meeplezoo.envs.gem_mountain.tiles import (
    CONTENT_NAMES,
    GEM_NAMES,
    GEM_VALUES,
    HAS_GEM,
    NUM_ACTION_TYPES,
    NUM_GEMS,
    PLAIN,
    SECTION_CONTENT,
    SECTION_NAMES,
    SHARDS,
)

MASK_CACHE_LIMIT = 20_000  # distinct legal sets kept per game before the cache starts over


class GemMountainGame(Game):
    # the compiled twin (envs/gem_mountain/kernel/), imported on first use
    kernel = "meeplezoo.envs.gem_mountain.kernel.spec:KERNEL"
    info = GameInfo(
        name="gem_mountain_v0",
        title="Gem Mountain",
        players=OPTIONS["num_players"],
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/gem_mountain.md",
    )
    options: ClassVar[dict] = OPTIONS  # envs/gem_mountain/config.py
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
        self.rows, self.cols = cfg["map_rows"], cfg["map_cols"]
        self.geometry = geometry(self.rows, self.cols)
        cells = self.num_cells = self.rows * self.cols
        self.max_turns = 4 * cells if cfg["max_turns"] is None else cfg["max_turns"]
        self.dark_tunnels = cfg["dark_tunnels"]
        self.two_arrows = cfg["second_arrow"]
        self.action_limit = ACTION_LIMITS.index(cfg["action_limit"])
        self.secret_start_tiles = cfg["start_tiles"] in ("action_secret", "any_secret")
        self.start_player_chooses_arrow = cfg["start_player_chooses_arrow"]
        # the pool as built: whole copies of the module pool until the map is covered
        one = tiles.module_pool(cfg)
        self.pool = one * -(-cells // len(one))
        self.fixed_layout = self._fixed_layout()
        if self.fixed_layout is not None:
            self.pool = [d for d in self.fixed_layout if d is not None]
        self.fixed_rotations = self._fixed_rotations()
        self.fixed_arrows = self._fixed_arrows()
        self.fixed_holdings = self._fixed_holdings()
        # per-shard counts of the pool as built (for the "unseen" observation)
        self.pool_counts = [0] * tiles.NUM_CONTENTS
        for d in self.pool:
            for c in SHARDS[d]:
                self.pool_counts[c] += 1
        self.content_limits = content_limits(self)  # what a loaded position may hold at most
        self.blocks = ActionBlocks.for_cells(cells)
        self.num_actions = self.blocks.size
        # grab cell i is action i
        self.action_cells = np.concatenate([np.arange(cells), np.full(self.blocks.extra, -1)])
        if cfg["reward_mode"] == "rank":
            self.reward_range = (-1.0, 1.0)
        else:
            most = sum(GEM_VALUES[c] * (self.pool_counts[c] + self.num_players) for c in range(NUM_GEMS))
            self.reward_range = (-2.0 * most / SCORE_DIFF_SCALE, 2.0 * most / SCORE_DIFF_SCALE)
        self._mask_cache: dict[tuple, np.ndarray] = {}

    def _fixed_layout(self) -> list[int | None] | None:
        layout = self.config["layout_override"]
        if layout is None:
            return None
        if len(layout) != self.num_cells:
            raise ValueError(
                f"gem_mountain_v0: layout_override must name a tile (or None) for each of the "
                f"{self.num_cells} cells, got {len(layout)} entries"
            )
        designs = [None if name is None else tiles.design_of(name) for name in layout]
        if not any(HAS_GEM[d] for d in designs if d is not None):
            raise ValueError(
                "gem_mountain_v0: layout_override must hold a gem tile, or the game is over at once"
            )
        return designs

    def _fixed_rotations(self) -> list[int] | None:
        rotations = self.config["rotation_override"]
        if rotations is None:
            return None
        if len(rotations) != self.num_cells:
            raise ValueError(
                f"gem_mountain_v0: rotation_override must give a rotation 0..3 for each of the "
                f"{self.num_cells} cells, got {len(rotations)} entries"
            )
        return [int(x) for x in rotations]

    def _fixed_arrows(self) -> list[int] | None:
        arrows = self.config["arrow_override"]
        if arrows is None:
            return None
        wanted = 2 if self.two_arrows else 1
        if len(arrows) != wanted:
            raise ValueError(
                f"gem_mountain_v0: arrow_override must list one position 0..7 per arrow "
                f"({wanted} with second_arrow={self.two_arrows}), got {len(arrows)}"
            )
        return [int(x) for x in arrows]

    def _fixed_holdings(self) -> list[tuple[list[int], list[int], int]] | None:
        """(gems, action tiles, secret tile) per seat from holdings_override."""
        holdings = self.config["holdings_override"]
        if holdings is None:
            return None
        if len(holdings) != self.num_players:
            raise ValueError(
                f"gem_mountain_v0: holdings_override must hold one dict per seat "
                f"({self.num_players}), got {len(holdings)}"
            )
        out = []
        for seat in holdings:
            gems, actions, secret = [0] * NUM_GEMS, [0] * NUM_ACTION_TYPES, NOTHING
            for name, count in seat.items():
                if name == "secret":
                    secret = tiles.content_of(count)
                    continue
                content = tiles.content_of(name)
                if tiles.is_gem(content):
                    gems[content] += int(count)
                else:
                    actions[content - NUM_GEMS] += int(count)
            out.append((gems, actions, secret))
        return out

    def new_initial_state(self, seed: int | None = None) -> GemMountainState:
        return GemMountainState.new(self, make_rng(seed))

    def _state_from_dict(self, data: dict) -> GemMountainState:
        return GemMountainState.from_dict(self, data)


class GemMountainState(Moves, State):
    """One position. Plain Python lists throughout: cheap to copy and to step."""

    # the compiled layout's dimensions and the attributes, declared in state_fields.py
    layout_dims: ClassVar[dict] = LAYOUT_DIMS
    fields = FIELDS
    clone = generated_clone()  # compiled from ``fields`` when the class is made (envs.core.fields)

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: GemMountainGame, rng: np.random.Generator) -> GemMountainState:
        state = cls.__new__(cls)
        state.game, state.rng = game, rng
        state.changed_cells, state.changed_seats = [], []
        rest = state._fill_map()
        n = game.num_players
        state.gems = [[0] * NUM_GEMS for _ in range(n)]
        state.action_tiles = [[0] * NUM_ACTION_TYPES for _ in range(n)]
        state.secret_tiles = [NOTHING] * n
        state.seen = [0] * tiles.NUM_CONTENTS
        if not game.dark_tunnels:
            for d in state.cells:
                if d >= 0:
                    for c in SHARDS[d]:
                        state.seen[c] += 1
        if game.config["start_tiles"] != "none":
            state._deal_start_tiles(game.config["start_tiles"], rest)
        state.unused = rest
        if game.fixed_holdings is not None:
            for p, (gems, actions, secret) in enumerate(game.fixed_holdings):
                state.gems[p], state.action_tiles[p], state.secret_tiles[p] = (
                    list(gems),
                    list(actions),
                    secret,
                )
        state._reset_turn_state()
        state._recount()
        state._place_arrows()
        if state.gem_tiles_left == 0:
            state.over = True
        elif not state.arrows:
            state.phase = START
        else:
            state._begin_turn()
        return state

    def _fill_map(self) -> list[int]:
        """Lay the map (the shuffled pool row by row, random rotations, face
        down with Dark Tunnels); returns the pool tiles left over."""
        game = self.game
        cells = game.num_cells
        if game.fixed_layout is None:
            shuffled = Deck.shuffled(game.pool, self.rng).draw_pile
            self.cells, rest = shuffled[:cells], shuffled[cells:]
        else:
            self.cells, rest = [-1 if d is None else d for d in game.fixed_layout], []
        drawn = [int(x) for x in self.rng.integers(0, 4, size=cells)]  # drawn even when fixed
        self.rotations = list(game.fixed_rotations) if game.fixed_rotations is not None else drawn
        self.face_up = [not game.dark_tunnels] * cells
        self.peeks = [0] * cells
        return rest

    def _reset_turn_state(self) -> None:
        self.player = self.turn = 0
        self.window, self.resolving, self.sub_step, self.chosen_arrow = NO_WINDOW, NOTHING, 0, NOTHING
        self.grabs_owed, self.grab_kind, self.lantern_peeks_left = 0, MAIN_GRAB, 0
        self.target, self.section_contents, self.section_choices = NOTHING, [0] * SECTIONS, 0
        self.used_before = self.used_after = self.anchored = self.prism_used = self.prism_active = False
        self.taken_this_window, self.uses_this_window = [0] * NUM_ACTION_TYPES, 0
        self.over = self.cut_short = False
        self.phase = PRE

    def _place_arrows(self) -> None:
        game = self.game
        if game.fixed_arrows is not None:
            self.arrows = list(game.fixed_arrows)
        elif game.start_player_chooses_arrow:
            self.arrows = []
        else:
            self._set_first_arrow(CORNERS[int(self.rng.integers(0, len(CORNERS)))])

    def _set_first_arrow(self, position: int) -> None:
        """The arrow at ``position`` (a second one opposite, with that module)."""
        opposite = (position + POSITIONS // 2) % POSITIONS
        self.arrows = [position, opposite] if self.game.two_arrows else [position]

    def _deal_start_tiles(self, kind: str, rest: list[int]) -> None:
        """One start tile per seat: the first fitting unused pool tile, or one
        from a freshly shuffled copy of the pool (kept for the later seats)."""
        game = self.game
        want_action = kind.startswith("action")

        def fits(design: int) -> bool:
            return PLAIN[design] and (not want_action or not tiles.is_gem(SHARDS[design][0]))

        spare: list[int] | None = None
        for p in range(game.num_players):
            if p == 0 and game.start_player_chooses_arrow:
                continue
            source = rest if spare is None else spare
            j = next((k for k, d in enumerate(source) if fits(d)), -1)
            if j < 0 and spare is None:
                base = tiles.module_pool(game.config) if game.fixed_layout is None else game.pool
                spare = source = Deck.shuffled(base, self.rng).draw_pile
                j = next((k for k, d in enumerate(source) if fits(d)), -1)
            if j < 0:
                continue
            content = SHARDS[source.pop(j)][0]
            if game.secret_start_tiles:
                self.secret_tiles[p] = content
            else:
                self._gain_to(p, content)
                self.seen[content] += 1

    def _recount(self) -> None:
        """Recompute what is derived from the map (layer counts, tiles left)
        and drop the mask caches."""
        geo = self.game.geometry
        self.layer_counts = [[0] * geo.depth[p] for p in range(POSITIONS)]
        self.gem_tiles_left = self.face_down_left = 0
        for i, d in enumerate(self.cells):
            if d < 0:
                continue
            for p in range(POSITIONS):
                self.layer_counts[p][geo.distances[p][i]] += 1
            if HAS_GEM[d]:
                self.gem_tiles_left += 1
            if not self.face_up[i]:
                self.face_down_left += 1
        self._mask = self._usable_cache = None

    def _after_load(self, data: dict) -> None:
        self._recount()

    def check_position(self) -> None:
        check_position(self)

    # ------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        return -1 if (self.over or self.cut_short) else self.player

    @property
    def terminal(self) -> bool:
        return self.over

    @property
    def truncated(self) -> bool:
        return self.cut_short and not self.over

    def phase_name(self) -> str:
        return "OVER" if (self.over or self.cut_short) else PHASE_NAMES[self.phase]

    # --------------------------------------------------------------- layers
    def top_layer(self, position: int) -> int:
        """Index of the top layer of arrow ``position`` (-1 on an empty map)."""
        for k, v in enumerate(self.layer_counts[position]):
            if v:
                return k
        return -1

    def second_layer(self, position: int) -> int:
        """Index of the layer under the top one from arrow ``position``, or -1."""
        found = False
        for k, v in enumerate(self.layer_counts[position]):
            if v:
                if found:
                    return k
                found = True
        return -1

    def layer_cells(self, position: int, layer: int) -> list[int]:
        if layer < 0:
            return []
        cells = self.cells
        return [i for i in self.game.geometry.layers[position][layer] if cells[i] >= 0]

    def top_cells(self, position: int) -> list[int]:
        return self.layer_cells(position, self.top_layer(position))

    def available(self) -> list[int]:
        """Cells a normal grab may take now (union of the arrows' top layers)."""
        if len(self.arrows) == 1:
            return self.top_cells(self.arrows[0])
        first = self.top_cells(self.arrows[0])
        return sorted(set(first).union(self.top_cells(self.arrows[1])))

    def tunnel_cells(self) -> list[int]:
        out: set[int] = set()
        for p in self.arrows:
            out.update(self.layer_cells(p, self.second_layer(p)))
        return sorted(out)

    def _pointers(self, cell: int, tunnel: bool) -> list[int]:
        """Arrow positions whose top (or second, for Tunnel) layer holds ``cell``."""
        distances = self.game.geometry.distances
        return [
            p
            for p in self.arrows
            if distances[p][cell] == (self.second_layer(p) if tunnel else self.top_layer(p))
        ]

    def grab_options(self, cell: int, tunnel: bool = False) -> dict[int, int]:
        """content -> lowest pointed section, for a grab of ``cell`` now."""
        pointed: set[int] = set()
        for p in self._pointers(cell, tunnel):
            pointed.update(POINTED[p])
        contents = SECTION_CONTENT[self.cells[cell]][self.rotations[cell]]
        options: dict[int, int] = {}
        for s in sorted(pointed):
            options.setdefault(contents[s], s)
        return options

    def peek_cells(self) -> list[int]:
        """Face-down cells to peek at: those I don't know yet, or all if I know every one."""
        bit = 1 << self.player
        down = self.face_down_cells()
        fresh = [i for i in down if not self.peeks[i] & bit]
        return fresh or down

    def face_down_cells(self) -> list[int]:
        face_up = self.face_up
        return [i for i, d in enumerate(self.cells) if d >= 0 and not face_up[i]]

    # ---------------------------------------------------------------- masks
    def _usable(self) -> list[int]:
        """Action kinds the player may USE now: held (and not taken in this
        window) and allowed by the tile's condition."""
        p = self.player
        held_tiles, secret = self.action_tiles[p], self.secret_tiles[p]
        taken = self.taken_this_window
        held = [kind for kind in range(NUM_ACTION_TYPES) if held_tiles[kind] > taken[kind]]
        if secret >= NUM_GEMS and secret - NUM_GEMS not in held:
            held.append(secret - NUM_GEMS)
            held.sort()
        if not held:
            return held
        return [kind for kind in held if USABLE[kind] is None or USABLE[kind](self)]

    def _legal(self) -> list[int]:
        """The legal action ids now (before the forced-pass fallback)."""
        blocks = self.game.blocks
        phase = self.phase
        if phase == GRAB:
            return self.tunnel_cells() if self.grab_kind == TUNNEL_GRAB else self.available()
        if phase == SECTION:
            return [blocks.section + s for s in range(SECTIONS) if self.section_choices >> s & 1]
        if phase == PRE or phase == POST:
            usable = self._usable_cache if self._usable_cache is not None else self._usable()
            return [blocks.use + kind for kind in usable] + [blocks.done]
        if phase == INFO:
            return self.face_down_cells() if (self.used_before or self.used_after) else self.peek_cells()
        if phase == START:
            return [blocks.position + p for p in CORNERS]
        sub_steps = ACTION_TILES[self.resolving].sub_steps
        if self.sub_step < len(sub_steps):
            return sub_steps[self.sub_step].choices(self)
        return [blocks.pass_turn]  # unreachable with these rules; keeps the mask non-empty

    def legal_action_mask(self) -> np.ndarray:
        if self._mask is None:
            if self.over or self.cut_short:
                key: tuple = ()
            else:
                key = tuple(self._legal()) or (self.game.blocks.pass_turn,)
            masks = self.game._mask_cache
            mask = masks.get(key)
            if mask is None:  # masks are shared per legal set, so read-only
                mask = np.zeros(self.game.num_actions, dtype=bool)
                mask[list(key)] = True
                mask.flags.writeable = False
                if len(masks) > MASK_CACHE_LIMIT:
                    masks.clear()
                masks[key] = mask
            self._mask = mask
        return self._mask  # read-only: a caller's write raises instead of changing the rules

    # --------------------------------------------------------------- scores
    def gem_counts(self, include_secret_of=None) -> list[list[int]]:
        """Gems per seat; secret gems of the seats in include_secret_of are added."""
        seats = range(self.game.num_players) if include_secret_of is None else include_secret_of
        counts = [list(g) for g in self.gems]
        for p in seats:
            if 0 <= self.secret_tiles[p] < NUM_GEMS:
                counts[p][self.secret_tiles[p]] += 1
        return counts

    @staticmethod
    def score_counts(counts: list[list[int]]) -> list[int]:
        """Most of a gem: +value per gem; least: -value per gem (all tied: net 0)."""
        if len(counts) == 2:
            first = second = 0
            for value, x, y in zip(GEM_VALUES, counts[0], counts[1]):
                if x > y:
                    first += value * x
                    second -= value * y
                elif y > x:
                    second += value * y
                    first -= value * x
            return [first, second]
        scores = [0] * len(counts)
        for value, column in zip(GEM_VALUES, zip(*counts)):
            most, least = max(column), min(column)
            if most == least:
                continue
            for p, x in enumerate(column):
                if x == most:
                    scores[p] += value * x
                elif x == least:
                    scores[p] -= value * x
        return scores

    def public_scores(self) -> list[int]:
        """Scores from the public collections (no secret tiles)."""
        return self.score_counts(self.gems)

    def scores(self) -> list[int]:
        return self.score_counts(self.gem_counts())

    def returns(self) -> np.ndarray:
        scores = self.scores()
        if self.game.config["reward_mode"] == "rank":
            return rank_rewards(scores)
        n, total = len(scores), sum(scores)
        return np.array([(x - (total - x) / (n - 1)) / SCORE_DIFF_SCALE for x in scores])

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        """Estimated returns of an unfinished position (``returns()`` once over).

        With rank rewards, the current scores give a smooth rank estimate
        whose blur shrinks as the gem tiles run out: a lead of a few points
        early counts for little, the same lead near the end almost for the
        whole rank. The score-difference reward is smooth already. A
        ``viewer`` gets the expectation over the secret tiles and face-down
        tiles it has not seen (:mod:`meeplezoo.envs.gem_mountain.estimate`)."""
        if self.over or self.cut_short:
            return self.returns()
        if viewer is None:
            return estimate.whole_state(self)
        return estimate.seat_view(self, viewer)

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
        state = self.clone()
        hidden_cells, secret_seats, bag = self.hidden_tiles(player)
        bag = canonical_shuffle(bag, rng)
        want_action = self.game.config["start_tiles"] == "action_secret"
        for p in secret_seats:
            # each secret put one fitting tile in the bag, so there is always one left
            fits = [k for k, d in enumerate(bag) if PLAIN[d] and (not want_action or d >= NUM_GEMS)]
            state.secret_tiles[p] = bag.pop(fits[int(rng.integers(len(fits)))])
        (dealt,), state.unused = deal_out(bag, [len(hidden_cells)])
        for i, design in zip(hidden_cells, dealt):
            # the same cells stay face down and occupied: of the map's counts only the gem tiles change
            state.gem_tiles_left += HAS_GEM[design] - HAS_GEM[state.cells[i]]
            state.cells[i] = design
            state.rotations[i] = int(rng.integers(0, 4))
        state.changed_cells += hidden_cells
        state.changed_seats += secret_seats
        state.rng = derive_rng(rng)
        state._mask = state._usable_cache = None
        return state

    def hidden_tiles(self, player: int) -> tuple[list[int], list[int], list[int]]:
        """What ``player`` cannot see: the face-down cells it has not peeked
        at, the other seats holding a secret start tile, and the bag of the
        tiles in those places and in the unused pool, sorted, so that it
        tells which tiles are hidden, never where."""
        bit = 1 << player
        hidden_cells = [i for i in self.face_down_cells() if not self.peeks[i] & bit]
        secret_seats = [p for p in range(self.game.num_players) if p != player and self.secret_tiles[p] >= 0]
        # a plain design's id is its content id, so a secret tile joins the bag as is
        bag = [self.cells[i] for i in hidden_cells] + list(self.unused)
        bag += [self.secret_tiles[p] for p in secret_seats]
        return hidden_cells, secret_seats, sorted(bag)

    # --------------------------------------------------------------- words
    def action_to_string(self, action: int) -> str:
        blocks = self.game.blocks
        a = int(action)
        if 0 <= a < blocks.section:
            return f"{self._cell_word()} ({a // self.game.cols},{a % self.game.cols})"
        if a < blocks.use:
            section = a - blocks.section
            content = CONTENT_NAMES[self.section_contents[section]] if self.phase == SECTION else ""
            return f"section {SECTION_NAMES[section]}" + (f" {content}" if content else "")
        if a < blocks.arrow:
            return f"use {ACTION_TILES[a - blocks.use].name}"
        if a < blocks.position:
            return f"arrow {a - blocks.arrow + 1}"
        if a < blocks.clockwise:
            return f"position {POSITION_NAMES[a - blocks.position]}"
        if a < blocks.opponent:
            return "clockwise" if a == blocks.clockwise else "counter-clockwise"
        if a < blocks.gem:
            return f"opponent +{a - blocks.opponent + 1}"
        if a < blocks.done:
            return f"gem {GEM_NAMES[a - blocks.gem]}"
        if a == blocks.done:
            return "done"
        if a == blocks.pass_turn:
            return "pass"
        return f"invalid {a}"

    def _cell_word(self) -> str:
        """How a cell action reads in this phase."""
        if self.phase == GRAB:
            return "tunnel" if self.grab_kind == TUNNEL_GRAB else "grab"
        if self.phase == INFO:
            return "flip" if (self.used_before or self.used_after) else "peek"
        if self.phase == SUB_STEP:
            return ACTION_TILES[self.resolving].cell_word
        return "cell"

    # ------------------------------------------------------------ pictures
    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.gem_mountain.render import ansi

        return ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.gem_mountain.render import rgb

        return rgb(self, viewer)
