"""What ``meeplezoo bench`` measures: each game (default and heaviest config),
the PettingZoo classic peers, and the floor env.

A :class:`Subject` is just a name and factories, so tests can hand in a game
that is registered nowhere (the toy game) and time it with the same code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meeplezoo import envs

# Peers a user would otherwise pick: (label, module, env kwargs).
PEERS: list[tuple[str, str, dict[str, Any]]] = [
    ("connect_four_v3", "pettingzoo.classic.connect_four_v3", {}),
    ("tictactoe_v3", "pettingzoo.classic.tictactoe_v3", {}),
    ("go_v5", "pettingzoo.classic.go_v5", {"board_size": 9}),
    ("leduc_holdem_v4", "pettingzoo.classic.leduc_holdem_v4", {}),
    ("texas_holdem_v4", "pettingzoo.classic.texas_holdem_v4", {}),
    ("chess_v6", "pettingzoo.classic.chess_v6", {}),
]
BASELINE = "connect_four_v3"
FLOOR = "floor"

# The heaviest configuration worth reporting, where the largest
# ``num_players`` of ``Game.test_configs`` is not the whole story.
HEAVY_CONFIGS: dict[str, dict[str, Any]] = {}


@dataclass
class Subject:
    """One thing to time. ``make_game`` is None where there is no rules layer."""

    name: str
    kind: str  # "game", "peer" or "floor"
    make_env: Callable[[], Any]
    make_game: Callable[[], Any] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            self.label = self.name


def heaviest_config(name: str, game_cls) -> dict[str, Any]:
    """The heaviest config worth reporting: ``HEAVY_CONFIGS`` if listed; for a
    game whose seat count varies, the ``test_configs`` entry with the most
    players (the most options on among those), else just the most players.
    A fixed-seat game's defaults are its full game: nothing more to report."""
    if name in HEAVY_CONFIGS:
        return dict(HEAVY_CONFIGS[name])
    info = game_cls.info
    if info.max_players == info.default_players:
        return {}
    configs = [
        c
        for c in getattr(game_cls, "test_configs", []) or []
        if c.get("num_players", info.default_players) == info.max_players
    ]
    if configs:
        return dict(max(configs, key=len))
    return {"num_players": info.max_players}


def game_configs(name: str, game_cls) -> list[dict[str, Any]]:
    """Default config first, then the heaviest one if it differs."""
    heavy = heaviest_config(name, game_cls)
    default_players = game_cls.info.default_players
    defaults = dict(game_cls.defaults)
    same = all(
        defaults.get(k, default_players if k == "num_players" else None) == v for k, v in heavy.items()
    )
    return [{}] if same else [{}, heavy]


def game_subjects_for(name: str, game_cls, env_cls_factory: Callable[..., Any]) -> list[Subject]:
    """Subjects for one game class; ``env_cls_factory(**config)`` builds its env."""
    out = []
    for config in game_configs(name, game_cls):
        out.append(
            Subject(
                name=name,
                kind="game",
                make_env=lambda c=config: env_cls_factory(**c),
                make_game=lambda c=config: game_cls(**c),
                config=config,
                label=f"{name} heavy" if config else name,
            )
        )
    return out


def game_subjects(names: list[str] | None = None) -> list[Subject]:
    """Subjects for the registered games (all of them by default)."""
    out = []
    for name in names if names is not None else envs.names():
        name = envs.resolve(name)
        out += game_subjects_for(name, envs.game_class(name), lambda n=name, **c: envs.make(n, **c))
    return out


def peer_subjects(names: list[str] | None = None) -> tuple[list[Subject], dict[str, str]]:
    """Installed peers as subjects, and why each missing one was skipped."""
    subjects, skipped = [], {}
    for label, module, kwargs in PEERS:
        if names is not None and label not in names:
            continue
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:
            skipped[label] = (
                f"not installed ({exc.name or exc}); install the extra: pip install 'meeplezoo[bench]'"
            )
            continue
        subjects.append(
            Subject(
                name=label,
                kind="peer",
                make_env=lambda m=mod, k=kwargs: m.env(**k),
                config=dict(kwargs),
            )
        )
    return subjects, skipped


def floor_subject() -> Subject:
    from meeplezoo.benchmarks.floor_env import FloorEnv

    return Subject(name=FLOOR, kind="floor", make_env=FloorEnv)


def select_subjects(wanted: list[str] | None) -> tuple[list[Subject], dict[str, str]]:
    """Subjects for ``--games`` (None: everything). Names may be games (with or
    without version), peers, or ``floor``; the baseline and the floor are
    always added so that ratios can be given."""
    peer_labels = [p[0] for p in PEERS]
    if wanted is None:
        games, peers = envs.names(), None
    else:
        unknown = [w for w in wanted if w not in peer_labels and w != FLOOR and not _is_game(w)]
        if unknown:
            raise ValueError(
                f"unknown benchmark subject(s) {unknown}; choose from games {envs.names()}, "
                f"peers {peer_labels} or {FLOOR!r}"
            )
        games = [envs.resolve(w) for w in wanted if _is_game(w)]
        peers = [w for w in wanted if w in peer_labels]
        if BASELINE not in peers:
            peers.append(BASELINE)
    subjects = game_subjects(games)
    peer_list, skipped = peer_subjects(peers)
    return subjects + peer_list + [floor_subject()], skipped


def _is_game(name: str) -> bool:
    try:
        envs.resolve(name)
    except ValueError:
        return False
    return True
