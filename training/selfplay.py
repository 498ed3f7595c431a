"""A single-agent Gymnasium view of any meeplezoo game, for Stable-Baselines3.

The learner holds one seat, drawn at random each episode; the other seats are
played inside the env by opponents from an :class:`~training.league.League`.
``step()`` applies the learner's action, then lets the opponents move until
the learner is to act again or the game ends. The env drives the rules
``State`` directly (no AEC bookkeeping per step), so every reward,
termination flag and info returned is the learner's own seat's - the trap of
handing back the next agent's reward (PettingZoo issue 1147) cannot arise.

``action_masks()`` returns the learner's current legal-action mask, the
convention sb3-contrib's MaskablePPO reads. With ``skip_forced`` (the
default) a learner move that has only one legal action is played inside the
env too: such steps teach nothing and stretch the credit assignment from the
end-of-game reward (a quarter of Gem Mountain's moves are forced).

A game cut off by its turn limit is scored by the game's own truncation rule,
and that score is final, so the learner sees it as ``terminated`` (with
``info["turn_limit"]``): reporting Gymnasium's ``truncated`` would make PPO
add the value of the last position on top of a result that is already known.

``reward_shaping`` (a weight, default 0) adds potential-based shaping
(Ng, Harada and Russell, 1999): ``w * (gamma * phi(s') - phi(s))`` with
``phi`` the learner's entry of ``State.evaluate(viewer=learner)`` and
``phi = 0`` once the game is over. It gives long games (Gold Rush Gangs runs
to thousands of moves) a signal before the end without changing which
policies are optimal. The potential is the learner's own estimate, read only
from what its seat may know: the whole-state estimate would make its rewards
depend on the other seats' secret tiles and the face-down ones.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from meeplezoo import envs
from meeplezoo.agents.base import SeatView
from meeplezoo.envs.core.backends import start_state
from meeplezoo.envs.core.state import Game

MAX_RESET_TRIES = 100  # games that end before the learner ever moves are redrawn


def make_game(game: str | Game, config: dict | None = None) -> Game:
    """A rules Game from a registry name (config applied) or a Game itself."""
    if isinstance(game, Game):
        if config:
            raise ValueError("pass the config to the Game itself, not with a Game instance")
        return game
    return envs.make_game(game, **(config or {}))


class SelfPlayEnv(gym.Env):
    """The learner's seat of ``game`` against ``league``'s opponents.

    ``game`` is a registry name (with ``config``) or a rules ``Game``.
    ``seat`` fixes the learner's seat (default: a random seat each episode).
    Without a league every opponent plays uniformly at random.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str | Game,
        config: dict | None = None,
        league=None,
        seat: int | None = None,
        render_mode: str | None = None,
        skip_forced: bool = True,
        reward_shaping: float = 0.0,
        gamma: float = 1.0,
    ) -> None:
        super().__init__()
        self.game = make_game(game, config)
        g = self.game
        if seat is not None and not 0 <= seat < g.num_players:
            raise ValueError(f"seat must be in 0..{g.num_players - 1}, got {seat}")
        if league is None:
            from meeplezoo.training.league import League

            league = League(g)
        self.league = league
        self.fixed_seat = seat
        self.skip_forced = skip_forced
        self.reward_shaping = float(reward_shaping)
        self.gamma = float(gamma)
        self._potential = 0.0
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=g.observation_low,
            high=g.observation_high,
            shape=g.observation_shape,
            dtype=g.observation_dtype,
        )
        self.action_space = spaces.Discrete(g.num_actions)
        self._all_true = np.ones(g.num_actions, dtype=bool)
        self.state = None
        self.seat = 0
        self.opponents: dict[int, Any] = {}
        self.env_seconds = 0.0  # wall time spent inside reset/step (rules + opponents)
        self.env_steps = 0

    # --- episode ------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        t0 = time.perf_counter()
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game.num_players
        for _ in range(MAX_RESET_TRIES):
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            self.state = start_state(self.game, int(rng.integers(2**63 - 1)))
            self.opponents = {}
            for other in range(n):
                if other != self.seat:
                    opponent = self.league.sample(rng)
                    opponent.reset(int(rng.integers(2**63 - 1)))
                    self.opponents[other] = opponent
            self._play_opponents()
            if not self.state.done:
                break
        else:
            raise RuntimeError(
                f"{self.game.info.name}: {MAX_RESET_TRIES} games ended before the learner's first move"
            )
        self._potential = self._phi()
        self.env_seconds += time.perf_counter() - t0
        return self._observe(), self._info()

    def step(self, action):
        t0 = time.perf_counter()
        state = self.state
        if state is None or state.done:
            raise RuntimeError("the episode is over; call reset()")
        a = int(action)
        if not (0 <= a < self.game.num_actions and state.legal_action_mask()[a]):
            # PettingZoo classic's rule for an illegal move: the game ends, -1 to the offender
            self.env_seconds += time.perf_counter() - t0
            self.env_steps += 1
            info = self._info()
            info["illegal_action"] = a
            self.state = None
            return self._last_obs, -1.0, True, False, info
        state.apply(a)
        self._play_opponents()
        reward = float(state.returns()[self.seat]) if state.done else 0.0
        game_return = reward
        if self.reward_shaping:
            potential = self._phi()
            reward += self.reward_shaping * (self.gamma * potential - self._potential)
            self._potential = potential
        obs = self._observe()
        info = self._info()
        terminated = bool(state.done)
        if terminated:
            info["return"] = game_return
            info["won"] = bool(self._won(state.returns()))
            info["turn_limit"] = bool(state.truncated)
        self.env_seconds += time.perf_counter() - t0
        self.env_steps += 1
        return obs, reward, terminated, False, info

    def _phi(self) -> float:
        """The shaping potential of the current position (0 once it is over):
        the learner's estimate from what its seat may know."""
        if not self.reward_shaping or self.state.done:
            return 0.0
        return float(self.state.evaluate(viewer=self.seat)[self.seat])

    def _play_opponents(self) -> None:
        """Play until the learner has a real choice or the game is over."""
        state = self.state
        while not state.done:
            p = state.current_player
            if p == self.seat:
                if not self.skip_forced:
                    break
                legal = np.flatnonzero(state.legal_action_mask())
                if legal.size != 1:
                    break
                state.apply(int(legal[0]))
                continue
            opponent = self.opponents[p]
            obs = {
                "observation": state.observation(p),
                "action_mask": state.legal_action_mask().astype(np.int8),
            }
            view = SeatView(state, p) if getattr(opponent, "needs_view", False) else None
            state.apply(int(opponent.act(obs, view)))

    def _won(self, returns: np.ndarray) -> bool:
        """The learner alone has the best return."""
        best = returns.max()
        return returns[self.seat] == best and int((returns == best).sum()) == 1

    # --- views ----------------------------------------------------------------
    def _observe(self) -> np.ndarray:
        obs = np.asarray(self.state.observation(self.seat), dtype=self.observation_space.dtype)
        self._last_obs = obs
        return obs

    def _info(self) -> dict:
        return {"seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (all True once the game is over,
        so a policy can still be queried on the final observation)."""
        state = self.state
        if state is None or state.done or state.current_player != self.seat:
            return self._all_true.copy()
        return state.legal_action_mask().astype(bool)

    def render(self):
        if self.state is None:
            return None
        return self.state.render_ansi(self.seat)

    # --- league hooks (called through VecEnv.env_method) -------------------------
    def add_snapshot(self, path: str) -> None:
        self.league.add_snapshot(path)

    def set_current(self, payload: dict) -> None:
        self.league.set_current(payload)

    def timing(self) -> tuple[float, int]:
        """(seconds spent in the env, learner steps taken) since creation."""
        return self.env_seconds, self.env_steps
