"""The table's queries and records: which amoeba a unit shows, the range of
amoeba keys a position may name, and amoebas that do not depend on the order
the tiles were laid."""

from __future__ import annotations

import copy
import itertools
import re

import pytest

from tests.amoeba.helpers import anchor_action, game, own, place, select_action, start_turn
from tests.amoeba.test_positions import PREFIX, _played


def test_a_unit_without_a_pink_side_shows_no_amoeba():
    """amoeba_of_unit: an empty unit, or one whose four sides are blue, has no
    amoeba (down to the last unit of the board); a pink side shows its own."""
    g = game()
    st = g.empty_state()
    units = g.units
    place(st, 30, 0, (11, 11))
    place(st, 43, 0, (11, 15))
    place(st, 73, 0, (11, 17))
    place(st, 75, 0, (13, 13))
    place(st, 40, 1, (11, 13))
    for r in range(units):
        for c in range(units):
            u = r * units + c
            pieces = [int(st.slot_piece[u * 4 + d]) for d in range(4)]
            pink = [p for p in pieces if p >= 0]
            expected = st.piece_amoeba[pink[0]] if pink else -1
            assert st.amoeba_of_unit(r, c) == expected, (r, c)


def test_an_amoeba_key_past_the_last_port_slot_is_refused():
    """Keys are port slots, unit * 4 + side: one past the last unit's last
    side is out of range, not just an empty slot."""
    g = game()
    state = _played(g, 3, lambda s: any(v.owner >= 0 for v in s.amoebas.values()))
    data = state.to_dict()
    last = g.units * g.units * 4 - 1
    for key in (last + 1, last + 2, last + 5):
        bad = copy.deepcopy(data)
        bad["owners"][0][0] = key
        message = f"position entry 'owners': owner 0: the amoeba key must be from 0 to {last}, got {key}"
        with pytest.raises(ValueError, match="^" + re.escape(PREFIX + message) + "$"):
            g.state_from_dict(bad)


def _split_in_order(order):
    """The T of five segments through a 40 at (11, 13), its ground tiles laid
    in ``order``; p1 owns it and p0 cuts it with 39 [24|7]."""
    g = game()
    st = g.empty_state()
    tiles = {30: (11, 11), 43: (11, 15), 73: (11, 17), 75: (13, 13), 40: (11, 13)}
    for tile in order:
        place(st, tile, 1 if tile == 40 else 0, tiles[tile])
    own(st, (11, 12), 1, d=1)
    start_turn(st, 0, [39], die=1)
    st.apply(select_action(0, 1))
    st.apply(anchor_action(g, 11, 13))
    return sorted((v.owner, len(v.members), v.open_ports) for v in st.amoebas.values())


def test_a_split_does_not_depend_on_the_order_the_tiles_were_laid():
    """Interpretations 13 and 15: the parts of a split are the pieces the
    top tile connects, whichever tile was laid first (the first tile's
    pieces join a part like any other)."""
    outcomes = {
        tuple(_split_in_order(order))
        for order in itertools.permutations([30, 43, 73, 75, 40])
        if order.index(40) > 0
    }
    assert len(outcomes) == 1
    (outcome,) = outcomes
    assert (1, 2, 0) in outcome and (0, 4, 0) in outcome
