"""Gem Mountain rules: the Game (one configuration) and the State (one position).

A turn is a chain of small decisions (see seeds/gem_mountain.md): an optional
PRE window for action tiles, the compulsory GRAB (maybe a SECTION choice), an
optional POST window, the Dark Tunnels INFO step, then the arrows turn.
Actions that need parameters ask for them one SUB-STEP at a time; what each
action tile does, and when, is its row of ``action_tiles.ACTION_TILES``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out
from meeplezoo.envs.core.fields import Dim, Field, generator_field, saved
from meeplezoo.envs.core.options import choice, custom, flag, integer
from meeplezoo.envs.core.positions import (
    flag_entry,
    flag_list,
    integer_entry,
    integer_list,
    integer_rows,
    seat_entry,
)
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import Game, GameInfo, State, derive_rng, make_rng
from meeplezoo.envs.core.turns import next_seat
from meeplezoo.envs.gem_mountain import estimate, tiles
from meeplezoo.envs.gem_mountain.action_tiles import ACTION_TILES, LANTERN_PEEKS, USABLE
from meeplezoo.envs.gem_mountain.decisions import (
    ARROWS,
    CORNERS,
    NOTHING,
    PHASE_NAMES,
    POSITIONS,
    SECTIONS,
    STEPS_PER_QUARTER_TURN,
    ActionBlocks,
    GrabKind,
    Phase,
    Window,
)
from meeplezoo.envs.gem_mountain.estimate import SCORE_DIFF_SCALE
from meeplezoo.envs.gem_mountain.geometry import POINTED, POSITION_NAMES, geometry
from meeplezoo.envs.gem_mountain.overrides import check_arrows, check_holdings, check_layout, check_rotations
from meeplezoo.envs.gem_mountain.positions import (
    MOST_SUB_STEPS,
    all_peeks,
    check_position,
    content_limits,
    design_list,
    highest_target,
    most_of_a_content,
    most_tiles,
    num_cells,
)
from meeplezoo.envs.gem_mountain.tiles import (
    CONTENT_NAMES,
    DESIGN_NAMES,
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

# the phases as plain names: the rules compare them on every step
PRE, GRAB, SECTION, POST, INFO, SUB_STEP, START = Phase
NO_WINDOW, PRE_WINDOW, POST_WINDOW = Window
MAIN_GRAB, EXTRA_GRAB, TUNNEL_GRAB = GrabKind
START_TILES = ("none", "action", "action_secret", "any", "any_secret")
ACTION_LIMITS = ("per_window", "per_turn", "unlimited")
PER_WINDOW, PER_TURN, UNLIMITED = range(len(ACTION_LIMITS))
REWARD_MODES = ("rank", "score_diff")
MAX_TURNS_BOUND = 100_000  # a game lasts at most R C turns; the limit only has to be finite
MASK_CACHE_LIMIT = 20_000  # distinct legal sets kept per game before the cache starts over


class GemMountainGame(Game):
    # the compiled twin (envs/gem_mountain/kernel/), imported on first use
    kernel = "meeplezoo.envs.gem_mountain.kernel.spec:KERNEL"
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
    options: ClassVar[dict] = {
        "num_players": integer(2, 2, 5, "seats at the table"),
        "map_rows": integer(6, 2, 12, "rows of the map"),
        "map_cols": integer(6, 2, 12, "columns of the map"),
        "dark_tunnels": flag(False, "module: face-down tiles, Onyx, Lantern and Flare"),
        "second_arrow": flag(False, "module: a second arrow opposite the first"),
        "gemshards": flag(False, "module: split tiles, Opal, Turn Stone and Prism"),
        "golden_actions": flag(False, "module: Thief, Gift, Avalanche, Earthquake, Greed and Twister"),
        "start_tiles": choice(
            "none",
            START_TILES,
            "a start tile per seat: none, an action tile or any plain tile, public or secret",
        ),
        "start_player_chooses_arrow": flag(False, "seat 0 picks the starting corner and gets no start tile"),
        "action_limit": choice(
            "per_window", ACTION_LIMITS, "action tiles a turn: one per window, one per turn, or any"
        ),
        "max_turns": integer(
            None, 1, MAX_TURNS_BOUND, "turns before the game is cut short (none: 4 R C)", allow_none=True
        ),
        "reward_mode": choice("rank", REWARD_MODES, "rank rewards, or (own - mean of the others) / 20"),
        "layout_override": custom(
            None, "test hook: the tile name per cell (None: empty)", "none or a list", check_layout
        ),
        "rotation_override": custom(
            None, "test hook: the rotation 0..3 per cell", "none or a list", check_rotations
        ),
        "arrow_override": custom(
            None, "test hook: the starting position 0..7 per arrow", "none or a list", check_arrows
        ),
        "holdings_override": custom(
            None,
            'test hook: each seat\'s starting tiles, e.g. `{"Ruby": 2, "secret": "Anchor"}`',
            "none or a list of dicts",
            check_holdings,
        ),
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

    def state_from_dict(self, data: dict) -> GemMountainState:
        return GemMountainState.from_dict(self, data)


# --- the position dict ----------------------------------------------------------
def _copied_list(value: list, _context: Any) -> list:
    return list(value)


def _copied_lists(value: list, _context: Any) -> list:
    return [list(row) for row in value]


def _design_names(designs: list[int], _state: Any) -> list[str | None]:
    return [None if d < 0 else DESIGN_NAMES[d] for d in designs]


def _list(name: str, from_json: Callable[[Any, Any], list], shape: tuple, **slot: Any) -> Field:
    return saved(name, "list", to_json=_copied_list, from_json=from_json, shape=shape, **slot)


def _lists(name: str, from_json: Callable[[Any, Any], list], shape: tuple) -> Field:
    return saved(name, "lists", to_json=_copied_lists, from_json=from_json, shape=shape)


def _designs(name: str, length: Callable[[Any], int] | None, dim: str) -> Field:
    """Tile names per cell (``length`` given: null for an empty cell) or of a pile."""
    return saved(
        name, "list", to_json=_design_names, from_json=design_list(length), shape=(dim,), fill=NOTHING
    )


def _flag(name: str) -> Field:
    return saved(name, from_json=flag_entry(), shape=(), kind="bool")


def _number(name: str, from_json: Callable[[Any, Any], int]) -> Field:
    return saved(name, from_json=from_json, shape=())


def seats(game: Any) -> int:
    return game.num_players


def _most_cells() -> int:
    return _bound("map_rows") * _bound("map_cols")


def _bound(option: str) -> int:
    return GemMountainGame.options[option].high


class GemMountainState(State):
    """One position. Plain Python lists throughout: cheap to copy and to step."""

    # the compiled layout's dimensions: capacities that fit every configuration
    layout_dims: ClassVar[dict] = {
        "cells": Dim(_most_cells(), num_cells),
        "seats": Dim(_bound("num_players"), seats),
        "arrows": Dim(ARROWS),
        "pile": Dim(len(tiles.module_pool(dict.fromkeys(tiles.MODULES, True)))),
        "layers": Dim(_bound("map_rows") + _bound("map_cols") - 1),
    }

    fields = (
        # the turn's scalars first: a kernel reads them on every step
        _number("player", seat_entry()),
        _number("turn", integer_entry(0, lambda game: game.max_turns)),
        _number("phase", integer_entry(0, len(Phase) - 1)),
        _number("window", integer_entry(NO_WINDOW, POST_WINDOW)),
        # the action kind being resolved, or -1
        _number("resolving", integer_entry(NOTHING, NUM_ACTION_TYPES - 1)),
        _number("sub_step", integer_entry(0, MOST_SUB_STEPS - 1)),  # which of its sub-steps is asked
        _number("chosen_arrow", integer_entry(NOTHING, ARROWS - 1)),  # the arrow it acts on, or -1
        _number("grabs_owed", integer_entry(0, 1)),  # Greed: grabs still to come after this one
        _number("grab_kind", integer_entry(0, len(GrabKind) - 1)),
        _number("lantern_peeks_left", integer_entry(0, LANTERN_PEEKS)),
        # Turn Stone's cell, or Thief's and Gift's opponent, or -1
        _number("target", integer_entry(NOTHING, highest_target)),
        # SECTION: bit s set when section s may be chosen
        _number("section_choices", integer_entry(0, (1 << SECTIONS) - 1)),
        _flag("used_before"),  # an action tile used in this turn's PRE window
        _flag("used_after"),  # ... in its POST window
        _flag("anchored"),
        _flag("prism_used"),
        _flag("prism_active"),  # the next grab takes every section
        _number("uses_this_window", integer_entry(0, most_tiles)),
        _flag("over"),
        _flag("cut_short"),  # the turn limit was reached
        _list("arrows", integer_list(0, POSITIONS - 1), ("arrows",), fill=NOTHING),  # position 0..7 per arrow
        # SECTION: the content at each section of the grabbed tile
        _list("section_contents", integer_list(0, tiles.NUM_CONTENTS - 1, SECTIONS), (SECTIONS,)),
        # per action kind: tiles gained in the open window
        _list("taken_this_window", integer_list(0, most_of_a_content, NUM_ACTION_TYPES), (NUM_ACTION_TYPES,)),
        # per seat, per gem type
        _lists("gems", integer_rows(0, most_of_a_content, seats, NUM_GEMS), ("seats", NUM_GEMS)),
        # per seat, per action kind
        _lists(
            "action_tiles",
            integer_rows(0, most_of_a_content, seats, NUM_ACTION_TYPES),
            ("seats", NUM_ACTION_TYPES),
        ),
        # per seat: the secret start tile's content, or -1
        _list("secret_tiles", integer_list(NOTHING, tiles.NUM_CONTENTS - 1, seats), ("seats",)),
        # per content: shards every seat has seen
        _list("seen", integer_list(0, most_of_a_content, tiles.NUM_CONTENTS), (tiles.NUM_CONTENTS,)),
        generator_field(),
        _designs("cells", num_cells, "cells"),  # design per cell, -1 once taken
        _list("rotations", integer_list(0, 3, num_cells), ("cells",)),  # quarter turns per cell
        # per cell (always true without Dark Tunnels)
        _list("face_up", flag_list(num_cells), ("cells",), kind="bool"),
        # per cell: bit p set once seat p has looked at the face-down tile
        _list("peeks", integer_list(0, all_peeks, num_cells), ("cells",)),
        _designs("unused", None, "pile"),  # pool tiles not on the map
        # derived from the map (rebuilt by _recount after a load), copied by clone
        Field("gem_tiles_left", shape=()),
        Field("face_down_left", shape=()),
        # [arrow position][layer]: tiles left in that layer
        Field("layer_counts", "lists", shape=(POSITIONS, "layers")),
        Field("_usable_cache"),  # the kinds usable in the open window, or None
        Field("_mask", "reset"),
        # what the rules changed, in order, for readers that follow one state
        # move by move: map cells (tile, rotation, face, peeks) and seats
        # (gems, action tiles, secret tile). A clone or a loaded position
        # starts empty logs of its own.
        Field("changed_cells", "new_list"),
        Field("changed_seats", "new_list"),
    )

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

        def fits(d: int) -> bool:
            return PLAIN[d] and (not want_action or not tiles.is_gem(SHARDS[d][0]))

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
    def top_layer(self, p: int) -> int:
        """Index of the top layer of arrow position p (-1 on an empty map)."""
        for k, v in enumerate(self.layer_counts[p]):
            if v:
                return k
        return -1

    def second_layer(self, p: int) -> int:
        """Index of the layer under the top one from arrow position p, or -1."""
        found = False
        for k, v in enumerate(self.layer_counts[p]):
            if v:
                if found:
                    return k
                found = True
        return -1

    def layer_cells(self, p: int, k: int) -> list[int]:
        if k < 0:
            return []
        cells = self.cells
        return [i for i in self.game.geometry.layers[p][k] if cells[i] >= 0]

    def top_cells(self, p: int) -> list[int]:
        return self.layer_cells(p, self.top_layer(p))

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

    def _pointers(self, i: int, tunnel: bool) -> list[int]:
        """Arrow positions whose top (or second, for Tunnel) layer holds cell i."""
        distances = self.game.geometry.distances
        return [
            p
            for p in self.arrows
            if distances[p][i] == (self.second_layer(p) if tunnel else self.top_layer(p))
        ]

    def grab_options(self, i: int, tunnel: bool = False) -> dict[int, int]:
        """content -> lowest pointed section, for a grab of cell i now."""
        pointed: set[int] = set()
        for p in self._pointers(i, tunnel):
            pointed.update(POINTED[p])
        contents = SECTION_CONTENT[self.cells[i]][self.rotations[i]]
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

    # ---------------------------------------------------------------- apply
    def _is_legal(self, action: int) -> bool:
        """The cached mask answers without a call when it is fresh."""
        mask = self._mask
        if mask is None:
            mask = self.legal_action_mask()
        return mask[action]

    def _apply_action(self, action: int) -> None:
        blocks = self.game.blocks
        self._mask = self._usable_cache = None
        phase = self.phase
        if action == blocks.pass_turn:
            self._end_turn()
        elif phase == GRAB:
            self._grab(action)
        elif phase == SECTION:
            self._gain(self.section_contents[action - blocks.section])
            self._after_grab()
        elif phase == PRE or phase == POST:
            if action == blocks.done:
                self._close_window()
            else:
                self._use(action - blocks.use)
        elif phase == INFO:
            if self.used_before or self.used_after:
                self.flip(action)
            else:
                self.peek_at(action)
            self._end_turn()
        elif phase == START:
            self._set_first_arrow(action - blocks.position)
            self._begin_turn()
        else:
            tile = ACTION_TILES[self.resolving]
            tile.sub_steps[self.sub_step].step(self, action)

    # ------------------------------------------------------------ turn flow
    def _begin_turn(self) -> None:
        self.used_before = self.used_after = self.anchored = self.prism_used = self.prism_active = False
        self._open_window(PRE_WINDOW)

    def _open_window(self, window: int) -> None:
        self.window = window
        self.taken_this_window = [0] * NUM_ACTION_TYPES
        self.uses_this_window = 0
        self._offer_window()

    def _offer_window(self) -> None:
        game = self.game
        if game.action_limit == PER_WINDOW and self.uses_this_window:
            return self._close_window()
        if game.action_limit == PER_TURN and (self.used_before or self.used_after):
            return self._close_window()
        self.phase = PRE if self.window == PRE_WINDOW else POST
        if not game.secret_start_tiles:
            usable = self._usable()
            if not usable:
                return self._close_window()
            self._usable_cache = usable  # the mask of this window reuses it

    def _close_window(self) -> None:
        if self.window == PRE_WINDOW:
            self.window = NO_WINDOW
            self.grab_kind, self.grabs_owed = MAIN_GRAB, 0
            self.phase = GRAB
        else:
            self.window = NO_WINDOW
            if self.game.dark_tunnels and self.face_down_left:
                self.phase = INFO
            else:
                self._end_turn()

    def _end_turn(self) -> None:
        if not self.anchored:
            self.arrows = [(p + STEPS_PER_QUARTER_TURN) % POSITIONS for p in self.arrows]
        self.turn += 1
        self.player = next_seat(self.player, self.game.num_players)
        self.resolving, self.sub_step, self.chosen_arrow = NOTHING, 0, NOTHING
        if self.turn >= self.game.max_turns:
            self.cut_short = True
            return
        self._begin_turn()

    # ---------------------------------------------------------------- the map
    def remove(self, i: int) -> None:
        """Take tile i off the map (revealing it if face down)."""
        d = self.cells[i]
        for counts, k in zip(self.layer_counts, self.game.geometry.cell_distances[i]):
            counts[k] -= 1
        if HAS_GEM[d]:
            self.gem_tiles_left -= 1
        if not self.face_up[i]:
            self.face_down_left -= 1
            for c in SHARDS[d]:
                self.seen[c] += 1
        self.cells[i] = -1
        self.face_up[i] = True
        self.peeks[i] = 0
        self.changed_cells.append(i)

    def flip(self, i: int) -> None:
        """Turn the face-down tile i face up for everyone."""
        self.face_up[i] = True
        self.peeks[i] = 0
        self.changed_cells.append(i)
        self.face_down_left -= 1
        for c in SHARDS[self.cells[i]]:
            self.seen[c] += 1

    def peek_at(self, i: int) -> None:
        """The player looks at face-down tile i (which cell is public)."""
        self.peeks[i] |= 1 << self.player
        self.changed_cells.append(i)

    def rotate(self, i: int, quarters: int) -> None:
        """Turn tile i by ``quarters`` quarter turns clockwise."""
        self.rotations[i] = (self.rotations[i] + quarters) % 4
        self.changed_cells.append(i)

    def shuffle_map(self) -> None:
        """Earthquake: the tiles left move over the occupied cells with their
        face state and rotation; every peek is forgotten."""
        occupied = [i for i, d in enumerate(self.cells) if d >= 0]
        order = self.rng.permutation(len(occupied))
        cells, rotations, face_up = list(self.cells), list(self.rotations), list(self.face_up)
        for j, source in enumerate(order):
            self.cells[occupied[j]] = cells[occupied[source]]
            self.rotations[occupied[j]] = rotations[occupied[source]]
            self.face_up[occupied[j]] = face_up[occupied[source]]
        self.peeks = [0] * len(self.cells)
        self.changed_cells.extend(occupied)

    # ---------------------------------------------------------------- grabs
    def _grab(self, i: int) -> None:
        d, rotation = self.cells[i], self.rotations[i]
        if self.prism_active:
            self.prism_active = False
            self.remove(i)
            for c in SHARDS[d]:
                self._gain(c)
            return self._after_grab()
        if PLAIN[d]:
            self.remove(i)
            self._gain(d)  # a plain design's id is its content id
            return self._after_grab()
        options = self.grab_options(i, self.grab_kind == TUNNEL_GRAB)
        self.remove(i)
        if len(options) == 1:
            self._gain(next(iter(options)))
            return self._after_grab()
        self.section_contents = list(SECTION_CONTENT[d][rotation])
        self.section_choices = sum(1 << s for s in options.values())
        self.phase = SECTION

    def _gain_to(self, p: int, content: int) -> None:
        if content < NUM_GEMS:
            self.gems[p][content] += 1
        else:
            self.action_tiles[p][content - NUM_GEMS] += 1
        self.changed_seats.append(p)

    def pass_gem(self, giver: int, taker: int, gem: int) -> None:
        """One gem of ``gem``'s kind goes from seat ``giver`` to seat ``taker``."""
        self.gems[giver][gem] -= 1
        self.gems[taker][gem] += 1
        self.changed_seats += (giver, taker)

    def _gain(self, content: int) -> None:
        self._gain_to(self.player, content)
        if content >= NUM_GEMS and self.window != NO_WINDOW:
            self.taken_this_window[content - NUM_GEMS] += 1

    def _after_grab(self) -> None:
        self.section_choices = 0
        if self.gem_tiles_left == 0:
            self.over = True
            return
        if self.grabs_owed:
            self.grabs_owed -= 1
            self.phase = GRAB
            return
        if self.grab_kind == MAIN_GRAB:
            return self._open_window(POST_WINDOW)
        self.finish_action()

    # -------------------------------------------------------------- action tiles
    def _use(self, kind: int) -> None:
        """Spend a tile of ``kind`` (a public copy not taken in this window,
        else the secret one, now revealed) and start its effect."""
        p = self.player
        if self.action_tiles[p][kind] - self.taken_this_window[kind] > 0:
            self.action_tiles[p][kind] -= 1
        else:
            self.secret_tiles[p] = NOTHING
            self.seen[NUM_GEMS + kind] += 1
        self.changed_seats.append(p)
        self.uses_this_window += 1
        if self.window == PRE_WINDOW:
            self.used_before = True
        else:
            self.used_after = True
        self.resolving, self.sub_step, self.chosen_arrow = kind, 0, NOTHING
        ACTION_TILES[kind].use(self)

    def finish_action(self) -> None:
        """The action tile is resolved: back to its window."""
        self.resolving, self.sub_step, self.chosen_arrow, self.target, self.lantern_peeks_left = (
            NOTHING,
            0,
            NOTHING,
            NOTHING,
            0,
        )
        self._offer_window()

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

    def evaluate(self, viewer: int | None = None) -> np.ndarray:
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
