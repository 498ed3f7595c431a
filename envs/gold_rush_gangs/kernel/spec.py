"""Gold Rush Gangs' :class:`~meeplezoo.envs.core.compiled.kernel.Kernel`:
what the engine (``make_vec``, the compiled AEC backend) calls."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.gold_rush_gangs.kernel import estimate, observe, rules
from meeplezoo.envs.gold_rush_gangs.kernel.game_row import game_row
from meeplezoo.envs.gold_rush_gangs.rules import GoldRushGangsState

KERNEL = Kernel(
    name="gold_rush_gangs",
    state_cls=GoldRushGangsState,
    game_row=game_row,
    new_game=rules.new_game,
    legal_mask=rules.legal_mask,
    apply_action=rules.apply_action,
    returns=rules.returns,
    current_player=rules.current_player,
    is_terminal=rules.is_terminal,
    is_truncated=rules.is_truncated,
    observe=observe.observe,
    observe_entries=observe.observe_entries,
    observe_fixed=observe.observe_fixed,
    observe_changing=observe.observe_changing,
    evaluate=estimate.evaluate,
    determinize=estimate.determinize,
)
