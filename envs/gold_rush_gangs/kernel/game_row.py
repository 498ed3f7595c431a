"""One configuration as the game row every kernel reads (built once per Game)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.kernel import cached_game_row
from meeplezoo.envs.gold_rush_gangs.actions import ActionKind
from meeplezoo.envs.gold_rush_gangs.geometry import deploy_candidates
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.pieces import NUM_SEATS


def game_row(game) -> np.ndarray:
    """The int64 game row of ``game`` (cached on it: a Game's settings never change)."""
    return cached_game_row(game, _build)


def _build(game) -> np.ndarray:
    geo, cfg = game.geo, game.config
    row = np.zeros(S.GAME_WIDTH, dtype=np.int64)
    row[S.G_NUM_CELLS], row[S.G_RADIUS], row[S.G_SIDE] = geo.num_cells, geo.radius, 2 * geo.radius + 1
    row[S.G_BANK] = geo.bank
    row[S.G_HOMES : S.G_HOMES + NUM_SEATS] = geo.homes
    row[S.G_BASE_AP], row[S.G_WIN_SACKS] = game.base_ap, game.win_sacks
    row[S.G_BANK_SACKS], row[S.G_BANK_THRESHOLD] = cfg["bank_sacks"], game.bank_threshold
    row[S.G_PER_PLAYER_BANK], row[S.G_INDEPENDENT_DRAWS] = game.per_player_bank, game.independent_draws
    row[S.G_DELIVERY_BONUS_NOW], row[S.G_ZERO_SUM] = game.delivery_bonus_now, game.zero_sum_rewards
    row[S.G_RANK_AT_TRUNCATION], row[S.G_MAX_TURNS] = game.rank_at_truncation, game.max_turns
    row[S.G_CHOOSE_STORES], row[S.G_STEPS_PER_SEAT] = game.choose_stores, game.setup_steps_per_seat
    row[S.G_SPACING] = geo.spacing
    row[S.G_AP_SCALE] = max(12, game.base_ap + game.win_sacks - 1)  # observe.Encoder.ap_scale
    row[S.G_FIXED_STORES : S.G_FIXED_STORES + NUM_SEATS] = geo.fixed_stores
    _put_cells(row, game)
    _put_frames(row, game)
    blocks = game.layout
    row[S.G_BLOCK_STORE] = blocks.start(ActionKind.STORE)
    row[S.G_BLOCK_DEPLOY] = blocks.start(ActionKind.DEPLOY)
    row[S.G_BLOCK_MOVE] = blocks.start(ActionKind.MOVE)
    row[S.G_BLOCK_PICKUP] = blocks.start(ActionKind.PICKUP)
    row[S.G_BLOCK_BREAK] = blocks.start(ActionKind.BREAK_BANK)
    row[S.G_BLOCK_END] = blocks.start(ActionKind.END_TURN)
    row[S.G_NUM_ACTIONS] = game.num_actions
    return row


def _put_cells(row: np.ndarray, game) -> None:
    """Per cell: its coordinates, regions, neighbours and whether a first thief may go there."""
    geo = game.geo
    for cell, (q, r) in enumerate(geo.coords):
        row[S.G_Q + cell], row[S.G_R + cell] = q, r
        row[S.G_BASE_OWNER + cell] = geo.base_owner[cell]
        row[S.G_TERRITORY_BITS + cell] = sum(1 << p for p in range(NUM_SEATS) if cell in geo.territory[p])
        row[S.G_NEUTRAL_RIM + cell] = cell in geo.neutral_border
        row[S.G_AROUND_BANK + cell] = cell in geo.around_bank
        at = S.G_NEIGHBORS + cell * S.NUM_DIRECTIONS
        row[at : at + S.NUM_DIRECTIONS] = geo.neighbors[cell]
    for seat in range(NUM_SEATS):
        for cell in deploy_candidates(geo, seat, []):
            row[S.G_FIRST_CANDIDATES + cell] |= 1 << seat
        cells = geo.deployable[seat]
        row[S.G_DEPLOYABLE_COUNT + seat] = len(cells)
        at = S.G_DEPLOYABLE + seat * S.MOST_CELLS
        row[at : at + len(cells)] = cells


def _put_frames(row: np.ndarray, game) -> None:
    """Each seat's frame (cells and directions) and each viewer's plane offsets."""
    geo = game.geo
    encoder = game.observer
    count = geo.num_cells
    for seat in range(NUM_SEATS):
        at = seat * S.MOST_CELLS
        row[S.G_TO_RELATIVE + at : S.G_TO_RELATIVE + at + count] = geo.to_relative[seat]
        row[S.G_TO_ABSOLUTE + at : S.G_TO_ABSOLUTE + at + count] = geo.to_absolute[seat]
        row[S.G_OFFSET + at : S.G_OFFSET + at + count] = encoder.offset[seat]
        at = S.G_DIRECTION_TO_ABSOLUTE + seat * S.NUM_DIRECTIONS
        row[at : at + S.NUM_DIRECTIONS] = geo.direction_to_absolute[seat]
        template = encoder.templates[seat]
        ones = np.flatnonzero(template)
        if not (template[ones] == 1.0).all():
            raise ValueError("the observation's static planes must hold ones only")
        row[S.G_STATIC_COUNT + seat] = len(ones)
        at = S.G_STATIC_ONES + seat * S.STATIC_CAPACITY
        row[at : at + len(ones)] = ones
