"""A module trained by RLlib (``meeplezoo train --backend rllib``) as a player.

It loads one RLModule from an algorithm checkpoint on the CPU and feeds it
the seat's flattened observation and mask, exactly as in training. Ray and
torch are imported only when such an agent is built.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from meeplezoo.agents.base import Agent
from meeplezoo.agents.policy import to_bool

_MODULES: dict[str, object] = {}


def module_dir(path: str | Path, module: str = "main") -> Path:
    """Accept a run folder, an algorithm checkpoint or a module folder."""
    path = Path(path)
    for candidate in (
        path,
        path / "learner_group" / "learner" / "rl_module" / module,
        path / "checkpoint" / "learner_group" / "learner" / "rl_module" / module,
    ):
        if (
            (candidate / "module_state").exists()
            or (candidate / "module_state.pt").exists()
            or (candidate / "class_and_ctor_args.pkl").exists()
        ):
            return candidate
    raise ValueError(f"no RLlib module {module!r} found under {path}")


def load_module(path: str | Path, module: str = "main"):
    key = f"{Path(path).resolve()}::{module}"
    if key not in _MODULES:
        try:
            from ray.rllib.core.rl_module.rl_module import RLModule
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ValueError("the rllib agent needs ray[rllib] (pip install meeplezoo[distributed])") from exc
        _MODULES[key] = RLModule.from_checkpoint(str(module_dir(path, module).resolve()))
    return _MODULES[key]


class RLlibPolicyAgent(Agent):
    """Greedy (``deterministic``, the default) or sampled masked action."""

    name = "rllib"

    def __init__(
        self, seed: int | None = None, path: str | None = None, module: str = "main", deterministic=True
    ):
        if path is None:
            raise ValueError("rllib needs path=<run folder or checkpoint>")
        deterministic = to_bool(deterministic)
        super().__init__(seed, path=str(path), module=module, deterministic=deterministic)
        self.path, self.module_id, self.deterministic = path, module, deterministic
        self._module = None

    def act(self, observation: dict, view=None) -> int:
        import torch
        from ray.rllib.core.columns import Columns

        if self._module is None:
            self._module = load_module(self.path, self.module_id)
        mask = np.asarray(observation["action_mask"], dtype=np.float32)
        obs = np.asarray(observation["observation"], dtype=np.float32).reshape(1, -1)
        batch = {
            Columns.OBS: {
                "observation": torch.from_numpy(obs),
                "action_mask": torch.from_numpy(mask.reshape(1, -1)),
            }
        }
        with torch.no_grad():
            logits = self._module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].double().numpy()
        legal = np.flatnonzero(mask > 0)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        scores = logits[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(scores))])
        p = np.exp(scores - scores.max())
        return int(legal[self.rng.choice(legal.size, p=p / p.sum())])
