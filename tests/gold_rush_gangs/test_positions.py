"""Positions handed in from outside: each rule a loaded dict must keep is
refused with a message naming the entry and the rule, and nothing is taken
in; real positions still load; the mask cannot be written to; a deck
override is checked before anything is dealt."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.cards import card_rank
from tests.gold_rush_gangs.helpers import HOMES, PRO, A, E, act, game, position, unit

NAME = "gold_rush_gangs_v0"


def _mid_game(seed: int = 3, moves: int = 40, **config) -> dict:
    g = game(**config)
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        s.apply(int(rng.choice(s.legal_actions())))
    return s.to_dict()


def _setup_position(moves: int = 2) -> dict:
    """A position part-way through setup (stores chosen, first player 0)."""
    g = game()
    s = g.new_initial_state(0, first_player=0)
    for _ in range(moves):
        s.apply(int(s.legal_actions()[0]))
    return s.to_dict()


def _refused(data: dict, **config) -> str:
    with pytest.raises(ValueError) as caught:
        game(**config).state_from_dict(data)
    return str(caught.value)


# --- real positions ------------------------------------------------------------------------
def _every_position_loads(config: dict, seeds) -> None:
    g = game(**config)
    rng = np.random.default_rng(11)
    for seed in seeds:
        s = g.new_initial_state(seed)
        while True:
            data = s.to_dict()
            assert g.state_from_dict(json.loads(json.dumps(data))).to_dict() == data
            if s.done:
                break
            s.apply(int(rng.choice(s.legal_actions())))


@pytest.mark.parametrize("config", [{"max_rounds": 40}, *game().test_configs])
def test_every_position_of_a_random_game_loads_and_saves_the_same(config):
    _every_position_loads(config, seeds=[0])


@pytest.mark.slow
@pytest.mark.parametrize("config", [{}, *game().test_configs])
def test_every_position_of_many_random_games_loads_and_saves_the_same(config):
    _every_position_loads(config, seeds=range(1, 21))


# --- cards, thieves and gold, each where it can be -------------------------------------------------
def test_a_card_in_two_piles_is_refused():
    data = _mid_game()
    data["deck"]["discard"].append(data["deck"]["draw_pile"][0])
    card = data["deck"]["draw_pile"][0]
    assert _refused(data) == (
        f"{NAME}: position entry 'deck': card {card} is there 2 times (in draw_pile, discard); the game has 1"
    )


def test_a_missing_card_is_refused():
    data = _mid_game()
    card = data["deck"]["draw_pile"].pop()
    assert _refused(data) == f"{NAME}: position entry 'deck': card {card} is missing: 0 of 1 found"


def test_a_thief_listed_twice_is_refused():
    data = position().to_dict()
    data["units"][1] = copy.deepcopy(data["units"][0])
    assert (
        _refused(data) == f"{NAME}: position entry 'units' entry 1 (player_0 pro): the thief is listed twice"
    )


def test_two_thieves_on_one_cell_are_refused():
    data = position(units={(0, A): (0, 3), (1, A): (1, 3)}).to_dict()
    data["units"][4]["cell"] = [0, 3]
    assert _refused(data) == f"{NAME}: units: player_1 A and player_0 A stand on one cell [0, 3]"


def test_more_gold_of_a_gang_than_it_has_is_refused():
    data = position(sacks={(0, 3): {"p1": 5}, (2, 2): {"p1": 2}}).to_dict()
    data["sacks"][data["sacks"].index([2, 2, "p1", 2])][3] = 3
    assert _refused(data) == (
        f"{NAME}: sack of gold 'p1' is there 8 times (in sacks on [2, 2], sacks on [2, 2], sacks on [2, 2], "
        "sacks on [0, 3], sacks on [0, 3], sacks on [0, 3], sacks on [0, 3], sacks on [0, 3]); the game has 7"
    )


def test_more_gold_in_all_than_the_game_holds_is_refused():
    data = position(delivered=(7, 7, 7), sacks={(0, 3): {"store": 3}}).to_dict()
    data["sacks"].append([0, 4, "p0", 1])
    assert _refused(data) == (
        f"{NAME}: 7 lying, 0 carried and 21 delivered sacks are more than the 27 the game holds"
    )


def test_a_thief_carrying_its_own_gangs_gold_is_refused():
    data = position(units={(0, A): {"cell": (0, 3), "carry": "p1"}}).to_dict()
    data["units"][1]["carry"] = "p0"
    assert _refused(data) == (
        f"{NAME}: position entry 'units' entry 1 (player_0 A): a thief never carries its own gang's gold"
    )


def test_a_thief_that_is_out_stands_at_home_and_misses_at_most_one_turn():
    data = position(units={(1, PRO): {"state": "incapacitated", "miss": 1}}).to_dict()
    data["units"][3]["miss"] = 2
    assert (
        _refused(data)
        == f"{NAME}: position entry 'units' entry 3 (player_1 pro) miss must be from 0 to 1, got 2"
    )
    data["units"][3]["miss"] = 1
    data["units"][3]["cell"] = [0, 3]
    assert _refused(data) == (
        f"{NAME}: position entry 'units' entry 3 (player_1 pro): a thief that is out stands on its home cell"
    )


def test_a_thief_in_another_gangs_base_is_refused():
    data = position().to_dict()
    data["units"][1]["cell"] = list(HOMES[1])
    assert _refused(data) == f"{NAME}: units: player_0 A stands in another gang's base"


def test_a_thief_on_the_standing_bank_is_refused():
    data = position().to_dict()
    data["units"][1]["cell"] = [0, 0]
    assert _refused(data) == f"{NAME}: units: player_0 A stands on the bank while it still stands"


# --- seats, phase, winner ----------------------------------------------------------------------------
def test_a_seat_out_of_range_is_refused():
    data = position().to_dict()
    data["current"] = 3
    assert _refused(data) == f"{NAME}: position entry 'current': must be from 0 to 2, got 3"
    data["current"], data["winner"] = 0, 5
    assert _refused(data) == f"{NAME}: position entry 'winner': must be from -1 to 2, got 5"


def test_a_phase_that_does_not_fit_the_setup_step_is_refused():
    data = position().to_dict()
    data["phase"] = "deploy"
    assert _refused(data) == (
        f"{NAME}: phase 'deploy' does not fit setup_pos 12 (setup ends after step 11; movement starts at 12)"
    )
    data = _setup_position(moves=1)  # player_0 placed its store: its pro's deploy step is next
    data["phase"] = "store"
    assert _refused(data) == f"{NAME}: setup_pos 1 is a deploy step, but phase is 'store'"


def test_a_setup_step_of_another_seat_is_refused():
    data = _setup_position(moves=4)  # player_0 is done: player_1's store is next
    assert data["current"] == 1
    data["current"] = 2
    assert _refused(data) == f"{NAME}: setup_pos 4 is player_1's step (first player 0), but current is 2"


def test_a_thief_deployed_before_its_step_is_refused():
    data = _setup_position(moves=2)  # store and pro of player_0 placed
    data["units"][1] = {**data["units"][0], "slot": 1, "cell": data["units"][0]["cell"]}
    data["units"][0]["cell"] = None
    data["units"][0]["state"] = "undeployed"
    assert _refused(data) == f"{NAME}: units: player_0 A is deployed, but its setup step 2 is not done"


def test_a_winner_without_the_deliveries_is_refused():
    data = position(delivered=(7, 0, 0)).to_dict()
    data["winner"] = 0
    assert _refused(data) == f"{NAME}: winner 0 has delivered 7 sacks, not the 8 that win"
    data["winner"], data["delivered"] = -1, [8, 0, 0]
    assert _refused(data) == f"{NAME}: player_0 has delivered 8 sacks, enough to win, but winner is -1"


def test_a_cut_short_flag_that_does_not_fit_the_turns_is_refused():
    data = position(turns=10).to_dict()
    data["truncated"] = True
    assert _refused(data) == f"{NAME}: truncated is true after 10 of 450 turns"


def test_more_ap_than_the_turn_can_give_is_refused():
    data = position(delivered=(2, 0, 0), ap=7, ap_bonus_immediate=False).to_dict()
    data["ap"] = 9
    assert (
        _refused(data, ap_bonus_immediate=False)
        == f"{NAME}: ap 9 is more than player_0 can have this turn (7)"
    )


def test_the_generator_entry_is_required():
    data = position().to_dict()
    del data["rng"]
    assert _refused(data) == f"{NAME}: the position has no 'rng' entry"


def test_a_refused_position_leaves_the_env_as_it_was():
    env = envs.make(NAME)
    env.reset(seed=2)
    before = json.dumps(env.get_state(), sort_keys=True)
    data = position().to_dict()
    data["units"][1]["cell"] = [0, 0]
    with pytest.raises(ValueError, match="stands on the bank while it still stands"):
        env.load_state(data)
    assert json.dumps(env.get_state(), sort_keys=True) == before


# --- the mask -------------------------------------------------------------------------------------
def test_the_mask_cannot_be_written_to():
    s = position(units={(0, A): (0, 3)})
    mask = s.legal_action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(ValueError, match="read-only"):
        mask[illegal] = True
    with pytest.raises(ValueError, match="illegal action"):
        s.apply(illegal)
    s.winner = 0
    s._mask_cache = None
    over = s.legal_action_mask()
    assert not over.any() and not over.flags.writeable


# --- the deck override -------------------------------------------------------------------------------
def test_a_deck_override_that_cannot_be_dealt_is_refused_up_front():
    g = game()
    with pytest.raises(
        ValueError, match=re.escape(f"{NAME}: deck asks for 5 cards of rank 13; the deck has 4")
    ):
        g.new_initial_state(0, deck=[13] * 5)
    with pytest.raises(
        ValueError, match=re.escape("deck entry 1 must be a rank from 1 (Ace) to 13 (King), got 14")
    ):
        g.new_initial_state(0, deck=[3, 14])
    with pytest.raises(
        ValueError, match=re.escape("deck entry 0 must be a rank from 1 (Ace) to 13 (King), got 2.0")
    ):
        g.new_initial_state(0, deck=[2.0])
    with pytest.raises(TypeError, match="deck must be a list of card ranks, got str"):
        g.new_initial_state(0, deck="KKK")
    with pytest.raises(ValueError, match=re.escape("deck cannot be stacked with deck_mode='iid'")):
        game(deck_mode="iid").new_initial_state(0, deck=[5])
    with pytest.raises(ValueError, match="first_player must be 0, 1 or 2, got True"):
        g.new_initial_state(0, first_player=True)


def test_a_deck_override_of_four_cards_of_a_rank_is_dealt():
    s = game().new_initial_state(0, deck=[12, 12, 12, 12], first_player=0)
    assert [card_rank(card) for card in reversed(s.deck.draw_pile[-4:])] == [12, 12, 12, 12]
    assert sorted(s.deck.draw_pile) == list(range(52))


# --- the render -------------------------------------------------------------------------------------
def test_the_render_counts_the_turns_a_thief_that_is_out_still_misses():
    s = position(units={(0, A): (0, 3), (1, A): (2, 2)})
    s.stack_deck([2, 9])  # player_0 A attacks with a 2 and loses to a 9
    act(s, "move", A, E)
    assert unit(s, 0, A)[1:3] == ("incapacitated", 1)
    assert "player_0 A is out (misses 1 more turn(s))" in s.render_ansi()
    for _ in range(3):  # player_1 and player_2 play, then player_0's turn comes: A sits it out
        s.apply(s.game.layout.end_turn)
    assert s.acting_seat == 0 and unit(s, 0, A)[1:3] == ("incapacitated", 0)
    assert "player_0 A is out (back at its gang's next turn)" in s.render_ansi()
    s.apply(s.game.layout.end_turn)
    for _ in range(2):
        s.apply(s.game.layout.end_turn)
    assert s.acting_seat == 0 and unit(s, 0, A)[1] == "active"
    assert "player_0 A is out" not in s.render_ansi()
