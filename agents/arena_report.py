"""What a tournament found: ratings, head-to-head matrix, seat win rates.

Ratings are openskill Plackett-Luce over each game's ranks, reported as the
ordinal mu - 3 sigma (a rating the bot is very likely above). When a bot fills
several seats of one table (fewer bots than seats), each seat is rated as its
own entry and the bot's rating moves by the mean of its seats' updates.

A bot *wins* a game when one of its seats is alone in first place; a shared
first place between different bots is a *draw*. Head to head, bot A beats bot
B in a game when A's best seat ranks above B's best seat.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meeplezoo.agents.arena import MatchResult


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound near 0 and 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _best_ranks(match: MatchResult, k: int) -> dict[int, int]:
    """Best (lowest) rank per entrant present in the match."""
    best: dict[int, int] = {}
    for seat, agent in enumerate(match.seating):
        best[agent] = min(best.get(agent, 10**9), match.ranks[seat])
    return best


def rate_matches(matches: list[MatchResult], k: int) -> list:
    """openskill Plackett-Luce ratings of the ``k`` entrants, game by game."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(k)]
    for match in matches:
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma)] for a in match.seating]
        new = model.rate(teams, ranks=list(match.ranks))
        for a in set(match.seating):
            seats = [s for s, who in enumerate(match.seating) if who == a]
            mu = ratings[a].mu + float(np.mean([new[s][0].mu - ratings[a].mu for s in seats]))
            sigma = math.sqrt(float(np.mean([new[s][0].sigma ** 2 for s in seats])))
            ratings[a] = model.rating(mu=mu, sigma=sigma)
    return ratings


@dataclass
class TournamentResult:
    game: str
    config: dict
    players: int
    agents: list[str]
    seed: int
    matches: list[MatchResult]
    ratings: dict[str, dict] = field(init=False)

    def __post_init__(self) -> None:
        k = len(self.agents)
        self.wins = np.zeros(k, int)
        self.draws = np.zeros(k, int)
        self.games = np.zeros(k, int)
        self.seat_games = np.zeros((k, self.players), int)
        self.seat_wins = np.zeros((k, self.players), int)
        self.seat_draws = np.zeros((k, self.players), int)
        self.h2h_wins = np.zeros((k, k), int)
        self.h2h_draws = np.zeros((k, k), int)
        self.h2h_games = np.zeros((k, k), int)
        self.return_sum = np.zeros(k)
        self.seats_played = np.zeros(k, int)
        self.decisions = np.zeros(k, int)
        self.decision_time = np.zeros(k)
        for m in self.matches:
            best = _best_ranks(m, k)
            top = [a for a, r in best.items() if r == 1]
            for a in best:
                self.games[a] += 1
                if best[a] == 1:
                    if len(top) == 1:
                        self.wins[a] += 1
                    else:
                        self.draws[a] += 1
                for b in best:
                    if a != b:
                        self.h2h_games[a, b] += 1
                        if best[a] < best[b]:
                            self.h2h_wins[a, b] += 1
                        elif best[a] == best[b]:
                            self.h2h_draws[a, b] += 1
            for seat, a in enumerate(m.seating):
                self.seat_games[a, seat] += 1
                if m.ranks[seat] == 1:
                    if len(top) == 1:
                        self.seat_wins[a, seat] += 1
                    else:
                        self.seat_draws[a, seat] += 1
                self.return_sum[a] += m.returns[seat]
                self.seats_played[a] += 1
                self.decisions[a] += m.decisions[seat]
                self.decision_time[a] += m.decision_time[seat]
        rated = rate_matches(self.matches, k)
        self.ratings = {
            name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma}
            for name, r in zip(self.agents, rated)
        }

    # --- questions --------------------------------------------------------------
    def _index(self, agent: str) -> int:
        try:
            return self.agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r} in this tournament; agents: {self.agents}") from None

    def leaderboard(self) -> list[str]:
        """Agents from the highest rating (ordinal) down."""
        return sorted(self.agents, key=lambda a: -self.ratings[a]["ordinal"])

    def win_rate(self, agent: str, against: str | None = None) -> float:
        """Share of games won outright, overall or head to head."""
        a = self._index(agent)
        if against is None:
            return float(self.wins[a] / self.games[a]) if self.games[a] else 0.0
        b = self._index(against)
        g = self.h2h_games[a, b]
        return float(self.h2h_wins[a, b] / g) if g else 0.0

    def draw_rate(self, agent: str, against: str | None = None) -> float:
        a = self._index(agent)
        if against is None:
            return float(self.draws[a] / self.games[a]) if self.games[a] else 0.0
        b = self._index(against)
        g = self.h2h_games[a, b]
        return float(self.h2h_draws[a, b] / g) if g else 0.0

    def win_interval(self, agent: str) -> tuple[float, float]:
        a = self._index(agent)
        return wilson_interval(self.wins[a], int(self.games[a]))

    def seat_win_rates(self, agent: str) -> list[dict]:
        """Per seat: games, win rate and its 95% interval."""
        a = self._index(agent)
        out = []
        for seat in range(self.players):
            n = int(self.seat_games[a, seat])
            w = int(self.seat_wins[a, seat])
            lo, hi = wilson_interval(w, n)
            out.append(
                {
                    "seat": seat,
                    "games": n,
                    "wins": w,
                    "draws": int(self.seat_draws[a, seat]),
                    "win_rate": w / n if n else 0.0,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
        return out

    def mean_return(self, agent: str) -> float:
        a = self._index(agent)
        return float(self.return_sum[a] / self.seats_played[a]) if self.seats_played[a] else 0.0

    def decision_ms(self, agent: str) -> float:
        """Average milliseconds per decision."""
        a = self._index(agent)
        return float(1000 * self.decision_time[a] / self.decisions[a]) if self.decisions[a] else 0.0

    def decisions_per_second(self, agent: str) -> float:
        a = self._index(agent)
        return float(self.decisions[a] / self.decision_time[a]) if self.decision_time[a] else 0.0

    @property
    def avg_length(self) -> float:
        return float(np.mean([m.length for m in self.matches])) if self.matches else 0.0

    @property
    def truncated_share(self) -> float:
        return float(np.mean([m.truncated for m in self.matches])) if self.matches else 0.0

    def first_against_rest(self) -> dict:
        """The first agent's record against the agent in every other seat (a
        one-against-the-field match, as training and the benchmarks run them):
        wins alone at the top, draws, rates and both ordinals and decision times."""
        agent, opponent = self.agents[0], self.agents[1]
        wins, draws, games = int(self.wins[0]), int(self.draws[0]), int(self.games[0])
        return {
            "agent": agent,
            "opponent": opponent,
            "games": games,
            "wins": wins,
            "draws": draws,
            "win_rate": wins / games if games else 0.0,
            "win_ci95": list(wilson_interval(wins, games)),
            "score_rate": (wins + 0.5 * draws) / games if games else 0.0,
            "rating": self.ratings[agent]["ordinal"],
            "opponent_rating": self.ratings[opponent]["ordinal"],
            "ms_per_decision": self.decision_ms(agent),
            "opponent_ms_per_decision": self.decision_ms(opponent),
        }

    # --- serialising ------------------------------------------------------------
    def agent_rows(self) -> list[dict]:
        rows = []
        for name in self.leaderboard():
            lo, hi = self.win_interval(name)
            r = self.ratings[name]
            rows.append(
                {
                    "agent": name,
                    "ordinal": r["ordinal"],
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                    "games": int(self.games[self._index(name)]),
                    "win_rate": self.win_rate(name),
                    "win_ci_low": lo,
                    "win_ci_high": hi,
                    "draw_rate": self.draw_rate(name),
                    "mean_return": self.mean_return(name),
                    "decision_ms": self.decision_ms(name),
                }
            )
        return rows

    def pairwise_rows(self) -> list[dict]:
        rows = []
        for a, name_a in enumerate(self.agents):
            for b, name_b in enumerate(self.agents):
                if a != b and self.h2h_games[a, b]:
                    g = int(self.h2h_games[a, b])
                    rows.append(
                        {
                            "agent": name_a,
                            "opponent": name_b,
                            "games": g,
                            "wins": int(self.h2h_wins[a, b]),
                            "draws": int(self.h2h_draws[a, b]),
                            "losses": g - int(self.h2h_wins[a, b]) - int(self.h2h_draws[a, b]),
                        }
                    )
        return rows

    def seat_rows(self) -> list[dict]:
        return [{"agent": name, **row} for name in self.agents for row in self.seat_win_rates(name)]

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "config": self.config,
            "players": self.players,
            "seed": self.seed,
            "games": len(self.matches),
            "agents": self.agents,
            "avg_length": self.avg_length,
            "truncated_share": self.truncated_share,
            "ratings": self.ratings,
            "leaderboard": self.agent_rows(),
            "pairwise": self.pairwise_rows(),
            "seats": self.seat_rows(),
        }

    def to_json(self, path=None) -> str:
        text = json.dumps(self.to_dict(), indent=1)
        if path is not None:
            Path(path).write_text(text)
        return text

    def to_csv(self, directory) -> list[Path]:
        """Write leaderboard.csv, pairwise.csv, seats.csv and games.csv."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        games = [
            {
                "index": m.index,
                "seed": m.seed,
                "length": m.length,
                "truncated": m.truncated,
                **{f"seat{s}": m.agents[s] for s in range(self.players)},
                **{f"return{s}": m.returns[s] for s in range(self.players)},
            }
            for m in self.matches
        ]
        written = []
        for name, rows in (
            ("leaderboard", self.agent_rows()),
            ("pairwise", self.pairwise_rows()),
            ("seats", self.seat_rows()),
            ("games", games),
        ):
            path = directory / f"{name}.csv"
            with path.open("w", newline="") as fh:
                if rows:
                    writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
                    writer.writeheader()
                    writer.writerows(rows)
            written.append(path)
        return written

    def plot(self, path) -> Path:
        from meeplezoo.agents.arena_plot import draw_report

        image = draw_report(self)
        image.save(path)
        return Path(path)

    def save(self, out) -> Path:
        """Write summary.json, the CSVs, report.png and any replays to ``out``."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        self.to_json(out / "summary.json")
        self.to_csv(out)
        self.plot(out / "report.png")
        replays = [m for m in self.matches if m.replay is not None]
        if replays:
            (out / "replays").mkdir(exist_ok=True)
            for m in replays:
                m.replay.save(out / "replays" / f"game_{m.index:05d}.json")
        return out

    # --- terminal ---------------------------------------------------------------
    def tables(self) -> list:
        """rich Tables: leaderboard, head-to-head matrix, seat win rates."""
        return [self._leaderboard(), self._head_to_head(), self._seat_table()]

    def _leaderboard(self):
        from rich.table import Table

        board = Table(
            title=f"{self.game}: {len(self.matches)} games, {self.players} players, "
            f"avg length {self.avg_length:.1f} actions"
        )
        for col in (
            "agent",
            "rating (μ-3σ)",
            "μ ± σ",
            "games",
            "win %",
            "95% CI",
            "draw %",
            "mean return",
            "ms/decision",
        ):
            board.add_column(col, justify="left" if col == "agent" else "right")
        for row in self.agent_rows():
            board.add_row(
                row["agent"],
                f"{row['ordinal']:.2f}",
                f"{row['mu']:.1f} ± {row['sigma']:.1f}",
                str(row["games"]),
                f"{100 * row['win_rate']:.1f}",
                f"{100 * row['win_ci_low']:.1f}–{100 * row['win_ci_high']:.1f}",
                f"{100 * row['draw_rate']:.1f}",
                f"{row['mean_return']:+.3f}",
                f"{row['decision_ms']:.2f}",
            )
        return board

    def _head_to_head(self):
        from rich.table import Table

        matrix = Table(title="head to head: row's wins / draws / losses against column")
        matrix.add_column("")
        for name in self.agents:
            matrix.add_column(name, justify="right")
        for a, name in enumerate(self.agents):
            cells = []
            for b in range(len(self.agents)):
                g = self.h2h_games[a, b]
                if a == b or not g:
                    cells.append("—")
                else:
                    w, d = self.h2h_wins[a, b], self.h2h_draws[a, b]
                    cells.append(f"{w}/{d}/{g - w - d}")
            matrix.add_row(name, *cells)
        return matrix

    def _seat_table(self):
        from rich.table import Table

        seats = Table(title="win % by seat (95% CI)")
        seats.add_column("agent")
        for s in range(self.players):
            seats.add_column(f"seat {s}", justify="right")
        for name in self.agents:
            seats.add_row(
                name,
                *(
                    f"{100 * r['win_rate']:.0f} ({100 * r['ci_low']:.0f}–{100 * r['ci_high']:.0f}) n={r['games']}"
                    if r["games"]
                    else "—"
                    for r in self.seat_win_rates(name)
                ),
            )
        return seats

    def print(self, console=None) -> None:
        import sys

        from rich.console import Console

        # piped output gets room for the full tables instead of 80 columns
        console = console or Console(width=None if sys.stdout.isatty() else 150)
        for table in self.tables():
            console.print(table)
