"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012).

Every simulation draws a fresh determinization of the searching seat's
information set from its :class:`~agents.base.SeatView`, so the tree's
statistics average over the hidden cards instead of trusting one guess. The
tree, selection by availability and max^n backup are shared with ``mcts``
(see agents.mcts). On perfect-information games it is plain UCT.
"""

from __future__ import annotations

from meeplezoo.agents.base import SeatView
from meeplezoo.agents.mcts import MCTSAgent


class ISMCTSAgent(MCTSAgent):
    name = "ismcts"

    def _sampler(self, view: SeatView):
        rng = self.rng
        return lambda: view.sample(rng)
