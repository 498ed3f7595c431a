"""Matches, seatings, determinism across runs and workers, and ratings."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.arena import MatchResult, play_match, schedule, tournament
from meeplezoo.agents.arena_report import TournamentResult, rate_matches, wilson_interval
from meeplezoo.agents.base import Agent
from meeplezoo.envs.core.replay import ReplayRecord, replay_final_state
from tests.core.toy_game import STOP, HighCardGame

TOY = HighCardGame(num_players=2)


def _key(result):
    return [(m.seating, m.returns, m.length, m.seed) for m in result.matches], result.ratings


def test_same_seed_same_tournament_whatever_the_workers():
    specs = ["random", "mcts:sims=10", "ismcts:sims=10"]
    first = tournament(TOY, specs, games=18, players=3, seed=5, progress=False)
    again = tournament(TOY, specs, games=18, players=3, seed=5, progress=False)
    parallel = tournament(TOY, specs, games=18, players=3, seed=5, workers=2, progress=False)
    assert _key(first) == _key(again) == _key(parallel)
    other = tournament(TOY, specs, games=18, players=3, seed=6, progress=False)
    assert _key(other) != _key(first)


def test_seats_rotate_fairly():
    tables = schedule(2, 2, 10, seed=0)
    assert Counter(tables) == {(0, 1): 5, (1, 0): 5}
    tables = schedule(3, 3, 12, seed=1)
    for agent in range(3):
        assert Counter(t.index(agent) for t in tables) == {0: 4, 1: 4, 2: 4}
    tables = schedule(2, 4, 28, seed=2)  # two bots, four seats: each bot somewhere every game
    assert all(set(t) == {0, 1} for t in tables)
    assert Counter(s for t in tables for s in t) == {0: 56, 1: 56}


class _StopHigh(Agent):
    """Keeps a high card, swaps a low one: far better than random."""

    name = "stophigh"

    def act(self, observation, view=None):
        card = int(np.argmax(observation["observation"][:10]))
        mask = observation["action_mask"]
        return STOP if card >= 6 or not mask[0] else 0


def test_ratings_rank_the_stronger_bot_first():
    result = tournament(TOY, [_StopHigh(), "random"], games=120, seed=3, progress=False)
    assert result.leaderboard() == ["stophigh", "random"]
    assert result.win_rate("stophigh") > result.win_rate("random")
    assert result.win_rate("stophigh", against="random") + result.draw_rate(
        "stophigh", "random"
    ) + result.win_rate("random", against="stophigh") == pytest.approx(1.0)


def test_plackett_luce_orders_a_strict_hierarchy():
    matches = []
    for i in range(60):
        seating = [(0, 1, 2), (2, 0, 1), (1, 2, 0)][i % 3]
        ranks = [1 + a for a in seating]  # agent 0 always first, 2 always last
        matches.append(
            MatchResult(
                "toy",
                {},
                i,
                [str(a) for a in seating],
                [0.0] * 3,
                ranks,
                1,
                False,
                [1] * 3,
                [0.0] * 3,
                seating=list(seating),
            )
        )
    rated = rate_matches(matches, 3)
    assert (
        rated[0].mu - 3 * rated[0].sigma > rated[1].mu - 3 * rated[1].sigma > rated[2].mu - 3 * rated[2].sigma
    )


def test_wilson_interval_brackets_the_rate():
    lo, hi = wilson_interval(90, 100)
    assert lo < 0.9 < hi and 0.8 < lo and hi < 0.96
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_match_replay_reproduces_the_game():
    name = envs.names()[0] if envs.names() else None
    if name is None:
        pytest.skip("no game registered yet")
    result = play_match(
        name,
        ["random", "random"] if envs.game_class(name).info.min_players <= 2 else ["random"] * 3,
        seed=11,
        record=True,
    )
    record = ReplayRecord.from_json(result.replay.to_json())
    final = replay_final_state(record)
    assert list(final.returns()) == result.returns
    assert len(record.actions) == result.length


def test_reports_are_written(tmp_path):
    result = tournament(
        TOY, ["random", "mcts:sims=5"], games=6, seed=0, progress=False, out=tmp_path, record=True
    )
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 6 and set(summary["ratings"]) == {"random", "mcts:sims=5"}
    for name in ("leaderboard", "pairwise", "seats", "games"):
        assert (tmp_path / f"{name}.csv").read_text().count("\n") > 1
    assert (tmp_path / "report.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((tmp_path / "replays").iterdir())) == 6
    assert isinstance(result, TournamentResult) and len(result.tables()) == 3


def test_bad_requests_are_refused():
    with pytest.raises(ValueError, match="unknown agent"):
        tournament(TOY, ["random", "alphazero"], games=2, progress=False)
    with pytest.raises(ValueError, match="at least two"):
        tournament(TOY, ["random"], games=2, progress=False)
