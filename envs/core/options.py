"""Config options declared once: type, allowed values, default and meaning.

A game lists its settings as ``options = {"key": integer(...), ...}``; from
that one declaration come the defaults, the checks ``Game.__init__`` runs on
every value (a ValueError naming the key and the value; nothing is built
when one fails) and the configuration table of the game's rules page
(:func:`markdown_table`, written by ``python -m meeplezoo.envs.rules_tables``).
Every number has an upper bound, so no setting can make one move run for
minutes. Checks that tie several keys together stay in the game's
``validate``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from meeplezoo.envs.core.integers import check_integer


@dataclass(frozen=True, slots=True)
class Option:
    """One setting. ``check(value, key, game_name)`` returns the value in its
    canonical form (a Python int, a bool...) or raises ValueError; ``allowed``
    says in words what it accepts (the rules page's "allowed" column)."""

    default: Any
    doc: str
    allowed: str
    check: Callable[[Any, str, str], Any]
    high: Any = None  # an integer option's largest value (layouts size their slots by it)
    low: Any = None  # an integer option's smallest value

    def validated(self, value: Any, key: str, game_name: str) -> Any:
        return self.check(value, key, game_name)


def integer(default: int | None, low: int, high: int, doc: str, *, allow_none: bool = False) -> Option:
    """An integer from ``low`` to ``high`` (or None when ``allow_none``)."""

    def check(value: Any, key: str, game_name: str) -> int | None:
        if value is None and allow_none:
            return None
        return check_integer(value, f"{game_name}: {key}{' (or None)' if allow_none else ''}", low, high)

    return Option(default, doc, f"{low}..{high}" + (" or none" if allow_none else ""), check, high, low)


def number(default: float, low: float, high: float, doc: str) -> Option:
    """A real number from ``low`` to ``high`` (integers accepted, stored as float)."""

    def check(value: Any, key: str, game_name: str) -> float:
        ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)
        )
        if not ok or not low <= value <= high:
            raise ValueError(f"{game_name}: {key} must be a number from {low} to {high}, got {value!r}")
        return float(value)

    return Option(default, doc, f"{low}..{high}", check)


def flag(default: bool, doc: str) -> Option:
    """True or False (numpy bools accepted, stored as bool)."""

    def check(value: Any, key: str, game_name: str) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{game_name}: {key} must be True or False, got {value!r}")
        return bool(value)

    return Option(default, doc, "true, false", check)


def choice(default: Any, choices: tuple, doc: str) -> Option:
    """One of a fixed tuple of values (strings, usually)."""

    def check(value: Any, key: str, game_name: str) -> Any:
        if isinstance(value, (list, dict)) or value not in choices:
            raise ValueError(f"{game_name}: {key} must be one of {choices}, got {value!r}")
        return value

    return Option(default, doc, ", ".join(f"`{c}`" for c in choices), check)


def custom(default: Any, doc: str, allowed: str, check: Callable[[Any, str, str], Any]) -> Option:
    """A structured value (a scripted die, a deck override...) checked by
    ``check(value, key, game_name)``, which returns the canonical value."""
    return Option(default, doc, allowed, check)


def defaults_of(options: Mapping[str, Option]) -> dict[str, Any]:
    return {key: option.default for key, option in options.items()}


def validated_config(
    options: Mapping[str, Option], config: Mapping[str, Any], game_name: str
) -> dict[str, Any]:
    """Every option's value checked and put in canonical form, in declaration
    order (so the first bad key in the declaration is the one named)."""
    return {key: option.validated(config[key], key, game_name) for key, option in options.items()}


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"`{value}`"
    return f"`{value!r}`" if isinstance(value, (list, tuple, dict)) else str(value)


def markdown_table(options: Mapping[str, Option]) -> str:
    """The configuration table of a rules page: key, default, allowed values, effect."""
    lines = ["| key | default | allowed | effect |", "|---|---|---|---|"]
    for key, option in options.items():
        allowed = option.allowed.replace("|", "\\|")
        lines.append(f"| `{key}` | {_shown(option.default)} | {allowed} | {option.doc} |")
    return "\n".join(lines)
