"""One configuration as the game row every kernel reads (built once per Game)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.core.compiled.kernel import cached_game_row


def game_row(game) -> np.ndarray:
    """The int64 game row of ``game`` (cached on it: a Game's settings never change)."""
    return cached_game_row(game, _build)


def _build(game) -> np.ndarray:
    row = np.zeros(S.GAME_WIDTH, dtype=np.int64)
    row[S.G_MAX_MAIN_TURNS], row[S.G_WIN_RESOURCES] = game.max_main_turns, game.win_resources
    row[S.G_DEFENDERS], row[S.G_ATTACKERS] = game.defenders_per_player, game.attackers_per_player
    row[S.G_DEFENDER_RANGE], row[S.G_MAX_MOVES] = game.defender_range, game.max_defenders_per_turn
    row[S.G_GROUP_LIMIT], row[S.G_GROUP_BOTH] = game.group_limit, game.group_both_colours
    row[S.G_CAPACITY], row[S.G_GREEN_OWN_HALF] = game.resource_capacity, game.green_own_half
    row[S.G_BY_RESOURCES], row[S.G_MAIN_FIRST] = game.truncation_by_resources, game.main_first
    row[S.G_RELATIVE_FRAME] = game.relative_frame
    return row
