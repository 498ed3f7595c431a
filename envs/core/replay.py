"""Replays: a game's seed, config and action log as JSON, and re-running them.

A replay re-runs exactly because every chance event comes from the state's
seeded generator. Loading checks the file's shape and that every action is
legal where it was played, so a corrupt or mismatched file fails loudly.

A sealed replay (:func:`seal`, which every writer in the package uses) also
carries what the game came to: the package version, the returns, a digest
of the final position, the illegal action that ended it if one did, and a
digest of the position every ``checkpoint_every`` moves. Re-running checks
them, so an edited config, an edited log or a rules change that alters the
game stops at the first move where the replay no longer shows what was
played. Version 1 files (before sealing) still load, unchecked.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeplezoo.envs.core.errors import UsageError

FORMAT = "meeplezoo-replay"
VERSION = 2
READABLE_VERSIONS = (1, 2)
CHECKPOINT_EVERY = 25  # moves between position digests in a sealed replay
DIGEST_CHARS = 16


class ReplayError(UsageError):
    """A replay file that is malformed or does not fit its game (a ValueError)."""


@dataclass
class ReplayRecord:
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[int]
    meta: dict[str, Any] = field(default_factory=dict)  # players' names, results...
    # filled in by seal(): the package that wrote it, the result, position digests
    package_version: str = ""
    outcome: dict[str, Any] | None = None
    checkpoint_every: int = 0
    checkpoints: list[str] = field(default_factory=list)

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
        if data.get("version") not in READABLE_VERSIONS:
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
        return cls(game=game, config=config, seed=seed, actions=actions, meta=meta, **_seal_fields(data))

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


def _seal_fields(data: dict) -> dict[str, Any]:
    """The sealing fields of a replay dict, their types checked (absent in version 1)."""
    package_version = data.get("package_version", "")
    outcome = data.get("outcome")
    every = data.get("checkpoint_every", 0)
    checkpoints = data.get("checkpoints", [])
    if not isinstance(package_version, str):
        raise ReplayError("replay field 'package_version' must be a string")
    if outcome is not None and not (
        isinstance(outcome, dict) and isinstance(outcome.get("final_digest"), str)
    ):
        raise ReplayError("replay field 'outcome' must be an object with a 'final_digest'")
    if isinstance(every, bool) or not isinstance(every, int) or every < 0:
        raise ReplayError("replay field 'checkpoint_every' must be a non-negative integer")
    if not isinstance(checkpoints, list) or not all(isinstance(d, str) for d in checkpoints):
        raise ReplayError("replay field 'checkpoints' must be a list of digests")
    return {
        "package_version": package_version,
        "outcome": outcome,
        "checkpoint_every": every,
        "checkpoints": checkpoints,
    }


def position_digest(state) -> str:
    """Short sha256 of a position (its ``to_dict``, keys sorted): two runs
    agree on it exactly when they reached the same position, generator included."""
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def _game_of(record: ReplayRecord, game=None):
    """The Game to re-run ``record`` in: ``game`` when the caller holds it
    (a game outside the registry), else built from the record."""
    if game is not None:
        return game
    from meeplezoo import envs

    if record.game not in envs.names():
        raise ReplayError(f"replay names unknown game {record.game!r}; known: {envs.names()}")
    try:
        return envs.make_game(record.game, **record.config)
    except ValueError as exc:
        raise ReplayError(f"replay config does not fit {record.game}: {exc}") from None


def replay_states(record: ReplayRecord, game=None) -> Iterator[Any]:
    """Yield the initial state and the state after each action (same object,
    advanced in place). Raises ReplayError on an unknown game, a bad config,
    an action that is not legal where the log plays it, or, for a sealed
    replay, the first checkpoint or outcome that the re-run does not reach."""
    game = _game_of(record, game)
    recorded = (record.outcome or {}).get("config_digest")
    if recorded is not None and game.config_digest != recorded:
        raise ReplayError(
            "replay check failed before move 0: the config differs from the one the game was played with"
        )
    state = game.new_initial_state(record.seed)
    yield state
    every, checkpoints = record.checkpoint_every, record.checkpoints
    for i, a in enumerate(record.actions):
        check_replayed_action(state, i, a)
        state.apply(a)
        moves = i + 1
        if every and moves % every == 0 and moves // every <= len(checkpoints):
            found = position_digest(state)
            if found != checkpoints[moves // every - 1]:
                raise ReplayError(
                    f"replay check failed after move {moves}: the position differs from the recorded one "
                    f"(digest {found}, recorded {checkpoints[moves // every - 1]}); "
                    "the config, the log or the rules changed"
                )
        if moves == len(record.actions) and record.outcome is not None:
            check_outcome(state, record)
        yield state
    if not record.actions and record.outcome is not None:
        check_outcome(state, record)


def outcome_of(state, illegal: dict | None = None) -> dict[str, Any]:
    """What a game came to: its returns (None while it runs), the final
    position's digest, and the illegal action that ended it, if one did
    (``{"action": a, "seat": s}``; the offender gets -1, the others 0)."""
    if illegal is not None:
        returns = [0.0] * state.game.num_players
        returns[illegal["seat"]] = -1.0
    else:
        returns = [float(r) for r in state.returns()] if state.done else None
    return {
        "returns": returns,
        "final_digest": position_digest(state),
        "illegal_action": illegal,
        "config_digest": state.game.config_digest,
    }


def check_outcome(state, record: ReplayRecord) -> None:
    """ReplayError naming what differs when the re-run's end is not the recorded one."""
    recorded = record.outcome
    illegal = recorded.get("illegal_action")
    if illegal is not None:
        action, seat = illegal.get("action"), illegal.get("seat")
        if state.current_player != seat or not isinstance(action, int) or action < 0:
            raise ReplayError(
                f"replay check failed at the end: the recorded illegal action {action} of seat {seat} "
                f"does not fit the replayed position (seat {state.current_player} to move)"
            )
        if action < state.game.num_actions and state.legal_action_mask()[action]:
            raise ReplayError(
                f"replay check failed at the end: action {action}, recorded as illegal, "
                "is legal in the replayed position"
            )
    found = outcome_of(state, illegal)
    if found["returns"] != recorded.get("returns"):
        raise ReplayError(
            f"replay check failed at the end: returns {found['returns']} replayed, {recorded.get('returns')} recorded"
        )
    if found["final_digest"] != recorded["final_digest"]:
        raise ReplayError(
            f"replay check failed at the end: the final position differs from the recorded one "
            f"(digest {found['final_digest']}, recorded {recorded['final_digest']})"
        )


def seal(
    record: ReplayRecord, illegal: dict | None = None, every: int = CHECKPOINT_EVERY, game=None
) -> ReplayRecord:
    """``record`` with its outcome and checkpoints filled in, found by
    re-running it once (so nothing is added to the step path of the game
    that was played). ``illegal`` is the illegal action that ended the game
    (``{"action": a, "seat": s}``), if one did; ``game`` the Game it was
    played in (default: built from the record)."""
    from meeplezoo import __version__

    checkpoints, state = [], None
    unsealed = ReplayRecord(record.game, record.config, record.seed, record.actions, record.meta)
    for moves, state in enumerate(replay_states(unsealed, game)):
        if moves and every and moves % every == 0:
            checkpoints.append(position_digest(state))
    record.package_version = __version__
    record.checkpoint_every = every
    record.checkpoints = checkpoints
    record.outcome = outcome_of(state, illegal)
    return record


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
