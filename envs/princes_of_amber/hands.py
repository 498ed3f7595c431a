"""The cards in the players' hands, the deck, and what each player remembers of them.

``HandsAndMemories`` is one part of ``AmberState`` (a base class of it):
every card that moves between the deck, a hand and the discard goes through
these methods, so the per-kind hand counts (``hand_kinds``) and the players'
memories (``known_top``: the deck top a player saw; ``known_hand``: the
least he knows another hand to hold) stay in step with the cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from meeplezoo.envs.core.dice import roll, scripted_or_rolled
from meeplezoo.envs.princes_of_amber.cards import NUM_KINDS


def kind_counts(cards: Iterable[int], card_kind: Sequence[int]) -> list[int]:
    """How many of ``cards`` are of each kind (a hand's ``hand_kinds`` row)."""
    counts = [0] * NUM_KINDS
    for card in cards:
        counts[card_kind[card]] += 1
    return counts


class HandsAndMemories:
    """Dice, draws, discards, peeks and revealed hands (see the module docstring)."""

    __slots__ = ()

    def d6(self) -> int:
        """One die: the next scripted result if any is left, else a roll."""
        result, self.dice_used = scripted_or_rolled(self.dice, self.dice_used, self._roll_d6)
        return result

    def _roll_d6(self) -> int:
        """One unscripted die from the state's generator."""
        return roll(self.rng)

    def refresh_counts(self) -> None:
        """Recompute the per-kind hand counts after hands were edited directly."""
        card_kind = self.game.card_kind
        self.hand_kinds = [kind_counts(hand, card_kind) for hand in self.hands]

    def reshuffle(self) -> None:
        """The discard becomes the draw pile: every memory of the deck top is void."""
        self.deck.reshuffle_discard(self.rng)
        self.known_top = [[] for _ in range(self.num_players)]

    def draw(self, player: int, count: int = 1) -> None:
        """``player`` draws ``count`` cards (the discard is reshuffled when the pile runs out)."""
        card_kind = self.game.card_kind
        deck = self.deck
        for _ in range(count):
            if not deck.draw_pile:
                if not deck.discard:
                    return
                self.reshuffle()
            card = deck.draw()
            kind = card_kind[card]
            self.hands[player].append(card)
            self.hand_kinds[player][kind] += 1
            self._remember_draw(player, kind)

    def _remember_draw(self, player: int, kind: int) -> None:
        """Whoever knew the deck top knows what ``player`` just drew."""
        known_top = self.known_top
        for other in range(self.num_players):
            if known_top[other]:
                known_top[other] = known_top[other][1:]
                if other != player:
                    row = self.known_hand[other]
                    known = list(row[player]) if row[player] is not None else [0] * NUM_KINDS
                    known[kind] += 1
                    row[player] = known

    def _take_card(self, player: int, kind: int) -> None:
        """Move one card of ``kind`` from the player's hand to the discard pile (public)."""
        hand = self.hands[player]
        card_kind = self.game.card_kind
        for index in range(len(hand) - 1, -1, -1):
            if card_kind[hand[index]] == kind:
                self.deck.discard.append(hand.pop(index))
                break
        else:  # pragma: no cover - guarded by the masks
            raise RuntimeError("card not in hand")
        self.hand_kinds[player][kind] -= 1
        for other in range(self.num_players):
            if other != player:
                known = self.known_hand[other][player]
                if known is not None and known[kind] > 0:
                    known = list(known)
                    known[kind] -= 1
                    self.known_hand[other][player] = known

    def peek(self, player: int, count: int) -> None:
        """``player`` looks at the top ``count`` cards of the deck (he keeps what he saw deeper)."""
        if not self.deck.draw_pile and self.deck.discard:
            self.reshuffle()
        pile = self.deck.draw_pile
        seen = min(len(pile), max(count, len(self.known_top[player])))
        card_kind = self.game.card_kind
        self.known_top[player] = [card_kind[pile[-1 - depth]] for depth in range(seen)]

    def reveal_hand(self, viewer: int, holder: int) -> None:
        """``viewer`` sees the hand of ``holder``."""
        self.known_hand[viewer][holder] = list(self.hand_kinds[holder])

    def might_hold(self, player: int, kinds: Iterable[int]) -> bool:
        """Whether public facts alone leave ``player`` possibly holding a card of
        one of ``kinds``: his hand is not empty and not every copy lies in the discard."""
        if not self.hands[player]:
            return False
        copies, card_kind = self.game.kind_copies, self.game.card_kind
        discarded = Counter(card_kind[card] for card in self.deck.discard)
        return any(copies[kind] > discarded[kind] for kind in kinds)
