"""Every game's final position loads back: also a game that ends on the turn
of a player just knocked out (another player won), whose turn player is no
longer in the game. A running position keeps the strict rule."""

from __future__ import annotations

import copy
import json
import time

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber.rules import AmberGame
from meeplezoo.envs.princes_of_amber_v1 import env as make_env

NAME = "princes_of_amber_v1"
SLOW_GAMES = 2000


def play_to_the_end(game: AmberGame, seed: int):
    """A seeded random game (uniform over the legal actions) played to its end."""
    state, rng = game.new_initial_state(seed), np.random.default_rng(seed)
    while not state.done:
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(legal.size)]))
    return state


def assert_round_trips(game: AmberGame, state) -> None:
    data = state.to_dict()
    back = game.state_from_dict(data)
    assert back.done and back.to_dict() == data


# (config, seed) of random games that end on the turn of a player who is out: the winner
# took the last prince of the turn player, or the last of the other players is knocked out
TURN_PLAYER_OUT = [
    ({}, 96),
    ({"num_players": 3, "hold_turns": 2, "garrison_start": 3}, 30),
]


@pytest.mark.parametrize(("config", "seed"), TURN_PLAYER_OUT, ids=["two_players", "hold_turns_2"])
def test_a_game_won_on_the_turn_of_a_player_knocked_out_loads_back(config, seed):
    game = AmberGame(**config)
    state = play_to_the_end(game, seed)
    p = state.turn_player
    assert state.winner >= 0 and state.winner != p and not state.in_game[p]
    assert state.stack == [] and state.current_player == -1
    assert_round_trips(game, state)
    env = make_env(**config)
    env.load_state(state.to_dict())
    final = env.get_state()
    env.load_state(final)
    assert env.get_state() == final and env.game_state.done
    assert all(env.terminations.values())


def test_a_running_game_whose_turn_player_is_out_is_refused():
    """Only a finished game may hold a turn player out of the game."""
    game = AmberGame(num_players=3)
    data = copy.deepcopy(game.new_initial_state(0).to_dict())
    p = data["turn_player"]
    data["in_game"][p], data["elimination_order"][p], data["eliminated_count"] = 0, 0, 1
    data["deck"]["discard"] += data["hands"][p]
    data["hands"][p] = []
    data["known_hand"] = [
        [None if o == p else known for o, known in enumerate(row)] for row in data["known_hand"]
    ]
    with pytest.raises(ValueError) as caught:
        game.state_from_dict(data)
    assert str(caught.value) == f"{NAME}: turn_player {p} is a player out of a running game"


def slow_configs() -> list[dict]:
    """The default and every test config, at each player count of the game (2..5)."""
    configs, seen = [], set()
    for base in [{}, *AmberGame.test_configs]:
        for n in range(AmberGame.info.min_players, AmberGame.info.max_players + 1):
            config = {**base, "num_players": n}
            key = json.dumps(config, sort_keys=True)
            if key not in seen:
                seen.add(key)
                configs.append(config)
    return configs


SLOW_CONFIGS = slow_configs()


@pytest.mark.slow
@pytest.mark.parametrize("config", SLOW_CONFIGS, ids=[json.dumps(c, sort_keys=True) for c in SLOW_CONFIGS])
def test_the_final_positions_of_many_random_games_load_back(config):
    game = AmberGame(**config)
    start, out = time.perf_counter(), 0
    for seed in range(SLOW_GAMES):
        state = play_to_the_end(game, 50_000 + seed)
        out += not state.in_game[state.turn_player]
        assert_round_trips(game, state)
    seconds = time.perf_counter() - start
    print(
        f"{json.dumps(config, sort_keys=True)}: {SLOW_GAMES} games, {out} turn players out, {seconds:.1f} s"
    )
