"""Amoeba's compiled twin of the rules (numba, over flat int64 rows).

- :mod:`.slots`: the row's offsets (from the State's declared fields, see
  ``rows.py``), the game row's offsets and the tile tables;
- :mod:`.table`: the table's steps (tiles laid, amoebas joined and split);
- :mod:`.rules`: deal, legal mask, apply, turn flow, returns;
- :mod:`.observe`: each seat's observation, the same bytes as ``observe.py``;
- :mod:`.determinize`: the redeal of what a seat cannot see.

``rules.py`` and its friends stay the reference: the differential tests in
``tests/amoeba/test_kernel_*.py`` hold the two equal step by step.
"""
