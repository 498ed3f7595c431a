"""``ownership_weight``: expert iteration also learns who holds each cell at
the game's end, read from each mover's own observation (Amoeba's owner planes)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("torch")

import torch  # noqa: E402

from meeplezoo.agents.puct import UniformEvaluator  # noqa: E402
from meeplezoo.envs.amoeba.observe import OWNER  # noqa: E402
from meeplezoo.envs.amoeba.rules import AmoebaGame  # noqa: E402
from meeplezoo.envs.gem_mountain.rules import GemMountainGame  # noqa: E402
from meeplezoo.training.az import selfplay  # noqa: E402
from meeplezoo.training.az.buffer import ReplayBuffer  # noqa: E402
from meeplezoo.training.az.learner import Learner, az_loss  # noqa: E402
from meeplezoo.training.az.network import AZNetwork  # noqa: E402
from meeplezoo.training.az.ownership import (  # noqa: E402
    check_ownership,
    final_ownership,
    ownership_size,
    ownership_targets,
)
from meeplezoo.training.az.settings import az_settings  # noqa: E402
from meeplezoo.training.az.train import train_az  # noqa: E402
from tests.conformance.play import play_random_state  # noqa: E402
from tests.core.toy_game import HighCardGame  # noqa: E402


def owned_game(seed: int = 0):
    """A finished two-player Amoeba game in which some amoeba was claimed."""
    game = AmoebaGame()
    for attempt in range(seed, seed + 20):
        state, _ = play_random_state(game, attempt)
        if final_ownership(state, game).any():
            return game, state
    raise AssertionError("no random game claimed an amoeba")


def test_final_ownership_reads_each_seats_owner_planes():
    game, state = owned_game()
    assert game.ownership_planes == (OWNER, OWNER + 1)
    maps = final_ownership(state, game)
    assert maps.shape == (2, ownership_size(game)) == (2, 2 * game.units**2)
    planes, rows, cols = game.observation_planes
    for seat in (0, 1):
        board = np.asarray(state.observation(seat))[: planes * rows * cols].reshape(planes, -1)
        holders = board[[OWNER, OWNER + 1]].reshape(-1)
        assert ((maps[seat] == 1) == (holders == 1)).all()  # 1 + the seat itself
        assert ((maps[seat] == -1) == (holders > 1)).all()
        assert ((maps[seat] == 0) == (holders == 0)).all()
    assert (maps[1] == -maps[0]).all(), "what one seat holds, the other does not"


def test_each_position_gets_the_end_from_its_movers_view():
    game, state = owned_game()
    movers = [0, 1, 1, 0]
    targets = ownership_targets(state, game, movers)
    maps = final_ownership(state, game)
    assert [row.tolist() for row in targets] == [maps[m].tolist() for m in movers]
    assert ownership_targets(state, game, []).shape == (0, ownership_size(game))


def test_ownership_is_refused_where_it_cannot_be_learned(tmp_path):
    with pytest.raises(ValueError, match="gem_mountain.*has none"):
        check_ownership(GemMountainGame(), "cnn")
    with pytest.raises(ValueError, match="body='mlp'"):
        check_ownership(AmoebaGame(), "mlp")
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="ownership planes"):
        train_az(HighCardGame(), games=1, config={"ownership_weight": 1}, out=out, workers=0, progress=False)
    with pytest.raises(ValueError, match="augment and ownership_weight"):
        train_az(AmoebaGame(), games=1, config={"ownership_weight": 1, "augment": True}, out=out, workers=0)
    assert not out.exists()


def test_self_play_records_carry_the_end_of_each_game():
    game = AmoebaGame()
    settings = {
        **az_settings("amoeba", {"ownership_weight": 1.0, "max_moves": 40}),
        "sims": 2,
        "search_batch": 1,
    }
    seen, record_game = {}, selfplay._record

    def keep_the_last_state(run, game, seconds, search_weight, margin, ownership):
        seen["state"], seen["movers"] = run.state.clone(), [sample[3] for sample in run.samples]
        return record_game(run, game, seconds, search_weight, margin, ownership)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(selfplay, "_record", keep_the_last_state)
        (record,) = selfplay.play_games(game, UniformEvaluator(2), [3], settings)
    expected = ownership_targets(seen["state"], game, seen["movers"])
    assert record.ownership.dtype == np.int8 and record.ownership.tolist() == expected.tolist()
    (plain,) = selfplay.play_games(game, UniformEvaluator(2), [3], {**settings, "ownership_weight": 0.0})
    assert plain.ownership is None


def ownership_record(game, state, count: int):
    observation, mask = state.observation(0), state.legal_action_mask()
    owners = final_ownership(state, game)
    return SimpleNamespace(
        observations=[observation] * count,
        masks=[mask] * count,
        policies=[mask / max(mask.sum(), 1)] * count,
        values=[np.array([0.5 - k / count, k / count - 0.5]) for k in range(count)],
        ownership=[owners[k % 2] for k in range(count)],
    )


def test_the_buffer_samples_and_saves_ownership_with_its_positions(tmp_path):
    game, state = owned_game()
    buffer = ReplayBuffer(game, 16, ownership=True)
    buffer.add(ownership_record(game, state, 8))
    *_, values, owners = buffer.sample(32, np.random.default_rng(1))
    maps = final_ownership(state, game)
    for value, owner in zip(values, owners):  # the entry's own map: seat k % 2 for value 0.5 - k / 8
        k = round((0.5 - value[0]) * 8)
        assert owner.tolist() == maps[k % 2].tolist()
    buffer.save(tmp_path / "b.npz")
    again = ReplayBuffer(game, 16, ownership=True)
    again.load(tmp_path / "b.npz")
    assert np.array_equal(again.ownership[:8], buffer.ownership[:8])
    ReplayBuffer(game, 16).save(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="no ownership targets"):
        again.load(tmp_path / "plain.npz")
    assert again.size == 8 and np.array_equal(again.ownership[:8], buffer.ownership[:8])


def test_the_head_learns_the_ends_and_leaves_the_played_network_alone():
    game, state = owned_game()
    torch.manual_seed(0)
    net = AZNetwork(game, hidden=16, channels=4, body="cnn", ownership=2)
    assert net.spec["ownership"] == 2
    buffer = ReplayBuffer(game, 8, ownership=True)
    buffer.add(ownership_record(game, state, 8))
    observations = torch.as_tensor(buffer.observations[:8], dtype=torch.float32)
    logits, values, owned = net.forward_with_ownership(observations)
    plain_logits, plain_values = net(observations)
    assert torch.equal(logits, plain_logits) and torch.equal(values, plain_values)
    assert owned.shape == (8, ownership_size(game)) and owned.abs().max() <= 1
    settings = {**az_settings("amoeba", {"ownership_weight": 1.0}), "batch_size": 8, "learning_rate": 1e-2}
    learner = Learner(net, settings)
    rng = np.random.default_rng(0)
    first = learner.train(buffer, 1, rng)["ownership_loss"]
    last = learner.train(buffer, 30, rng)["ownership_loss"]
    assert last < 0.8 * first
    plain = Learner(AZNetwork(game, hidden=16, channels=4, body="cnn"), az_settings("amoeba"))
    assert "ownership_loss" not in plain.train(ReplayBuffer(game, 8), 0, rng)


def test_the_ownership_error_counts_per_entry_held_at_the_end():
    game, state = owned_game()
    net = AZNetwork(game, hidden=16, channels=4, body="cnn", ownership=2)
    torch.nn.init.zeros_(net.ownership.weight)
    torch.nn.init.zeros_(net.ownership.bias)  # foresees nobody holding anything
    record = ownership_record(game, state, 4)
    batch = (np.stack(record.observations), np.stack(record.masks), np.stack(record.policies))
    *_, blind = az_loss(net, *batch, np.stack(record.values), np.stack(record.ownership))
    assert blind.item() == pytest.approx(1.0)
    *_, none = az_loss(net, *batch, np.stack(record.values))
    assert none.item() == 0.0
