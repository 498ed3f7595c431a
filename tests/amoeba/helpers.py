"""Position builders for Amoeba tests (through the rules layer)."""

from __future__ import annotations

from meeplezoo import envs
from meeplezoo.envs.amoeba.rules import SELECT
from meeplezoo.envs.core.cards import Deck


def game(**cfg):
    return envs.make_game("amoeba_v0", **cfg)


def anchor(g, r, c):
    return g.geo.anchor_index(r, c)


def place(st, tile, rot, rc):
    return st.put_ground(tile, rot, anchor(st.game, *rc))


def own(st, rc, seat, d=None):
    cid = st.amoeba_of_unit(rc[0], rc[1], d)
    assert cid >= 0
    st.set_owner(cid, seat)
    st.supply[seat] -= 1
    return cid


def start_turn(st, player, hand, die=3, pile=(80, 81, 82, 83)):
    """Make it ``player``'s turn at the selection step with ``hand``."""
    st.mover = player
    st.hands[player] = list(hand)
    st.pile = Deck([t for t in pile if t not in hand])
    st.die = st.placements_left = die
    st.placed = 0
    st.selection = None
    st.phase = SELECT
    st._cache = {}


def select_action(slot, rot):
    return 4 * slot + rot


def anchor_action(g, r, c):
    return 12 + g.geo.anchor_index(r, c)


def legal_anchors(st):
    m = st.legal_action_mask()
    W = st.game.geo.W
    return sorted(divmod(int(a) - 12, W) for a in m.nonzero()[0] if 12 <= a < 12 + st.game.num_anchors)


def amoeba_sizes(st):
    return sorted(len(v[0]) for v in st.amoebas.values())
