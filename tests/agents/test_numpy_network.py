"""A loaded az network answers small batches in numpy: the same priors and
values as the exported program, and torch's forward wherever numpy cannot
mirror the network or a call is large."""

from __future__ import annotations

from importlib.resources import files

import numpy as np
import pytest

pytest.importorskip("torch")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402

from meeplezoo import envs  # noqa: E402
from meeplezoo.agents import numpy_network  # noqa: E402
from meeplezoo.agents.az import load_network, read_network_file  # noqa: E402
from meeplezoo.agents.board_cnn import BoardCNN  # noqa: E402
from meeplezoo.agents.numpy_network import AGREEMENT, numpy_forward  # noqa: E402
from meeplezoo.training.az.network import AZNetwork, TorchEvaluator, export_network  # noqa: E402
from meeplezoo.training.features import PlanesCNN  # noqa: E402
from meeplezoo.training.features import symlog as torch_symlog  # noqa: E402
from tests.agents.helpers import random_positions  # noqa: E402

# a board CNN with the per-cell policy head, one with a dense head, a flat body
BODIES = ["gem_mountain_v0", "amethyst_amber_v0", "princes_of_amber_v1"]


def exported(name: str, tmp_path):
    game = envs.make_game(name)
    torch.manual_seed(7)
    net = AZNetwork(game, hidden=16, channels=4)
    for parameter in net.parameters():  # larger weights than at initialisation, so every layer counts
        torch.nn.init.normal_(parameter, std=0.3)
    evaluator = load_network(export_network(net, game, tmp_path / f"{name}.pt2", {}))
    evaluator.check(game)
    return game, net, evaluator


def positions_of(game, count: int, seed: int = 3):
    positions = random_positions(game, count, seed=seed, max_plies=60)
    observations = np.stack([s.observation(s.current_player) for s in positions]).astype(np.float32)
    return observations, np.stack([s.legal_action_mask() for s in positions])


@pytest.mark.parametrize("name", BODIES)
def test_numpy_forward_gives_the_programs_logits_and_values(name, tmp_path):
    game, net, evaluator = exported(name, tmp_path)
    assert evaluator.numpy_network is not None
    observations, masks = positions_of(game, 6)
    logits, values = evaluator.numpy_network(observations)
    with torch.inference_mode():
        want_logits, want_values = evaluator.module(torch.as_tensor(observations))
    np.testing.assert_allclose(logits, want_logits.numpy(), rtol=AGREEMENT, atol=AGREEMENT)
    np.testing.assert_allclose(values, want_values.numpy(), rtol=AGREEMENT, atol=AGREEMENT)
    assert np.ptp(logits[masks]) > 0.1 and np.ptp(values) > 0.01  # not a degenerate network
    for ours, theirs in zip(
        evaluator.evaluate(observations, masks), TorchEvaluator(net).evaluate(observations, masks)
    ):
        np.testing.assert_allclose(ours, theirs, rtol=AGREEMENT, atol=AGREEMENT)


def test_small_calls_go_to_numpy_and_large_ones_to_torch(tmp_path, monkeypatch):
    game, _, evaluator = exported("gem_mountain_v0", tmp_path)
    observations, masks = positions_of(game, 2)
    per_call = 64  # the limit scaled to this small network, so the large call stays small
    monkeypatch.setattr(
        numpy_network, "MOST_MULTIPLY_ADDS_PER_CALL", per_call * evaluator.numpy_network.multiply_adds
    )
    many = np.repeat(observations, per_call, axis=0)[: per_call + 1]
    many_masks = np.repeat(masks, per_call, axis=0)[: per_call + 1]
    small_priors, _ = evaluator.evaluate(observations, masks)
    large_priors, _ = evaluator.evaluate(many, many_masks)
    np.testing.assert_allclose(large_priors[:2], small_priors, atol=1e-6)

    def refuse(*args, **kwargs):
        raise AssertionError("called")

    numpy_answers = evaluator.numpy_network
    monkeypatch.setattr(evaluator, "numpy_network", None)
    evaluator.evaluate(many, many_masks)
    monkeypatch.setattr(evaluator, "numpy_network", numpy_answers)
    monkeypatch.setattr(type(numpy_answers), "__call__", refuse)
    evaluator.evaluate(many, many_masks)  # large: torch answers
    with pytest.raises(AssertionError, match="called"):
        evaluator.evaluate(observations, masks)  # small: numpy answers


def test_a_network_numpy_does_not_mirror_keeps_torch(tmp_path):
    game, _, evaluator = exported("gem_mountain_v0", tmp_path)
    program, meta = read_network_file(tmp_path / "gem_mountain_v0.pt2")

    def other_network(observations):
        logits, values = evaluator.module(observations)
        return logits, values + 0.01

    assert numpy_forward(program, evaluator.module, meta, game) is not None
    assert numpy_forward(program, other_network, meta, game) is None
    assert numpy_forward(program, evaluator.module, {**meta, "network": {"body": "ppo"}}, game) is None


def test_a_ppo_network_file_keeps_torch():
    game = envs.make_game("princes_of_amber")
    evaluator = load_network(files("meeplezoo.agents") / "baselines" / "princes_of_amber.pt2")
    evaluator.check(game)
    assert evaluator.numpy_network is None
    observations, masks = positions_of(game, 3)
    priors, values = evaluator.evaluate(observations, masks)
    assert np.allclose(priors.sum(axis=1), 1.0) and values.shape == (3, game.num_players)


def board_cnn_case(seed: int, planes: int, rows: int, cols: int, channels: int = 6):
    """A PlanesCNN over an uneven board with weights large enough that every
    layer counts, and mostly-zero raw boards with negative, fractional and
    large entries (a corner set on every plane)."""
    generator = np.random.default_rng(seed)
    space = spaces.Box(-200, 200, shape=(planes * rows * cols,), dtype=np.float32)
    torch.manual_seed(seed)
    body = PlanesCNN(space, (planes, rows, cols), channels=channels, out_channels=3)
    for parameter in body.parameters():
        torch.nn.init.normal_(parameter, std=0.3)
    values = np.round(generator.normal(scale=20, size=(5, planes, rows, cols)), 1)
    boards = (values * (generator.random(values.shape) < 0.15)).astype(np.float32)
    boards[0, :, 0, 0] = 100.0
    boards[1] = 0.0
    return body, boards.reshape(5, -1)


@pytest.mark.parametrize("shape", [(4, 5, 7), (9, 1, 6), (3, 8, 1), (17, 6, 6)])
def test_the_compiled_board_cnn_gives_torchs_board_features(shape):
    """First layer from the nonzero entries (every board edge and corner,
    a plane count that leaves a tail of fewer than eight entries, an empty
    board), the middle convolution, the squeeze: torch's maps, channel-major."""
    body, boards = board_cnn_case(sum(shape), *shape)
    weights = {name: tensor.detach().numpy() for name, tensor in body.state_dict().items()}
    cnn = BoardCNN({f"body.{name}": value for name, value in weights.items()}, *shape[1:])
    with torch.inference_mode():
        want = body(torch.as_tensor(boards)).numpy().reshape(5, 3, -1)
    np.testing.assert_allclose(cnn(boards), want, rtol=1e-5, atol=1e-5)


def test_the_first_layer_shift_moves_each_positions_channels():
    """The globals' shift is added per position before the relu."""
    body, boards = board_cnn_case(1, 4, 5, 7)
    weights = {f"body.{name}": tensor.detach().numpy() for name, tensor in body.state_dict().items()}
    cnn = BoardCNN(weights, 5, 7)
    shift = np.random.default_rng(2).normal(size=(5, 6)).astype(np.float32)
    with torch.inference_mode():
        first = body.conv_in(torch_symlog(torch.as_tensor(boards)).reshape(5, 4, 5, 7))
        shifted = torch.relu(first + torch.as_tensor(shift)[:, :, None, None])
        want = body.convs(shifted).numpy().reshape(5, 3, -1)
    np.testing.assert_allclose(cnn(boards, shift), want, rtol=1e-5, atol=1e-5)


def test_threads_sharing_a_network_get_their_own_answers(tmp_path):
    """The forward's kept arrays are per thread: two threads asking one
    network at once, at different batch sizes, get what each asks alone."""
    from concurrent.futures import ThreadPoolExecutor

    game, _, evaluator = exported("gem_mountain_v0", tmp_path)
    network = evaluator.numpy_network
    observations, _ = positions_of(game, 12)
    batches = [observations[: 1 + k % 12] for k in range(40)]
    alone = [network(batch) for batch in batches]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(network, batches))
    for (logits, values), (want_logits, want_values) in zip(together, alone):
        assert np.array_equal(logits, want_logits) and np.array_equal(values, want_values)


@pytest.mark.parametrize("name", BODIES)
def test_self_play_evaluator_answers_as_its_live_network(name):
    """A self-play worker's evaluator answers as its live network, in numpy
    as in torch, and keeps the weights it was made with (a worker makes a new
    one for new weights)."""
    game = envs.make_game(name)
    torch.manual_seed(7)
    net = AZNetwork(game, hidden=16, channels=4)
    for parameter in net.parameters():
        torch.nn.init.normal_(parameter, std=0.3)
    observations, masks = positions_of(game, 5)
    plain, twinned = TorchEvaluator(net), TorchEvaluator(net, game)
    assert twinned.numpy_network is not None
    for ours, theirs in zip(twinned.evaluate(observations, masks), plain.evaluate(observations, masks)):
        np.testing.assert_allclose(ours, theirs, rtol=AGREEMENT, atol=AGREEMENT)
    with torch.no_grad():
        net.value.bias += 0.5
    _, before = twinned.evaluate(observations, masks)
    _, after = TorchEvaluator(net, game).evaluate(observations, masks)
    np.testing.assert_allclose(before, theirs, rtol=AGREEMENT, atol=AGREEMENT)
    assert not np.allclose(after, before)
