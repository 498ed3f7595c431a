"""Search trees in compiled code, over a game's compiled kernel.

:mod:`.uct` runs the ``mcts`` and ``ismcts`` searches of
:mod:`meeplezoo.agents.mcts` inside numba, on state rows; :mod:`.puct`
keeps the PUCT tree of :mod:`meeplezoo.agents.puct` there and hands its
leaves to Python in batches for the network. Any game whose Game class
names a :class:`~meeplezoo.envs.core.compiled.kernel.Kernel` gets them
without code of its own.
"""
