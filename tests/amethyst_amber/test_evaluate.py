"""evaluate(): the position estimate that search bots use at a rollout cap."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.amethyst_amber.heuristic import CAP
from tests.amethyst_amber.helpers import AB, AM, do, game, position


def value(s, seat=AM) -> float:
    v = s.evaluate()
    assert v.shape == (2,) and abs(v[0] + v[1]) < 1e-12
    assert -CAP <= v[0] <= CAP
    return float(v[seat])


def rotated(pieces):
    """The same pieces turned 180 degrees with the colours swapped."""
    out = []
    for qr, *rest in pieces:
        if len(rest) == 1:  # attacker: (qr, seat)
            out.append(((-qr[0], -qr[1]), 1 - rest[0]))
        else:  # resource: (qr, owner, under)
            owner = None if rest[0] is None else 1 - rest[0]
            out.append(((-qr[0], -qr[1]), owner, rest[1]))
    return out


def test_start_is_even():
    s = game().new_initial_state(0)
    assert np.allclose(s.evaluate(), 0.0)


def test_placed_resources_lead():
    s1 = position(resources=[((-3, 2), AM, 0)])
    s3 = position(resources=[((-3, 2), AM, 0), ((-1, 2), AM, 0), ((1, 2), AM, 0)])
    assert 0 < value(s1) < value(s3) < CAP
    assert value(s3, AB) < value(s1, AB) < 0
    # one for each side is level again
    even = position(resources=[((-3, 2), AM, 0), ((3, -2), AB, 0)])
    assert abs(value(even)) < 1e-12


def test_resource_in_hand_counts_almost_like_placed():
    placed = position(resources=[((-3, 2), AM, 0)])
    hand = position(hand=[1, 0])
    assert 0 < value(hand) < value(placed)


def test_threat_on_a_resource():
    # an Amethyst attacker next to the neutral resource on (0, 1) is worth
    # more than one three hexes away, and more than none on the board
    near = position(attackers=[((-1, 2), AM)], resources=[((0, 1), None, 0)])
    far = position(attackers=[((-1, 4), AM)], resources=[((0, 1), None, 0)])
    assert value(near) > value(far) > 0
    # only capturable resources are threatened: own ones are not
    own_near = position(attackers=[((-1, 2), AM)], resources=[((-3, 2), AM, 0)])
    own_far = position(attackers=[((-1, 4), AM)], resources=[((-3, 2), AM, 0)])
    assert value(own_near) == value(own_far) > 0


def test_capturing_beats_threatening():
    s = position(attackers=[((-1, 2), AM)], resources=[((0, 1), None, 0)], current=AM)
    before = value(s)
    do(s, "step", (-1, 2), "NE")  # takes the resource into Amethyst's hand
    assert s.hand[AM] == 1
    assert value(s) > before


def test_prisoners_cost_the_loser():
    # one Amber attacker held under an Amethyst resource: Amber has 4 left
    free = position(resources=[((-3, 2), AM, 0)])
    held = position(resources=[((-3, 2), AM, 1)])
    assert held.reserve == [5, 4]
    assert value(held) > value(free) > 0


def test_seats_mirror():
    attackers = [((-1, 2), AM), ((2, -1), AB), ((1, -3), AB)]
    resources = [((0, 1), None, 0), ((1, 0), None, 0), ((-3, 2), AM, 1), ((-1, -2), AB, 0)]
    s = position(attackers=attackers, resources=resources, hand=[1, 0])
    m = position(attackers=rotated(attackers), resources=rotated(resources), hand=[0, 1], current=AB)
    assert abs(value(s)) > 0.05
    assert np.allclose(s.evaluate(), m.evaluate()[::-1])


def test_finished_games_return_returns():
    won = position(
        resources=[((-3, 2), AM, 0), ((-1, 2), AM, 0), ((1, 2), AM, 0), ((-4, 3), AM, 0), ((-2, 3), AM, 0)]
    )
    assert won.terminal and won.winner == AM
    assert np.allclose(won.evaluate(), [1.0, -1.0])
    cut = position(resources=[((-3, 2), AM, 0)], truncated=True, main_turns=300)
    assert cut.truncated
    assert np.allclose(cut.evaluate(), cut.returns())
    g = game(truncation_result="resources")
    cut = position(g, resources=[((-3, 2), AM, 0)], truncated=True, main_turns=300)
    assert np.allclose(cut.evaluate(), [1.0, -1.0])


def test_random_play_stays_inside_the_range():
    g = game()
    rng = np.random.default_rng(3)
    for seed in range(5):
        s = g.new_initial_state(seed)
        while not s.done:
            v = s.evaluate()
            assert abs(v[0] + v[1]) < 1e-12 and abs(v[0]) <= CAP
            legal = np.flatnonzero(s.legal_action_mask())
            s.apply(int(legal[rng.integers(legal.size)]))
        assert np.allclose(s.evaluate(), s.returns())
