"""Position builders and action shortcuts for the Amethyst and Amber tests.

Coordinates are absolute: triangles as brick (X, Y), hexes as axial (q, r).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame
from meeplezoo.envs.core.rng import make_rng, rng_to_dict

AM, AB = 0, 1


def game(**config) -> AmethystAmberGame:
    return AmethystAmberGame(**config)


def position(g=None, *, phase="main", current=AM, defenders=(), attackers=(), resources=(), **extra):
    """A state with only the listed pieces. defenders: ((X, Y), seat);
    attackers: ((q, r), seat); resources: ((q, r), owner or None, under)."""
    g = g or game()
    d = {
        "phase": phase,
        "current": current,
        "defenders": [[*xy, p] for xy, p in defenders],
        "attackers": [[*qr, p] for qr, p in attackers],
        "resources": [[*qr, owner, under] for qr, owner, under in resources],
        "rng": rng_to_dict(make_rng(0)),
        **extra,
    }
    return g.state_from_dict(d)


def can(s, kind, *args) -> bool:
    return bool(s.legal_action_mask()[s.encode(kind, *args)])


def do(s, kind, *args) -> None:
    s.apply(s.encode(kind, *args))


def legal(s) -> set:
    """Legal actions of the seat to act, decoded to absolute (kind, *args)."""
    return {s.decode(a) for a in np.flatnonzero(s.legal_action_mask())}


def kinds(s) -> set:
    return {k[0] for k in legal(s)}


def move_defender(s, src, dst) -> None:
    do(s, "select", src)
    do(s, "dest", dst)


def move_and_end(s, src, dst) -> None:
    """Move one defender and stop (the turn ends by itself when no other
    defender could move)."""
    seat = s.current_player
    move_defender(s, src, dst)
    if s.current_player == seat and s.phase_name() == "continue":
        do(s, "end")
