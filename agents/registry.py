"""Agents from spec strings: ``random``, ``mcts:sims=200``,
``ismcts:sims=100,c=1.4``, ``policy:path=runs/x/best.zip,deterministic=true``,
``rllib:path=runs/x_rllib`` (a module trained on RLlib), ``az:path=runs/x/best.pt,sims=64``
(PUCT search with a network; ``az:baseline=GAME`` for the shipped one).

The arena, its CLI and training's evaluation all build bots through here, so a
spec string is the one portable name of a bot.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import json

from meeplezoo.agents.base import Agent
from meeplezoo.envs.core.options import Option, custom

AGENTS: dict[str, str] = {
    "random": "meeplezoo.agents.random_agent:RandomAgent",
    "mcts": "meeplezoo.agents.mcts:MCTSAgent",
    "ismcts": "meeplezoo.agents.ismcts:ISMCTSAgent",
    "policy": "meeplezoo.agents.policy:PolicyAgent",
    "rllib": "meeplezoo.agents.rllib_policy:RLlibPolicyAgent",
    "az": "meeplezoo.agents.az:AZAgent",
    "human": "meeplezoo.agents.human:HumanAgent",
}


def _value(text: str):
    """``200`` -> 200, ``1.4`` -> 1.4, ``true`` -> True, else the string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_spec(spec: str) -> tuple[str, dict]:
    """Split ``kind:k=v,k=v`` into the kind and its parameters."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in AGENTS:
        raise ValueError(
            f"unknown agent {kind!r} in {spec!r}{did_you_mean(kind, AGENTS)}; known agents: {', '.join(AGENTS)}"
        )
    params = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent parameters look like key=value, got {part!r} in {spec!r}")
        params[key.strip()] = _value(value.strip())
    return kind, params


def spec_option(default: str, doc: str) -> Option:
    """A training setting that names a bot (``eval_mcts_spec=mcts:sims=200``):
    checked as a spec when the run starts, not when its first evaluation fails."""

    def check(value, key: str, owner: str) -> str:
        if not isinstance(value, str):
            raise ValueError(f"{owner}: {key} must be an agent spec such as 'mcts:sims=200', got {value!r}")
        try:
            parse_spec(value)
        except ValueError as exc:
            raise ValueError(f"{owner}: {key}: {exc}") from None
        return value

    return custom(default, doc, "an agent spec", check)


def agent_class(kind: str) -> type[Agent]:
    module, _, cls = AGENTS[kind].partition(":")
    return getattr(importlib.import_module(module), cls)


def did_you_mean(word: str, known) -> str:
    """`` (did you mean 'x'?)`` for the nearest of ``known``, or nothing."""
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def agent_parameters(cls: type[Agent]) -> list[str] | None:
    """The spec parameters ``cls`` takes (None when it takes any keyword)."""
    signature = inspect.signature(cls.__init__)
    if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
        return None
    return [name for name in signature.parameters if name not in ("self", "seed")]


def check_parameters(kind: str, params: dict, spec: str) -> None:
    """An unknown parameter names the bot's parameters, not Python internals."""
    known = agent_parameters(agent_class(kind))
    if known is None:
        return
    for key in params:
        if key not in known:
            listed = ", ".join(known) if known else "none"
            raise ValueError(
                f"{kind!r} has no parameter {key!r} in {spec!r}{did_you_mean(key, known)}; its parameters: {listed}"
            )


def make_agent(spec: str | Agent, seed: int | None = None) -> Agent:
    """An agent from a spec string (an Agent instance is returned as is)."""
    if isinstance(spec, Agent):
        return spec
    kind, params = parse_spec(spec)
    check_parameters(kind, params, spec)
    try:
        return agent_class(kind)(seed=seed, **params)
    except TypeError as exc:
        raise ValueError(f"bad parameters for {kind!r} in {spec!r}: {exc}") from None
