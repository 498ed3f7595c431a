"""A rules-layer State backed by one compiled row (the AEC env's compiled backend).

:class:`CompiledState` keeps the game in a row of the layout and runs the
hot path in the kernel: the mask, apply, the observation, returns,
evaluate, clone (a row copy) and determinize. Everything else (the position
dict, names of actions, pictures, the game's own attributes) is answered by
the reference State read from the row, rebuilt only after the row changed.
It behaves as the reference State does, move for move: the differential
tests compare them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.kernel import Kernel, kernel_of
from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.core.state import Game, State


class CompiledState(State):
    """One position of ``game`` in a compiled row."""

    def __init__(self, game: Game, row: np.ndarray, kernel: Kernel | None = None) -> None:
        self.game = game
        self.kernel = kernel or kernel_of(game)
        self.row = row
        self._game_row = self.kernel.game_row(game)
        self._reference: State | None = None
        self._mask: np.ndarray | None = None

    # --- making one -------------------------------------------------------------
    @classmethod
    def new(cls, game: Game, seed: int) -> CompiledState:
        """The deal of ``game.new_initial_state(seed)``, in the kernel."""
        kernel = kernel_of(game)
        row = layout_of(kernel.state_cls).new_rows(1)[0]
        kernel.new_game(row, kernel.game_row(game), seed)
        return cls(game, row, kernel)

    @classmethod
    def of(cls, state: State) -> CompiledState:
        """The compiled twin of a reference State."""
        kernel = kernel_of(state.game)
        row = layout_of(kernel.state_cls).write(state, layout_of(kernel.state_cls).new_rows(1)[0])
        return cls(state.game, row, kernel)

    def reference(self) -> State:
        """This position as the reference State (rebuilt after each change)."""
        if self._reference is None:
            self._reference = layout_of(self.kernel.state_cls).read(self.row, self.game)
        return self._reference

    def __getattr__(self, name: str) -> Any:
        # only reached for names this class lacks: the game's own attributes, read-only
        if name.startswith("__") or name in ("game", "kernel", "row", "_game_row", "_reference", "_mask"):
            raise AttributeError(name)
        if name == "scores" and self.kernel.scores is not None:
            return self._kernel_scores
        return getattr(self.reference(), name)

    def _kernel_scores(self) -> list[int]:
        """``scores()`` from the kernel: a finished game's points without rebuilding the reference."""
        out = np.zeros(self.game.num_players, dtype=np.int64)
        self.kernel.scores(self.row, self._game_row, out)
        return [int(points) for points in out]

    @property
    def rng(self) -> np.random.Generator:
        """The generator as a NumPy Generator (a copy: draw from the row through the kernel)."""
        return self.reference().rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        """Reseed the row's generator (search bots reseed their samples so)."""
        layout = layout_of(self.kernel.state_cls)
        slot = next(s for s in layout.slots.values() if s.field.kind == "generator")
        pcg64.to_words(value, self.row[slot.offset : slot.end].view(np.uint64))
        self._reference = None

    # --- the contract, in the kernel ------------------------------------------------
    @property
    def done(self) -> bool:
        return self.kernel.current_player(self.row) < 0

    @property
    def current_player(self) -> int:
        return int(self.kernel.current_player(self.row))

    @property
    def terminal(self) -> bool:
        return bool(self.kernel.is_terminal(self.row))

    @property
    def truncated(self) -> bool:
        return bool(self.kernel.is_truncated(self.row))

    def legal_action_mask(self) -> np.ndarray:
        if self._mask is None:
            mask = np.zeros(self.game.num_actions, dtype=np.bool_)
            if self.current_player >= 0:
                self.kernel.legal_mask(self.row, self._game_row, mask)
            mask.flags.writeable = False
            self._mask = mask
        return self._mask

    def _apply_action(self, action: int) -> None:
        self.kernel.apply_action(self.row, self._game_row, action)
        self._reference = self._mask = None

    def returns(self) -> np.ndarray:
        out = np.zeros(self.game.num_players, dtype=np.float64)
        self.kernel.returns(self.row, self._game_row, out)
        return out

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        if self.kernel.evaluate is None:
            return self.reference()._evaluate(viewer)
        out = np.zeros(self.game.num_players, dtype=np.float64)
        self.kernel.evaluate(self.row, self._game_row, -1 if viewer is None else viewer, out)
        return out

    def observation(self, player: int) -> np.ndarray:
        out = np.zeros(self.game.observation_shape, dtype=self.game.observation_dtype)
        self.kernel.observe(self.row, self._game_row, player, out.reshape(-1))
        return out

    def clone(self) -> CompiledState:
        return CompiledState(self.game, self.row.copy(), self.kernel)

    def determinize(self, player: int, rng: np.random.Generator) -> CompiledState:
        if self.kernel.determinize is None:
            return CompiledState.of(self.reference().determinize(player, rng))
        words = pcg64.to_words(rng)
        out = np.zeros_like(self.row)
        self.kernel.determinize(self.row, self._game_row, player, words, out)
        rng.bit_generator.state = pcg64.state_of(words)
        return CompiledState(self.game, out, self.kernel)

    # --- the rest, from the reference ------------------------------------------------
    def to_dict(self) -> dict:
        return self.reference().to_dict()

    to_dict.adds_digest = True  # the reference's to_dict adds it

    def action_to_string(self, action: int) -> str:
        return self.reference().action_to_string(action)

    def render_ansi(self, viewer: int | None = None) -> str:
        return self.reference().render_ansi(viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        return self.reference().render_rgb(viewer)

    def phase_name(self) -> str:
        return self.reference().phase_name()

    def __getstate__(self) -> dict:
        return {"game": self.game, "row": self.row}

    def __setstate__(self, data: dict) -> None:
        self.__init__(data["game"], data["row"])
