"""Shared helpers for the browser-side tests: table sizes, short replays."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np

from meeplezoo import envs
from meeplezoo.agents.arena import play_match
from meeplezoo.envs.core.replay import ReplayRecord

with warnings.catch_warnings():  # Starlette would rather test with httpx2; httpx works the same
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient  # noqa: F401 (re-exported for the tests)


def seatings() -> list[tuple[str, int]]:
    """Every game at every table size it allows."""
    out = []
    for name in envs.names():
        info = envs.game_class(name).info
        out += [(name, n) for n in range(info.min_players, info.max_players + 1)]
    return out


def hidden_seatings() -> list[tuple[str, int]]:
    return [(name, n) for name, n in seatings() if envs.game_class(name).info.hidden_information]


def config_for(name: str, players: int) -> dict:
    return {"num_players": players} if "num_players" in envs.game_class(name).defaults else {}


def random_replay(name: str, players: int, seed: int, max_moves: int | None = None) -> ReplayRecord:
    """A random game as a replay; with ``max_moves`` cut short (still a valid replay)."""
    record = play_match(
        name, ["random"] * players, seed=seed, config=config_for(name, players), record=True
    ).replay
    if max_moves is not None:
        record.actions = record.actions[:max_moves]
    return record


def random_walk(state, rng: np.random.Generator, moves: int):
    """Advance ``state`` by up to ``moves`` random legal moves (in place)."""
    for _ in range(moves):
        if state.done:
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(legal.size)]))
    return state


def page_data(html: str) -> dict:
    """The data a viewer page embeds in its ``replay-data`` script element."""
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert match, "no replay data in the page"
    return json.loads(match.group(1))
