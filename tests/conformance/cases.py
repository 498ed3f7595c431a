"""The cases every conformance test runs over: each registered game in its
default config and in each of its ``test_configs``, plus the core's own toy
game so the suite also checks itself."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meeplezoo import envs
from tests.core.toy_game import HighCardEnv, HighCardGame


@dataclass(frozen=True)
class Case:
    name: str
    config_json: str = "{}"
    env_factory: Callable[..., Any] | None = field(default=None, compare=False)
    game_factory: Callable[..., Any] | None = field(default=None, compare=False)

    @property
    def config(self) -> dict:
        return json.loads(self.config_json)

    def make_env(self, **extra):
        config = {**self.config, **extra}
        if self.env_factory is not None:
            return self.env_factory(**config)
        return envs.make(self.name, **config)

    def make_game(self):
        if self.game_factory is not None:
            return self.game_factory(**self.config)
        return envs.make_game(self.name, **self.config)

    @property
    def id(self) -> str:
        cfg = self.config
        if not cfg:
            return f"{self.name}-default"
        return self.name + "-" + ",".join(f"{k}={v}" for k, v in sorted(cfg.items()))


def all_cases() -> list[Case]:
    cases = [Case("high_card_v0", "{}", HighCardEnv, HighCardGame)]
    cases += [
        Case("high_card_v0", json.dumps(c), HighCardEnv, HighCardGame) for c in HighCardGame.test_configs
    ]
    for name in envs.names():
        game_cls = envs.game_class(name)
        configs = [{}] + list(getattr(game_cls, "test_configs", []))
        for cfg in configs:
            cases.append(Case(name, json.dumps(cfg, sort_keys=True)))
    return cases


CASES = all_cases()
CASE_IDS = [c.id for c in CASES]
