"""Princes of Amber's compiled twin (numba): the rules, the observation, the
estimate and the determinization over one int64 state row.

``row_fields`` lays the State's records (the deck, the hands, the memories,
the frame stack and the war) out in fixed words; it is plain Python, so the
rules module imports it without importing numba. ``spec.KERNEL`` is what the
engine loads; the Game names it by path. The frame stack runs as in the
reference: ``rules.run`` runs automatic frames (``flow``, ``wars``) until a
decision frame (``decisions``) is due; ``acts`` holds what each act does,
``cards`` and ``throne`` the hands, the deck and the posts."""
