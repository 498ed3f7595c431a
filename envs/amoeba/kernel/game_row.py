"""One configuration as the game row every kernel reads (built once per Game)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amoeba.kernel import slots as S
from meeplezoo.envs.core.compiled.kernel import cached_game_row


def game_row(game) -> np.ndarray:
    """The int64 game row of ``game`` (cached on it: a Game's settings never change)."""
    return cached_game_row(game, _build)


def _build(game) -> np.ndarray:
    cfg = game.config
    faces = list(cfg["die_faces"])
    script = list(cfg["dice_override"] or ())
    row = np.zeros(S.G_FACES + len(faces) + len(script), dtype=np.int64)
    row[S.G_NUM_PLAYERS], row[S.G_UNITS] = game.num_players, game.units
    row[S.G_CENTER], row[S.G_NUCLEI] = game.geo.center_anchor, cfg["nuclei_per_player"]
    row[S.G_HAND_SIZE], row[S.G_MIN_CLAIM] = cfg["hand_size"], cfg["min_claim_size"]
    row[S.G_MIN_SPLIT], row[S.G_MIN_PART] = cfg["min_split_size"], cfg["min_part_size"]
    row[S.G_ALLOW_ROTATION], row[S.G_REMOVE_STUCK] = cfg["allow_rotation"], cfg["remove_stuck_hand"]
    row[S.G_MAX_TURNS], row[S.G_RANK_REWARDS] = game.max_turns, cfg["reward_mode"] == "rank"
    row[S.G_CLAIM_ACTION] = game.claim_action
    pile = cfg["pile_override"]
    row[S.G_PILE_OVERRIDE_SIZE] = -1 if pile is None else len(pile)
    if pile is not None:
        row[S.G_PILE_OVERRIDE : S.G_PILE_OVERRIDE + len(pile)] = pile
    row[S.G_NUM_FACES], row[S.G_SCRIPT_SIZE] = len(faces), len(script)
    row[S.G_FACES : S.G_FACES + len(faces)] = faces
    row[S.G_FACES + len(faces) :] = script
    return row
