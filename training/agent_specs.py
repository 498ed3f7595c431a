"""Agent spec strings (``random``, ``mcts:sims=20``) to bots, for the league.

The arena's registry (``agents.registry``) is the authority on spec strings;
this module only defers to it, with a direct fallback for the bots the
league uses when that registry is not installed.
"""

from __future__ import annotations

import json


def parse_spec(spec: str) -> tuple[str, dict]:
    """``"mcts:sims=20,c=1.0"`` -> ``("mcts", {"sims": 20, "c": 1.0})``."""
    name, _, rest = spec.partition(":")
    params = {}
    for pair in filter(None, rest.split(",")):
        if "=" not in pair:
            raise ValueError(f"agent parameters look like key=value, got {pair!r} in {spec!r}")
        key, value = pair.split("=", 1)
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    return name.strip(), params


def build_agent(spec: str, seed: int | None = None):
    try:
        from agents.registry import make_agent
    except ImportError:
        make_agent = None
    if make_agent is not None:
        return make_agent(spec, seed=seed)
    name, params = parse_spec(spec)
    if name == "random":
        from agents.random_agent import RandomAgent

        return RandomAgent(seed=seed, **params)
    if name == "mcts":
        from agents.mcts import MCTSAgent

        return MCTSAgent(seed=seed, **params)
    if name == "ismcts":
        from agents.ismcts import ISMCTSAgent

        return ISMCTSAgent(seed=seed, **params)
    if name == "policy":
        from agents.policy import PolicyAgent

        return PolicyAgent(seed=seed, **params)
    raise ValueError(f"unknown agent {name!r} in spec {spec!r}")
