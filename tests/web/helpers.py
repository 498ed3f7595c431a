"""Shared helpers for the browser-side tests: table sizes, short replays."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np

from meeplezoo import envs
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
    """A seeded random game as a replay, played out or cut after ``max_moves``
    (a cut replay is still valid: it re-runs to a running position)."""
    game = envs.make_game(name, **config_for(name, players))
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not state.done and (max_moves is None or len(actions) < max_moves):
        legal = state.legal_actions()
        actions.append(int(legal[rng.integers(legal.size)]))
        state.apply(actions[-1])
    meta = {"agents": ["random"] * players}
    if state.done:
        meta["returns"] = [float(r) for r in state.returns()]
    return ReplayRecord(game=game.info.name, config=dict(game.config), seed=seed, actions=actions, meta=meta)


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
