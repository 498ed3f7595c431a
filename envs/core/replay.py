"""Replays: a game's seed, config and action log as JSON, and re-running them.

A replay re-runs exactly because every chance event comes from the state's
seeded generator. Loading checks the file's shape and that every action is
legal where it was played, so a corrupt or mismatched file fails loudly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "meeplezoo-replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay file that is malformed or does not fit its game."""


@dataclass
class ReplayRecord:
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[int]
    meta: dict[str, Any] = field(default_factory=dict)  # players' names, results...

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, **asdict(self)}, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json())

    @classmethod
    def from_json(cls, text: str) -> ReplayRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"replay is not valid JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"not a meeplezoo replay (missing format={FORMAT!r})")
        if data.get("version") != VERSION:
            raise ReplayError(f"unsupported replay version {data.get('version')!r}")
        game, config, seed, actions = (data.get(k) for k in ("game", "config", "seed", "actions"))
        if not isinstance(game, str):
            raise ReplayError("replay field 'game' must be a string")
        if not isinstance(config, dict):
            raise ReplayError("replay field 'config' must be an object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ReplayError("replay field 'seed' must be an integer")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise ReplayError("replay field 'actions' must be a list of integers")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise ReplayError("replay field 'meta' must be an object")
        return cls(game=game, config=config, seed=seed, actions=actions, meta=meta)

    @classmethod
    def load(cls, path: str | Path) -> ReplayRecord:
        """Read a replay file; a file that is not a replay raises a
        ReplayError naming the file (a missing one, the OSError)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ReplayError(f"{path} is not a replay (not a text file)") from None
        try:
            return cls.from_json(text)
        except ReplayError as exc:
            raise ReplayError(f"{path}: {exc}") from None


def replay_states(record: ReplayRecord) -> Iterator[Any]:
    """Yield the initial state and the state after each action (same object,
    advanced in place). Raises ReplayError on an unknown game, a bad config
    or an action that is not legal where the log plays it."""
    from meeplezoo import envs

    if record.game not in envs.names():
        raise ReplayError(f"replay names unknown game {record.game!r}; known: {envs.names()}")
    try:
        game = envs.make_game(record.game, **record.config)
    except ValueError as exc:
        raise ReplayError(f"replay config does not fit {record.game}: {exc}") from None
    state = game.new_initial_state(record.seed)
    yield state
    for i, a in enumerate(record.actions):
        check_replayed_action(state, i, a)
        state.apply(a)
        yield state


def check_replayed_action(state, index: int, action: int) -> None:
    """Raise ReplayError unless ``action`` (move ``index`` of a log) is legal
    in ``state``. Callers that name a move before playing it check it first:
    a tampered number (-1, 10**30) has no name."""
    if state.done:
        raise ReplayError(f"action #{index} ({action}) comes after the game ended")
    if not 0 <= action < state.game.num_actions or not state.legal_action_mask()[action]:
        raise ReplayError(f"action #{index} ({action}) is not legal in the replayed position")


def replay_final_state(record: ReplayRecord):
    """Re-run a replay to its end and return the final state."""
    state = None
    for state in replay_states(record):  # noqa: B007 (the last one is the answer)
        pass
    return state
