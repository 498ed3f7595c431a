"""``augment``: the learner sees each position under a random turn of the board."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo.envs.gem_mountain.rules import GemMountainGame  # noqa: E402
from meeplezoo.training.az.buffer import ReplayBuffer  # noqa: E402
from meeplezoo.training.az.train import train_az  # noqa: E402
from tests.core.toy_game import HighCardGame  # noqa: E402


def one_position(game, seed: int):
    state = game.new_initial_state(seed)
    observation = game.observer.encode(state, state.current_player)
    mask = state.legal_action_mask()
    return observation, mask, mask / mask.sum()


def test_sampled_positions_come_turned_and_stored_ones_stay_as_played():
    game = GemMountainGame()
    observation, mask, policy = one_position(game, 5)
    copies = 8
    record = SimpleNamespace(
        observations=[observation] * copies,
        masks=[mask] * copies,
        policies=[policy] * copies,
        values=[np.array([1.0, -1.0])] * copies,
    )
    buffer = ReplayBuffer(game, copies, augment=True)
    buffer.add(record)
    rng = np.random.default_rng(0)
    batches = [buffer.sample(copies, rng) for _ in range(25)]
    observations, masks, policies, values = (np.concatenate(part) for part in zip(*batches))
    turned = [s.observation_index for s in game.symmetries()]
    shown = [
        next(
            k
            for k, index in enumerate([None, *turned])
            if np.array_equal(row, observation if index is None else observation[index])
        )
        for row in observations
    ]
    assert sorted(set(shown)) == [0, 1, 2, 3]  # as played, and each of the three turns
    for row, k in enumerate(shown):
        actions = np.arange(game.num_actions) if k == 0 else game.symmetries()[k - 1].action_index
        assert np.array_equal(masks[row], mask[actions]) and np.array_equal(policies[row], policy[actions])
    assert np.all(values == [1.0, -1.0])
    assert all(np.array_equal(stored, observation) for stored in buffer.observations)
    plain = ReplayBuffer(game, 8)
    plain.add(record)
    assert all(np.array_equal(o, observation) for o in plain.sample(20, np.random.default_rng(0))[0])


def test_augment_is_refused_for_a_game_without_symmetries(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="augment: .* declares no board symmetries"):
        train_az(HighCardGame(), games=1, config={"augment": True}, out=out, workers=0, progress=False)
    assert not out.exists()
    with pytest.raises(ValueError, match="augment"):
        train_az(GemMountainGame(), games=1, config={"augment": "yes"}, out=out, workers=0, progress=False)
