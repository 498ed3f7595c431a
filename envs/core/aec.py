"""One PettingZoo AEC environment over any meeplezoo rules state.

This is the only module of ``envs`` that imports PettingZoo. Order and bounds
checks happen inline here instead of in PettingZoo's wrapper chain, which
costs more per step than most of our games' rules do.

When a game ends, each agent's ``info`` holds its outcome: ``rank`` (1 is
best, tied seats share the better rank), ``return``, and ``points`` in the
games that count them (``envs/core/outcome.py``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from meeplezoo.envs.core.backends import choose_backend, loaded_state, start_state
from meeplezoo.envs.core.outcome import seat_outcomes
from meeplezoo.envs.core.replay import ReplayRecord, seal
from meeplezoo.envs.core.state import Game, State, integer_index

ILLEGAL_ACTION_MODES = ("terminate", "raise")
MASK_DTYPE = np.dtype(np.int8)  # the action mask handed out (a dtype object converts fastest)


class ResetNeededError(ResetNeeded, ValueError):
    """A call that needs a game in progress came before ``reset()``.

    Gymnasium's ``ResetNeeded`` for its users, a ``ValueError`` like every
    other misuse of this env."""


def check_seed(seed: Any) -> int | None:
    """``seed`` as a Python int (numpy integers welcome), or None.

    Bools, negative numbers and non-integers raise ``ValueError`` naming the
    value, before anything changes."""
    if seed is None:
        return None
    value = integer_index(seed)
    if value is None or value < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    return value


RENDER_MODES = ("ansi", "rgb_array", "human")


class MeepleEnv(AECEnv):
    """AEC env for the game class ``game_cls`` (set by each game's module).

    Agents are ``player_0`` .. ``player_{n-1}``; the index is the seat. The
    observation is a dict of ``observation`` (the seat's own view) and
    ``action_mask`` (int8; all zeros for agents not to move). ``backend``
    picks the rules: ``"compiled"`` (the default where the game has a
    compiled kernel) or ``"python"`` (the reference rules). Rewards are zero
    until the game ends, then each seat's return. An illegal but in-range
    action ends the game with -1 for the offender (PettingZoo classic), or
    raises ``ValueError`` with ``illegal_action="raise"``.

    The rules-layer position is ``env.game_state``; ``env.state()`` is
    PettingZoo's global-state method, which these games do not offer (it
    raises, as PettingZoo's base class does): use ``get_state()`` for the whole
    position as a dict.
    """

    game_cls: type[Game]
    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "meeplezoo",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        backend: str | None = None,
        **config: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.game: Game = self.game_cls(**config)
        self.backend = choose_backend(self.game, backend)
        game = self.game
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=game.observation_low,
                    high=game.observation_high,
                    shape=game.observation_shape,
                    dtype=game.observation_dtype,
                ),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self.np_random = None
        self.game_state: State | None = None
        self.game_seed: int | None = None
        self.render_viewer: int | None = None  # None: render everything

    # --- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- lifecycle ------------------------------------------------------------
    RESET_OPTIONS = ("state",)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game, dealt from ``seed`` (PettingZoo's contract).

        ``options`` may hold ``"state"``: a position dict (``get_state()``) to
        start from instead of a fresh deal, as :meth:`load_state` does. Any
        other key gives a warning naming it, so a misspelt option is never
        silently ignored; it is not an error because PettingZoo's own
        ``api_test`` resets with an arbitrary option and expects it to be
        accepted. Options that are not a dict are a TypeError."""
        seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset options must be a dict or None, got {options!r}")
        loaded = None
        if options:
            unknown = sorted(set(options) - set(self.RESET_OPTIONS), key=repr)
            if unknown:
                warnings.warn(
                    f"reset ignores unknown option(s) {unknown}; known: {list(self.RESET_OPTIONS)}",
                    stacklevel=2,
                )
            position = options.get("state")
            loaded = None if position is None else self._loaded(position)
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        if loaded is not None:
            self._start(loaded)
            self.game_seed = None
            return
        self.game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._start(self._new_state(self.game_seed))

    def _new_state(self, seed: int) -> State:
        return start_state(self.game, seed, self.backend)

    def _loaded(self, position: dict) -> State:
        return loaded_state(self.game, position, self.backend)

    def _start(self, state: State) -> None:
        # checked before anything is swapped in: a refused position leaves the env as it was
        try:
            done, seat = state.done, state.current_player
        except (IndexError, KeyError, TypeError) as exc:
            raise ValueError(f"the position does not say who moves: {exc!r}") from None
        index = seat if type(seat) is int else integer_index(seat)
        if not done and (index is None or not 0 <= index < len(self.possible_agents)):
            raise ValueError(f"the position's seat to move, {seat!r}, is not a seat of this game")
        self.game_state = state
        self.actions: list[int] = []
        self.illegal_move: dict | None = (
            None  # {"action": a, "seat": s} once an illegal action ended the game
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._mask: np.ndarray | None = None
        self._rewards_pending = False
        if done:
            self._finish(state.returns(), truncated=state.truncated and not state.terminal)
        else:
            self.agent_selection = self.possible_agents[index]

    def _require_game(self, method: str) -> State:
        if self.game_state is None:
            raise ResetNeededError(f"call reset() before {method}()")
        return self.game_state

    def last(self, observe: bool = True):
        self._require_game("last")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        self._require_game("agent_iter")
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        if state is None:
            self._require_game("observe")
        seat = self.agent_name_mapping.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        obs = state.observation(seat)
        if (
            agent == self.agent_selection
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        ):
            mask = self._current_mask().astype(MASK_DTYPE)
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self.game_state.legal_action_mask()
        return self._mask

    def step(self, action: Any) -> None:
        if self.game_state is None:
            self._require_game("step")
        if not self.agents:
            raise ValueError("the game is over and every agent has stepped out; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done; the only valid action is None, got {action!r}")
            self._was_dead_step(action)
            return
        a = (
            action
            if type(action) is int and 0 <= action < self.game.num_actions
            else self._action_index(action)
        )
        if self._rewards_pending:
            for key in self.rewards:
                self.rewards[key] = 0.0
            self._rewards_pending = False
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        if not self._current_mask()[a]:
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {a} ({state.action_to_string(a)}) for {agent}")
            returns = np.zeros(self.game.num_players)
            returns[self.agent_name_mapping[agent]] = -1.0
            self.infos[agent]["illegal_action"] = a
            self.illegal_move = {"action": a, "seat": self.agent_name_mapping[agent]}
            self._finish(returns, truncated=False)
        else:
            state.apply_unchecked(a)  # type, range and legality checked above
            self.actions.append(a)
            self._mask = None
            if state.done:
                self._finish(state.returns(), truncated=state.truncated and not state.terminal)
            else:
                self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def _finish(self, returns: np.ndarray, truncated: bool) -> None:
        outcomes = seat_outcomes(self.game_state, returns)
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(returns[i])
            self.infos[a].update(outcomes[i])
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        self._rewards_pending = True
        self._accumulate_rewards()
        self._mask = None
        # everyone steps out with None, starting from the seat that moved last
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    # --- pictures -------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass one to the env")
            return None
        self._require_game("render")
        if self.render_mode == "rgb_array":
            return self.game_state.render_rgb(self.render_viewer)
        text = self.game_state.render_ansi(self.render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # --- positions, words and replays (the shared test hooks) -------------------
    def get_state(self) -> dict:
        """The whole position as a JSON-able dict (``State.to_dict``)."""
        return self._require_game("get_state").to_dict()

    def load_state(self, data: dict) -> None:
        """Continue from a position written by ``get_state`` / ``to_dict``."""
        self._start(self._loaded(data))
        self.game_seed = None

    def encode_action(self, text: str) -> int:
        """Action index from its name (``State.string_to_action``); a name
        must be a string (TypeError otherwise), an unknown one is a ValueError."""
        state = self._require_game("encode_action")
        if not isinstance(text, str):
            raise TypeError(f"an action name must be a string, got {text!r}")
        return state.string_to_action(text)

    def decode_action(self, action: int) -> str:
        """The name of action ``action`` in the current position. Only an
        integer of the action space has one: anything else is a TypeError
        (``1.5``, ``"4"``) or a ValueError (outside the space), never a name."""
        state = self._require_game("decode_action")
        return state.action_to_string(self._action_index(action, not_an_integer=TypeError))

    def _action_index(self, action: Any, not_an_integer: type[Exception] = ValueError) -> int:
        """``action`` as an index of the action space, or the error that says
        why it is not one (``not_an_integer`` for floats, strings, None...)."""
        index = integer_index(action)
        if index is None:
            raise not_an_integer(f"action must be an integer, got {action!r}")
        n = self.game.num_actions
        if not 0 <= index < n:
            raise ValueError(f"action {index} is outside the action space Discrete({n})")
        return index

    def replay_record(self) -> ReplayRecord:
        """This game so far as a sealed replay: seed, config and action log,
        with the outcome (an illegal action that ended it included) and
        position digests, so a replay that no longer leads here is caught."""
        self._require_game("replay_record")
        if self.game_seed is None:
            raise ValueError("a game loaded from a position has no seed to replay from")
        record = ReplayRecord(
            game=self.metadata["name"],
            config=dict(self.game.config),
            seed=self.game_seed,
            actions=list(self.actions),
        )
        return seal(record, illegal=self.illegal_move, game=self.game)


def env_metadata(name: str) -> dict[str, Any]:
    """The metadata dict for a game's env class."""
    return {**MeepleEnv.metadata, "name": name}
