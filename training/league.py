"""The opponent pool for self-play: the current policy, frozen snapshots of
earlier policies (a window of the last few), and fixed bots.

Each opponent seat of each episode is drawn by category weight
(``{"self": .5, "snapshots": .3, "random": .2}`` by default; any other key
names a bot spec such as ``"mcts"`` -> ``"mcts:sims=20"``). Categories with
nothing in them yet are skipped. Snapshots are policy files, loaded on first
use and kept on the CPU; the current policy arrives as weights pushed by the
trainer (:meth:`set_current`), so the pool works the same in worker processes.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from meeplezoo.agents.base import Agent
from meeplezoo.agents.policy import action_probabilities
from meeplezoo.agents.random_agent import RandomAgent

DEFAULT_WEIGHTS = {"self": 0.5, "snapshots": 0.3, "random": 0.2}
DEFAULT_BOTS = {"random": "random", "mcts": "mcts:sims=20"}
POLICY_CATEGORIES = ("self", "snapshots")


def make_bot(spec: str, seed: int | None = None) -> Agent:
    """A fixed bot from an agent spec string (``random``, ``mcts:sims=20``)."""
    if spec == "random":
        return RandomAgent(seed=seed)
    from meeplezoo.agents.registry import make_agent

    return make_agent(spec, seed=seed)


class PolicyOpponent(Agent):
    """A frozen MaskablePPO policy acting on its seat's observation.

    Actions are sampled from the masked action distribution with the agent's
    own numpy generator (or taken greedily), so a seeded episode replays
    exactly whatever torch's global random state is.
    """

    name = "policy"

    def __init__(self, policy, seed: int | None = None, deterministic: bool = False, label: str = "policy"):
        super().__init__(seed=seed)
        self.policy = policy
        self.deterministic = deterministic
        self.label = label

    def act(self, observation: dict, view=None) -> int:
        probs = action_probabilities(self.policy, observation["observation"], observation["action_mask"])
        if self.deterministic:
            return int(np.argmax(probs))
        cdf = np.cumsum(probs)
        return int(min(np.searchsorted(cdf, self.rng.random() * cdf[-1], side="right"), probs.size - 1))

    def describe(self) -> str:
        return self.label


def load_policy(path: str):
    """A MaskablePPO policy from a policy file (``policy.save``) or a full
    model zip (``model.save``), on the CPU, in eval mode."""
    if str(path).endswith(".zip"):
        from sb3_contrib import MaskablePPO

        policy = MaskablePPO.load(path, device="cpu").policy
    else:
        import torch

        from meeplezoo.training.policies import policy_class

        data = torch.load(path, map_location="cpu", weights_only=False)["data"]
        policy = policy_class(data).load(path, device="cpu")
    policy.set_training_mode(False)
    return policy


def policy_payload(policy) -> dict:
    """What :meth:`League.set_current` needs to rebuild ``policy`` elsewhere:
    its constructor arguments and CPU weights (picklable for worker pipes)."""
    return {
        "class": type(policy),
        "data": policy._get_constructor_parameters(),
        "state_dict": {k: v.detach().cpu().clone() for k, v in policy.state_dict().items()},
    }


class League:
    """Opponents for the learner's env; see the module docstring."""

    def __init__(
        self,
        game=None,
        weights: dict[str, float] | None = None,
        window: int = 5,
        bots: dict[str, str] | None = None,
    ) -> None:
        self.game = game
        self.weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        self.bots = {**DEFAULT_BOTS, **(bots or {})}
        for key, w in self.weights.items():
            if w < 0:
                raise ValueError(f"league weight {key!r} must be >= 0, got {w}")
            if key not in POLICY_CATEGORIES and key not in self.bots:
                raise ValueError(
                    f"league weight {key!r} names no category; use self, snapshots or a bot "
                    f"({', '.join(sorted(self.bots))})"
                )
        if window < 1:
            raise ValueError(f"league window must be >= 1, got {window}")
        self.window = window
        self.snapshot_paths: list[str] = []
        self._loaded: OrderedDict[str, Any] = OrderedDict()
        self.current = None
        self.counts: dict[str, int] = {}

    # --- filling the pool ---------------------------------------------------------
    def add_snapshot(self, path: str) -> None:
        """Register a frozen policy file; only the last ``window`` stay."""
        self.snapshot_paths.append(str(path))
        while len(self.snapshot_paths) > self.window:
            old = self.snapshot_paths.pop(0)
            self._loaded.pop(old, None)

    def set_current(self, payload: dict) -> None:
        """Load the learner's latest weights (see :func:`policy_payload`)."""
        if self.current is None:
            self.current = payload["class"](**payload["data"])
            self.current.set_training_mode(False)
        self.current.load_state_dict(payload["state_dict"])

    def _snapshot(self, path: str):
        if path not in self._loaded:
            self._loaded[path] = load_policy(path)
        return self._loaded[path]

    # --- drawing opponents ----------------------------------------------------------
    def available(self) -> dict[str, float]:
        """Category weights, limited to categories that can field an opponent."""
        out = {}
        for key, w in self.weights.items():
            if w <= 0:
                continue
            if key == "self" and self.current is None:
                continue
            if key == "snapshots" and not self.snapshot_paths:
                continue
            out[key] = w
        return out

    def sample(self, rng: np.random.Generator) -> Agent:
        """One opponent for one seat of one episode."""
        avail = self.available()
        if not avail:
            category = "random"
        else:
            keys = list(avail)
            w = np.array([avail[k] for k in keys], dtype=float)
            category = keys[int(rng.choice(len(keys), p=w / w.sum()))]
        self.counts[category] = self.counts.get(category, 0) + 1
        if category == "self":
            return PolicyOpponent(self.current, label="self")
        if category == "snapshots":
            path = self.snapshot_paths[int(rng.integers(len(self.snapshot_paths)))]
            return PolicyOpponent(self._snapshot(path), label=f"snapshot:{path}")
        return make_bot(self.bots.get(category, category))
