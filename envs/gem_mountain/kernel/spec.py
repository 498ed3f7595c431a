"""Gem Mountain's :class:`~meeplezoo.envs.core.compiled.kernel.Kernel`:
what the engine (``make_vec``, the compiled AEC backend) calls."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.gem_mountain.kernel import determinize, estimate, observe, rules, scores
from meeplezoo.envs.gem_mountain.kernel.game_row import game_row
from meeplezoo.envs.gem_mountain.rules import GemMountainState

KERNEL = Kernel(
    name="gem_mountain",
    state_cls=GemMountainState,
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
    scores=scores.final_scores,
)
