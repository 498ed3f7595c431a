"""The compiled estimate and redeal (``kernel/estimate.py``,
``kernel/determinize.py``) are ``AmberState.evaluate`` and ``determinize``
bit for bit: for every viewer and the whole state, and every seat with the
same searcher generator, at sampled steps of random games on 2 to 5 players."""

from __future__ import annotations

from functools import partial

import numpy as np

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.core.compiled.pcg64 import to_words
from meeplezoo.envs.princes_of_amber.cards import A_CARD, A_NONCARD
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.kernel.determinize import determinize
from meeplezoo.envs.princes_of_amber.kernel.estimate import evaluate
from meeplezoo.envs.princes_of_amber.kernel.game_row import game_row
from meeplezoo.envs.princes_of_amber.kernel.observe import observe
from meeplezoo.envs.princes_of_amber.state import AmberState
from tests.core.kernel_checks import assert_same_position
from tests.princes_of_amber.kernel_configs import CONFIGS, positions

LAYOUT = layout_of(AmberState)
same_position = partial(assert_same_position, LAYOUT)  # (py, row, game, full)


def test_the_estimate_is_the_rules_estimate():
    seen = set()
    for index, config in enumerate(CONFIGS):
        game = AmberGame(**config)
        grow = game_row(game)
        for py in positions(game, seed=300 + index, every=7):
            row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
            out = np.full(game.num_players, np.nan)
            for viewer in (None, *range(game.num_players)):
                evaluate(row, grow, -1 if viewer is None else viewer, out)
                assert out.tobytes() == py.evaluate(viewer).tobytes()
            seen.add("player out" if 0 < sum(py.in_game) < game.num_players else "all in")
    assert seen == {"player out", "all in"}


def test_the_redeal_is_the_rules_redeal():
    """Same position, seat and searcher generator: the same redealt row (hands,
    deck, memories, legal list, generator) and the searcher left in the same state;
    covering redeals under another player's card window, found or not."""
    seen = set()
    for index, config in enumerate(CONFIGS):
        game = AmberGame(**config)
        grow = game_row(game)
        for py in positions(game, seed=400 + index, every=9):
            row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
            for seat in range(game.num_players):
                searcher = np.random.default_rng(index * 100 + seat)
                words = to_words(searcher)
                out = LAYOUT.new_rows(1)[0]
                determinize(row, grow, seat, words, out)
                expected = py.determinize(seat, searcher)
                same_position(expected, out, game, False)
                assert np.array_equal(words, to_words(searcher))
                if py.deciding_player not in (-1, seat):
                    fits = any(A_CARD <= action < A_NONCARD for action in expected.legal)
                    seen.add("window kept" if expected.legal == py.legal else "window refitted")
                    seen.add("cards offered" if fits else "no card")
    assert {"window kept", "window refitted", "cards offered"} <= seen


def test_what_a_seat_cannot_see_changes_nothing_it_is_given():
    """A true state no seat can tell apart (the draw pile below every memory of
    its top in another order, another generator) gives each seat the same
    observation, estimate and redeal in the kernel."""
    compared = 0
    for index, config in enumerate(CONFIGS[:5]):
        game = AmberGame(**config)
        grow = game_row(game)
        for py in positions(game, seed=500 + index, every=13):
            twin = py.clone()
            seen = max(len(known) for known in py.known_top)
            pile = twin.deck.draw_pile
            cut = max(0, len(pile) - seen)
            pile[:cut] = np.random.default_rng(index).permutation(pile[:cut]).tolist()
            twin.rng = np.random.default_rng(index + 1)
            row, other = (LAYOUT.write(state, LAYOUT.new_rows(1)[0]) for state in (py, twin))
            for seat in range(game.num_players):
                views = []
                for state_row in (row, other):
                    words = to_words(np.random.default_rng(seat))
                    out, estimate = LAYOUT.new_rows(1)[0], np.zeros(game.num_players)
                    determinize(state_row, grow, seat, words, out)
                    evaluate(state_row, grow, seat, estimate)
                    seen_obs = np.zeros(game.observation_shape, dtype=np.float32)
                    observe(state_row, grow, seat, seen_obs)
                    views.append((out.tobytes(), words.tobytes(), estimate.tobytes(), seen_obs.tobytes()))
                assert views[0] == views[1]
            compared += cut > 1
    assert compared > 10
