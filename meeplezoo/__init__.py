"""meeplezoo: tabletop games as multi-agent reinforcement-learning environments.

``meeplezoo.make(name, **config)`` builds a PettingZoo AEC env (compiled
rules where the game has a kernel; ``backend="python"`` for the reference),
``meeplezoo.make_vec(name, num_envs, **config)`` a Pgx-style batch,
``meeplezoo.make_gym_vec(name, num_envs)`` a Gymnasium vector env for one seat,
``meeplezoo.make_game(name, **config)`` the pure rules-layer Game,
``meeplezoo.names()`` lists the games. Each game is also a module in the
PettingZoo classic style: ``from meeplezoo.envs import gem_mountain_v0``.

Importing meeplezoo registers every game with PettingZoo's registry
(``pettingzoo.make("aec", "meeplezoo/gem_mountain_v0")``). The registration
waits until PettingZoo itself is imported, so that importing a pure rules
module (``meeplezoo.envs.gem_mountain.rules``) never loads PettingZoo or
Gymnasium.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from importlib.metadata import PackageNotFoundError, version

from meeplezoo.envs import game_class, make, make_game, make_gym_vec, make_vec, names, resolve
from meeplezoo.envs.core.errors import UsageError

try:
    __version__ = version("meeplezoo")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = [
    "UsageError",
    "__version__",
    "game_class",
    "make",
    "make_game",
    "make_gym_vec",
    "make_vec",
    "names",
    "resolve",
]


def _register_games() -> None:
    """Make ``pettingzoo.make("aec", "meeplezoo/<name>")`` find every game.

    Entry points are strings, so nothing of the games loads here (this runs
    while a game module may itself be importing PettingZoo)."""
    try:
        from pettingzoo.env_registry.registration import aec_registry, register
    except ImportError:  # a PettingZoo release without a registry
        return
    for name in names():
        key = f"meeplezoo/{name}"
        if key not in aec_registry:
            register("aec", key, entry_point=f"meeplezoo.envs.{name}:env")


class _RegisterOnPettingZooImport(importlib.abc.MetaPathFinder):
    """Finds PettingZoo as usual and registers the games once it has loaded.

    Why a hook: PettingZoo 1.27's registry is a plain dict filled by
    ``register`` calls and reads no entry points, so the games are known to
    ``pettingzoo.make`` only if this package calls ``register`` after
    PettingZoo is imported; calling it here would import PettingZoo (and
    Gymnasium) with every ``import meeplezoo``, rules-only users included."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "pettingzoo":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            _register_games()

        spec.loader.exec_module = exec_module
        return spec


if "pettingzoo" in sys.modules:
    _register_games()
elif not any(isinstance(finder, _RegisterOnPettingZooImport) for finder in sys.meta_path):
    sys.meta_path.insert(0, _RegisterOnPettingZooImport())
