"""The redeal of what one player cannot see (``AmberState.determinize``).

The unseen cards (the draw pile and the other hands) form one pool whose
ids are sorted before sampling, so the result never depends on where the
true state holds them. The player's memories (his known deck top, his lower
bounds on other hands) are honoured; the other players' memories are
rebuilt to fit the new deal: what they saw of the deck becomes the new top
cards of the same count, what they saw of a third player's hand is
forgotten, and what they know of this player's hand is kept (he can work it
out from public events and his own cards).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out
from meeplezoo.envs.core.state import derive_rng
from meeplezoo.envs.princes_of_amber.cards import A_CARD, A_NONCARD, NUM_KINDS
from meeplezoo.envs.princes_of_amber.hands import kind_counts

REDEALS_FOR_A_WINDOW = 30  # redeals tried until another player's card window would really be put to him


def determinize(state: Any, player: int, rng: np.random.Generator) -> Any:
    """A copy of ``state`` with what ``player`` cannot see redealt. When
    another player is being asked a card window, the redeal is drawn again
    until that window would really be put to him."""
    top, forced, rest = unseen_cards(state, player)
    deciding = state.deciding_player
    check = deciding >= 0 and deciding != player and bool(state.stack)
    redealt = None
    for _ in range(REDEALS_FOR_A_WINDOW if check else 1):
        redealt = redeal(state, player, forced, top, canonical_shuffle(rest, rng))
        if not check:
            break
        legal = redealt._posed_legal()
        if legal is not None:
            redealt.legal = legal
            break
    else:
        # no redeal fits the window: the player is still asked, with only
        # his card-free answers (PASS, END_PHASE, princes...)
        redealt.legal = [action for action in state.legal if not A_CARD <= action < A_NONCARD]
    redealt.rng = derive_rng(rng)
    redealt.dice = []
    redealt.dice_used = 0
    return redealt


def unseen_cards(state: Any, player: int) -> tuple[list[int], dict[int, list[int]], list[int]]:
    """What ``player`` cannot see, split by what he knows of it: the deck
    top he saw (top first), the cards he knows in each other hand, the rest."""
    card_kind = state.game.card_kind
    others = [other for other in range(state.num_players) if other != player]
    pool = sorted(state.deck.draw_pile + [card for other in others for card in state.hands[other]])
    pool_by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
    for card in pool:
        pool_by_kind[card_kind[card]].append(card)
    top = [pool_by_kind[kind].pop() for kind in state.known_top[player]]
    forced: dict[int, list[int]] = {}
    for other in others:
        known = state.known_hand[player][other]
        forced[other] = (
            [pool_by_kind[kind].pop() for kind in range(NUM_KINDS) for _ in range(known[kind])]
            if known is not None
            else []
        )
    rest = sorted(card for cards in pool_by_kind for card in cards)
    return top, forced, rest


def redeal(state: Any, player: int, forced: dict, top: list[int], shuffled: list[int]) -> Any:
    """A clone whose other hands and draw pile are dealt from ``shuffled``
    (after the known cards), with the other players' memories refitted."""
    redealt = state.clone()
    card_kind = state.game.card_kind
    others = [other for other in range(state.num_players) if other != player]
    dealt, left = deal_out(shuffled, [len(state.hands[other]) - len(forced[other]) for other in others])
    for other, cards in zip(others, dealt):
        redealt.hands[other] = forced[other] + cards
        redealt.hand_kinds[other] = kind_counts(redealt.hands[other], card_kind)
    redealt.deck = Deck(left + top[::-1], state.deck.discard)
    pile = redealt.deck.draw_pile
    for other in others:
        redealt.known_top[other] = [
            card_kind[pile[-1 - depth]] for depth in range(len(state.known_top[other]))
        ]
        row = redealt.known_hand[other]
        for third in others:
            row[third] = None
    return redealt
