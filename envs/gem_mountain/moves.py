"""How a Gem Mountain move changes the position: the phases of a turn, the
action-tile windows, grabs and what each gained tile does (mixed into
:class:`~meeplezoo.envs.gem_mountain.rules.GemMountainState`).
"""

from __future__ import annotations

from meeplezoo.envs.core.turns import next_seat
from meeplezoo.envs.gem_mountain.action_tiles import ACTION_TILES
from meeplezoo.envs.gem_mountain.config import PER_TURN, PER_WINDOW
from meeplezoo.envs.gem_mountain.decisions import (
    NOTHING,
    POSITIONS,
    STEPS_PER_QUARTER_TURN,
    GrabKind,
    Phase,
    Window,
)
from meeplezoo.envs.gem_mountain.tiles import (
    HAS_GEM,
    NUM_ACTION_TYPES,
    NUM_GEMS,
    PLAIN,
    SECTION_CONTENT,
    SHARDS,
)

# the phases as plain names: the rules compare them on every step
PRE, GRAB, SECTION, POST, INFO, SUB_STEP, START = Phase
NO_WINDOW, PRE_WINDOW, POST_WINDOW = Window
MAIN_GRAB, EXTRA_GRAB, TUNNEL_GRAB = GrabKind


class Moves:
    """The moves of a Gem Mountain position: ``_apply_action`` and the
    steps of a turn it goes through."""

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
    def remove(self, cell: int) -> None:
        """Take the tile at ``cell`` off the map (revealing it if face down)."""
        d = self.cells[cell]
        for counts, k in zip(self.layer_counts, self.game.geometry.cell_distances[cell]):
            counts[k] -= 1
        if HAS_GEM[d]:
            self.gem_tiles_left -= 1
        if not self.face_up[cell]:
            self.face_down_left -= 1
            for c in SHARDS[d]:
                self.seen[c] += 1
        self.cells[cell] = -1
        self.face_up[cell] = True
        self.peeks[cell] = 0
        self.changed_cells.append(cell)

    def flip(self, cell: int) -> None:
        """Turn the face-down tile at ``cell`` face up for everyone."""
        self.face_up[cell] = True
        self.peeks[cell] = 0
        self.changed_cells.append(cell)
        self.face_down_left -= 1
        for c in SHARDS[self.cells[cell]]:
            self.seen[c] += 1

    def peek_at(self, cell: int) -> None:
        """The player looks at the face-down tile at ``cell`` (which cell is public)."""
        self.peeks[cell] |= 1 << self.player
        self.changed_cells.append(cell)

    def rotate(self, cell: int, quarters: int) -> None:
        """Turn the tile at ``cell`` by ``quarters`` quarter turns clockwise."""
        self.rotations[cell] = (self.rotations[cell] + quarters) % 4
        self.changed_cells.append(cell)

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
    def _grab(self, cell: int) -> None:
        d, rotation = self.cells[cell], self.rotations[cell]
        if self.prism_active:
            self.prism_active = False
            self.remove(cell)
            for c in SHARDS[d]:
                self._gain(c)
            return self._after_grab()
        if PLAIN[d]:
            self.remove(cell)
            self._gain(d)  # a plain design's id is its content id
            return self._after_grab()
        options = self.grab_options(cell, self.grab_kind == TUNNEL_GRAB)
        self.remove(cell)
        if len(options) == 1:
            self._gain(next(iter(options)))
            return self._after_grab()
        self.section_contents = list(SECTION_CONTENT[d][rotation])
        self.section_choices = sum(1 << s for s in options.values())
        self.phase = SECTION

    def _gain_to(self, seat: int, content: int) -> None:
        if content < NUM_GEMS:
            self.gems[seat][content] += 1
        else:
            self.action_tiles[seat][content - NUM_GEMS] += 1
        self.changed_seats.append(seat)

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
