"""One game at the web table: a person in one seat, seeded bots in the others.

The bots move one at a time (``advance``) so the page can show each move;
every request quotes the table's version, so a stale or repeated click
changes nothing. A finished game is saved as a replay at once, so a server
restart loses at most the game in progress.
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path

import numpy as np

from meeplezoo.agents.arena import derive_seed
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.registry import make_agent, parse_spec
from meeplezoo.agents.web.move_labels import move_label
from meeplezoo.agents.web.replay_files import save_new_replay
from meeplezoo.agents.web.seat_payload import seat_payload
from meeplezoo.envs.core.backends import start_state
from meeplezoo.envs.core.ranking import ranks as competition_ranks
from meeplezoo.envs.core.replay import ReplayRecord, seal


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP code to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def human_seat(specs: list[str]) -> int:
    """The one seat whose spec is ``human``; exactly one is allowed."""
    seats = [i for i, spec in enumerate(specs) if parse_spec(spec)[0] == "human"]
    if len(seats) != 1:
        raise ValueError(f"the web table needs exactly one 'human' among the agents, got {len(seats)}")
    return seats[0]


class Table:
    def __init__(self, game, specs: list[str], seed: int, replay_dir: str | Path) -> None:
        if len(specs) != game.num_players:
            raise ValueError(f"{game.info.name} seats {game.num_players} players, got {len(specs)} agents")
        self.id = secrets.token_urlsafe(9)
        self.game = game
        self.seed = int(seed)
        self.human = human_seat(specs)
        self.specs = list(specs)
        # the seats as the page names them
        self.agents = ["you" if i == self.human else spec for i, spec in enumerate(specs)]
        self.bots = {}
        for seat, spec in enumerate(specs):
            if seat != self.human:
                bot = make_agent(spec, seed=derive_seed(self.seed, 1, seat))
                bot.reset(derive_seed(self.seed, 1, seat))
                self.bots[seat] = bot
        self.replay_dir = Path(replay_dir)
        self.state = start_state(game, self.seed)
        self.actions: list[int] = []
        self.history: list[tuple[int, str]] = []  # (seat, move name as the human may know it)
        self.version = 0
        self.replay: Path | None = None
        self.replay_error: str | None = None
        self.lock = threading.Lock()

    # --- the page's view ------------------------------------------------------
    def payload(self) -> dict:
        return seat_payload(
            self.state,
            self.human,
            table_id=self.id,
            version=self.version,
            agents=self.agents,
            history=self.history,
            replay=None if self.replay is None else str(self.replay),
            replay_error=self.replay_error,
        )

    # --- moves ----------------------------------------------------------------
    def play(self, version: int, action: int) -> dict:
        """The person's move; refused unless it is legal, theirs and current."""
        with self.lock:
            self._check(version)
            if self.state.current_player != self.human:
                raise TableError(409, "it is not your turn")
            if not 0 <= action < self.game.num_actions or not self.state.legal_action_mask()[action]:
                raise TableError(422, f"action {action} is not a legal move now")
            self._apply(action)
            return self.payload()

    def advance(self, version: int) -> dict:
        """One bot move (the seat to move must be a bot's)."""
        with self.lock:
            self._check(version)
            seat = self.state.current_player
            if seat == self.human:
                raise TableError(409, "it is your turn, not a bot's")
            self._apply(self._bot_action(seat))
            return self.payload()

    def _check(self, version: int) -> None:
        if version != self.version:
            raise TableError(409, f"stale request: the game is at version {self.version}, not {version}")
        if self.state.done:
            raise TableError(409, "the game is over")

    def _bot_action(self, seat: int) -> int:
        state = self.state
        mask = state.legal_action_mask()
        bot = self.bots[seat]
        obs = {"observation": state.observation(seat), "action_mask": mask.astype(np.int8)}
        action = int(bot.act(obs, SeatView(state, seat) if bot.needs_view else None))
        if not 0 <= action < mask.size or not mask[action]:
            raise RuntimeError(f"{self.agents[seat]} chose illegal action {action}")
        return action

    def _apply(self, action: int) -> None:
        self.history.append((self.state.current_player, move_label(self.state, action, self.human)))
        self.state.apply(action)
        self.actions.append(int(action))
        self.version += 1
        if self.state.done:
            self._save()

    def _save(self) -> None:
        returns = [float(r) for r in self.state.returns()]
        record = ReplayRecord(
            game=self.game.info.name,
            config=dict(self.game.config),
            seed=self.seed,
            actions=list(self.actions),
            meta={
                "agents": list(self.specs),
                "returns": returns,
                "ranks": [int(r) for r in competition_ranks(returns)],
                "human_seat": self.human,
            },
        )
        try:
            self.replay = save_new_replay(seal(record, game=self.game), self.replay_dir)
        except OSError as exc:
            self.replay_error = f"could not save the replay in {self.replay_dir}: {exc.strerror or exc}"
