"""Evaluation of a policy against fixed bots: one policy seat, every other
seat a bot of one spec, seats rotating so no seat advantage is kept.

:func:`versus` runs it through the arena (``agents.arena.tournament``), which
also rates the entrants; :func:`head_to_head` is the same measure on a plain
loop, used when the arena is not installed.
"""

from __future__ import annotations

import math

import numpy as np

from agents.base import SeatView
from envs.core.state import Game, make_rng
from training.league import PolicyOpponent, make_bot


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a rate (draws may count as halves)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def head_to_head(
    game: Game,
    policy,
    opponent: str,
    games: int,
    seed: int = 0,
    deterministic: bool = False,
) -> dict:
    """Play ``games`` games of ``policy`` against ``opponent`` bots.

    Returns counts of wins (the policy alone best), draws (best, shared) and
    losses, the win rate, the score rate (draws count half) with its 95%
    interval, and the mean return of the policy's seat.
    """
    n = game.num_players
    rng = make_rng(seed)
    wins = draws = losses = 0
    total_return = 0.0
    lengths = 0
    for i in range(games):
        seat = i % n
        state = game.new_initial_state(int(rng.integers(2**63 - 1)))
        players = {}
        for p in range(n):
            if p == seat:
                players[p] = PolicyOpponent(policy, deterministic=deterministic)
            else:
                players[p] = make_bot(opponent)
            players[p].reset(int(rng.integers(2**63 - 1)))
        while not state.done:
            p = state.current_player
            agent = players[p]
            obs = {"observation": state.observation(p), "action_mask": state.legal_action_mask().astype(np.int8)}
            view = SeatView(state, p) if agent.needs_view else None
            state.apply(int(agent.act(obs, view)))
            lengths += 1
        returns = state.returns()
        best = returns.max()
        total_return += float(returns[seat])
        if returns[seat] == best:
            if int((returns == best).sum()) == 1:
                wins += 1
            else:
                draws += 1
        else:
            losses += 1
    score = wins + 0.5 * draws
    lo, hi = wilson_interval(score, games)
    return {
        "opponent": opponent,
        "players": n,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "score_rate": score / games if games else 0.0,
        "score_ci95": [lo, hi],
        "mean_return": total_return / games if games else 0.0,
        "mean_length": lengths / games if games else 0.0,
    }


def versus(game: Game, policy, opponent: str, games: int, seed: int = 0, deterministic: bool = False) -> dict:
    """The policy (sampled, or greedy with ``deterministic``) against
    ``num_players - 1`` copies of ``opponent`` for ``games`` games:
    :func:`head_to_head`'s dict plus openskill ordinals (``rating``,
    ``opponent_rating``) when the arena is there."""
    try:
        from agents.arena import tournament
    except ImportError:
        return head_to_head(game, policy, opponent, games, seed, deterministic)
    if games <= 0:
        return head_to_head(game, policy, opponent, 0, seed, deterministic)
    n = game.num_players
    entrants = [PolicyOpponent(policy, deterministic=deterministic, label="policy")] + [opponent] * (n - 1)
    result = tournament(game, entrants, games, players=n, seed=seed, workers=1, progress=False)
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
        "score_rate": score / games,
        "score_ci95": [lo, hi],
        "mean_return": result.mean_return("policy"),
        "mean_length": result.avg_length,
        "rating": result.ratings["policy"]["ordinal"],
        "opponent_rating": result.ratings[opponent]["ordinal"],
    }


def results_table(results: list[dict], title: str):
    """A rich Table of :func:`head_to_head` results."""
    from rich.table import Table

    table = Table(title=title)
    table.add_column("opponent")
    for col in ("games", "W/D/L", "win rate", "score, 95% CI", "mean return"):
        table.add_column(col, justify="right")
    for r in results:
        lo, hi = r["score_ci95"]
        table.add_row(
            r["opponent"], str(r["games"]), f"{r['wins']}/{r['draws']}/{r['losses']}", f"{r['win_rate']:.0%}",
            f"{r['score_rate']:.0%} [{lo:.0%}, {hi:.0%}]", f"{r['mean_return']:+.2f}",
        )
    return table
