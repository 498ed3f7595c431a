"""Amoeba's :class:`~meeplezoo.envs.core.compiled.kernel.Kernel`:
what the engine (``make_vec``, the compiled AEC backend) calls."""

from __future__ import annotations

from meeplezoo.envs.amoeba.kernel import determinize, observe, rules
from meeplezoo.envs.amoeba.kernel.game_row import game_row
from meeplezoo.envs.amoeba.rules import AmoebaState
from meeplezoo.envs.core.compiled.kernel import Kernel

KERNEL = Kernel(
    name="amoeba",
    state_cls=AmoebaState,
    game_row=game_row,
    new_game=rules.new_game,
    legal_mask=rules.legal_mask,
    apply_action=rules.apply_action,
    returns=rules.returns,
    current_player=rules.current_player,
    is_terminal=rules.is_terminal,
    is_truncated=rules.is_truncated,
    observe=observe.observe,
    observe_stamp=observe.planes_stamp,
    observe_rest=observe.observe_rest,
    evaluate=rules.evaluate,
    determinize=determinize.determinize,
    scores=rules.points,
)
