"""A trained MaskablePPO checkpoint as a player.

The model sees exactly the seat's ``observation`` (the game's Box) and acts
within ``action_mask``. sb3-contrib and torch are imported only when a policy
is loaded, so the other bots and the arena run without them. Models are
cached per path and process: a tournament worker loads each file once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from meeplezoo.agents.base import Agent

_MODELS: dict[str, object] = {}


def policy_checkpoint(path: str | Path) -> Path:
    """``path`` if it exists, else the ValueError every policy loader gives."""
    if not Path(path).exists():
        raise ValueError(f"policy checkpoint not found: {path}")
    return Path(path)


def load_model(path: str | Path):
    """Load (once per process) a MaskablePPO zip on the CPU."""
    key = str(Path(path).resolve())
    if key not in _MODELS:
        policy_checkpoint(path)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ValueError("the policy agent needs sb3-contrib (pip install meeplezoo[train])") from exc
        _MODELS[key] = MaskablePPO.load(str(path), device="cpu")
    return _MODELS[key]


def to_bool(value) -> bool:
    """A boolean agent option from a spec string (``deterministic=false``)
    or a real bool; shared by every policy-backed agent so that the same
    words mean the same thing. Unknown words raise ValueError."""
    if isinstance(value, str):
        if value.lower() in ("1", "true", "yes", "on"):
            return True
        if value.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected a boolean, got {value!r}")
    return bool(value)


class PolicyAgent(Agent):
    """Acts with a MaskablePPO policy: the greedy action when
    ``deterministic`` (the default), else one sampled from the masked policy
    (seeded by the agent's generator)."""

    name = "policy"

    def __init__(self, seed: int | None = None, path: str | None = None, deterministic=True, model=None):
        if path is None and model is None:
            raise ValueError("policy needs path=<checkpoint.zip>")
        deterministic = to_bool(deterministic)
        super().__init__(seed, **({"path": str(path)} if path else {}), deterministic=deterministic)
        self.path = path
        self.deterministic = deterministic
        self._model = model

    @property
    def model(self):
        if self._model is None:
            self._model = load_model(self.path)
        return self._model

    def act(self, observation: dict, view=None) -> int:
        mask = np.asarray(observation["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("no legal action in the mask")
        if self.deterministic:
            action, _ = self.model.predict(observation["observation"], action_masks=mask, deterministic=True)
            return int(action)
        return self._sample(observation["observation"], mask)

    def _sample(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Draw from the masked action distribution with our own generator,
        so sampled play is reproducible without touching torch's global seed."""
        probs = action_probabilities(self.model.policy, obs, mask)
        return int(self.rng.choice(probs.size, p=probs))


def action_probabilities(policy, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The policy's probabilities over actions for one observation, zero on
    illegal actions (float64, sums to one)."""
    import torch

    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(np.asarray(observation))
        features = policy.extract_features(obs, policy.pi_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0].cpu().numpy()
    legal = np.asarray(mask).astype(bool)
    logits = np.where(legal, logits.astype(np.float64), -np.inf)
    logits -= logits[legal].max()
    p = np.exp(logits)
    return p / p.sum()
