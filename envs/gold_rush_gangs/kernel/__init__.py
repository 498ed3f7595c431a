"""Gold Rush Gangs' compiled twin (numba): the rules, the observation, the
estimate and the determinization over one int64 state row.

``spec.KERNEL`` is what the engine loads; the rules module names it by path
so that importing the game never imports numba."""
