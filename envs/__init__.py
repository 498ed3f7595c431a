"""meeplezoo environments: the registry of games.

``names()`` lists the games, ``make(name, **config)`` builds a PettingZoo AEC
env, ``make_vec(name, num_envs, **config)`` a batch of games on the compiled
engine, ``make_game(name, **config)`` the rules-layer Game for search and tests.
:data:`GAMES` below is the one list of games (as Pgx lists its env ids and
OpenSpiel registers each game by name): a new game adds its line there, beside
its entry module ``envs/<name>_v<k>.py``. Nothing here imports PettingZoo, so
``make_game`` and the rules modules stay pure; ``import meeplezoo`` does the
registration with PettingZoo.
"""

from __future__ import annotations

import difflib
import importlib
import re
from typing import Any

# Every game: its registry name (the entry module envs/<name>.py, which holds
# the PettingZoo env) and its Game class, imported from the game's package
# meeplezoo.envs.<name without version> (which also wires its observer).
GAMES: dict[str, str] = {
    "amethyst_amber_v0": "AmethystAmberGame",
    "amoeba_v0": "AmoebaGame",
    "gem_mountain_v0": "GemMountainGame",
    "gold_rush_gangs_v0": "GoldRushGangsGame",
    "princes_of_amber_v1": "AmberGame",
}

_VERSION_SUFFIX = re.compile(r"_v\d+$")

# Versions that were replaced by a newer one, and what agents would notice.
# Asking for one is an error that names its successor (as PettingZoo's
# DeprecatedEnv does), never a silent build of different rules.
RETIRED = {
    "princes_of_amber_v0": (
        "princes_of_amber_v1",
        "every free Lord now defends Amber, and response windows no longer show hands",
    ),
}


def strip_version(name: str) -> str:
    """``name`` without its ``_v<k>`` version suffix (``gem_mountain_v0`` ->
    ``gem_mountain``): the family name that folders, rules pages and run
    directories use, which stays put when a game's version moves on."""
    return _VERSION_SUFFIX.sub("", name)


def names() -> list[str]:
    """Registered game names, e.g. ``["amethyst_amber_v0", "gem_mountain_v0"]``."""
    return sorted(GAMES)


def _refuse_retired(name: str) -> None:
    if name in RETIRED:
        successor, change = RETIRED[name]
        raise ValueError(f"{name} was replaced by {successor} ({change}); make {successor!r} instead")


def _module(name: str):
    """The entry module of a registered name (it imports PettingZoo)."""
    return importlib.import_module(f"{__name__}.{name}")


def resolve(name: str) -> str:
    """Accept a name with or without its version suffix (``gem_mountain``)."""
    if name in names():
        return name
    _refuse_retired(name)
    matches = [n for n in names() if strip_version(n) == name]
    if len(matches) == 1:
        return matches[0]
    known = names() + [strip_version(n) for n in names()]
    close = difflib.get_close_matches(str(name), known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown game {name!r}{hint}; known games: {', '.join(names())}")


def make(name: str, **config: Any):
    """A PettingZoo AEC env of the game ``name``."""
    return _module(resolve(name)).env(**config)


def make_vec(name: str, num_envs: int, **config: Any):
    """``num_envs`` games of ``name`` on its compiled kernel, stepped at once
    (:class:`~meeplezoo.envs.core.compiled.vector.VecEnv`, Pgx's field names)."""
    from meeplezoo.envs.core.compiled.vector import VecEnv

    return VecEnv(make_game(name, **config), num_envs)


def make_gym_vec(name: str, num_envs: int, seat: int = 0, **config: Any):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` compiled games: one learning
    ``seat``, the other seats played by random legal moves inside the engine
    (:class:`~meeplezoo.envs.core.compiled.gym_vector.LearnerVectorEnv`)."""
    from meeplezoo.envs.core.compiled.gym_vector import LearnerVectorEnv

    return LearnerVectorEnv(make_game(name, **config), num_envs, seat=seat)


def game_class(name: str):
    """The rules-layer Game class of ``name`` (with or without its version),
    imported from the game's package alone: no PettingZoo, no Gymnasium."""
    registered = resolve(name)
    package = importlib.import_module(f"{__name__}.{strip_version(registered)}")
    return getattr(package, GAMES[registered])


def make_game(name: str, **config: Any):
    """The rules-layer Game (no PettingZoo) for ``name`` and ``config``."""
    return game_class(name)(**config)
