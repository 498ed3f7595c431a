"""The network of expert iteration: a prior over actions and a value per seat.

It reuses the PPO policy's bodies: the board CNN (:class:`PlanesCNN`) for
games that declare board planes, a symlogged flat input otherwise, and the
per-cell policy head (:class:`CellActionHead`) for games that declare cell
actions. Values come out in the acting seat's relative order (itself first,
then clockwise), squashed into the game's reward range.

A finished network is written as a ``torch.export`` program with its
metadata in the same file (:func:`export_network`), which the ``az`` agent
loads with torch alone.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import torch
from gymnasium import spaces

from meeplezoo.agents.az import META_FILE, NETWORK_FORMAT, network_priors_and_values
from meeplezoo.training.features import PlanesCNN, SymlogFlatten
from meeplezoo.training.policies import CellActionHead


def observation_space(game) -> spaces.Box:
    return spaces.Box(
        low=game.observation_low,
        high=game.observation_high,
        shape=tuple(game.observation_shape),
        dtype=game.observation_dtype,
    )


class AZNetwork(torch.nn.Module):
    """Body (CNN or flat), one hidden layer, a policy head and a value head.

    ``ownership`` (the cnn body only): one more head, trained but never
    exported, that reads each cell's features and foresees who holds it at
    the game's end in each of that many planes
    (:mod:`~meeplezoo.training.az.ownership`); :meth:`forward` leaves it out."""

    def __init__(
        self, game, hidden: int = 128, channels: int = 16, body: str = "auto", ownership: int = 0
    ) -> None:
        super().__init__()
        planes = game.observation_planes
        if body == "auto":
            body = "cnn" if planes is not None else "mlp"
        if body not in ("cnn", "mlp"):
            raise ValueError(f"body must be 'cnn', 'mlp' or 'auto', got {body!r}")
        if body == "cnn" and planes is None:
            raise ValueError(f"body='cnn' needs board planes, which {game.info.name} does not declare")
        space = observation_space(game)
        self.spec = {"hidden": int(hidden), "channels": int(channels), "body": body}
        if body == "cnn":
            self.body = PlanesCNN(space, tuple(planes), channels=int(channels))
        else:
            self.body = SymlogFlatten(space)
        features = self.body.features_dim
        self.trunk = torch.nn.Sequential(torch.nn.Linear(features, hidden), torch.nn.ReLU())
        self.per_cell = body == "cnn" and game.action_cells is not None
        if self.per_cell:
            self.policy = CellActionHead(features, self.body.out_channels, self.body.cells, game.action_cells)
        else:
            self.policy = torch.nn.Linear(hidden, game.num_actions)
        self.value = torch.nn.Linear(hidden, game.num_players)
        self.ownership = None
        if ownership:
            if body != "cnn":
                raise ValueError(f"an ownership head needs the cnn body, got body={body!r}")
            self.spec["ownership"] = int(ownership)
            self.ownership = torch.nn.Linear(self.body.out_channels, int(ownership))
        lo, hi = game.reward_range
        self.register_buffer("value_mid", torch.tensor((hi + lo) / 2, dtype=torch.float32), persistent=False)
        self.register_buffer("value_half", torch.tensor((hi - lo) / 2, dtype=torch.float32), persistent=False)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self._heads(self.body(observations))

    def _heads(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.trunk(features)
        logits = self.policy(features if self.per_cell else hidden)
        values = self.value_mid + self.value_half * torch.tanh(self.value(hidden))
        return logits, values

    def forward_with_ownership(self, observations: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The learner's pass: logits, values and the ownership foreseen,
        [batch, plane * cell] in -1..1 (plane-major, as the targets)."""
        features = self.body(observations)
        logits, values = self._heads(features)
        cells, channels = self.body.cells, self.body.out_channels
        maps = features[:, : channels * cells].reshape(-1, channels, cells).transpose(1, 2)
        owned = torch.tanh(self.ownership(maps)).transpose(1, 2).reshape(features.shape[0], -1)
        return logits, values, owned


def network_meta(game, spec: dict, trained: dict, play: dict | None = None) -> dict:
    """What a network file says about itself; ``play`` holds the search
    settings it was evaluated with (``sims``, ``mix``), which an ``az`` agent
    takes as its defaults."""
    return {
        "format": NETWORK_FORMAT,
        "game": game.info.name,
        "config": dict(game.config),
        "num_players": game.num_players,
        "num_actions": game.num_actions,
        "observation_shape": list(game.observation_shape),
        "network": dict(spec),
        "trained": dict(trained),
        "play": dict(play or {}),
    }


def export_network(net: AZNetwork, game, path: str | Path, trained: dict, play: dict | None = None) -> Path:
    """Write ``net`` as a self-contained program (any batch size) with its
    metadata; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    was_training = net.training
    net.eval()
    write_module(net, game, path, network_meta(game, net.spec, trained, play))
    net.train(was_training)
    return path


def write_module(module: torch.nn.Module, game, path: Path, meta: dict) -> None:
    """Export ``module`` (observations to logits and values, any batch size)
    and write it with ``meta``: the one format every az network file has."""
    example = torch.zeros((2, *game.observation_shape), dtype=torch.float32)
    batch = torch.export.Dim("batch", min=1, max=1 << 16)
    with torch.no_grad():
        program = torch.export.export(module, (example,), dynamic_shapes={"observations": {0: batch}})
    save_program(without_source_paths(program), path, meta)


def without_source_paths(program):
    """``program`` without the stack traces torch.export keeps per graph node:
    they name the source files of the machine that exported it, and a
    network file is shipped and shared."""
    for module in program.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in graph.nodes if graph is not None else ():
            node.meta.pop("stack_trace", None)
    return program


def save_program(program, path: Path, meta: dict) -> None:
    """Write the program and its metadata to ``path`` in one step (a reader
    never sees half a file); the archive inside keeps the file's own name."""
    with tempfile.TemporaryDirectory(dir=path.parent) as folder:
        partial = Path(folder) / path.name
        torch.export.save(program, str(partial), extra_files={META_FILE: json.dumps(meta)})
        partial.replace(path)


class TorchEvaluator:
    """An :class:`AZNetwork` in this process as the search's evaluator (the
    self-play workers' own copy, updated with each published set of weights).
    Given the game, the batches that numpy answers sooner go to the
    network's numpy twin (:func:`~meeplezoo.agents.numpy_network.numpy_twin`),
    as they do in the ``az`` agent."""

    def __init__(self, net: AZNetwork, game=None) -> None:
        from meeplezoo.agents.numpy_network import numpy_twin

        self.net = net.eval()
        self.num_players = net.value.out_features
        self.numpy_network = numpy_twin(self.net, game) if game is not None else None

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return network_priors_and_values(self.numpy_network, self.net, observations, masks)
