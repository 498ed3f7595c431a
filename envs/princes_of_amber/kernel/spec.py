"""Princes of Amber's :class:`~meeplezoo.envs.core.compiled.kernel.Kernel`:
what the engine (``make_vec``, the compiled AEC backend) calls."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.princes_of_amber.kernel import determinize, estimate, observe, rules
from meeplezoo.envs.princes_of_amber.kernel.game_row import game_row
from meeplezoo.envs.princes_of_amber.state import AmberState

KERNEL = Kernel(
    name="princes_of_amber",
    state_cls=AmberState,
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
    determinize=determinize.determinize,
)
