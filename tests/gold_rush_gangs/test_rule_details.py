"""The smaller rules of seeds/gold_rush_gangs.md, one scenario each: board
sizes at the edge of the config table, the iid deck, the first-player
draw, and the end of the game."""

from __future__ import annotations

import numpy as np

from tests.gold_rush_gangs.helpers import A, E, act, game, position


# 4. stores: the rim cells 6 or more from every home; a small board leaves exactly three
def test_a_board_with_three_store_cells_offers_those_three():
    g = game(radius=6, territory_radius=5)
    s = g.new_initial_state(0, first_player=0)
    offered = {g.decode(0, a) for a in np.flatnonzero(s.legal_action_mask())}
    assert offered == {("store", (6, -6)), ("store", (-6, 0)), ("store", (0, 6))}


# 35. iid deck: every card drawn is fresh, so nothing is ever discarded
def test_iid_draws_leave_the_deck_whole():
    g = game(deck_mode="iid")
    s = g.new_initial_state(0)
    assert len(s.first_draw[0]) == 3 and s.deck.discard == [] and len(s.deck.draw_pile) == 52
    s = position(g, units={(0, A): (0, 3), (1, A): (2, 2)})
    act(s, "move", A, E)
    (fight,) = s.last_combat
    assert len(fight["attacker_cards"]) == len(fight["defender_cards"]) == 1
    assert s.deck.discard == [] and len(s.deck.draw_pile) == 52
