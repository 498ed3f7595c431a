"""Princes of Amber's rules (no PettingZoo here), module by module.

- ``game``: the options and ``AmberGame`` (one configuration);
- ``state``: ``AmberState`` (one position), its declared fields and the
  driver that runs the resolution stack;
- ``hands`` and ``throne``: the state's cards and memories, and the
  princes' posts and Amber's holder (base classes of the state);
- ``frames``: the records of the resolution stack and their steps;
- ``acts``: what each card and non-card action does (``RULES``);
- ``windows``, ``turn``, ``contests``, ``wars``: the handlers of the frame
  kinds, tabled in ``handlers``;
- ``estimate`` and ``determinize``: the position estimate and the redeal
  search bots use; ``position``: the checks of a loaded position.

This module gathers the names other code imports.
"""

from __future__ import annotations

from meeplezoo.envs.princes_of_amber.game import MAX_DECK_CARDS, OPTIONS, AmberGame
from meeplezoo.envs.princes_of_amber.handlers import AUTOMATIC, DECISIONS
from meeplezoo.envs.princes_of_amber.state import NOBODY_HAS_A_PRINCE, AmberState

__all__ = [
    "AUTOMATIC",
    "DECISIONS",
    "MAX_DECK_CARDS",
    "NOBODY_HAS_A_PRINCE",
    "OPTIONS",
    "AmberGame",
    "AmberState",
]
