"""Sealed replays: the outcome and position digests they carry catch an
edited config, an edited log, or a game that ended by an illegal move."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.cli import main
from meeplezoo.envs.core.replay import (
    CHECKPOINT_EVERY,
    ReplayError,
    ReplayRecord,
    replay_final_state,
    replay_states,
)
from tests.cli_helpers import assert_one_error_line


def played_record(name: str, config: dict | None = None, moves: int = 120, seed: int = 4) -> ReplayRecord:
    """A seeded random game of ``name`` through the env, as its sealed replay."""
    env = envs.make(name, **(config or {}))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if not env.agents or any(env.terminations.values()) or any(env.truncations.values()):
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env.replay_record()


@pytest.mark.parametrize("name", envs.names())
def test_sealed_replay_replays_clean_and_carries_its_outcome(name):
    record = played_record(name)
    loaded = ReplayRecord.from_json(record.to_json())
    assert loaded.to_json() == record.to_json()
    assert record.package_version and record.checkpoint_every == CHECKPOINT_EVERY
    assert len(record.checkpoints) == len(record.actions) // CHECKPOINT_EVERY
    replay_final_state(loaded)


@pytest.mark.parametrize(
    "name, key, value",
    [
        ("gem_mountain_v0", "reward_mode", "score_diff"),
        ("gold_rush_gangs_v0", "base_ap", 6),
        ("amethyst_amber_v0", "truncation_result", "resources"),
    ],
)
def test_an_edited_config_is_caught(name, key, value):
    game = envs.make_game(name)
    assert game.config[key] != value, "pick a value that differs from the default"
    record = played_record(name, moves=400)
    record.config = {**record.config, key: value}
    with pytest.raises(ReplayError, match="before move 0: the config differs"):
        replay_final_state(record)


def test_an_edited_log_is_caught_at_the_next_checkpoint():
    record = played_record("gem_mountain_v0", moves=200)
    for index in range(5, len(record.actions)):
        state = replay_final_state(
            ReplayRecord(record.game, record.config, record.seed, record.actions[:index])
        )
        other = [int(a) for a in state.legal_actions() if a != record.actions[index]]
        if other:
            break
    record.actions = record.actions[:index] + [other[0]] + record.actions[index + 1 :]
    with pytest.raises(ReplayError, match="replay check failed|not legal"):
        replay_final_state(record)


def test_the_first_differing_checkpoint_is_named():
    record = played_record("amoeba_v0", moves=200)
    assert len(record.checkpoints) >= 2
    record.checkpoints[1] = "0" * 16
    with pytest.raises(ReplayError, match=f"after move {2 * CHECKPOINT_EVERY}: the position differs"):
        replay_final_state(record)


def illegal_ending(name: str = "gem_mountain_v0") -> ReplayRecord:
    """A game ended after a few moves by an illegal action (terminate mode)."""
    env = envs.make(name)
    env.reset(seed=2)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    offender = env.agent_name_mapping[env.agent_selection]
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    env.step(illegal)
    record = env.replay_record()
    assert record.outcome["illegal_action"] == {"action": illegal, "seat": offender}
    assert record.outcome["returns"][offender] == -1.0
    return record


def test_a_game_ended_by_an_illegal_action_replays_to_that_end():
    record = illegal_ending()
    final = replay_final_state(ReplayRecord.from_json(record.to_json()))
    assert not final.done and final.current_player == record.outcome["illegal_action"]["seat"]


def test_a_tampered_illegal_ending_is_caught():
    record = illegal_ending()
    legal = int(
        replay_final_state(
            ReplayRecord(record.game, record.config, record.seed, record.actions)
        ).legal_actions()[0]
    )
    record.outcome["illegal_action"]["action"] = legal
    with pytest.raises(ReplayError, match="recorded as illegal, is legal"):
        replay_final_state(record)


def test_edited_returns_are_caught():
    record = played_record("amethyst_amber_v0", moves=2000)
    record.outcome["returns"] = list(reversed(record.outcome["returns"]))
    if record.outcome["returns"] == list(reversed(record.outcome["returns"])):
        record.outcome["returns"] = [0.5] * len(record.outcome["returns"])
    with pytest.raises(ReplayError, match="returns .* replayed"):
        replay_final_state(record)


def test_version_1_replays_still_load_unchecked():
    record = played_record("amoeba_v0", moves=30)
    data = json.loads(record.to_json())
    for key in ("package_version", "outcome", "checkpoint_every", "checkpoints"):
        del data[key]
    data["version"] = 1
    old = ReplayRecord.from_json(json.dumps(data))
    assert old.outcome is None and len(list(replay_states(old))) == len(record.actions) + 1


@pytest.mark.parametrize("field, value", [("outcome", 3), ("checkpoints", [1]), ("checkpoint_every", -1)])
def test_malformed_seal_fields_are_rejected(field, value):
    data = json.loads(played_record("amoeba_v0", moves=5).to_json())
    data[field] = value
    with pytest.raises(ReplayError, match=field):
        ReplayRecord.from_json(json.dumps(data))


def test_cli_reports_a_tampered_replay_in_one_line(tmp_path, capsys):
    record = played_record("gold_rush_gangs_v0", moves=100)
    record.config = {**record.config, "base_ap": 9}
    path = tmp_path / "game.json"
    record.save(path)
    assert main(["replay", str(path)]) == 2
    assert_one_error_line(capsys.readouterr().err, "replay check failed")
