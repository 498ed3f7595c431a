"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

Every simulation draws a fresh determinization of the searching seat's
information set from its :class:`~agents.base.SeatView`, so the tree's
statistics average over the hidden cards instead of trusting one guess. The
tree, selection by availability and max^n backup are shared with ``mcts``
(see agents.mcts). On perfect-information games it is plain UCT. Where the
game has a compiled kernel the search runs there, the kernel's
``determinize`` dealing each simulation's sample (``backend=python``: the
reference).
"""

from __future__ import annotations

from meeplezoo.agents.base import SeatView
from meeplezoo.agents.mcts import MCTSAgent


class ISMCTSAgent(MCTSAgent):
    name = "ismcts"
    per_simulation = True

    def _sampler(self, view: SeatView):
        rng = self.rng
        return lambda: view.sample(rng)
