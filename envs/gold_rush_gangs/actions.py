"""Every kind of action of Gold Rush Gangs, one record each.

An :class:`ActionRule` holds all there is to know about one kind: the names
of its block of indices, when its actions are legal (``mark_legal`` sets
their bits of the mask), what playing one does (``play``), and how the
absolute-frame test hooks ``encode`` / ``decode`` spell it. The flat action
space is the kinds' blocks laid end to end in :data:`ACTION_RULES` order
(:class:`ActionLayout`, built once per Game); the state's mask and apply
read this table and nothing else.

Cells and directions inside a block are in the acting seat's frame; the
geometry's tables turn them into absolute cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from functools import partial
from typing import Any

import numpy as np

from meeplezoo.envs.gold_rush_gangs.geometry import DIR_NAMES, Geometry, deploy_candidates
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    DEPLOY_PHASE,
    DEPLOY_SACKS,
    GANG_SIZE,
    MOVEMENT,
    NOWHERE,
    PICKUP_ORDER,
    SLOT_NAMES,
    SLOTS,
    STEP_COST,
    STORE,
    STORE_PHASE,
    empty_pile,
)

NUM_DIRECTIONS = len(DIR_NAMES)


class ActionKind(IntEnum):
    """The blocks of the action space, in index order."""

    STORE = 0
    DEPLOY = 1
    MOVE = 2
    PICKUP = 3
    BREAK_BANK = 4
    END_TURN = 5


@dataclass(frozen=True, slots=True)
class ActionRule:
    """One kind of action: its names, legality, effect and test spelling.

    ``phase`` is the phase whose mask offers it. ``mark_legal(state, mask,
    start)`` sets the bits of its legal actions (``start`` is its block's
    first index); None means always legal in its phase (the bits are then
    baked into the phase's starting mask). ``play(state, index)`` plays
    action ``index`` of its block for the acting seat; ``encode(geo, player,
    args)`` and ``decode(geo, player, index)`` translate absolute-frame
    arguments (the test hooks)."""

    kind: ActionKind
    word: str
    phase: int
    names: Callable[[Geometry], list[str]]
    mark_legal: Callable[[Any, np.ndarray, int], None] | None
    play: Callable[[Any, int], None]
    encode: Callable[[Geometry, int, tuple], int]
    decode: Callable[[Geometry, int, int], tuple]


# --- placing a store (setup) -------------------------------------------------------
# (module-level functions and partials only: a Game, its layout included, is pickled)
def _cell_names(word: str, geo: Geometry) -> list[str]:
    return [f"{word} ({q},{r})" for q, r in geo.coords]


def _store_legal(state, mask: np.ndarray, start: int) -> None:
    """A store goes on a free store-eligible rim cell."""
    geo = state.game.geo
    to_relative = geo.to_relative[state.acting_seat]
    taken = state.stores
    for cell in geo.neutral_border:
        if cell not in taken:
            mask[start + to_relative[cell]] = True


def _place_store(state, index: int) -> None:
    cell = state.game.geo.to_absolute[state.acting_seat][index]
    state.stores.append(cell)
    state.sacks.setdefault(cell, empty_pile())[STORE] += 1
    state.advance_setup()


def _encode_cell(geo: Geometry, player: int, args: tuple) -> int:
    (q, r) = args[0] if len(args) == 1 else args
    return geo.to_relative[player][geo.index[(int(q), int(r))]]


def _decode_cell(word: str, geo: Geometry, player: int, index: int) -> tuple:
    return (word, geo.coords[geo.to_absolute[player][index]])


# --- deploying a thief (setup) -----------------------------------------------------
def _deploy_legal(state, mask: np.ndarray, start: int) -> None:
    """The next thief goes on a free, gold-free cell of its territory from
    which the rest of the gang can still be deployed at the spacing."""
    geo = state.game.geo
    seat = state.acting_seat
    slot = state.setup_step()[1]
    placed = [state.unit_cell[GANG_SIZE * seat + k] for k in range(slot)]
    to_relative = geo.to_relative[seat]
    occupant, sacks = state.occupant, state.sacks
    for cell in deploy_candidates(geo, seat, placed):
        if occupant[cell] < 0 and cell not in sacks:
            mask[start + to_relative[cell]] = True


def _deploy(state, index: int) -> None:
    seat = state.acting_seat
    slot = state.setup_step()[1]
    cell = state.game.geo.to_absolute[seat][index]
    unit = GANG_SIZE * seat + slot
    state.unit_cell[unit] = cell
    state.unit_status[unit] = ACTIVE
    state.occupant[cell] = unit
    state.sacks.setdefault(cell, empty_pile())[seat] += DEPLOY_SACKS[slot]
    state.advance_setup()


# --- moving a thief one cell ------------------------------------------------------
def _move_names(geo: Geometry) -> list[str]:
    return [f"move {SLOT_NAMES[slot]} {direction}" for slot in SLOTS for direction in DIR_NAMES]


def _move_legal(state, mask: np.ndarray, start: int) -> None:
    """An active thief with the AP for the step moves onto an on-board cell
    that is free, not another gang's base, not the bank while it stands
    (the bank's cell opens once it is broken) and, for a carrier, free of
    lying gold."""
    points = state.action_points
    if points <= 0:
        return
    geo = state.game.geo
    seat = state.acting_seat
    bank = NOWHERE if state.bank_broken(seat) else geo.bank  # a standing bank is closed
    neighbours = geo.step_targets[seat]
    forbidden = geo.forbidden[seat]
    occupant, sacks = state.occupant, state.sacks
    status, cells, carrying = state.unit_status, state.unit_cell, state.unit_carrying
    first = GANG_SIZE * seat
    for slot in SLOTS:
        unit = first + slot
        if status[unit] != ACTIVE:
            continue
        carries = carrying[unit] >= 0
        if points < STEP_COST[slot][carries]:
            continue
        base = start + NUM_DIRECTIONS * slot
        for direction, target in enumerate(neighbours[cells[unit]]):
            if target < 0 or target == bank or forbidden[target] or occupant[target] >= 0:
                continue
            if carries and target in sacks:
                continue
            mask[base + direction] = True


def _move(state, index: int) -> None:
    """One step (direction in the seat's frame): pay for it, deliver a
    carried sack on entering the own base (the last one wins at once), then
    fight every enemy next to the new cell."""
    slot, direction = divmod(index, NUM_DIRECTIONS)
    game = state.game
    geo = game.geo
    seat = state.acting_seat
    unit = GANG_SIZE * seat + slot
    cell = state.unit_cell[unit]
    target = geo.step_targets[seat][cell][direction]
    carrying = state.unit_carrying[unit]
    state.action_points -= STEP_COST[slot][carrying >= 0]
    state.occupant[cell] = NOWHERE
    state.unit_cell[unit] = target
    if target != geo.homes[seat]:  # the home cell holds the whole gang
        state.occupant[target] = unit
    if carrying >= 0 and geo.base_owner[target] == seat:
        state.unit_carrying[unit] = NOWHERE
        state.delivered[seat] += 1
        if game.delivery_bonus_now:
            state.action_points += 1
        if state.delivered[seat] >= game.win_sacks:
            state.winner = seat
            return
    state.fight_neighbours(unit, target)


def _encode_move(geo: Geometry, player: int, args: tuple) -> int:
    slot, direction = args
    return NUM_DIRECTIONS * int(slot) + geo.direction_to_absolute[player].index(int(direction))


def _decode_move(geo: Geometry, player: int, index: int) -> tuple:
    slot, direction = divmod(index, NUM_DIRECTIONS)
    return ("move", slot, geo.direction_to_absolute[player][direction])


# --- picking up a sack (free) and breaking the bank (1 AP) --------------------------
def _slot_names(word: str, _geo: Geometry) -> list[str]:
    return [f"{word} {slot}" for slot in SLOT_NAMES]


def _encode_slot(_geo: Geometry, _player: int, args: tuple) -> int:
    return int(args[0])


def _decode_slot(word: str, _geo: Geometry, _player: int, index: int) -> tuple:
    return (word, index)


def _pickup_legal(state, mask: np.ndarray, start: int) -> None:
    """An active, empty-handed thief picks up gold lying where it stands,
    unless all of it is its own gang's (free: no AP needed)."""
    seat = state.acting_seat
    status, cells, carrying = state.unit_status, state.unit_cell, state.unit_carrying
    sacks = state.sacks
    first = GANG_SIZE * seat
    for slot in SLOTS:
        unit = first + slot
        if status[unit] == ACTIVE and carrying[unit] < 0:
            pile = sacks.get(cells[unit])
            if pile is not None and sum(pile) > pile[seat]:
                mask[start + slot] = True


def _pick_up(state, index: int) -> None:
    """Takes the first origin of :data:`PICKUP_ORDER` lying there."""
    seat = state.acting_seat
    unit = GANG_SIZE * seat + index
    cell = state.unit_cell[unit]
    pile = state.sacks[cell]
    for origin in PICKUP_ORDER[seat]:
        if pile[origin]:
            pile[origin] -= 1
            state.unit_carrying[unit] = origin
            break
    if not any(pile):
        del state.sacks[cell]


def _break_legal(state, mask: np.ndarray, start: int) -> None:
    """An active thief next to a bank that still stands hits it (1 AP)."""
    seat = state.acting_seat
    if state.action_points <= 0 or state.bank_broken(seat):
        return
    around_bank = state.game.geo.around_bank
    status, cells = state.unit_status, state.unit_cell
    first = GANG_SIZE * seat
    for slot in SLOTS:
        unit = first + slot
        if status[unit] == ACTIVE and cells[unit] in around_bank:
            mask[start + slot] = True


def _break_bank(state, _index: int) -> None:
    state.action_points -= 1
    state.bank_damage[state.acting_seat if state.game.per_player_bank else 0] += 1


# --- ending the turn ------------------------------------------------------------------
def _end_names(_geo: Geometry) -> list[str]:
    return ["end"]


def _encode_end(_geo: Geometry, _player: int, _args: tuple) -> int:
    return 0


def _decode_end(_geo: Geometry, _player: int, _index: int) -> tuple:
    return ("end",)


def _end(state, _index: int) -> None:
    """Ends the movement turn; in setup, skips a step that has no legal
    placement (reachable only from hand-made positions)."""
    if state.phase == MOVEMENT:
        state.end_turn()
    else:
        state.advance_setup()


ACTION_RULES: tuple[ActionRule, ...] = (
    ActionRule(
        ActionKind.STORE,
        "store",
        STORE_PHASE,
        partial(_cell_names, "store"),
        _store_legal,
        _place_store,
        _encode_cell,
        partial(_decode_cell, "store"),
    ),
    ActionRule(
        ActionKind.DEPLOY,
        "deploy",
        DEPLOY_PHASE,
        partial(_cell_names, "deploy"),
        _deploy_legal,
        _deploy,
        _encode_cell,
        partial(_decode_cell, "deploy"),
    ),
    ActionRule(
        ActionKind.MOVE, "move", MOVEMENT, _move_names, _move_legal, _move, _encode_move, _decode_move
    ),
    ActionRule(
        ActionKind.PICKUP,
        "pickup",
        MOVEMENT,
        partial(_slot_names, "pickup"),
        _pickup_legal,
        _pick_up,
        _encode_slot,
        partial(_decode_slot, "pickup"),
    ),
    ActionRule(
        ActionKind.BREAK_BANK,
        "break",
        MOVEMENT,
        partial(_slot_names, "break"),
        _break_legal,
        _break_bank,
        _encode_slot,
        partial(_decode_slot, "break"),
    ),
    ActionRule(
        ActionKind.END_TURN,
        "end",
        MOVEMENT,
        _end_names,
        None,  # a movement turn may always end (setup offers it only at a dead end)
        _end,
        _encode_end,
        _decode_end,
    ),
)
RULE_BY_WORD = {rule.word: rule for rule in ACTION_RULES}


@dataclass(frozen=True, slots=True)
class ActionBlock:
    """Where one kind's actions lie in the flat action space."""

    rule: ActionRule
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionLayout:
    """The action space of one configuration: the blocks end to end, every
    action's name, and per action the effect to call with its index in its
    block (one list lookup on the hot path)."""

    def __init__(self, geo: Geometry, num_phases: int) -> None:
        blocks, names, start = [], [], 0
        for rule in ACTION_RULES:
            block_names = rule.names(geo)
            blocks.append(ActionBlock(rule, start, len(block_names)))
            names += block_names
            start += len(block_names)
        self.blocks: tuple[ActionBlock, ...] = tuple(blocks)
        self.size = start
        self.names = names
        self.index_of_name = {name.lower(): action for action, name in enumerate(names)}
        self.block_of_action = [block for block in blocks for _ in range(block.size)]
        self.effects = [
            (block.rule.play, action - block.start) for action, block in enumerate(self.block_of_action)
        ]
        # per phase: the mask it starts from (its always-legal actions set)
        # and the (mark_legal, block start) of the kinds it offers
        self.by_phase = []
        for phase in range(num_phases):
            offered = [block for block in blocks if block.rule.phase == phase]
            start_mask = np.zeros(self.size, dtype=bool)
            for block in offered:
                if block.rule.mark_legal is None:
                    start_mask[block.start : block.stop] = True
            start_mask.flags.writeable = False
            marks = tuple((b.rule.mark_legal, b.start) for b in offered if b.rule.mark_legal is not None)
            self.by_phase.append((start_mask, marks))
        self.end_turn = self.blocks[ActionKind.END_TURN].start

    def start(self, kind: ActionKind) -> int:
        return self.blocks[kind].start

    def stop(self, kind: ActionKind) -> int:
        return self.blocks[kind].stop

    def encode(self, geo: Geometry, player: int, word: str, args: tuple) -> int:
        rule = RULE_BY_WORD.get(word)
        if rule is None:
            raise ValueError(f"unknown action kind {word!r}")
        return self.blocks[rule.kind].start + rule.encode(geo, player, args)

    def decode(self, geo: Geometry, player: int, action: int) -> tuple:
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} out of range")
        block = self.block_of_action[action]
        return block.rule.decode(geo, player, action - block.start)
