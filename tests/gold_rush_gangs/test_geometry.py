"""The board's frames and neighbours (seeds/gold_rush_gangs.md: the board, and
the seat-relative view of the observation)."""

from __future__ import annotations

import pytest

from meeplezoo.envs.gold_rush_gangs.rules import GoldRushGangsGame


def geometry(**config):
    return GoldRushGangsGame(**config).geo


def test_without_relative_frames_every_seat_sees_absolute_cells_and_directions():
    geo = geometry(relative_frame=False)
    cells = list(range(geo.num_cells))
    for seat in range(3):
        assert geo.to_absolute[seat] == cells and geo.to_relative[seat] == cells
        assert geo.direction_to_absolute[seat] == list(range(6))


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_relative_frames_turn_directions_by_two_steps_per_seat(seat):
    """Seat k's frame is the board turned k times by 120 degrees: directions
    move on by four of the six (two 60-degree steps backwards) per seat."""
    geo = geometry(relative_frame=True)
    assert geo.direction_to_absolute[seat] == [(d + 4 * seat) % 6 for d in range(6)]
    assert sorted(geo.to_absolute[seat]) == list(range(geo.num_cells))


def test_every_cell_is_adjacent_to_its_neighbours_on_the_board_cell_zero_included():
    geo = geometry()
    for cell in range(geo.num_cells):
        assert geo.adjacent[cell] == {x for x in geo.neighbors[cell] if x != -1}
    assert geo.adjacent[0] and all(0 in geo.adjacent[x] for x in geo.adjacent[0])
