"""Scenario set-up for Princes of Amber tests: build a position through the
rules layer (prince order, hands by kind, scripted dice, whose turn)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber import cards as C
from meeplezoo.envs.princes_of_amber.cards import EXILE, GUARDIAN, KING, NORTH, SOUTH, Kind  # noqa: F401
from meeplezoo.envs.princes_of_amber.frames import ActionSelect, Damage, Turn, TurnEnd  # noqa: F401
from meeplezoo.envs.princes_of_amber.rules import AmberGame, AmberState

P = {name: i for i, name in enumerate(C.PRINCE_NAMES)}
K = {kind.name: int(kind) for kind in Kind}


def card(k) -> int:
    """Action index of CARD(kind)."""
    return C.A_CARD + (K[k] if isinstance(k, str) else k)


def noncard(name: str) -> int:
    return C.A_NONCARD + C.NONCARD_NAMES.index(name)


PASS, END, SUPPORT = C.A_PASS, C.A_END, C.A_SUPPORT


def set_hand(s: AmberState, p: int, kinds) -> None:
    """Give player p exactly the cards of the given kinds (taken from the deck,
    discard or other hands' spare cards), returning p's old hand to the deck."""
    ck = s.game.card_kind
    s.deck.draw_pile.extend(s.hands[p])
    s.hands[p] = []
    for kname in kinds:
        k = K[kname]
        for pile in (s.deck.draw_pile, s.deck.discard):
            idx = next((i for i in range(len(pile)) if ck[pile[i]] == k), None)
            if idx is not None:
                s.hands[p].append(pile.pop(idx))
                break
        else:
            raise ValueError(f"no spare card of kind {kname}")
    s.refresh_counts()


def position(n=2, order=None, hands=None, dice=None, turn=0, phase="ACTION_SELECT", **config) -> AmberState:
    """A fresh game stopped at ``turn``'s action phase (the Fate draw already done
    or skipped), with given prince order, hands (lists of kind names) and dice."""
    cfg = dict(num_players=n, **config)
    if order is not None:
        cfg["prince_order_override"] = [P[x] if isinstance(x, str) else x for x in order] + [
            i for i in range(9) if i not in [P[x] if isinstance(x, str) else x for x in order]
        ]
    game = AmberGame(**cfg)
    s = game.new_initial_state(0)
    for p in range(n):
        set_hand(s, p, (hands or {}).get(p, []))
    s.dice = list(dice or [])
    s.dice_used = 0
    s.turn_player = turn
    s.acted = [0] * 9
    s.stack = [TurnEnd(turn), ActionSelect(turn)]
    s._run()
    return s


def script(s: AmberState, dice) -> None:
    s.dice = list(dice)
    s.dice_used = 0


def legal(s: AmberState) -> set[int]:
    return set(np.flatnonzero(s.legal_action_mask()).tolist())


def act(s: AmberState, *actions) -> AmberState:
    for a in actions:
        s.apply(a)
    return s


def kind_count(s: AmberState, p: int, kname: str) -> int:
    return s.hand_kinds[p][K[kname]]


def total_cards(s: AmberState) -> int:
    return len(s.deck.draw_pile) + len(s.deck.discard) + sum(len(h) for h in s.hands)


def reopen(s: AmberState, p: int) -> AmberState:
    """Start a fresh action phase for p (every prince unacted), without a Fate draw."""
    s.acted = [0] * 9
    s.turn_player = p
    s.stack = [TurnEnd(p), ActionSelect(p)]
    s.refresh()
    return s


def decline(s: AmberState, *phases: str) -> AmberState:
    """Answer PASS to each named window in turn, checking it is the one asked
    (a responder with cards in hand is asked even when PASS is his only answer)."""
    for phase in phases:
        assert s.phase_name() == phase, f"expected {phase}, asked {s.phase_name()}"
        s.apply(PASS)
    return s


def give_amber(s: AmberState, q: int, regents=()) -> None:
    """Player q holds Amber with his PP as King (the taking procedure, no appointing)."""
    for i in regents:
        s.controller[i] = q
    s.take_amber(q)
    s.stack = [f for f in s.stack if f.name != "APPOINT"]
    s.refresh()
