"""Amethyst and Amber's :class:`~meeplezoo.envs.core.compiled.kernel.Kernel`:
what the engine (``make_vec``, the compiled AEC backend) calls. Nothing is
hidden, so there is no determinize."""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber.kernel import estimate, observe, rules
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberState
from meeplezoo.envs.core.compiled.kernel import Kernel

KERNEL = Kernel(
    name="amethyst_amber",
    state_cls=AmethystAmberState,
    game_row=game_row,
    new_game=rules.new_game,
    legal_mask=rules.legal_mask,
    apply_action=rules.apply_action,
    returns=rules.returns,
    current_player=rules.current_player,
    is_terminal=rules.is_terminal,
    is_truncated=rules.is_truncated,
    observe=observe.observe,
    evaluate=estimate.evaluate,
)
