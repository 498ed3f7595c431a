"""Positions handed in from outside: each broken rule is refused with a
message naming the entry and the rule, and the env keeps its position."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber.cards import A_PASS
from meeplezoo.envs.princes_of_amber.rules import AmberGame
from meeplezoo.envs.princes_of_amber_v1 import env as make_env

NAME = "princes_of_amber_v1"


@pytest.fixture(scope="module")
def opening():
    """Player 0's first action phase of a seeded two-player game, as a dict."""
    game = AmberGame()
    return game, game.new_initial_state(0).to_dict()


def refusal(game, data, change) -> str:
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(ValueError) as caught:
        game.state_from_dict(broken)
    return str(caught.value)


def test_the_positions_of_real_games_load_back_at_every_move():
    for config in [{}, *AmberGame.test_configs[:2]]:
        game = AmberGame(**config)
        state, rng = game.new_initial_state(3), np.random.default_rng(3)
        for _ in range(120):
            back = game.state_from_dict(state.to_dict())
            assert back.to_dict() == state.to_dict()
            if state.done:
                break
            state.apply(int(rng.choice(state.legal_actions())))


def test_a_card_in_two_hands_is_refused(opening):
    game, data = opening
    card = data["hands"][0][0]
    message = refusal(game, data, lambda d: d["hands"][1].append(card))
    assert message == f"{NAME}: card {card} is there 2 times (in hand 0, hand 1); the game has 1"


def test_a_hand_of_cards_dealt_twice_is_refused(opening):
    game, data = opening
    card = min(data["hands"][0], key=repr)  # the first card named, in the order of their words
    message = refusal(game, data, lambda d: d["hands"][0].extend(d["hands"][0] * 40))
    places = ", ".join(["hand 0"] * 41)
    assert message == f"{NAME}: card {card} is there 41 times (in {places}); the game has 1"


def test_a_card_missing_from_every_zone_is_refused(opening):
    game, data = opening
    card = data["deck"]["draw_pile"][0]
    message = refusal(game, data, lambda d: d["deck"]["draw_pile"].pop(0))
    assert message == f"{NAME}: card {card} is missing: 0 of 1 found"


def test_a_card_id_outside_the_deck_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["deck"]["discard"].append(100))
    assert message == f"{NAME}: position entry 'deck': discard entry 0 must be from 0 to 99, got 100"


def test_a_winner_seat_out_of_range_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d.update(winner=5))
    assert message == f"{NAME}: position entry 'winner': must be from -1 to 1, got 5"


def test_a_winner_while_the_game_runs_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d.update(winner=0))
    assert message == (f"{NAME}: a finished game has an empty stack, deciding_player -1 and no legal actions")


def test_a_frame_of_an_unknown_kind_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["stack"][0].update(frame="SHUFFLE"))
    assert message == f"{NAME}: position entry 'stack': frame 0 has an unknown kind 'SHUFFLE'"


def test_a_frame_with_a_seat_out_of_range_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["stack"][0].update(player=7))
    assert message == f"{NAME}: position entry 'stack': frame 0 (TURN_END) player must be from 0 to 1, got 7"


def test_a_frame_with_an_unknown_entry_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["stack"][1].update(prince=3))
    assert (
        message == f"{NAME}: position entry 'stack': frame 1 (ACTION_SELECT) has unknown entries ['prince']"
    )


def test_a_decision_for_another_player_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d.update(deciding_player=1))
    assert message == f"{NAME}: deciding_player 1 is not the player of the top frame ACTION_SELECT (0)"


def test_legal_actions_that_the_rules_do_not_offer_are_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d.update(legal=[A_PASS]))
    assert (
        message == f"{NAME}: legal [{A_PASS}] is not what the rules offer at ACTION_SELECT ({data['legal']})"
    )


def test_an_automatic_frame_on_top_is_refused(opening):
    game, data = opening
    damage = {"frame": "DAMAGE", "victim": 0, "dealer": -1, "amount": 2}
    message = refusal(game, data, lambda d: d["stack"].append(damage))
    assert message == f"{NAME}: the top frame DAMAGE is not a decision"


def test_a_stack_without_the_turn_under_it_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["stack"].pop(0))
    assert message == f"{NAME}: the stack must start with the TURN_END of turn_player 0, got ACTION_SELECT"


def test_two_kings_are_refused(opening):
    game, data = opening
    exile = data["role"].index(4)
    message = refusal(game, data, lambda d: d["role"].__setitem__(exile, 0))
    king = data["role"].index(0)
    assert message == f"{NAME}: role 0 is held by princes {sorted([exile, king])}; a post has one holder"


def test_hits_above_the_princes_attribute_are_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d["hits"].__setitem__(1, 9))
    assert message == f"{NAME}: hits of prince 1 (9) exceed its Hits attribute 8"


def test_a_war_record_without_its_figures_is_refused(opening):
    game, data = opening
    message = refusal(game, data, lambda d: d.update(war={"player": 0}))
    assert message == f"{NAME}: position entry 'war': the war lacks its 'prince' entry"


def test_a_refused_position_leaves_the_env_as_it_was(opening):
    _game, data = opening
    env = make_env()
    env.reset(seed=1)
    before = json.dumps(env.get_state(), sort_keys=True)
    broken = copy.deepcopy(data)
    broken["hands"][1].append(broken["hands"][0][0])
    with pytest.raises(ValueError, match="is there 2 times"):
        env.load_state(broken)
    assert json.dumps(env.get_state(), sort_keys=True) == before


def test_writing_into_the_returned_mask_changes_nothing():
    state = AmberGame().new_initial_state(0)
    mask = state.legal_action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    mask[illegal] = True
    assert not state.legal_action_mask()[illegal]
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        state.apply(illegal)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"deck_override": ["FIGHT"] * 13}, "deck_override asks for 13 FIGHT card(s); the deck holds 12"),
        (
            {"deck_counts": {"FIGHT": [["Duel", 3]]}, "starting_hand": 1, "deck_override": ["CAPTURE"]},
            "deck_override asks for 1 CAPTURE card(s); the deck holds 0",
        ),
        (
            {"deck_counts": {"FIGHT": 3}},
            "deck_counts['FIGHT'] must be a list of [name, copies 0..100], got 3",
        ),
        (
            {"deck_counts": {"FIGHT": [[1, 3]]}},
            "deck_counts['FIGHT'] entries must be [name, copies 0..100], got [1, 3]",
        ),
    ],
)
def test_an_override_that_cannot_deal_is_refused_at_construction(config, message):
    with pytest.raises(ValueError) as caught:
        AmberGame(**config)
    assert str(caught.value) == f"{NAME}: {message}"
