"""The agent interface shared by every bot, the human player and policies.

An agent sees its seat's observation dict (``observation`` and
``action_mask``). Search bots also get a :class:`SeatView`, which hands out
only what the seat may know: clones for perfect-information games and
determinizations for hidden-information games, never the true state.
"""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from meeplezoo.envs.core.state import derive_rng


class SeatView:
    """A seat's window on the rules state for search bots."""

    __slots__ = ("_position", "_reference", "seat")

    def __init__(self, state, seat: int) -> None:
        self._position = state
        self._reference = None
        self.seat = seat

    @property
    def _state(self):
        """The position as a reference State, built on first use: the Python
        searches run on the rules layer (a compiled state's per-call cost
        would slow each rollout step), and a compiled state's reference is
        the same position, bit for bit."""
        if self._reference is None:
            reference = getattr(self._position, "reference", None)
            self._reference = reference() if callable(reference) else self._position
        return self._reference

    @property
    def game(self):
        return self._position.game

    @property
    def hidden_information(self) -> bool:
        return self._position.game.info.hidden_information

    def compiled_state(self):
        """The position as a CompiledState, for searches that run inside the
        game's kernel, or None where the game has none (or, with hidden
        information, no compiled ``determinize``). Such a search must read
        the row only through the kernel's ``determinize`` from this seat's
        view (or, with perfect information, as the position it is) and reseed
        any generator it plays on: nothing hidden may reach it otherwise."""
        from meeplezoo.envs.core.backends import has_kernel

        position, game = self._position, self._position.game
        if not has_kernel(game):
            return None
        from meeplezoo.envs.core.compiled.state import CompiledState

        compiled = position if isinstance(position, CompiledState) else CompiledState.of(position)
        if self.hidden_information and compiled.kernel.determinize is None:
            return None
        return compiled

    def sample(self, rng: np.random.Generator):
        """A full state consistent with what the seat knows: a clone for
        perfect-information games, else ``determinize(seat, rng)``. In games
        with chance the copy's generator is reseeded from ``rng``: the true
        generator would tell a searcher the dice and draws still to come."""
        if self.hidden_information:
            state = self._state.determinize(self.seat, rng)
        else:
            state = self._state.clone()
        if self._state.game.info.chance:
            state.rng = derive_rng(rng, seed_bound=2**63)
        return state


class Agent(abc.ABC):
    """A player. ``needs_view`` agents receive a SeatView in ``act``."""

    name: str = "agent"
    needs_view: bool = False

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        self.params = dict(params)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; reseed when given a seed."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    @abc.abstractmethod
    def act(self, observation: dict, view: SeatView | None = None) -> int:
        """Pick a legal action index for the observation's seat."""

    def describe(self) -> str:
        """Name and parameters, for reports (e.g. ``mcts(sims=200)``)."""
        if not self.params:
            return self.name
        args = ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.name}({args})"
