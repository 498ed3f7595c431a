"""The deck helpers in envs/core/cards.py: stacking ranks on top, counting ranks."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.cards import Deck, card_rank, rank_counts, stack_ranks, standard_52


def test_stack_ranks_puts_cards_on_top_in_order():
    deck = Deck.shuffled(standard_52(), np.random.default_rng(0))
    moved = stack_ranks(deck, [7, 7, 13, 1])
    assert [card_rank(c) for c in moved] == [7, 7, 13, 1]
    assert [card_rank(deck.draw()) for _ in range(4)] == [7, 7, 13, 1]
    assert len(deck.draw_pile) == 48


def test_stack_ranks_takes_from_discard_and_keeps_multiset():
    deck = Deck([c for c in range(52) if card_rank(c) != 4], [c for c in range(52) if card_rank(c) == 4])
    stack_ranks(deck, [4, 4])
    assert sorted(deck.draw_pile + deck.discard) == list(range(52))
    assert len(deck.discard) == 2
    assert card_rank(deck.draw()) == 4


def test_stack_ranks_raises_when_rank_exhausted():
    deck = Deck(standard_52())
    with pytest.raises(ValueError):
        stack_ranks(deck, [2, 2, 2, 2, 2])


def test_rank_counts():
    counts = rank_counts(standard_52())
    assert counts[0] == 0 and counts[1:] == [4] * 13
    assert rank_counts([0, 13, 26])[1] == 3
