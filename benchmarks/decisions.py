"""Timing a bot's decisions, shared by the search benchmarks.

``search_speed`` and ``network_forward`` time the same thing (a bot deciding
a list of positions, CPU seconds), so they share this one helper rather than
one reaching into the other's private names.
"""

from __future__ import annotations

import time

import numpy as np

from meeplezoo.agents.base import SeatView


def decide(agent, states) -> float:
    """CPU seconds ``agent`` takes to choose a move in each of ``states``
    (the seat to move of each), as a table would ask it: the observation
    dict and a :class:`~meeplezoo.agents.base.SeatView`."""
    start = time.process_time()
    for state in states:
        seat = state.current_player
        obs = {
            "observation": state.observation(seat),
            "action_mask": state.legal_action_mask().astype(np.int8),
        }
        agent.act(obs, SeatView(state, seat))
    return time.process_time() - start
