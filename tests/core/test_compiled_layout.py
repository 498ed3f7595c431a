"""The compiled layout comes from the declared fields alone, and a state
survives the trip to a row and back on every configuration."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.layout import Layout, layout_of
from meeplezoo.envs.core.fields import Dim, Field, generator_field
from meeplezoo.envs.gem_mountain.rules import GemMountainGame, GemMountainState


def test_slots_follow_the_declaration_order_without_gaps():
    layout = layout_of(GemMountainState)
    ends = 0
    for field in GemMountainState.fields:
        slot = layout.slots.get(field.name)
        if field.shape is None:
            assert slot is None
            continue
        assert slot.offset == ends
        ends = slot.end
    assert layout.width == ends
    assert layout.constants()["WIDTH"] == ends


def test_an_undeclared_dimension_is_named():
    class Broken:
        fields = (Field("cells", shape=("cells",)),)

    with pytest.raises(ValueError, match="'cells'"):
        Layout(Broken)


def test_an_overlong_list_is_refused():
    class Small:
        fields = (Field("items", shape=("items",), fill=-1), generator_field())
        layout_dims = {"items": Dim(2)}

    state = Small()
    state.items, state.rng = [1, 2, 3], np.random.default_rng(0)
    with pytest.raises(ValueError, match="3 entries"):
        Layout(Small).write(state, np.zeros(Layout(Small).width, dtype=np.int64))


@pytest.mark.parametrize("config", [{}, *GemMountainGame.test_configs, {"map_rows": 12, "map_cols": 12}])
def test_states_round_trip_through_a_row(config):
    game = GemMountainGame(**config)
    layout = layout_of(GemMountainState)
    rng = np.random.default_rng(3)
    for seed in range(6):
        state = game.new_initial_state(seed)
        while True:
            row = layout.write(state, layout.new_rows(1)[0])
            back = layout.read(row, game)
            assert back.to_dict() == state.to_dict()
            assert back.rng.integers(0, 2**40) == state.clone().rng.integers(0, 2**40)
            if state.done:
                break
            state.apply(int(rng.choice(state.legal_actions())))
