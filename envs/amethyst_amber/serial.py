"""Positions as plain dicts, in absolute board coordinates.

Triangles are written as brick [X, Y], hexes as axial [q, r], seats as 0
(Amethyst) / 1 (Amber). ``state_from_dict`` fills missing keys so that test
positions can list only the pieces they need: counts default to what the
listed pieces leave over (reserve = attackers not on the board nor held,
unplaced defenders = 0 in the main phase).
"""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber import rules as R
from meeplezoo.envs.core.state import make_rng, rng_from_dict, rng_to_dict


def _seat(v) -> int:
    if isinstance(v, str):
        key = v.strip().lower()
        names = {"amethyst": 0, "amber": 1, "player_0": 0, "player_1": 1}
        if key not in names:
            raise ValueError(f"amethyst_amber_v0: unknown seat {v!r}")
        return names[key]
    s = int(v)
    if s not in (0, 1):
        raise ValueError(f"amethyst_amber_v0: seat must be 0 or 1, got {v!r}")
    return s


def _pair(v, default) -> list[int]:
    """A per-seat count given as [a, b] or {seat: n}."""
    if v is None:
        return list(default)
    if isinstance(v, dict):
        out = list(default)
        for k, n in v.items():
            out[_seat(k)] = int(n)
        return out
    return [int(v[0]), int(v[1])]


def state_to_dict(s) -> dict:
    bd = s.game.board
    geo = bd.geo
    xy = geo.tri_xy
    defenders = [[*xy[t], p] for p in (0, 1) for t in geo.bits_to_tris(s.dbits[p])]
    defenders.sort(key=lambda e: (e[1], e[0]))
    attackers = [[*bd.hex_qr[h], s.att[h]] for h in range(R.H) if s.att[h] >= 0]
    resources = []
    for h in sorted(s.rhex):
        owner = None if s.res[h] == R.NEUTRAL else s.res[h]
        resources.append([*bd.hex_qr[h], owner, s.under[h]])
    return {
        "phase": R.PHASES[s.phase],
        "current": s.cur,
        "substep": R.SUBSTEPS[s.sub],
        "selected": list(xy[s.sel]) if s.sel >= 0 else None,
        "moved": [list(xy[t]) for t in geo.bits_to_tris(s.moved)],
        "defenders": defenders,
        "attackers": attackers,
        "resources": resources,
        "reserve_attackers": list(s.reserve),
        "unplaced_defenders": list(s.unplaced),
        "hand": list(s.hand),
        "main_turns": s.main_turns,
        "winner": s.winner if s._terminal else None,
        "truncated": s._truncated,
        "rng": rng_to_dict(s.rng),
    }


def state_from_dict(game, d: dict):
    bd = game.board
    geo = bd.geo
    hidx = geo.hexes.index
    s = R.AmethystAmberState(game, rng_from_dict(d["rng"]) if d.get("rng") else make_rng(None))
    phase = d.get("phase", "main")
    if phase not in R.PHASES:
        raise ValueError(f"amethyst_amber_v0: phase must be one of {list(R.PHASES)}, got {phase!r}")
    s.phase = R.PHASES.index(phase)
    s.cur = _seat(d.get("current", 0))
    sub = d.get("substep", "turn_start")
    if sub not in R.SUBSTEPS:
        raise ValueError(f"amethyst_amber_v0: substep must be one of {list(R.SUBSTEPS)}, got {sub!r}")
    s.sub = R.SUBSTEPS.index(sub)

    def tri(c) -> int:
        key = (int(c[0]), int(c[1]))
        if key not in geo.tri_index:
            raise ValueError(f"amethyst_amber_v0: no triangle at {key}")
        return geo.tri_index[key]

    def hexi(c) -> int:
        key = (int(c[0]), int(c[1]))
        if key not in hidx:
            raise ValueError(f"amethyst_amber_v0: no hex at {key}")
        return hidx[key]

    for e in d.get("defenders", []):
        s.dbits[_seat(e[2])] |= geo.bit_tri[tri(e)]
    for e in d.get("attackers", []):
        h, p = hexi(e), _seat(e[2])
        s.att[h] = p
        s.apos[p].append(h)
        s.abits[p] |= geo.bit_hex[h]
    for e in d.get("resources", []):
        h = hexi(e)
        owner = e[2] if len(e) > 2 else None
        s.res[h] = R.NEUTRAL if owner is None else _seat(owner)
        s.under[h] = int(e[3]) if len(e) > 3 else 0
        s.rhex.append(h)
        s.rbits[s.res[h]] |= geo.bit_hex[h]
        if owner is not None:
            s.placed[s.res[h]] += 1
    held = [0, 0]  # seat p's attackers held under the opponent's resources
    for h in s.rhex:
        if s.res[h] in (0, 1):
            held[1 - s.res[h]] += s.under[h]
    ndef = [s.dbits[0].bit_count(), s.dbits[1].bit_count()]
    s.reserve = _pair(
        d.get("reserve_attackers"),
        [max(0, game.attackers_per_player - len(s.apos[p]) - held[p]) for p in (0, 1)],
    )
    default_unplaced = (
        [max(0, game.defenders_per_player - ndef[p]) for p in (0, 1)] if s.phase == R.PLACEMENT else [0, 0]
    )
    s.unplaced = _pair(d.get("unplaced_defenders"), default_unplaced)
    s.hand = _pair(d.get("hand"), [0, 0])
    s.main_turns = int(d.get("main_turns", 0))
    s.sel = tri(d["selected"]) if d.get("selected") is not None else -1
    for c in d.get("moved", []):
        s.moved |= geo.bit_tri[tri(c)]
    s.n_moved = s.moved.bit_count()
    if s.sel >= 0:
        s._dests = s._dest_bits(s.cur, s.sel)
    winner = d.get("winner")
    if winner is not None:
        s._terminal = True
        s.winner = _seat(winner)
    elif d.get("truncated"):
        s._truncated = True
    else:
        s._start_turn()
    return s
