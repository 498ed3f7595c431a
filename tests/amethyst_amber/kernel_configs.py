"""Configurations the kernel's differential tests share: the game's own test
configurations and every option pushed to its ends."""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame

# short games that still capture: few defenders, many attackers, a near win
RAID = {"defenders_per_player": 2, "attackers_per_player": 10, "win_resources": 2, "max_main_turns": 400}
# longer games that place resources and take prisoners under them
HOARD = {"defenders_per_player": 2, "attackers_per_player": 10, "win_resources": 6, "max_main_turns": 300}
CONFIGS = (
    [{}]
    + AmethystAmberGame.test_configs
    + [
        RAID,
        HOARD,
        {**HOARD, "resource_capacity": 1, "green_scope": "own_half", "relative_frame": False},
        {**RAID, "truncation_result": "resources", "max_main_turns": 60, "main_first": "amethyst"},
        {"defenders_per_player": 0, "win_resources": 1, "attackers_per_player": 6},
        {"defenders_per_player": 12, "group_limit": 1, "defender_range": 30, "max_defenders_per_turn": 12},
        {"defenders_per_player": 12, "group_limit": 16, "group_limit_scope": "all", "defender_range": 1},
        {"max_main_turns": 1, "truncation_result": "resources"},
    ]
)
GAMES: dict[int, AmethystAmberGame] = {}


def game_of(index: int) -> AmethystAmberGame:
    if index not in GAMES:
        GAMES[index] = AmethystAmberGame(**CONFIGS[index])
    return GAMES[index]
