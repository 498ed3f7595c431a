"""The action-kind records: they tile the action space, turning the board
maps each kind onto itself, and the names, encode and decode read them."""

from __future__ import annotations

import pytest

from meeplezoo.envs.amethyst_amber.actions import (
    KIND_OF_ACTION,
    KINDS,
    NUM_ACTIONS,
    PASS,
    PLACE_RESOURCE,
    ActionBlock,
    rotated,
)
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberState
from tests.amethyst_amber.helpers import AB, AM, game, position


def test_kinds_tile_the_action_space_in_block_order():
    starts = [kind.block for kind in KINDS]
    assert starts == sorted(starts) == [block.value for block in ActionBlock]
    assert sum(kind.size for kind in KINDS) == NUM_ACTIONS == 850
    for kind, end in zip(KINDS, starts[1:] + [NUM_ACTIONS]):
        assert kind.block + kind.size == end


def test_turning_the_board_keeps_each_kind_and_undoes_itself():
    for action in range(NUM_ACTIONS):
        assert KIND_OF_ACTION[rotated(action)] is KIND_OF_ACTION[action]
        assert rotated(rotated(action)) == action
    assert rotated(ActionBlock.PASS) == ActionBlock.PASS


def test_every_kind_names_methods_the_state_has():
    for kind in KINDS:
        assert callable(getattr(AmethystAmberState, kind.effect))
        if kind is not PASS:
            assert callable(getattr(AmethystAmberState, kind.legal))


def test_only_resource_placement_is_forced():
    assert [kind for kind in KINDS if kind.forced] == [PLACE_RESOURCE]


@pytest.mark.parametrize("seat", [AM, AB])
def test_names_and_decode_follow_the_kind_records(seat):
    s = position(current=seat)
    for action in range(NUM_ACTIONS):
        kind, *args = s.decode(action)
        assert KIND_OF_ACTION[game().board.rot_action[action] if seat == AB else action].name == kind
        assert s.encode(kind, *args) == action
        label_start = KIND_OF_ACTION[action].label.split("{")[0]
        assert s.action_to_string(action).startswith(label_start)


def test_bounded_options_name_the_key_and_the_range():
    with pytest.raises(ValueError, match="defender_range must be an integer from 1 to 30, got 31"):
        game(defender_range=31)
    with pytest.raises(ValueError, match="green_scope must be one of"):
        game(green_scope="mine")
