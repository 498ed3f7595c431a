"""Action names and rewards on seeds/amoeba.md ("Actions", "Rewards"): every
action's name reads back as that action, bad names are refused, and the
rewards stay in the game's declared range."""

import numpy as np
import pytest

from meeplezoo.envs.amoeba.tiles import TILES, notation, rotate_pieces
from tests.amoeba.helpers import game


def _positions(g, seed, count):
    """Positions of one seeded random game, one per step, up to ``count``."""
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while not st.done and len(out) < count:
        out.append(st.clone())
        st.apply(int(rng.choice(st.legal_actions())))
    return out


def test_every_legal_action_name_reads_back_as_the_action():
    """Actions: select, anchor, claim and decline are named and read back."""
    g = game(board_units=12)
    kinds = set()
    for st in _positions(g, 3, 120):
        for a in st.legal_actions():
            name = st.action_to_string(a)
            kinds.add(name.split()[0])
            assert st.string_to_action(name) == a, name
    assert kinds == {"select", "anchor", "claim", "decline"}


def test_names_follow_the_action_layout():
    """Actions table: 0..11 select slot a // 4 rotation a % 4, then the
    anchors row by row, then claim and decline."""
    g = game()
    st = g.new_initial_state(0)
    hand = st.hands[0]
    turned = notation(rotate_pieces(TILES[hand[1]], 2))  # two quarter turns: port p -> p + 4
    assert st.action_to_string(6) == f"select slot 1 rot 2 (tile {hand[1]}: {turned})"
    assert st.action_to_string(12) == "anchor 0 0"
    assert st.action_to_string(12 + 23 + 4) == "anchor 1 4"
    assert st.action_to_string(g.claim_action) == "claim"
    assert st.action_to_string(g.decline_action) == "decline"
    assert g.claim_action == 12 + 23 * 23 and g.num_actions == 543
    assert st.string_to_action("Select 2 3") == 11
    assert st.string_to_action("anchor 22 22") == g.claim_action - 1
    for text, action in (("yes", g.claim_action), ("claim no", g.decline_action), ("no", g.decline_action)):
        assert st.string_to_action(text) == action


@pytest.mark.parametrize(
    "text", ["select 3 0", "select 0 4", "select 1", "anchor 23 0", "anchor 0 -1", "pass", "anchor 1 2 3"]
)
def test_a_name_that_is_no_action_is_refused(text):
    """A name out of range or of no action is a ValueError naming it."""
    st = game().new_initial_state(0)
    with pytest.raises(ValueError, match=f"no action named {text!r}"):
        st.string_to_action(text)


@pytest.mark.parametrize("mode", ["rank", "score_diff"])
def test_rewards_lie_in_the_declared_range(mode):
    """Rewards: the winner's rank reward is the top of the range and the
    loser's the bottom; a score difference / 50 stays inside the range."""
    g = game(reward_mode=mode, board_units=12, nuclei_per_player=3)
    low, high = g.reward_range
    decided = 0
    for seed in range(4):
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.done:
            st.apply(int(rng.choice(st.legal_actions())))
        returns, scores = st.returns(), st.scores()
        assert all(low <= r <= high for r in returns)
        if mode == "score_diff":
            assert list(returns) == [(scores[0] - scores[1]) / 50, (scores[1] - scores[0]) / 50]
        elif scores[0] != scores[1]:
            decided += 1
            assert (returns.min(), returns.max()) == (low, high)
    assert mode == "score_diff" or decided > 0
