"""The compiled frame stack and throne (``kernel/stack.py``, ``kernel/throne.py``)
do what ``throne.PrincesAndThrone`` does: from positions of random games on
2 to 5 players, taking Amber (and the Appoint it pushes), its fall, filling
a regency, an escape, the win by holding Amber and a player's elimination
leave the row word for word the reference position; a push records every
frame kind as the layout writes it, and a push past the stack's capacity
is refused."""

from __future__ import annotations

from dataclasses import fields
from functools import partial

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.princes_of_amber.cards import EXILE, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.frames import FRAME_TYPES, TurnEnd
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.kernel import stack, throne
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    FRAME_CODE,
    FRAME_FIELD_WORDS,
    LIST_CAPACITY,
    STACK_CAPACITY,
)
from meeplezoo.envs.princes_of_amber.state import AmberState
from tests.core.kernel_checks import assert_same_position
from tests.princes_of_amber.kernel_configs import CONFIGS, positions

LAYOUT = layout_of(AmberState)
same_position = partial(assert_same_position, LAYOUT)  # (py, row, game, full)


def throne_steps(py: AmberState, rng: np.random.Generator) -> list[tuple[str, tuple]]:
    """The throne steps the rules could take here, with their arguments."""
    steps: list[tuple[str, tuple]] = [("fall_neutral", ())]
    for player in range(py.num_players):
        own = py.player_prince[player]
        if py.in_game[player] and own >= 0 and py.free(own) and len(py.stack) < STACK_CAPACITY:
            steps.append(("take_amber", (player,)))
        if py.in_game[player] and sum(py.in_game) > 1:
            steps.append(("eliminate", (player,)))
    if py.vacant_posts():
        exiles = [i for i in range(NUM_PRINCES) if py.role[i] == EXILE]
        steps.append(("fill_post", (int(rng.choice(exiles)),)))
    steps += [("escape", (i,)) for i in range(NUM_PRINCES) if py.captured[i]]
    if py.amber >= 0:
        steps.append(("check_amber_secured", ()))
    return steps


KERNEL_OF = {"check_amber_secured": throne.check_amber_secured}
PYTHON_OF = {"check_amber_secured": "_check_amber_secured"}


def test_throne_steps_play_as_the_rules():
    """Every step the rules could take, from positions of every configuration
    (escapes and a win by holding Amber included)."""
    seen: set[str] = set()
    for index, config in enumerate(CONFIGS):
        game = AmberGame(**config)
        rng = np.random.default_rng(index)
        for position in positions(game, seed=index, every=70):
            for name, args in throne_steps(position, rng):
                py = position.clone()
                row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
                getattr(py, PYTHON_OF.get(name, name))(*args)
                KERNEL_OF.get(name, getattr(throne, name))(row, *args)
                same_position(py, row, game, False)
                seen.add(f"{name} won" if py.winner >= 0 else name)
    assert {"fall_neutral", "take_amber", "eliminate", "eliminate won", "fill_post", "escape"} <= seen
    assert "check_amber_secured" in seen


def test_amber_is_secured_once_no_rival_has_a_free_prince():
    game = AmberGame(num_players=3)
    py = game.new_initial_state(4)
    for prince in range(NUM_PRINCES):
        if py.controller[prince] not in (-1, 1):
            py.controller[prince] = -1
    py.take_amber(1)
    row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
    py._check_amber_secured()
    throne.check_amber_secured(row)
    assert py.winner == 1
    same_position(py, row, game, False)


def example_frame(kind: type, seed: int):
    """A frame of ``kind`` with its required fields set (lists of two seats), defaults left."""
    values = {}
    for offset, item in enumerate(fields(kind)):
        required = item.default is item.default_factory  # both MISSING
        if required:
            values[item.name] = [1, 0] if item.name in LIST_CAPACITY else (seed + offset) % 3
    return kind(**values)


def test_a_push_records_every_frame_kind_as_the_layout_writes_it():
    game = AmberGame(num_players=4)
    for seed, kind in enumerate(FRAME_TYPES.values()):
        py = game.new_initial_state(seed)
        row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
        frame = example_frame(kind, seed)
        at = stack.push(row, FRAME_CODE[kind])
        assert stack.top(row) == at and stack.depth(row) == len(py.stack) + 1
        for item in fields(kind):
            word = at + FRAME_FIELD_WORDS[kind.name][item.name]
            value = getattr(frame, item.name)
            if item.name in LIST_CAPACITY and value is not None:
                row[word : word + 1 + len(value)] = [len(value), *value]
            elif item.name not in LIST_CAPACITY:
                row[word] = int(value)
        py.stack.append(frame)
        same_position(py, row, game, True)
        stack.pop(row)
        py.stack.pop()
        same_position(py, row, game, True)


def test_a_push_past_the_capacity_is_refused():
    py = AmberGame(num_players=3).new_initial_state(0)
    py.stack = [TurnEnd(0)] * STACK_CAPACITY
    row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
    before = row.copy()
    with pytest.raises(ValueError, match="the frame stack is full"):
        stack.push(row, FRAME_CODE[TurnEnd])
    np.testing.assert_array_equal(row, before)
