"""One configuration as the game row every kernel reads (built once per Game)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.kernel import cached_game_row
from meeplezoo.envs.gem_mountain import tiles
from meeplezoo.envs.gem_mountain.decisions import POSITIONS
from meeplezoo.envs.gem_mountain.kernel import slots as S
from meeplezoo.envs.gem_mountain.rules import START_TILES


def game_row(game) -> np.ndarray:
    """The int64 game row of ``game`` (cached on it: a Game's settings never change)."""
    return cached_game_row(game, _build)


def _build(game) -> np.ndarray:
    cfg = game.config
    row = np.zeros(S.GAME_WIDTH, dtype=np.int64)
    row[S.G_NUM_PLAYERS], row[S.G_ROWS], row[S.G_COLS] = game.num_players, game.rows, game.cols
    row[S.G_NUM_CELLS] = game.num_cells
    row[S.G_DARK_TUNNELS], row[S.G_TWO_ARROWS] = game.dark_tunnels, game.two_arrows
    row[S.G_ACTION_LIMIT] = game.action_limit
    row[S.G_START_TILES] = START_TILES.index(cfg["start_tiles"])
    row[S.G_SECRET_START_TILES] = game.secret_start_tiles
    row[S.G_CHOOSES_ARROW] = game.start_player_chooses_arrow
    row[S.G_MAX_TURNS] = game.max_turns
    row[S.G_RANK_REWARDS] = cfg["reward_mode"] == "rank"
    layout = game.fixed_layout
    split = layout is not None and not all(tiles.PLAIN[d] for d in layout if d is not None)
    row[S.G_SPLIT_TILES] = split or (layout is None and bool(cfg["gemshards"]))
    row[S.G_MODULE_FLAGS : S.G_MODULE_FLAGS + len(tiles.MODULES)] = [bool(cfg[k]) for k in tiles.MODULES]
    _put_list(row, S.G_POOL_SIZE, S.G_POOL, game.pool)
    base = tiles.module_pool(cfg) if layout is None else game.pool
    _put_list(row, S.G_BASE_POOL_SIZE, S.G_BASE_POOL, base)
    row[S.G_POOL_COUNTS : S.G_POOL_COUNTS + tiles.NUM_CONTENTS] = game.pool_counts
    _put_overrides(row, game)
    _put_geometry(row, game.geometry)
    _put_blocks(row, game.blocks)
    return row


def _put_list(row: np.ndarray, size_at: int, items_at: int, items: list[int]) -> None:
    row[size_at] = len(items)
    row[items_at : items_at + len(items)] = items


def _put_overrides(row: np.ndarray, game) -> None:
    cells = game.num_cells
    if game.fixed_layout is not None:
        row[S.G_FIXED_LAYOUT] = 1
        row[S.G_LAYOUT : S.G_LAYOUT + cells] = [-1 if d is None else d for d in game.fixed_layout]
    if game.fixed_rotations is not None:
        row[S.G_FIXED_ROTATIONS] = 1
        row[S.G_ROTATION_OVERRIDE : S.G_ROTATION_OVERRIDE + cells] = game.fixed_rotations
    if game.fixed_arrows is not None:
        row[S.G_FIXED_ARROWS] = len(game.fixed_arrows)
        row[S.G_ARROW_OVERRIDE : S.G_ARROW_OVERRIDE + len(game.fixed_arrows)] = game.fixed_arrows
    if game.fixed_holdings is not None:
        row[S.G_FIXED_HOLDINGS] = 1
        for seat, (gems, actions, secret) in enumerate(game.fixed_holdings):
            at = S.G_HOLDING_GEMS + seat * S.GEM_ROW
            row[at : at + S.GEM_ROW] = gems
            at = S.G_HOLDING_ACTIONS + seat * S.ACTION_ROW
            row[at : at + S.ACTION_ROW] = actions
            row[S.G_HOLDING_SECRETS + seat] = secret


def _put_geometry(row: np.ndarray, geo) -> None:
    for p in range(POSITIONS):
        at = S.G_DISTANCES + p * S.MOST_CELLS
        row[at : at + geo.num_cells] = geo.distances[p]
        row[S.G_DEPTH + p] = geo.depth[p]
        for k, layer in enumerate(geo.layers[p]):
            row[S.G_LAYER_SIZES + p * S.MOST_LAYERS + k] = len(layer)
            at = S.G_LAYER_CELLS + (p * S.MOST_LAYERS + k) * S.MOST_IN_A_LAYER
            row[at : at + len(layer)] = layer


def _put_blocks(row: np.ndarray, blocks) -> None:
    row[S.G_BLOCK_SECTION], row[S.G_BLOCK_USE], row[S.G_BLOCK_ARROW] = (
        blocks.section,
        blocks.use,
        blocks.arrow,
    )
    row[S.G_BLOCK_POSITION], row[S.G_BLOCK_CLOCKWISE] = blocks.position, blocks.clockwise
    row[S.G_BLOCK_OPPONENT], row[S.G_BLOCK_GEM] = blocks.opponent, blocks.gem
    row[S.G_BLOCK_DONE], row[S.G_BLOCK_PASS], row[S.G_NUM_ACTIONS] = (
        blocks.done,
        blocks.pass_turn,
        blocks.size,
    )
