"""Gem Mountain's compiled twin of the rules (numba, over flat int64 rows).

- :mod:`.slots`: the row's offsets (from the State's declared fields), the
  game row's offsets (one configuration) and the design tables;
- :mod:`.rules`: deal, legal mask, apply, returns;
- :mod:`.observe`: each seat's observation, the same bytes as ``observe.py``;
- :mod:`.estimate`: ``evaluate(viewer)`` and ``determinize``.

``rules.py`` and its friends stay the reference: the differential tests in
``tests/gem_mountain/test_kernel_*.py`` hold the two equal step by step.
"""
