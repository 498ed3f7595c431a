"""A loaded az network's forward pass in numpy.

A search asks its network about one position (or a handful) at a time. At
that size torch spends most of a call dispatching its thirty-odd operations,
not computing them: numpy does the same arithmetic in a third of the time on
a Gem Mountain board. This module mirrors :class:`AZNetwork`'s layers (symlog
input, the board CNN in compiled loops (:mod:`~meeplezoo.agents.board_cnn`)
or a flat body, the trunk, the per-cell or dense policy head, the squashed
value) from the weights of an exported program (:func:`numpy_forward`) or of a live
network (:func:`numpy_twin`, self-play's). Both check the result against
torch's own forward before a search may use it, so a network of another
shape keeps torch's.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.board_cnn import BoardCNN, Scratch

# the largest gap to torch's own forward that still counts as the same network:
# float32 sums in another order differ by about 1e-6
AGREEMENT = 1e-4
# Past this many multiply-adds in one call (the first layer, computed from the
# nonzero inputs alone, not counted) the call goes to torch. Measured on one
# core with fresh networks of each recipe, numpy's forward is the sooner at
# every batch up to 128 positions: 1.3-1.6x on Amoeba's 24x24 board (224
# million at 128), 1.4-2.0x on Amethyst and Amber's and Gold Rush Gangs',
# 2.9-3.8x on Gem Mountain's. Past what was measured, torch's kernels take over.
MOST_MULTIPLY_ADDS_PER_CALL = 256_000_000


def symlog(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.log1p(np.abs(x))


def dense(weight: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A linear layer's weights as ``x @ weight + bias`` wants them."""
    return np.ascontiguousarray(weight.T), bias


class NumpyNetwork:
    """:class:`AZNetwork`'s forward from its weights: observations to
    (logits, values), the values already in the game's reward range."""

    def __init__(self, weights: dict, constants: dict, body: str, planes) -> None:
        self.cnn = body == "cnn"
        if self.cnn:
            self.planes, self.rows, self.cols = (int(v) for v in planes)
            self.board = self.planes * self.rows * self.cols
            self.board_cnn = BoardCNN(weights, self.rows, self.cols)
            self.has_globals = "body.global_bias.weight" in weights
            if self.has_globals:
                self.global_bias = dense(weights["body.global_bias.weight"], weights["body.global_bias.bias"])
                self.global_dense = dense(weights["body.dense.0.weight"], weights["body.dense.0.bias"])
        self.trunk = dense(weights["trunk.0.weight"], weights["trunk.0.bias"])
        self.per_cell = "policy.score.weight" in weights
        if self.per_cell:
            self.cell_score = (weights["policy.score.weight"], weights["policy.score.bias"][:, None])
            self.policy = dense(weights["policy.dense.weight"], weights["policy.dense.bias"])
            self.cell_of_action = np.asarray(constants["policy.index"], dtype=np.intp)
            self.is_cell = np.asarray(constants["policy.is_cell"], dtype=np.float32)
        else:
            self.policy = dense(weights["policy.weight"], weights["policy.bias"])
        self.value = dense(weights["value.weight"], weights["value.bias"])
        self.value_mid = np.float32(constants["value_mid"])
        self.value_half = np.float32(constants["value_half"])
        self.scratch = Scratch()
        self.multiply_adds = sum(weight.size for weight, _ in self.layers())
        if self.cnn:
            cells = self.rows * self.cols
            self.multiply_adds += cells * (
                self.board_cnn.middle.size
                + self.board_cnn.squeeze.size
                + (self.cell_score[0].size if self.per_cell else 0)
            )

    def layers(self) -> list:
        """The dense layers a position passes through once each."""
        once = [self.trunk, self.policy, self.value]
        if self.cnn and self.has_globals:
            once += [self.global_bias, self.global_dense]
        return once

    def suits(self, observations: np.ndarray) -> bool:
        """Whether this call is small enough for numpy to answer it sooner."""
        return observations.shape[0] * self.multiply_adds <= MOST_MULTIPLY_ADDS_PER_CALL

    def __call__(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        batch = observations.shape[0]
        raw = np.asarray(observations).reshape(batch, -1)
        if raw.dtype != np.float32:  # into a kept array: see board_cnn.Scratch
            kept = self.scratch.rows("raw", batch, raw.shape[1])
            np.copyto(kept, raw)
            raw = kept
        cell_maps = None
        if self.cnn:
            features, cell_maps = self.board_features(raw)
        else:
            features = symlog(raw)
        hidden = relu(affine(features, self.trunk))
        if self.per_cell:
            score_weight, score_bias = self.cell_score
            per_cell = (score_weight @ cell_maps + score_bias).reshape(batch, -1)  # kind-major
            logits = affine(features, self.policy) + per_cell[:, self.cell_of_action] * self.is_cell
        else:
            logits = affine(hidden, self.policy)
        values = self.value_mid + self.value_half * np.tanh(affine(hidden, self.value))
        return logits, values

    def board_features(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The board CNN over raw observations (the first layer symlogs the
        board's nonzero entries itself): (features as the trunk reads them,
        the per-cell maps as (batch, channels, cells) for the per-cell policy head)."""
        batch, shift = raw.shape[0], None
        if self.has_globals:
            globals_ = symlog(raw[:, self.board :])
            shift = affine(globals_, self.global_bias)
        maps = self.board_cnn(raw, shift)
        features = maps.reshape(batch, -1)  # channel-major, as torch flattens
        if self.has_globals:
            features = np.concatenate([features, relu(affine(globals_, self.global_dense))], axis=1)
        return features, maps


def affine(x: np.ndarray, layer: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    weight, bias = layer
    return x @ weight + bias


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0, out=x)


def numpy_forward(program, module, meta: dict, game):
    """The numpy forward of an exported :class:`AZNetwork`, or None when the
    file holds another network (a PPO policy written for the search) or the
    numpy forward does not give the program's own answers on probe inputs."""
    weights = {name: tensor.detach().numpy() for name, tensor in program.state_dict.items()}
    constants = {name: tensor.detach().numpy() for name, tensor in program.constants.items()}
    return checked_network(weights, constants, meta.get("network", {}).get("body"), module, game)


def numpy_twin(net, game):
    """The numpy forward of a live :class:`AZNetwork` (a self-play worker's
    copy, its weights as they are now), or None where it does not agree."""
    weights = {name: tensor.detach().numpy().copy() for name, tensor in net.state_dict().items()}
    constants = {name: tensor.detach().numpy().copy() for name, tensor in net.named_buffers()}
    return checked_network(weights, constants, net.spec.get("body"), net, game)


def checked_network(weights: dict, constants: dict, body, module, game):
    """A :class:`NumpyNetwork` of these weights if it gives ``module``'s own
    answers on probe observations, else None."""
    if body not in ("cnn", "mlp"):
        return None
    import torch

    try:
        network = NumpyNetwork(weights, constants, body, game.observation_planes)
        probes = probe_observations(game)
        logits, values = network(probes)
        with torch.inference_mode():
            want_logits, want_values = module(torch.as_tensor(probes))
    except (KeyError, IndexError, ValueError, TypeError):  # laid out otherwise than AZNetwork
        return None
    if not (
        np.allclose(logits, want_logits.numpy(), rtol=AGREEMENT, atol=AGREEMENT)
        and np.allclose(values, want_values.numpy(), rtol=AGREEMENT, atol=AGREEMENT)
    ):
        return None
    return network


def probe_observations(game, count: int = 4) -> np.ndarray:
    """Observations inside the game's bounds, mostly zeros as real ones are,
    from a fixed generator of their own (the game's is never touched)."""
    shape = (count, *game.observation_shape)
    generator = np.random.default_rng(0)
    low = np.maximum(np.asarray(game.observation_low, dtype=np.float64), -8)
    high = np.minimum(np.asarray(game.observation_high, dtype=np.float64), 8)
    values = np.round(low + (high - low) * generator.random(shape))
    return (values * (generator.random(shape) < 0.2)).astype(np.float32)
