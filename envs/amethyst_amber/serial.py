"""Positions as plain dicts, in absolute board coordinates.

Triangles are written as brick [X, Y], hexes as axial [q, r], seats as 0
(Amethyst) / 1 (Amber). ``state_from_dict`` fills missing keys so that test
positions can list only the pieces they need: counts default to what the
listed pieces leave over (reserve = attackers not on the board nor held,
unplaced defenders = 0 in the main phase), and defenders or resources left
out are out of the game. The generator entry ``rng`` is required.

Every entry is checked as it is read (types, coordinates on the board, one
piece per place, counts in range); how the entries fit together (every
attacker exactly once, the phase and sub-step fitting the pieces) is
checked by ``checks.check_position`` once the state is built.

The format lists pieces rather than the state's bitboards and per-hex
lists, so it is written here rather than from the state's field
declarations (those give the clone).
"""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES, PHASE_NAMES, SUBSTEP_NAMES, Phase, Substep
from meeplezoo.envs.amethyst_amber.rules import NEUTRAL, AmethystAmberState
from meeplezoo.envs.core.positions import PositionError, as_integer, as_list
from meeplezoo.envs.core.state import rng_from_dict, rng_to_dict

GAME_NAME = "amethyst_amber_v0"
SEAT_BY_NAME = {"amethyst": 0, "amber": 1, "player_0": 0, "player_1": 1}
COORDINATE_BOUND = 1000  # far outside the board: a coordinate beyond it is refused as a number


def _seat(value, what: str = "seat") -> int:
    """A seat given as 0 / 1 or by name ("amethyst", "amber", "player_0", "player_1")."""
    if isinstance(value, str):
        key = value.strip().lower()
        if key not in SEAT_BY_NAME:
            raise PositionError(f"{what} must be 0, 1 or one of {sorted(SEAT_BY_NAME)}, got {value!r}")
        return SEAT_BY_NAME[key]
    return as_integer(value, 0, 1, what)


def _pair(value, high: int, default: list[int]) -> list[int]:
    """A per-seat count in 0..high given as [a, b] or {seat: n} (unlisted seats: ``default``)."""
    if isinstance(value, dict):
        out = list(default)
        for key, count in value.items():
            seat = _seat(key, f"seat key {key!r}")
            out[seat] = as_integer(count, 0, high, f"seat {seat}'s count")
        return out
    return [as_integer(v, 0, high, f"seat {i}'s count") for i, v in enumerate(as_list(value, 2))]


def state_to_dict(state) -> dict:
    bd = state.game.board
    geo = bd.geo
    xy = geo.tri_xy
    defenders = [[*xy[t], p] for p in (0, 1) for t in geo.bits_to_tris(state.defender_bits[p])]
    defenders.sort(key=lambda entry: (entry[1], entry[0]))
    attackers = [[*bd.hex_qr[h], state.attacker_at[h]] for h in range(NUM_HEXES) if state.attacker_at[h] >= 0]
    resources = []
    for h in sorted(state.resource_hexes):
        owner = None if state.resource_at[h] == NEUTRAL else state.resource_at[h]
        resources.append([*bd.hex_qr[h], owner, state.prisoners_under[h]])
    return {
        "phase": PHASE_NAMES[state.phase],
        "current": state.acting_seat,
        "substep": SUBSTEP_NAMES[state.substep],
        "selected": list(xy[state.selected]) if state.selected >= 0 else None,
        "moved": [list(xy[t]) for t in geo.bits_to_tris(state.moved_defenders)],
        "defenders": defenders,
        "attackers": attackers,
        "resources": resources,
        "reserve_attackers": list(state.reserve),
        "unplaced_defenders": list(state.unplaced),
        "hand": list(state.hand),
        "main_turns": state.main_turns,
        "winner": state.winner if state._terminal else None,
        "truncated": state._truncated,
        "rng": rng_to_dict(state.rng),
    }


def _entry(data: dict, key: str, convert, default):
    """``convert(data[key])``, or ``default`` when the key is absent; a failed
    check names the entry."""
    if key not in data:
        return default
    try:
        return convert(data[key])
    except PositionError as exc:
        raise PositionError(f"{GAME_NAME}: position entry {key!r}: {exc}") from None


def _named(names: tuple[str, ...]):
    def convert(value) -> int:
        if not isinstance(value, str) or value not in names:
            raise PositionError(f"must be one of {list(names)}, got {value!r}")
        return names.index(value)

    return convert


def _coords(entry, length: tuple[int, ...], what: str) -> tuple[int, int]:
    if not isinstance(entry, list) or len(entry) not in length:
        shown = " or ".join(str(n) for n in length)
        raise PositionError(f"{what} must be a list of {shown} values, got {entry!r}")
    x = as_integer(entry[0], -COORDINATE_BOUND, COORDINATE_BOUND, f"{what} coordinate 0")
    y = as_integer(entry[1], -COORDINATE_BOUND, COORDINATE_BOUND, f"{what} coordinate 1")
    return x, y


def _triangle(geo, entry, what: str, length: tuple[int, ...] = (2,)) -> int:
    key = _coords(entry, length, what)
    if key not in geo.tri_index:
        raise PositionError(f"{what}: no triangle at {key}")
    return geo.tri_index[key]


def _hex(geo, entry, what: str, length: tuple[int, ...]) -> int:
    key = _coords(entry, length, what)
    if key not in geo.hexes.index:
        raise PositionError(f"{what}: no hex at {key}")
    return geo.hexes.index[key]


def _load_defenders(state, value) -> None:
    bd = state.game.board
    geo = bd.geo
    for i, entry in enumerate(as_list(value)):
        t = _triangle(geo, entry, f"entry {i}", (3,))
        seat = _seat(entry[2], f"entry {i} seat")
        if not bd.is_black[t]:
            raise PositionError(
                f"entry {i}: triangle {geo.tri_xy[t]} is yellow; defenders stand on black triangles"
            )
        if (state.defender_bits[0] | state.defender_bits[1]) & geo.bit_tri[t]:
            raise PositionError(f"entry {i}: triangle {geo.tri_xy[t]} already holds a defender")
        state.defender_bits[seat] |= geo.bit_tri[t]


def _load_attackers(state, value) -> None:
    geo = state.game.board.geo
    for i, entry in enumerate(as_list(value)):
        h = _hex(geo, entry, f"entry {i}", (3,))
        seat = _seat(entry[2], f"entry {i} seat")
        if state.attacker_at[h] >= 0:
            raise PositionError(f"entry {i}: hex {state.game.board.hex_qr[h]} already holds an attacker")
        state.attacker_at[h] = seat
        state.attacker_hexes[seat].append(h)
        state.attacker_bits[seat] |= geo.bit_hex[h]


def _load_resources(state, value) -> None:
    """Resources [q, r, owner or None, prisoners]: neutral ones on their red
    hexes without prisoners, placed ones on a green their owner may use."""
    game = state.game
    bd = game.board
    geo = bd.geo
    red = set(bd.red)
    for i, entry in enumerate(as_list(value)):
        what = f"entry {i}"
        h = _hex(geo, entry, what, (2, 3, 4))
        qr = bd.hex_qr[h]
        owner = entry[2] if len(entry) > 2 else None
        code = NEUTRAL if owner is None else _seat(owner, f"{what} owner")
        under = as_integer(entry[3], 0, game.resource_capacity, f"{what} prisoners") if len(entry) > 3 else 0
        if state.resource_at[h] >= 0:
            raise PositionError(f"{what}: hex {qr} already holds a resource")
        if state.attacker_at[h] >= 0:
            raise PositionError(
                f"{what}: hex {qr} holds an attacker; a piece stepping onto a resource takes it"
            )
        if code == NEUTRAL and h not in red:
            raise PositionError(f"{what}: a neutral resource lies only on a red hex, not on {qr}")
        if code == NEUTRAL and under:
            raise PositionError(f"{what}: a neutral resource holds no prisoners, got {under}")
        if code != NEUTRAL and h not in game.resource_greens[code]:
            raise PositionError(f"{what}: seat {code}'s resource cannot lie on {qr}, not a green it may use")
        state.resource_at[h] = code
        state.prisoners_under[h] = under
        state.resource_hexes.append(h)
        state.resource_bits[code] |= geo.bit_hex[h]
        if code != NEUTRAL:
            state.placed[code] += 1


def _load_counts(state, data: dict) -> None:
    """Reserve, unplaced defenders and hand: given, or what the pieces leave over."""
    game = state.game
    held = [0, 0]  # seat p's attackers held under the opponent's resources
    for h in state.resource_hexes:
        if state.resource_at[h] in (0, 1):
            held[1 - state.resource_at[h]] += state.prisoners_under[h]
    left_over = [max(0, game.attackers_per_player - len(state.attacker_hexes[p]) - held[p]) for p in (0, 1)]
    state.reserve = _entry(
        data, "reserve_attackers", lambda value: _pair(value, game.attackers_per_player, left_over), left_over
    )
    if state.phase == Phase.PLACEMENT:
        unplaced = [max(0, game.defenders_per_player - state.defender_bits[p].bit_count()) for p in (0, 1)]
    else:
        unplaced = [0, 0]
    state.unplaced = _entry(
        data, "unplaced_defenders", lambda value: _pair(value, game.defenders_per_player, unplaced), unplaced
    )
    state.hand = _entry(data, "hand", lambda value: _pair(value, len(game.board.red), [0, 0]), [0, 0])
    state.main_turns = _entry(data, "main_turns", lambda value: as_integer(value, 0, game.max_main_turns), 0)


def _moved(geo, value) -> int:
    bits = 0
    for i, coords in enumerate(as_list(value)):
        bit = geo.bit_tri[_triangle(geo, coords, f"entry {i}")]
        if bits & bit:
            raise PositionError(f"entry {i}: triangle {tuple(coords)} is listed twice")
        bits |= bit
    return bits


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"must be true or false, got {value!r}")
    return value


def _load_turn(state, data: dict) -> None:
    """The turn in progress (selection, moved defenders) and the end of the game."""
    geo = state.game.board.geo
    state.selected = _entry(
        data, "selected", lambda value: -1 if value is None else _triangle(geo, value, "the selection"), -1
    )
    state.moved_defenders = _entry(data, "moved", lambda value: _moved(geo, value), 0)
    state.moves_this_turn = state.moved_defenders.bit_count()
    winner = _entry(data, "winner", lambda value: None if value is None else _seat(value, "the winner"), None)
    truncated = _entry(data, "truncated", _flag, False)
    if winner is not None and truncated:
        raise PositionError(
            f"{GAME_NAME}: position entries 'winner' and 'truncated': a won game was not cut short"
        )
    if state.selected >= 0 and state.defender_bits[state.acting_seat] & geo.bit_tri[state.selected]:
        state._destinations = state._dest_bits(state.acting_seat, state.selected)
    if winner is not None:
        state._terminal = True
        state.winner = winner
    elif truncated:
        state._truncated = True
    else:
        state._start_turn()


def _generator(value):
    if not isinstance(value, dict):
        raise PositionError(f"must be a generator state (a dict), got {type(value).__name__}")
    try:
        return rng_from_dict(value)
    except (TypeError, ValueError, KeyError) as exc:
        raise PositionError(f"not a generator state ({type(exc).__name__}: {exc})") from None


def state_from_dict(game, data: dict):
    """Read a position, checking every entry as it is read (the state's
    ``check_position`` then checks how the entries fit together)."""
    if "rng" not in data:
        raise PositionError(f"{GAME_NAME}: the position has no 'rng' entry")
    s = AmethystAmberState(game, _entry(data, "rng", _generator, None))
    s.phase = Phase(_entry(data, "phase", _named(PHASE_NAMES), Phase.MAIN))
    s.acting_seat = _entry(data, "current", _seat, 0)
    s.substep = Substep(_entry(data, "substep", _named(SUBSTEP_NAMES), Substep.TURN_START))
    geo_entries = (
        ("defenders", _load_defenders),
        ("attackers", _load_attackers),
        ("resources", _load_resources),
    )
    for key, load in geo_entries:
        _entry(data, key, lambda value, load=load: load(s, value), None)
    _load_counts(s, data)
    _load_turn(s, data)
    return s
