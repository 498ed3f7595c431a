"""Positions as plain dicts, in absolute board coordinates.

Triangles are written as brick [X, Y], hexes as axial [q, r], seats as 0
(Amethyst) / 1 (Amber). ``state_from_dict`` fills missing keys so that test
positions can list only the pieces they need: counts default to what the
listed pieces leave over (reserve = attackers not on the board nor held,
unplaced defenders = 0 in the main phase).

The format lists pieces rather than the state's bitboards and per-hex
lists, so it is written here rather than from the state's field
declarations (those give the clone).
"""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES, PHASE_NAMES, SUBSTEP_NAMES, Phase, Substep
from meeplezoo.envs.amethyst_amber.rules import NEUTRAL, AmethystAmberState
from meeplezoo.envs.core.state import make_rng, rng_from_dict, rng_to_dict

GAME_NAME = "amethyst_amber_v0"


def _seat(value) -> int:
    if isinstance(value, str):
        key = value.strip().lower()
        names = {"amethyst": 0, "amber": 1, "player_0": 0, "player_1": 1}
        if key not in names:
            raise ValueError(f"{GAME_NAME}: unknown seat {value!r}")
        return names[key]
    seat = int(value)
    if seat not in (0, 1):
        raise ValueError(f"{GAME_NAME}: seat must be 0 or 1, got {value!r}")
    return seat


def _pair(value, default) -> list[int]:
    """A per-seat count given as [a, b] or {seat: n}."""
    if value is None:
        return list(default)
    if isinstance(value, dict):
        out = list(default)
        for key, count in value.items():
            out[_seat(key)] = int(count)
        return out
    return [int(value[0]), int(value[1])]


def state_to_dict(s) -> dict:
    bd = s.game.board
    geo = bd.geo
    xy = geo.tri_xy
    defenders = [[*xy[t], p] for p in (0, 1) for t in geo.bits_to_tris(s.defender_bits[p])]
    defenders.sort(key=lambda e: (e[1], e[0]))
    attackers = [[*bd.hex_qr[h], s.attacker_at[h]] for h in range(NUM_HEXES) if s.attacker_at[h] >= 0]
    resources = []
    for h in sorted(s.resource_hexes):
        owner = None if s.resource_at[h] == NEUTRAL else s.resource_at[h]
        resources.append([*bd.hex_qr[h], owner, s.prisoners_under[h]])
    return {
        "phase": PHASE_NAMES[s.phase],
        "current": s.acting_seat,
        "substep": SUBSTEP_NAMES[s.substep],
        "selected": list(xy[s.selected]) if s.selected >= 0 else None,
        "moved": [list(xy[t]) for t in geo.bits_to_tris(s.moved_defenders)],
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


def _named(value, names: tuple[str, ...], key: str) -> int:
    if value not in names:
        raise ValueError(f"{GAME_NAME}: {key} must be one of {list(names)}, got {value!r}")
    return names.index(value)


def _triangle(geo, coords) -> int:
    key = (int(coords[0]), int(coords[1]))
    if key not in geo.tri_index:
        raise ValueError(f"{GAME_NAME}: no triangle at {key}")
    return geo.tri_index[key]


def _hex(geo, coords) -> int:
    key = (int(coords[0]), int(coords[1]))
    if key not in geo.hexes.index:
        raise ValueError(f"{GAME_NAME}: no hex at {key}")
    return geo.hexes.index[key]


def _load_pieces(s, d: dict) -> None:
    """Defenders, attackers and resources (with placed counts) from their lists."""
    geo = s.game.board.geo
    for entry in d.get("defenders", []):
        s.defender_bits[_seat(entry[2])] |= geo.bit_tri[_triangle(geo, entry)]
    for entry in d.get("attackers", []):
        h, seat = _hex(geo, entry), _seat(entry[2])
        s.attacker_at[h] = seat
        s.attacker_hexes[seat].append(h)
        s.attacker_bits[seat] |= geo.bit_hex[h]
    for entry in d.get("resources", []):
        h = _hex(geo, entry)
        owner = entry[2] if len(entry) > 2 else None
        s.resource_at[h] = NEUTRAL if owner is None else _seat(owner)
        s.prisoners_under[h] = int(entry[3]) if len(entry) > 3 else 0
        s.resource_hexes.append(h)
        s.resource_bits[s.resource_at[h]] |= geo.bit_hex[h]
        if owner is not None:
            s.placed[s.resource_at[h]] += 1


def _load_counts(s, d: dict) -> None:
    """Reserve, unplaced defenders and hand: given, or what the pieces leave over."""
    game = s.game
    held = [0, 0]  # seat p's attackers held under the opponent's resources
    for h in s.resource_hexes:
        if s.resource_at[h] in (0, 1):
            held[1 - s.resource_at[h]] += s.prisoners_under[h]
    left_over = [max(0, game.attackers_per_player - len(s.attacker_hexes[p]) - held[p]) for p in (0, 1)]
    s.reserve = _pair(d.get("reserve_attackers"), left_over)
    if s.phase == Phase.PLACEMENT:
        unplaced = [max(0, game.defenders_per_player - s.defender_bits[p].bit_count()) for p in (0, 1)]
    else:
        unplaced = [0, 0]
    s.unplaced = _pair(d.get("unplaced_defenders"), unplaced)
    s.hand = _pair(d.get("hand"), [0, 0])
    s.main_turns = int(d.get("main_turns", 0))


def _load_turn(s, d: dict) -> None:
    """The turn in progress (selection, moved defenders) and the end of the game."""
    geo = s.game.board.geo
    s.selected = _triangle(geo, d["selected"]) if d.get("selected") is not None else -1
    for coords in d.get("moved", []):
        s.moved_defenders |= geo.bit_tri[_triangle(geo, coords)]
    s.moves_this_turn = s.moved_defenders.bit_count()
    if s.selected >= 0:
        s._destinations = s._dest_bits(s.acting_seat, s.selected)
    winner = d.get("winner")
    if winner is not None:
        s._terminal = True
        s.winner = _seat(winner)
    elif d.get("truncated"):
        s._truncated = True
    else:
        s._start_turn()


def state_from_dict(game, d: dict):
    s = AmethystAmberState(game, rng_from_dict(d["rng"]) if d.get("rng") else make_rng(None))
    s.phase = Phase(_named(d.get("phase", "main"), PHASE_NAMES, "phase"))
    s.acting_seat = _seat(d.get("current", 0))
    s.substep = Substep(_named(d.get("substep", "turn_start"), SUBSTEP_NAMES, "substep"))
    _load_pieces(s, d)
    _load_counts(s, d)
    _load_turn(s, d)
    return s
