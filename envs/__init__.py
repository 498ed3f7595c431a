"""meeplezoo environments: the registry of games.

``names()`` lists the games, ``make(name, **config)`` builds a PettingZoo AEC
env, ``make_vec(name, num_envs, **config)`` a batch of games on the compiled
engine, ``make_game(name, **config)`` the rules-layer Game for search and tests.
Every ``envs/<name>_v<k>.py`` module is a game entry and is found by itself.
Nothing here imports PettingZoo, so the rules modules below stay pure;
``import meeplezoo`` does the registration with PettingZoo.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

_HERE = Path(__file__).parent
_ENTRY = re.compile(r"^([a-z][a-z0-9_]*_v\d+)\.py$")


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
    return sorted(m.group(1) for p in _HERE.iterdir() if (m := _ENTRY.match(p.name)))


def _refuse_retired(name: str) -> None:
    if name in RETIRED:
        successor, change = RETIRED[name]
        raise ValueError(f"{name} was replaced by {successor} ({change}); make {successor!r} instead")


def _module(name: str):
    _refuse_retired(name)
    if name not in names():
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(names())}")
    return importlib.import_module(f"{__name__}.{name}")


def resolve(name: str) -> str:
    """Accept a name with or without its version suffix (``gem_mountain``)."""
    if name in names():
        return name
    _refuse_retired(name)
    matches = [n for n in names() if strip_version(n) == name]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(names())}")


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
    return _module(resolve(name)).raw_env.game_cls


def make_game(name: str, **config: Any):
    """The rules-layer Game (no PettingZoo) for ``name`` and ``config``."""
    return game_class(name)(**config)
