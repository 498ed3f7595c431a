"""Card decks drawn and reshuffled from a state's generator.

A :class:`Deck` holds card ids (small ints) in a draw pile (top is the end
of the list, so drawing is a cheap pop) and a discard pile. Reshuffling the
discard into the draw pile uses the state's generator only.
"""

from __future__ import annotations

import numpy as np

RANKS = "A23456789TJQK"  # Ace low, King high
SUITS = "SHDC"


def standard_52() -> list[int]:
    """Card ids 0..51: id = suit * 13 + (rank - 1), rank 1 (Ace) .. 13 (King)."""
    return list(range(52))


def card_rank(card: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def card_name(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


class Deck:
    """Draw pile plus discard pile of card ids."""

    __slots__ = ("draw_pile", "discard")

    def __init__(self, cards=(), discard=()) -> None:
        self.draw_pile: list[int] = list(cards)
        self.discard: list[int] = list(discard)

    @classmethod
    def shuffled(cls, cards, rng: np.random.Generator) -> Deck:
        deck = cls(cards)
        deck.shuffle(rng)
        return deck

    def shuffle(self, rng: np.random.Generator) -> None:
        """Shuffle the draw pile in place."""
        order = rng.permutation(len(self.draw_pile)).tolist()  # Python ints index a list faster
        pile = self.draw_pile
        self.draw_pile = [pile[i] for i in order]

    def reshuffle_discard(self, rng: np.random.Generator) -> None:
        """Shuffle the discard pile and put it under the draw pile."""
        rest = Deck(self.discard)
        rest.shuffle(rng)
        self.draw_pile = rest.draw_pile + self.draw_pile
        self.discard = []

    def draw(self, rng: np.random.Generator | None = None) -> int | None:
        """Top card; when the pile is empty the discard is reshuffled first
        (needs ``rng``). None if no card is left anywhere."""
        if not self.draw_pile:
            if rng is None or not self.discard:
                return None
            self.reshuffle_discard(rng)
        return self.draw_pile.pop()

    def __len__(self) -> int:
        return len(self.draw_pile)

    def copy(self) -> Deck:
        return Deck(self.draw_pile, self.discard)

    def to_dict(self) -> dict:
        return {"draw_pile": list(self.draw_pile), "discard": list(self.discard)}

    @classmethod
    def from_dict(cls, data: dict) -> Deck:
        return cls(data["draw_pile"], data["discard"])


def canonical_shuffle(items, rng: np.random.Generator) -> list:
    """``items`` sorted, then put in an order drawn from ``rng``.

    Determinizations redeal hidden cards and tiles with it: the result depends
    only on which items are hidden (a multiset the searcher may know) and on
    ``rng``, never on where the true state holds them."""
    pool = sorted(items)
    return [pool[i] for i in rng.permutation(len(pool))]


def deal_out(pool: list, sizes) -> tuple[list[list], list]:
    """Split ``pool`` into consecutive hands of the given ``sizes``; returns
    the hands and what is left over."""
    hands, start = [], 0
    for size in sizes:
        hands.append(pool[start : start + size])
        start += size
    return hands, pool[start:]


def stack_ranks(deck: Deck, ranks, rank_of=card_rank) -> list[int]:
    """Put one card of each given rank on top of the draw pile so they are
    drawn in the given order (first rank drawn first). Each card is taken from
    the draw pile, or else from the discard; the card multiset is preserved.
    Returns the moved card ids. Raises ValueError if a rank has run out."""
    chosen: list[int] = []
    for rank in ranks:
        for pile in (deck.draw_pile, deck.discard):
            hit = next((i for i in range(len(pile) - 1, -1, -1) if rank_of(pile[i]) == rank), None)
            if hit is not None:
                chosen.append(pile.pop(hit))
                break
        else:
            raise ValueError(f"no card of rank {rank} left to stack")
    deck.draw_pile.extend(reversed(chosen))
    return chosen


def rank_counts(cards, rank_of=card_rank) -> list[int]:
    """counts[r] = number of cards of rank r (index 0 unused, 1..13)."""
    counts = [0] * 14
    for c in cards:
        counts[rank_of(c)] += 1
    return counts
