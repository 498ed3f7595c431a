"""The declarations the rules read: the act table, the frame records, the
options and the position dict."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber import acts, frames
from meeplezoo.envs.princes_of_amber.cards import A_CARD, A_NONCARD, NONCARD_BASE, NUM_KINDS, Kind, Noncard
from meeplezoo.envs.princes_of_amber.rules import AUTOMATIC, DECISIONS, AmberGame


def test_every_card_kind_and_noncard_action_has_one_record_that_names_its_action():
    s = AmberGame().new_initial_state(0)
    assert [rule.code for rule in acts.RULES] == list(range(NUM_KINDS + len(Noncard)))
    for kind in Kind:
        assert acts.RULES[kind].name == s.action_to_string(A_CARD + kind) == "card " + kind.name.lower()
    for action in Noncard:
        assert acts.RULES[NONCARD_BASE + action].name == s.action_to_string(A_NONCARD + action)


def test_each_response_card_answers_one_decision_window_and_each_act_has_an_effect():
    windows = {kind.phase for kind in DECISIONS}
    for rule in acts.RULES:
        if rule.timing == acts.Timing.RESPONSE:
            assert rule.window in windows and rule.respond is not None, rule.name
        else:
            assert rule.window is None and rule.effect is not None, rule.name
        if rule.target != acts.Target.NOTHING:
            assert rule.targets is not None and rule.effect is not None, rule.name
    # the Will cards are the prince actions whose contest has a winning effect
    will = {rule.code for rule in acts.RULES if rule.wins is not None}
    assert will == {
        Kind.PSYCHIC_HOLD,
        Kind.CONTEST_OF_WILLS,
        Kind.MENTAL_DOMINATION,
        Kind.PSYCHIC_ATTACK,
        Kind.MIND_PROBE,
    }


def test_only_escape_cards_and_the_escape_roll_are_open_to_a_captured_prince():
    assert acts.CAPTIVE_CARDS == (Kind.ESCAPE_ACTION,)
    assert acts.CAPTIVE_NONCARDS == (NONCARD_BASE + Noncard.ESCAPE,)
    assert NONCARD_BASE + Noncard.ESCAPE not in acts.PRINCE_ACTION_NONCARDS


def _sample(kind: type):
    values = {"queue": [1], "losing": [2, 3], "declined": [1]}
    return kind(**{f.name: values.get(f.name, 1) for f in dataclasses.fields(kind)})


@pytest.mark.parametrize(
    "kind", sorted(frames.FRAME_TYPES.values(), key=lambda k: k.name), ids=lambda k: k.name
)
def test_frames_copy_and_round_trip_through_plain_data(kind):
    frame = _sample(kind)
    assert type(frame) in AUTOMATIC or type(frame) in DECISIONS
    data = json.loads(json.dumps(frame.to_dict()))
    assert data["frame"] == kind.name and frames.frame_from_dict(data) == frame
    twin = frame.copy()
    assert twin == frame and twin is not frame
    first = dataclasses.fields(kind)[0].name
    setattr(twin, first, 4)
    assert getattr(frame, first) == 1


def test_an_unknown_frame_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown stack frame 'SHUFFLE'"):
        frames.frame_from_dict({"frame": "SHUFFLE", "player": 0})


@pytest.mark.parametrize(
    "kind, steps",
    [
        (frames.Fight, frames.FightStep),
        (frames.Will, frames.WillStep),
        (frames.WarStep, frames.WarStage),
        (frames.DeathSequence, frames.DeathStep),
        (frames.Capture, frames.CaptureStep),
    ],
    ids=lambda item: item.__name__,
)
def test_an_automatic_frame_starts_at_its_first_named_step_and_saves_each_step_as_its_integer(kind, steps):
    frame = _sample(kind)
    assert (
        kind(**{name: value for name, value in frame.to_dict().items() if name not in ("frame", "step")}).step
        == 0
    )
    assert [int(step) for step in steps] == list(range(len(steps)))
    for step in steps:
        frame.step = step
        data = frame.to_dict()
        assert type(data["step"]) is int and data["step"] == step
        assert json.loads(json.dumps(data))["step"] == int(step)
        assert frames.frame_from_dict(data) == frame
    assert len(steps) - 1 <= frames.LAST_STEP == max(len(kind) for kind in frames.STEP_KINDS) - 1


@pytest.mark.parametrize(
    "config, words",
    [
        ({"garrison_start": 101}, "garrison_start must be an integer from 0 to 100, got 101"),
        ({"max_turns": 0}, "max_turns must be an integer from 1 to 100000, got 0"),
        ({"attribute_mode": "dice"}, r"attribute_mode must be one of \('table', 'rolled'\), got 'dice'"),
        ({"allow_support": 1}, "allow_support must be True or False, got 1"),
        (
            {"deck_counts": {"FIGHT": [["Duel", 101]]}},
            r"deck_counts\['FIGHT'\] entries must be \[name, copies 0..100\]",
        ),
        ({"deck_counts": {"DUEL": []}}, "deck_counts must be a dict keyed by card kinds"),
        ({"deck_override": ["DUEL"]}, "deck_override must be None or a list of card kind names"),
        ({"prince_order_override": [0] * 9}, "prince_order_override must be None or a permutation"),
        ({"dice_override": [7]}, "dice_override must be None or a list of integers 1..6, got"),
        ({"deck_counts": {"FIGHT": [["Duel", 9]]}}, "too few cards to deal starting_hand"),
    ],
)
def test_bad_settings_are_refused_naming_the_key_and_the_value(config, words):
    with pytest.raises(ValueError, match=words):
        AmberGame(**config)


def test_the_default_deck_is_the_hundred_cards_of_the_rules_page():
    game = AmberGame()
    assert game.config["deck_counts"] is None and game.num_cards == 100
    assert AmberGame(deck_counts={"FIGHT": [["Duel", 10]]}).num_cards == 10


def test_a_deck_override_kind_missing_from_the_deck_is_refused_when_the_game_is_made():
    with pytest.raises(ValueError, match="deck_override asks for 1 BLESSING card"):
        AmberGame(deck_counts={"FIGHT": [["Duel", 10]]}, deck_override=["BLESSING"])


def test_the_position_dict_speaks_whole_words_and_loads_back():
    game = AmberGame(num_players=3)
    s = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        s.apply(int(rng.choice(s.legal_actions())))
    data = json.loads(json.dumps(s.to_dict()))
    assert not {"pp", "hk", "G", "ctrl", "c_tot", "cur", "trunc", "extra", "act"} & set(data)
    assert all(set(frame) >= {"frame"} for frame in data["stack"])
    back = game.state_from_dict(data)
    assert back.to_dict() == data and back.hand_kinds == s.hand_kinds
    assert np.array_equal(back.observation(0), s.observation(0))
    with pytest.raises(ValueError, match="belongs to another config"):
        AmberGame().state_from_dict(data)
    del data["config_digest"]  # a hand-written position: the seat count is still checked
    with pytest.raises(ValueError, match="the position has 3 players, the game 2"):
        AmberGame().state_from_dict(data)
