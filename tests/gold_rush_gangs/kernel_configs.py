"""Configurations the kernel's differential tests share: the game's own test
configurations, and small boards where random play wins, breaks the bank and
fights often (every scoring option, bank rule, deck mode and frame)."""

from __future__ import annotations

from meeplezoo.envs.gold_rush_gangs.rules import GoldRushGangsGame

SMALL = {"radius": 4, "territory_radius": 2, "min_unit_spacing": 2, "max_rounds": 25}
CONFIGS = (
    [{"max_rounds": 30}]
    + GoldRushGangsGame.test_configs
    + [
        {**SMALL, "win_sacks": 1, "bank_threshold": 2},
        {**SMALL, "win_sacks": 2, "reward_scheme": "win_only", "store_placement": "fixed", "bank_sacks": 9},
        {**SMALL, "win_sacks": 2, "deck_mode": "iid", "bank_progress": "per_player", "bank_threshold": 1},
        {**SMALL, "win_sacks": 3, "truncation_scoring": "rank", "relative_frame": False, "base_ap": 12},
        {**SMALL, "win_sacks": 2, "ap_bonus_immediate": False, "bank_threshold": 0, "bank_sacks": 0},
        {
            **SMALL,
            "radius": 5,
            "territory_radius": 3,
            "base_radius": 2,
            "min_unit_spacing": 1,
            "win_sacks": 2,
        },
        {**SMALL, "max_rounds": 2, "truncation_scoring": "rank"},
    ]
)
GAMES: dict[int, GoldRushGangsGame] = {}


def game_of(index: int) -> GoldRushGangsGame:
    if index not in GAMES:
        GAMES[index] = GoldRushGangsGame(**CONFIGS[index])
    return GAMES[index]
