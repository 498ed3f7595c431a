"""Hidden information on seeds/amoeba.md (interpretation 27): a seat's view
of the game is redealt by ``determinize`` without touching what it knows."""

import numpy as np

from tests.amoeba.helpers import game


def _played(g, seed, steps):
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        st.apply(int(rng.choice(st.legal_actions())))
    return st


def test_determinize_redeals_only_what_the_player_has_not_seen():
    """The own hand, the table and every public count stay; the other
    hands, their removed tiles and the pile are redealt among themselves."""
    g = game(num_players=3, board_units=12)
    st = _played(g, 4, 20)
    assert len(st.pile.draw_pile) > 10
    st.removed[2] = [st.pile.draw(), st.pile.draw()]  # a removed hand, face down
    hidden = sorted(st.pile.draw_pile + st.hands[1] + st.hands[2] + st.removed[1] + st.removed[2])
    changed = 0
    for seed in range(6):
        view = st.determinize(0, np.random.default_rng(seed))
        assert view.hands[0] == st.hands[0] and view.removed[0] == st.removed[0]
        assert view.placements == st.placements and view.supply == st.supply
        for p in (1, 2):
            assert len(view.hands[p]) == len(st.hands[p])
            assert len(view.removed[p]) == len(st.removed[p])
        assert len(view.pile.draw_pile) == len(st.pile.draw_pile)
        again = sorted(
            view.pile.draw_pile + view.hands[1] + view.hands[2] + view.removed[1] + view.removed[2]
        )
        assert again == hidden
        changed += view.hands[1] != st.hands[1] or view.pile.draw_pile != st.pile.draw_pile
        assert view.observation(0).tobytes() == st.observation(0).tobytes()
        assert np.array_equal(view.legal_action_mask(), st.legal_action_mask()) or st.mover != 0
    assert changed >= 5


def test_a_determinized_position_plays_on_by_the_rules():
    """The redealt position is a position of the game: it plays to the end."""
    g = game(board_units=12)
    st = _played(g, 2, 30)
    view = st.determinize(1, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    while not view.done:
        view.apply(int(rng.choice(view.legal_actions())))
    assert view.terminal or view.truncated
