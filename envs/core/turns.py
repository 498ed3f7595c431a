"""Turn-order helpers shared by the multi-player games."""

from __future__ import annotations


def next_seat(seat: int, num_players: int, active=None) -> int:
    """The next seat clockwise after ``seat``, skipping inactive seats
    (``active[i]`` False). Returns ``seat`` itself if nobody else is active."""
    if active is None:  # every seat plays: no search (this runs on every turn end)
        return (seat + 1) % num_players
    for step in range(1, num_players + 1):
        cand = (seat + step) % num_players
        if active is None or active[cand]:
            return cand
    return seat


def relative_seats(viewer: int, num_players: int) -> list[int]:
    """Seats in the viewer's order: the viewer first, then clockwise."""
    return [(viewer + k) % num_players for k in range(num_players)]
