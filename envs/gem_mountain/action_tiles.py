"""The action tiles: one record each, the one place a tile's rules live.

A row of :data:`ACTION_TILES` says when the tile may be used (beyond holding
one), what USE does, and the sub-steps that ask for its parameters (the
legal answers of each and what an answer does). The mask, apply and the
action names of the rules read these rows; nothing else knows a tile by
kind. The small effects the rows share are the functions above the table.
Every function takes the state (``GemMountainState``) it acts on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeplezoo.envs.gem_mountain.decisions import NOTHING, POSITIONS, GrabKind, Phase
from meeplezoo.envs.gem_mountain.tiles import ACTION_NAMES, NUM_GEMS, ActionKind

SUB_STEP = Phase.SUB_STEP
GRAB = Phase.GRAB
PRE = Phase.PRE
LANTERN_PEEKS = 2  # face-down tiles one Lantern may look at


@dataclass(frozen=True, slots=True)
class SubStep:
    """One parameter of an action tile: its legal answers now (action ids)
    and what an answer does."""

    choices: Callable[[Any], list[int]]
    step: Callable[[Any, int], None]


@dataclass(frozen=True, slots=True)
class ActionTile:
    """An action tile's rules: ``usable`` is the condition beyond holding it
    (None: none), ``use`` what USE does, ``sub_steps`` the parameters asked
    after it (in order), ``cell_word`` how a cell chosen in a sub-step is named."""

    kind: ActionKind
    effect: str
    use: Callable[[Any], None]
    usable: Callable[[Any], bool] | None = None
    sub_steps: tuple[SubStep, ...] = ()
    # only Lantern and Turn Stone ask for a cell; the others' cells are never legal
    cell_word: str = "turn"

    @property
    def name(self) -> str:
        return ACTION_NAMES[self.kind]


# --------------------------------------------------------------- conditions
def flare_arrows(state) -> list[int]:
    """Arrows (0 or 1) whose top layer holds a face-down tile."""
    face_up = state.face_up
    return [j for j, p in enumerate(state.arrows) if any(not face_up[i] for i in state.top_cells(p))]


def arrows_with_a_top(state) -> list[int]:
    return [j for j, p in enumerate(state.arrows) if state.top_cells(p)]


def every_arrow(state) -> range:
    return range(len(state.arrows))


def thief_targets(state) -> list[int]:
    """Opponents (j: the seat j + 1 after the player) holding a public gem."""
    n = state.game.num_players
    return [j for j in range(n - 1) if any(state.gems[(state.player + 1 + j) % n])]


def has_second_layer(state) -> bool:
    return any(state.second_layer(p) >= 0 for p in state.arrows)


def holds_a_gem(state) -> bool:
    return any(state.gems[state.player])


# -------------------------------------------------------------- sub-steps
def continue_to_next_sub_step(state) -> None:
    state.sub_step += 1
    state.phase = SUB_STEP


def choose_arrow(which: Callable[[Any], Any], then: Callable[[Any], None]) -> SubStep:
    """The ARROW sub-step (asked only with two arrows): one of ``which``
    arrows, then ``then`` with the chosen arrow set."""

    def choices(state) -> list[int]:
        first = state.game.blocks.arrow
        return [first + j for j in which(state)]

    def step(state, action: int) -> None:
        state.chosen_arrow = action - state.game.blocks.arrow
        then(state)

    return SubStep(choices, step)


def ask_arrow(then: Callable[[Any], None]) -> Callable[[Any], None]:
    """USE of a tile that acts on one arrow: ask which with two arrows,
    else act on the only one at once."""

    def use(state) -> None:
        if len(state.arrows) == 2:
            state.phase = SUB_STEP
            return
        state.chosen_arrow = 0
        then(state)

    return use


def directions(state) -> list[int]:
    blocks = state.game.blocks
    return [blocks.clockwise, blocks.counter_clockwise]


def quarter_step(state, action: int) -> int:
    """+1 for clockwise, -1 for counter-clockwise."""
    return 1 if action == state.game.blocks.clockwise else -1


def step_arrow(state, action: int) -> None:
    j = state.chosen_arrow
    state.arrows[j] = (state.arrows[j] + quarter_step(state, action)) % POSITIONS
    state.finish_action()


def other_positions(state) -> list[int]:
    first, current = state.game.blocks.position, state.arrows[state.chosen_arrow]
    return [first + p for p in range(POSITIONS) if p != current]


def set_arrow(state, action: int) -> None:
    state.arrows[state.chosen_arrow] = action - state.game.blocks.position
    state.finish_action()


def flare(state) -> None:
    for i in state.top_cells(state.arrows[state.chosen_arrow]):
        if not state.face_up[i]:
            state.flip(i)
    state.finish_action()


def avalanche(state) -> None:
    for i in state.top_cells(state.arrows[state.chosen_arrow]):
        state.remove(i)
    if state.gem_tiles_left == 0:
        state.over = True
        return
    state.finish_action()


def peek_choices(state) -> list[int]:
    return state.peek_cells()


def peek_or_stop(state) -> list[int]:
    return state.peek_cells() + [state.game.blocks.done]


def lantern_peek(state, action: int) -> None:
    if action == state.game.blocks.done:
        return state.finish_action()
    state.peek_at(action)
    state.lantern_peeks_left -= 1
    if state.lantern_peeks_left == 0:
        return state.finish_action()
    state.sub_step = 1


def occupied_cells(state) -> list[int]:
    return [i for i, d in enumerate(state.cells) if d >= 0]


def choose_tile(state, cell: int) -> None:
    state.target, state.sub_step = cell, 1


def turn_tile(state, action: int) -> None:
    state.rotate(state.target, quarter_step(state, action))
    state.finish_action()


def thief_choices(state) -> list[int]:
    first = state.game.blocks.opponent
    return [first + j for j in thief_targets(state)]


def every_opponent(state) -> list[int]:
    first = state.game.blocks.opponent
    return [first + j for j in range(state.game.num_players - 1)]


def choose_opponent(state, action: int) -> None:
    offset = action - state.game.blocks.opponent
    state.target = (state.player + 1 + offset) % state.game.num_players
    state.sub_step = 1


def gems_of(seat_of: Callable[[Any], int]) -> Callable[[Any], list[int]]:
    def choices(state) -> list[int]:
        first, gems = state.game.blocks.gem, state.gems[seat_of(state)]
        return [first + k for k in range(NUM_GEMS) if gems[k]]

    return choices


def move_gem(thief: bool) -> Callable[[Any, int], None]:
    """Thief moves a gem from the target to the player, Gift the other way."""

    def step(state, action: int) -> None:
        gem = action - state.game.blocks.gem
        giver, taker = (state.target, state.player) if thief else (state.player, state.target)
        state.pass_gem(giver, taker, gem)
        state.finish_action()

    return step


# -------------------------------------------------------------- effects of USE
def open_grab(kind: GrabKind, owed: int) -> Callable[[Any], None]:
    def use(state) -> None:
        state.grab_kind, state.grabs_owed = kind, owed
        state.phase = GRAB

    return use


def ask_sub_steps(state) -> None:
    state.phase = SUB_STEP


def anchor(state) -> None:
    state.anchored = True
    state.finish_action()


def prism(state) -> None:
    state.prism_active = state.prism_used = True
    state.finish_action()


def earthquake(state) -> None:
    state.shuffle_map()
    state.finish_action()


def twister(state) -> None:
    state.arrows = [(p + POSITIONS // 2) % POSITIONS for p in state.arrows]
    state.finish_action()


def light_lantern(state) -> None:
    state.lantern_peeks_left = LANTERN_PEEKS
    state.phase = SUB_STEP


def never(state) -> bool:
    return False


K = ActionKind
ACTION_TILES: tuple[ActionTile, ...] = (
    ActionTile(
        K.GUST,
        "move an arrow one position clockwise or counter-clockwise",
        ask_arrow(continue_to_next_sub_step),
        sub_steps=(choose_arrow(every_arrow, continue_to_next_sub_step), SubStep(directions, step_arrow)),
    ),
    ActionTile(
        K.COMPASS,
        "move an arrow to any other position",
        ask_arrow(continue_to_next_sub_step),
        sub_steps=(
            choose_arrow(every_arrow, continue_to_next_sub_step),
            SubStep(other_positions, set_arrow),
        ),
    ),
    ActionTile(K.PICKAXE, "take one more tile from the top now", open_grab(GrabKind.EXTRA, 0)),
    ActionTile(
        K.TUNNEL,
        "take one tile from a second layer instead",
        open_grab(GrabKind.TUNNEL, 0),
        usable=has_second_layer,
    ),
    ActionTile(
        K.ANCHOR,
        "the arrows stay where they are at the end of this turn",
        anchor,
        usable=lambda state: not state.anchored,
    ),
    ActionTile(
        K.LANTERN,
        "secretly look at up to two face-down tiles",
        light_lantern,
        usable=lambda state: state.face_down_left > 0,
        sub_steps=(SubStep(peek_choices, lantern_peek), SubStep(peek_or_stop, lantern_peek)),
        cell_word="lantern",
    ),
    ActionTile(
        K.FLARE,
        "turn face up every face-down tile in an arrow's top",
        ask_arrow(flare),
        usable=lambda state: bool(flare_arrows(state)),
        sub_steps=(choose_arrow(flare_arrows, flare),),
    ),
    ActionTile(
        K.TURN_STONE,
        "turn any tile on the map a quarter turn either way",
        ask_sub_steps,
        sub_steps=(SubStep(occupied_cells, choose_tile), SubStep(directions, turn_tile)),
    ),
    ActionTile(
        K.PRISM,
        "the next grab this turn takes every section of the tile (PRE only)",
        prism,
        usable=lambda state: state.phase == PRE and not state.prism_used,
    ),
    ActionTile(
        K.THIEF,
        "take a gem of a chosen type from a chosen opponent",
        ask_sub_steps,
        usable=lambda state: bool(thief_targets(state)),
        sub_steps=(
            SubStep(thief_choices, choose_opponent),
            SubStep(gems_of(lambda state: state.target), move_gem(thief=True)),
        ),
    ),
    ActionTile(
        K.GIFT,
        "give a gem of a chosen type to a chosen opponent",
        ask_sub_steps,
        usable=holds_a_gem,
        sub_steps=(
            SubStep(every_opponent, choose_opponent),
            SubStep(gems_of(lambda state: state.player), move_gem(thief=False)),
        ),
    ),
    ActionTile(
        K.AVALANCHE,
        "every tile in an arrow's top leaves the game, scoring for no one",
        ask_arrow(avalanche),
        sub_steps=(choose_arrow(arrows_with_a_top, avalanche),),
    ),
    ActionTile(K.EARTHQUAKE, "the remaining tiles are shuffled over the occupied cells", earthquake),
    ActionTile(
        K.GREED, "take two more tiles from the top, one after the other", open_grab(GrabKind.EXTRA, 1)
    ),
    ActionTile(K.TWISTER, "every arrow jumps to the opposite position", twister),
    ActionTile(K.RESERVED, "none: no such tile exists", ask_sub_steps, usable=never),
)
# the usable test of each kind, None where holding the tile is enough (the mask's hot path)
USABLE = tuple(tile.usable for tile in ACTION_TILES)
assert all(tile.kind == kind for kind, tile in enumerate(ACTION_TILES)), "ACTION_TILES must follow ActionKind"
assert NOTHING == -1
