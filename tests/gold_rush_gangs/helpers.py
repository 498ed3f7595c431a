"""Scenario positions for Gold Rush Gangs tests, in absolute coordinates.

``position(...)`` starts from a finished setup (stores on the fixed corners
unless given) with every unit not listed standing, active, on its home cell,
so it is far from everything the scenario is about.
"""

from __future__ import annotations

from meeplezoo import envs
from meeplezoo.envs.core.cards import Deck, standard_52
from meeplezoo.envs.core.rng import make_rng, rng_to_dict
from meeplezoo.envs.gold_rush_gangs.pieces import unit_id

E, NE, NW, W, SW, SE = range(6)
PRO, A, B = 0, 1, 2
HOMES = {0: (-9, 9), 1: (0, -9), 2: (9, 0)}


def game(**config):
    return envs.make_game("gold_rush_gangs_v0", **config)


def position(
    g=None,
    units=None,
    sacks=None,
    current=0,
    ap=5,
    bank_sacks=3,
    bank_damage=0,
    delivered=(0, 0, 0),
    stores=((-9, 0), (9, -9), (0, 9)),
    turns=0,
    first_player=0,
    seed=0,
    **config,
):
    """units: {(player, slot): (q, r)} or {(player, slot): dict(cell=, carry=,
    state=, miss=)}; sacks: {(q, r): {origin: n}}."""
    g = g or game(**config)
    unit_list = []
    units = units or {}
    for p in range(3):
        for s in range(3):
            spec = units.get((p, s), HOMES[p])
            if not isinstance(spec, dict):
                spec = {"cell": spec}
            unit_list.append(
                {
                    "player": p,
                    "slot": s,
                    "cell": list(spec.get("cell", HOMES[p])),
                    "state": spec.get("state", "active"),
                    "miss": spec.get("miss", 0),
                    "carry": spec.get("carry"),
                }
            )
    sack_list = [[q, r, o, n] for (q, r), d in (sacks or {}).items() for o, n in d.items()]
    if bank_sacks:
        sack_list.append([0, 0, "bank", bank_sacks])
    deck = Deck.shuffled(standard_52(), g.new_initial_state(seed).rng)
    data = {
        "phase": "movement",
        "current": current,
        "first_player": first_player,
        "ap": ap,
        "turns": turns,
        "units": unit_list,
        "sacks": sack_list,
        "stores": [list(c) for c in stores],
        "bank_damage": [bank_damage] * 3,
        "delivered": list(delivered),
        "deck": deck.to_dict(),
        "rng": rng_to_dict(make_rng(seed)),
    }
    return g.state_from_dict(data)


def act(s, kind, *args):
    """Play an action given in absolute terms for the current player."""
    a = s.game.encode(s.current_player, kind, *args)
    s.apply(a)
    return a


def legal(s, kind, *args) -> bool:
    a = s.game.encode(s.current_player, kind, *args)
    return bool(s.legal_action_mask()[a])


def unit(s, p, slot):
    """(cell (q, r), state name, miss, carry name) of a unit."""
    d = s.to_dict()["units"][unit_id(p, slot)]
    return (tuple(d["cell"]) if d["cell"] else None, d["state"], d["miss"], d["carry"])


def sacks_at(s, q, r) -> dict:
    return {o: n for (qq, rr, o, n) in s.to_dict()["sacks"] if (qq, rr) == (q, r)}


def block(g, kind) -> slice:
    """The indices of one kind of action (an ActionKind) in ``g``'s action space."""
    return slice(g.layout.start(kind), g.layout.stop(kind))


def end_turn(s):
    s.apply(s.game.layout.end_turn)
