"""Princes of Amber's compiled row (``kernel/row_fields.py``): every position
of random games on 2 to 5 players, written to a row and read back, is the
same position dict (types included) and writes the same row again; the
records (frames of every kind, the war, the memories, the deck's two ends and
the packed hands) survive the trip; what does not fit is refused by name."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.princes_of_amber.cards import KIND_NAMES, NUM_PRINCES
from meeplezoo.envs.princes_of_amber.frames import FRAME_TYPES, ActionSelect, TurnEnd, War
from meeplezoo.envs.princes_of_amber.game import MAX_DECK_CARDS, OPTIONS, AmberGame
from meeplezoo.envs.princes_of_amber.kernel import row_fields
from meeplezoo.envs.princes_of_amber.state import AmberState

LAYOUT = layout_of(AmberState)
CONFIGS = [{"num_players": 2}, *AmberGame.test_configs]
DEEPEST_STACK = 8  # the longest chain of frames the rules build (row_fields' docstring)


def as_json(state: AmberState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def assert_round_trip(state: AmberState) -> np.ndarray:
    """``state`` -> row -> state gives the same position dict and the same row."""
    row = LAYOUT.write(state, LAYOUT.new_rows(1)[0])
    back = LAYOUT.read(row, state.game)
    assert as_json(back) == as_json(state)
    assert back.hand_kinds == state.hand_kinds
    np.testing.assert_array_equal(LAYOUT.write(back, LAYOUT.new_rows(1)[0]), row)
    return row


def features(state: AmberState) -> set[str]:
    """What a position shows that the row must carry: its frame kinds, a war, memories."""
    seen = {frame.name for frame in state.stack}
    if state.war is not None:
        seen.add("war won" if state.war.won == 1 else "war")
    if any(known is not None for row in state.known_hand for known in row):
        seen.add("known hand")
    if any(state.known_top):
        seen.add("known top")
    if state.deck.discard:
        seen.add("discard")
    return seen


def play_and_check(game: AmberGame, seed: int, every: int, covered: set[str]) -> None:
    """A random game, the trip checked every ``every`` steps, whenever the
    position shows something not yet covered, and at the end."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while True:
        assert len(state.stack) <= DEEPEST_STACK
        new = features(state) - covered
        if new or step % every == 0 or state.done:
            covered |= new
            assert_round_trip(state)
        if state.done:
            return
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        step += 1


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda config: "-".join(f"{k}={v}" for k, v in config.items())
)
def test_random_games_survive_the_row(config):
    covered: set[str] = set()
    play_and_check(AmberGame(**config), seed=1, every=25, covered=covered)


def test_the_random_games_cover_the_decisions_a_war_and_memories():
    """Across the configurations the checked positions hold the frames random play
    leaves under a decision, a war won and lost, and memories (every other frame
    kind is checked by ``test_every_frame_kind_survives_the_row``)."""
    covered: set[str] = set()
    for index, config in enumerate(CONFIGS):
        for seed in range(2):
            play_and_check(AmberGame(**config), seed=10 + index * 2 + seed, every=50, covered=covered)
    rare = {
        "TURN",
        "DAMAGE",
        "KING_REMOVAL",
        "BLOCK_EFFECT",
        "SHADOW_MASTERY",
    }  # run at once, or seldom reached
    wanted = set(FRAME_TYPES) - rare | {"war", "war won", "known hand", "known top", "discard"}
    assert wanted <= covered, sorted(wanted - covered)


def filled(kind: type, start: int, losing: list | None) -> Any:
    """A frame of ``kind`` with every field set off its default: counters from
    ``start``, flags True, lists of seats [1, 0] and ``losing`` as given."""
    values = {}
    for offset, item in enumerate(fields(kind)):
        if item.name == "losing":
            values[item.name] = losing
        elif item.name in row_fields.LIST_CAPACITY:
            values[item.name] = [1, 0]
        elif item.type == "bool":
            values[item.name] = True
        else:
            values[item.name] = (start + offset) % 3
    return kind(**values)


def test_every_frame_kind_survives_the_row():
    """A stack of one frame of each kind (lists full, empty and None) reads back the same."""
    state = AmberGame(num_players=5).new_initial_state(0)
    kinds = list(FRAME_TYPES.values())
    losing_cases = [None, [], list(range(NUM_PRINCES))]
    for first in range(0, len(kinds), row_fields.STACK_CAPACITY - 1):
        batch = kinds[first : first + row_fields.STACK_CAPACITY - 1]
        frames = [filled(kind, first + k, losing_cases[k % 3]) for k, kind in enumerate(batch)]
        state.stack = [TurnEnd(0), *frames]
        back = LAYOUT.read(LAYOUT.write(state, LAYOUT.new_rows(1)[0]), state.game)
        assert [frame.to_dict() for frame in back.stack] == [frame.to_dict() for frame in state.stack]
        assert [type(value) for frame in back.stack for value in frame.to_dict().values()] == [
            type(value) for frame in state.stack for value in frame.to_dict().values()
        ]


def test_a_deck_of_the_most_cards_fits():
    """The largest deck the options allow, dealt to five players, round-trips (cards fill the row)."""
    counts = {name: [[name.title(), 28]] for name in KIND_NAMES[:35]} | {KIND_NAMES[35]: [["Last", 20]]}
    game = AmberGame(num_players=5, deck_counts=counts, starting_hand=100)
    assert game.num_cards == MAX_DECK_CARDS
    state = game.new_initial_state(3)
    row = assert_round_trip(state)
    deck = row[LAYOUT.offset("deck") :]
    assert [deck[0], deck[1]] == [len(state.deck.draw_pile), len(state.deck.discard)]
    assert deck[2 + deck[0] - 1] == state.deck.draw_pile[-1]  # the top card is the last of the draw pile
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    assert state.deck.discard
    assert_round_trip(state)


def test_the_capacities_are_the_options_bounds():
    assert row_fields.CARD_CAPACITY == MAX_DECK_CARDS
    assert row_fields.MOST_PLAYERS == OPTIONS["num_players"].high
    assert row_fields.FRAME_WORDS >= 1 + max(len(row_fields.FRAME_FIELD_WORDS[name]) for name in FRAME_TYPES)


def test_a_stack_deeper_than_the_row_is_refused():
    state = AmberGame(num_players=3).new_initial_state(0)
    state.stack = [TurnEnd(0)] + [ActionSelect(0)] * row_fields.STACK_CAPACITY
    with pytest.raises(ValueError, match="a stack of 17 frames does not fit the compiled row's 16"):
        LAYOUT.write(state, LAYOUT.new_rows(1)[0])


def test_too_many_scripted_dice_are_refused():
    state = AmberGame(num_players=2).new_initial_state(0)
    state.dice = [1] * (row_fields.DICE_CAPACITY + 1)
    with pytest.raises(ValueError, match="65 scripted dice do not fit the compiled row's 64"):
        LAYOUT.write(state, LAYOUT.new_rows(1)[0])


def test_record_fields_sit_at_their_declared_words():
    """A frame's and the war's words are where FRAME_FIELD_WORDS and WAR_FIELD_WORDS say (the kernel's constants)."""
    state = AmberGame(num_players=4).new_initial_state(0)
    state.war = War(2, 5, 1, walls_bonus=3, supporters=[0, 3], lords=[1, 4], losing=[6, 7, 8])
    row = LAYOUT.write(state, LAYOUT.new_rows(1)[0])
    war = row[LAYOUT.offset("war") :]
    words = row_fields.WAR_FIELD_WORDS
    assert war[0] == 1 and war[words["prince"]] == 5 and war[words["walls_bonus"]] == 3
    assert list(war[words["supporters"] : words["supporters"] + 3]) == [2, 0, 3]
    assert list(war[words["losing"] : words["losing"] + 5]) == [3, 6, 7, 8, row_fields.EMPTY]
    top = row[LAYOUT.offset("stack") + row_fields.FRAME_WORDS * (len(state.stack) - 1) :]
    frame = state.stack[-1]
    assert row_fields.FRAME_KINDS[top[0]] is type(frame)
    assert top[row_fields.FRAME_FIELD_WORDS[frame.name]["player"]] == frame.player
    assert all(0 <= prince < NUM_PRINCES for prince in state.war.losing)
