"""What a finished game tells each seat in its ``info``: its rank (1 is
best; tied seats share the better rank) from the returns, and its points
in the games that count them (a ``scores()`` method on the State), so a
user's loop can print who won without decoding rewards."""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.ranking import ranks


def seat_outcomes(state: Any, returns: np.ndarray) -> list[dict[str, Any]]:
    """One dict per seat: ``rank`` and ``return``, plus ``points`` where counted."""
    seat_ranks = ranks([float(value) for value in returns])
    scores = getattr(state, "scores", None)
    points = list(scores()) if callable(scores) else None
    outcomes = []
    for seat, value in enumerate(returns):
        outcome: dict[str, Any] = {"rank": int(seat_ranks[seat]), "return": float(value)}
        if points is not None:
            outcome["points"] = int(points[seat])
        outcomes.append(outcome)
    return outcomes
