"""Amethyst and Amber's compiled twin of the rules (numba, over flat int64 rows).

- :mod:`.slots`: the row's offsets (from the State's declared fields), the
  game row's offsets (one configuration) and the board's tables;
- :mod:`.pieces`: bitboard words, and where defenders may stand and go;
- :mod:`.rules`: deal, legal mask, apply, returns;
- :mod:`.observe`: each seat's observation, the same bytes as ``observe.py``;
- :mod:`.estimate`: ``evaluate(viewer)``, the same numbers as ``heuristic.py``.

``rules.py`` and its friends stay the reference: the differential tests in
``tests/amethyst_amber/test_kernel_*.py`` hold the two equal step by step.
The game has no hidden information and no chance: there is nothing to
determinize.
"""
