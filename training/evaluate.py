"""Evaluation of a policy against fixed bots: one policy seat, every other
seat a bot of one spec, seats rotating so no seat advantage is kept. It runs
through the arena (``meeplezoo.agents.arena.tournament``), which also rates the
entrants.
"""

from __future__ import annotations

from collections.abc import Callable

from meeplezoo.agents.arena import tournament
from meeplezoo.agents.arena_report import wilson_interval
from meeplezoo.envs.core.state import Game
from meeplezoo.training.league import PolicyOpponent


def versus(
    game: Game,
    policy,
    opponent: str,
    games: int,
    seed: int = 0,
    deterministic: bool = False,
    progress: bool | Callable[[int, int], None] = False,
) -> dict:
    """The policy (sampled, or greedy with ``deterministic``) against
    ``num_players - 1`` copies of ``opponent`` for ``games`` games:
    counts of wins (the policy alone best), draws and losses, win and score
    rates (draws count half) with 95% intervals of both, the policy's mean
    return, the mean game length and both openskill ordinals (``rating``,
    ``opponent_rating``). ``progress`` is the arena's: a bar, or a function
    called with (games done, games)."""
    n = game.num_players
    if games <= 0:
        return {
            "opponent": opponent,
            "players": n,
            "games": 0,
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "win_rate": 0.0,
            "win_ci95": [0.0, 1.0],
            "score_rate": 0.0,
            "score_ci95": [0.0, 1.0],
            "mean_return": 0.0,
            "mean_length": 0.0,
        }
    entrants = [PolicyOpponent(policy, deterministic=deterministic, label="policy")] + [opponent] * (n - 1)
    result = tournament(game, entrants, games, players=n, seed=seed, workers=1, progress=progress)
    wins = int(result.wins[0])
    draws = int(result.draws[0])
    score = wins + 0.5 * draws
    lo, hi = wilson_interval(score, games)
    return {
        "opponent": opponent,
        "players": n,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": wins / games,
        "win_ci95": list(wilson_interval(wins, games)),
        "score_rate": score / games,
        "score_ci95": [lo, hi],
        "mean_return": result.mean_return("policy"),
        "mean_length": result.avg_length,
        "rating": result.ratings["policy"]["ordinal"],
        "opponent_rating": result.ratings[opponent]["ordinal"],
    }
