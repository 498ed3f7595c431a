"""Who moves next never tells what a seat holds.

Two worlds that differ only in seat q's hidden cards (q's hand redealt from
the cards q could hold, everything public kept) must give every other seat
the same observation, the same render, the same mask and the same order of
play until q itself is asked something. A game that skips a question when
the asked seat holds no card for it fails this: the next seat to move, or
the phase, then shows what q holds.

Each game that takes part names how to redeal one seat's hand in
``REDEALERS``; the redeal swaps q's unknown cards with cards deep in the
draw pile, so the cards the others draw before q acts are the same in both
worlds, and says how long the two worlds keep a common future (until those
deep cards come up, or a public event shows q's hand).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.conformance.cases import CASES
from tests.conformance.play import play_random_state, random_action

# (state, q, generator) -> (twin, common_future(world, twin)) or None where nothing can be redealt
Redeal = Callable[..., object]


def _redeal_high_card(state, q: int, rng: np.random.Generator):
    """q's card swapped with the bottom card of the deck."""
    if len(state.deck) < 2 or state.deck[0] == state.cards[q]:
        return None
    twin = state.clone()
    twin.cards[q], twin.deck[0] = state.deck[0], state.cards[q]
    return twin, lambda a, b: len(a.deck) > 1


def _known_of(state, q: int) -> list[int]:
    """Per card kind, the fewest copies of it some other seat knows q holds."""
    known = [0] * len(state.hand_kinds[q])
    for o in range(state.num_players):
        row = state.known_hand[o][q] if o != q else None
        if row is not None:
            known = [max(x, y) for x, y in zip(known, row)]
    return known


def _redeal_princes(state, q: int, rng: np.random.Generator):
    """q's cards that no other seat knows of, shuffled with as many cards from
    the bottom of the draw pile (below every card anyone has seen)."""
    card_kind = state.game.card_kind
    known = _known_of(state, q)
    kept, loose = [], []
    for c in state.hands[q]:
        k = card_kind[c]
        (kept if known[k] > 0 else loose).append(c)
        known[k] -= known[k] > 0
    pile = state.deck.draw_pile
    seen = max(len(top) for top in state.known_top)
    depth = len(loose)
    if not loose or len(pile) < depth + seen + 1 or not state.in_game[q]:
        return None
    pool = loose + pile[:depth]
    order = rng.permutation(len(pool))
    mixed = [pool[i] for i in order]
    if sorted(card_kind[c] for c in mixed[:depth]) == sorted(card_kind[c] for c in loose):
        return None  # the same kinds again: nothing to compare
    twin = state.clone()
    twin.hands[q] = kept + mixed[:depth]
    twin.deck.draw_pile[:depth] = mixed[depth:]
    twin.refresh_counts()

    def common_future(a, b) -> bool:
        return (
            len(a.deck.draw_pile) > depth
            and bool(a.in_game[q])
            and all(a.known_hand[o][q] == b.known_hand[o][q] for o in range(a.game.num_players))
        )

    return twin, common_future


REDEALERS: dict[str, Redeal] = {
    "high_card_v0": _redeal_high_card,
    "princes_of_amber_v1": _redeal_princes,
}


def _leaks(case) -> bool:
    """Configs that skip a card window when the responder holds no card for it
    (documented as revealing the hand)."""
    return bool(case.config.get("prompt_only_if_playable", False))


COVERED = [c for c in CASES if c.name in REDEALERS and c.make_game().info.hidden_information]
SAFE = [c for c in COVERED if not _leaks(c)]
LEAKY = [c for c in COVERED if _leaks(c)]


def first_difference(a, b, q: int, common_future, rng, max_steps: int = 400) -> str | None:
    """Play the same random moves in both worlds until q is asked (or the worlds
    part for public reasons); the first thing another seat could tell apart."""
    seats = [o for o in range(a.game.num_players) if o != q]
    for _ in range(max_steps):
        if a.current_player != b.current_player:
            return f"seat {a.current_player} moves in one world, seat {b.current_player} in the other"
        if a.done or a.current_player == q or not common_future(a, b):
            return None
        for o in seats:
            if not np.array_equal(a.observation(o), b.observation(o)):
                return f"seat {o}'s observation differs (phase {a.phase_name()} / {b.phase_name()})"
            if a.render_ansi(o) != b.render_ansi(o):
                return f"seat {o}'s render differs"
        mask = a.legal_action_mask()
        if not np.array_equal(mask, b.legal_action_mask()):
            return f"seat {a.current_player}'s mask differs"
        action = random_action(mask, rng)
        a.apply(action)
        b.apply(action)
    return None


def twin_worlds(case, seeds: range, redeals: int = 2):
    """(world, its twin, q, common future) over random positions and every seat
    not to move."""
    game = case.make_game()
    redeal = REDEALERS[case.name]
    for seed in seeds:
        state, _ = play_random_state(game, seed, until=(4 + 11 * seed) % 150)
        if state.done:
            state, _ = play_random_state(game, seed, until=seed % 3)
        for q in range(game.num_players):
            if q == state.current_player:
                continue
            for k in range(redeals):
                made = redeal(state, q, np.random.default_rng(1000 * seed + 10 * q + k))
                if made is not None:
                    yield state.clone(), made[0], q, made[1]


@pytest.mark.parametrize("case", SAFE, ids=[c.id for c in SAFE])
def test_other_seats_cannot_tell_what_a_seat_holds(case):
    compared = 0
    for world, twin, q, common_future in twin_worlds(case, range(24)):
        difference = first_difference(world, twin, q, common_future, np.random.default_rng(compared))
        assert difference is None, f"seat {q}'s hand shows: {difference}"
        compared += 1
    assert compared > 0, "no position to compare"


@pytest.mark.parametrize("case", LEAKY, ids=[c.id for c in LEAKY])
def test_prompt_only_if_playable_shows_the_hand(case):
    """The opt-in variant skips a window when the responder holds no card for
    it: the same comparison finds that (the rules page says so)."""
    for world, twin, q, common_future in twin_worlds(case, range(40)):
        if first_difference(world, twin, q, common_future, np.random.default_rng(q)) is not None:
            return
    pytest.fail("no twin worlds told apart: the variant no longer skips windows by the hand")
