"""The web table's games in memory, by id, with the settings new ones get.

Only a few recent games are kept: finished ones are on disk as replays, and a
page whose game is gone starts a new one.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from meeplezoo import envs
from meeplezoo.agents.arena import derive_seed
from meeplezoo.agents.web.table import Table, TableError, human_seat


@dataclass
class TableSettings:
    game: str  # registry name, e.g. gem_mountain_v0
    agents: list[str]  # one spec per seat, exactly one "human"
    config: dict = field(default_factory=dict)  # game config, num_players included
    seed: int = 0  # game k is played with derive_seed(seed, 2, k)
    replay_dir: Path = Path("replays")

    def __post_init__(self) -> None:
        self.game = envs.resolve(self.game)
        self.replay_dir = Path(self.replay_dir)
        game = envs.make_game(self.game, **self.config)  # raises ValueError on a bad config
        if len(self.agents) != game.num_players:
            raise ValueError(
                f"{self.game} with this config seats {game.num_players} players, got {len(self.agents)} agents"
            )
        human_seat(self.agents)


class Tables:
    """Thread-safe registry of the games being played."""

    KEEP = 16

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._count = itertools.count()
        self._lock = threading.Lock()

    def create(self) -> Table:
        s = self.settings
        with self._lock:
            k = next(self._count)
        table = Table(envs.make_game(s.game, **s.config), s.agents, derive_seed(s.seed, 2, k), s.replay_dir)
        with self._lock:
            self._tables[table.id] = table
            while len(self._tables) > self.KEEP:
                self._tables.popitem(last=False)
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                raise TableError(404, f"no game with id {table_id!r} (it may be gone after a restart)")
            self._tables.move_to_end(table_id)
            return table
