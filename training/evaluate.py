"""Head-to-head evaluation of a policy against fixed bots.

The policy takes seat ``i % n`` in game ``i`` (so no seat advantage is kept)
and every other seat is a fresh bot from the spec. Games run on the rules
layer in this process, which keeps the periodic evaluation cheap; the arena
(``agents.arena``) gives the full report with ratings for the final table.
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
    deterministic: bool = True,
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
