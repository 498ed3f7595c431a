"""The compiled card and dice steps (``kernel/cards.py``) do what
``hands.HandsAndMemories`` does: from positions of random games on 2 to 5
players, random sequences of dice, draws (through reshuffles), discards,
peeks and revealed hands leave the row word for word the reference
position (hands, per-kind counts, memories, deck, generator), and the
game row holds the configuration."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.princes_of_amber.cards import NUM_KINDS, PRINCE_TABLE
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.kernel import cards
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel.game_row import game_row
from meeplezoo.envs.princes_of_amber.state import AmberState
from tests.core.kernel_checks import assert_same_position
from tests.princes_of_amber.kernel_configs import CONFIGS, SMALL_DECK, positions

LAYOUT = layout_of(AmberState)
same_position = partial(assert_same_position, LAYOUT)  # (py, row, game, full)


def one_step(py: AmberState, row: np.ndarray, grow: np.ndarray, rng: np.random.Generator) -> str:
    """A random card or dice step on both sides; returns its name."""
    player = int(rng.integers(py.num_players))
    choice = int(rng.integers(6))
    if choice == 0:
        assert cards.d6(row) == py.d6()
        return "d6"
    if choice == 1 or not py.hands[player]:
        count = int(rng.integers(1, 5))
        py.draw(player, count)
        cards.draw(row, grow, player, count)
        return "draw"
    if choice == 2:
        kind = py.game.card_kind[py.hands[player][int(rng.integers(len(py.hands[player])))]]
        py._take_card(player, kind)
        cards.take_card(row, grow, player, kind)
        return "discard"
    if choice == 3:
        count = int(rng.integers(1, 8))
        py.peek(player, count)
        cards.peek(row, grow, player, count)
        return "peek"
    if choice == 4 and py.deck.discard:
        py.reshuffle()
        cards.reshuffle(row)
        return "reshuffle"
    holder = int(rng.integers(py.num_players))
    py.reveal_hand(player, holder)
    cards.reveal_hand(row, player, holder)
    return "reveal"


@pytest.mark.parametrize("index", range(5))  # the configurations made for the kernel
def test_card_steps_play_as_the_rules(index):
    game = AmberGame(**CONFIGS[index])
    grow = game_row(game)
    rng = np.random.default_rng(index)
    seen: set[str] = set()
    for py in positions(game, seed=index, every=40):
        row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
        for _ in range(12):
            seen.add(one_step(py, row, grow, rng))
            same_position(py, row, game, False)
        same_position(py, row, game, True)
    assert seen == {"d6", "draw", "discard", "peek", "reshuffle", "reveal"}


def test_a_draw_with_no_card_left_anywhere_draws_nothing():
    game = AmberGame(num_players=2, deck_counts={"FIGHT": [["Duel", 10]]}, starting_hand=5)
    py = game.new_initial_state(0)
    py.deck.draw_pile, py.deck.discard = [], []
    row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
    cards.draw(row, game_row(game), 0, 3)
    py.draw(0, 3)
    same_position(py, row, game, True)


def test_discarding_a_kind_not_in_hand_is_refused():
    game = AmberGame(num_players=2, deck_counts={"FIGHT": [["Duel", 10]], "GOSSIP": [["Gossip", 1]]})
    py = game.new_initial_state(0)
    row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
    with pytest.raises(ValueError, match="no card of that kind"):
        cards.take_card(row, game_row(game), 0, NUM_KINDS - 1)


def test_the_game_row_holds_the_configuration():
    game = AmberGame(
        num_players=4,
        deck_counts=SMALL_DECK,
        garrison_start=7,
        starting_hand=3,
        hold_turns=4,
        max_turns=90,
        attribute_mode="rolled",
        allow_support=False,
        truncation_ranking="amber_first",
        amber_defenders="leader_only",
    )
    grow = game_row(game)
    assert grow[S.G_NUM_PLAYERS] == 4 and grow[S.G_NUM_CARDS] == 72
    assert list(grow[S.G_CARD_KIND : S.G_CARD_KIND + 72]) == list(game.card_kind)
    assert list(grow[S.G_KIND_COPIES : S.G_KIND_COPIES + NUM_KINDS]) == [2] * NUM_KINDS
    table = grow[S.G_TABLE_ATTRIBUTES : S.G_TABLE_ATTRIBUTES + 45].reshape(9, 5)
    assert table.tolist() == [list(row) for row in PRINCE_TABLE]
    assert [grow[S.G_GARRISON_START], grow[S.G_STARTING_HAND], grow[S.G_HOLD_TURNS], grow[S.G_MAX_TURNS]] == [
        7,
        3,
        4,
        90,
    ]
    flags = [S.G_ROLLED_ATTRIBUTES, S.G_ALLOW_SUPPORT, S.G_REGENT_OFFERS, S.G_PROMPT_ONLY_IF_PLAYABLE]
    assert [grow[k] for k in flags] == [1, 0, 1, 0]
    assert [grow[S.G_ALL_LORDS_DEFEND], grow[S.G_AMBER_FIRST]] == [0, 1]
    assert not grow.flags.writeable
