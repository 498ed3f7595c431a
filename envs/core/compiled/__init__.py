"""The compiled engine: flat array states, numba kernels, batched driving.

- :mod:`.jit`: the ``njit`` every kernel uses and the threading layer;
- :mod:`.pcg64`: NumPy's PCG64 generator, its seeding and the bounded draws
  the rules use, ported bit for bit, with its state in a small array;
- :mod:`.layout`: a state's flat layout from its declared fields, and the
  converters between a :class:`~meeplezoo.envs.core.state.State` and a row.
"""
