"""One configuration as the game row every kernel reads (built once per Game)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.compiled.kernel import cached_game_row
from meeplezoo.envs.princes_of_amber.cards import NUM_PRINCES, Kind
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel.row_fields import DICE_CAPACITY


def game_row(game) -> np.ndarray:
    """The int64 game row of ``game`` (cached on it: a Game's settings never change)."""
    return cached_game_row(game, _build)


def _build(game) -> np.ndarray:
    config = game.config
    row = np.zeros(S.GAME_WIDTH, dtype=np.int64)
    row[S.G_NUM_PLAYERS], row[S.G_NUM_CARDS] = game.num_players, game.num_cards
    row[S.G_CARD_KIND : S.G_CARD_KIND + game.num_cards] = game.card_kind
    row[S.G_KIND_COPIES : S.G_KIND_COPIES + S.NUM_KINDS] = game.kind_copies
    attributes = np.asarray(game.table_attributes, dtype=np.int64).reshape(-1)
    row[S.G_TABLE_ATTRIBUTES : S.G_TABLE_ATTRIBUTES + len(attributes)] = attributes
    row[S.G_GARRISON_START], row[S.G_STARTING_HAND] = config["garrison_start"], config["starting_hand"]
    row[S.G_HOLD_TURNS], row[S.G_MAX_TURNS] = game.hold_turns, game.max_turns
    row[S.G_ROLLED_ATTRIBUTES] = config["attribute_mode"] == "rolled"
    row[S.G_ALLOW_SUPPORT], row[S.G_REGENT_OFFERS] = game.allow_support, game.regent_offers
    row[S.G_PROMPT_ONLY_IF_PLAYABLE] = game.prompt_only_if_playable
    row[S.G_ALL_LORDS_DEFEND] = game.all_lords_defend
    row[S.G_AMBER_FIRST] = config["truncation_ranking"] == "amber_first"
    dice = list(config["dice_override"] or [])
    if len(dice) > DICE_CAPACITY:
        raise ValueError(
            f"{game.info.name}: {len(dice)} scripted dice do not fit the compiled row's {DICE_CAPACITY}"
        )
    row[S.G_DICE_COUNT] = len(dice)
    row[S.G_DICE : S.G_DICE + len(dice)] = dice
    override = [int(Kind[name]) for name in config["deck_override"] or ()]
    row[S.G_DECK_OVERRIDE_COUNT] = len(override)
    row[S.G_DECK_OVERRIDE : S.G_DECK_OVERRIDE + len(override)] = override
    order = config["prince_order_override"]
    row[S.G_PRINCE_ORDER : S.G_PRINCE_ORDER + NUM_PRINCES] = (
        [-1] * NUM_PRINCES if order is None else list(order)
    )
    return row
