"""Checks for the test-hook config options that fix the deal (layout,
rotations, arrows, starting holdings).

Each check reads the whole structure at construction, so a bad override is a
ValueError naming the key, the entry and the
reason before any state exists. The checks that need the map size or the
seat count run in ``GemMountainGame.validate``, with the same words.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.core.state import integer_index
from meeplezoo.envs.gem_mountain.decisions import POSITIONS
from meeplezoo.envs.gem_mountain.tiles import CONTENT_NAMES, DESIGN_NAMES

MOST_HELD = 127  # starting copies of one content a seat may hold (the observation's ceiling)


def _entries(value: Any, key: str, game_name: str, what: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{game_name}: {key} must be None or a list of {what}, got {value!r}")
    return list(value)


def _integers(value: Any, key: str, game_name: str, low: int, high: int, what: str) -> list[int]:
    out = []
    for i, entry in enumerate(_entries(value, key, game_name, what)):
        index = integer_index(entry)
        if index is None or not low <= index <= high:
            raise ValueError(
                f"{game_name}: {key} entry {i} must be an integer from {low} to {high}, got {entry!r}"
            )
        out.append(index)
    return out


def check_layout(value: Any, key: str, game_name: str) -> Any:
    """None, or a tile name (None: an empty cell) per cell."""
    if value is None:
        return None
    for i, entry in enumerate(_entries(value, key, game_name, "tile names")):
        if entry is not None and (not isinstance(entry, str) or entry not in DESIGN_NAMES):
            raise ValueError(
                f"{game_name}: {key} entry {i} must be a tile name or None, got {entry!r}; "
                f"known tiles: {DESIGN_NAMES}"
            )
    return value


def check_rotations(value: Any, key: str, game_name: str) -> Any:
    """None, or a quarter-turn count 0..3 per cell."""
    if value is not None:
        _integers(value, key, game_name, 0, 3, "rotations")
    return value


def check_arrows(value: Any, key: str, game_name: str) -> Any:
    """None, or a starting position 0..7 per arrow."""
    if value is not None:
        _integers(value, key, game_name, 0, POSITIONS - 1, "arrow positions")
    return value


def check_holdings(value: Any, key: str, game_name: str) -> Any:
    """None, or per seat a dict of content name -> copies, with an optional
    ``"secret"`` entry naming the seat's secret start tile."""
    if value is None:
        return None
    for seat, holding in enumerate(_entries(value, key, game_name, "dicts")):
        if not isinstance(holding, dict):
            raise ValueError(f"{game_name}: {key} entry {seat} must be a dict, got {holding!r}")
        for name, count in holding.items():
            where = f"{game_name}: {key} seat {seat}"
            if name == "secret":
                if not isinstance(count, str) or count not in CONTENT_NAMES:
                    raise ValueError(f"{where}: the secret tile must be a gem or action name, got {count!r}")
                continue
            if not isinstance(name, str) or name not in CONTENT_NAMES:
                raise ValueError(f"{where}: {name!r} is not a gem or action name (or 'secret')")
            copies = integer_index(count)
            if copies is None or not 0 <= copies <= MOST_HELD:
                raise ValueError(f"{where}: {name} must be held 0 to {MOST_HELD} times, got {count!r}")
    return value
