"""The public State and Game methods call the game's hooks in plain sight:
``evaluate`` -> ``_evaluate``, ``to_dict`` -> ``_to_dict``,
``state_from_dict`` -> ``_state_from_dict``; ``clone`` is generated where the
class says so. A position with a key no game writes is refused by name."""

import warnings

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.fields import generated_clone, generator_field, saved
from tests.core.toy_game import HighCardGame, HighCardState


def _typo(key: str) -> str:
    return key[:-1] if len(key) > 3 else key + "x"


@pytest.mark.parametrize("name", envs.names())
def test_an_unknown_position_key_is_refused_naming_it_and_the_nearest_known_key(name):
    game = envs.make_game(name)
    data = game.new_initial_state(3).to_dict()
    key = max((k for k in data if k != "config_digest"), key=len)
    data[_typo(key)] = data[key]
    with pytest.raises(ValueError, match=rf"unknown key '{_typo(key)}'; did you mean '{key}'\?"):
        game.state_from_dict(data)


def test_the_seat_to_move_misspelled_is_refused_not_ignored():
    game = envs.make_game("gold_rush_gangs")
    data = game.new_initial_state(0).to_dict()
    data["cur"] = data.pop("current")
    with pytest.raises(ValueError, match="unknown key 'cur'; did you mean 'current'"):
        game.state_from_dict(data)


def test_every_written_key_loads_back():
    game = HighCardGame(num_players=3)
    data = game.new_initial_state(5).to_dict()
    assert game.state_from_dict(data).to_dict() == data


def test_to_dict_is_the_games_entries_and_the_config_digest():
    state = HighCardGame(num_players=2).new_initial_state(1)
    assert state.to_dict() == {**state._to_dict(), "config_digest": state.game.config_digest}
    assert "config_digest" not in state._to_dict()


def test_evaluate_checks_the_viewer_then_asks_the_games_estimate():
    state = HighCardGame(num_players=3).new_initial_state(0)
    assert state.evaluate(np.int64(1)).tolist() == state._evaluate(1).tolist()
    with pytest.raises(ValueError, match="viewer 3 is not a seat"):
        state.evaluate(3)


def test_an_old_style_evaluate_override_still_works_with_a_warning_naming_the_hook():
    with pytest.warns(DeprecationWarning, match=r"override _evaluate\(\) instead"):

        class OldStyle(HighCardState):
            def evaluate(self, viewer=None):
                return np.full(self.game.num_players, 0.5 if viewer is None else float(viewer))

    state = OldStyle(HighCardGame(num_players=2), np.random.default_rng(0))
    assert state.evaluate(np.int64(1)).tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="viewer must be a seat"):
        state.evaluate(True)


class _Pair:  # any class that declares fields (a State's abstract methods aside)
    fields = (saved("values", "list"), saved("count"), generator_field())
    clone = generated_clone()


def test_a_generated_clone_is_a_plain_function_copying_every_field():
    clone = _Pair.__dict__["clone"]
    assert callable(clone) and clone.__qualname__ == "_Pair.clone"
    original = _Pair.__new__(_Pair)
    original.game, original.values, original.count, original.rng = None, [1, 2], 3, np.random.default_rng(4)
    copy = original.clone()
    copy.values.append(9)
    assert type(copy) is _Pair and original.values == [1, 2] and copy.count == 3
    assert copy.rng.integers(1000) == original.rng.integers(1000)


def test_no_game_takes_the_old_paths():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in ("amethyst_amber", "amoeba", "gem_mountain", "gold_rush_gangs", "princes_of_amber"):
            game_class = envs.game_class(name)
            assert "_state_from_dict" in game_class.__dict__
            state_class = type(game_class().new_initial_state(0))
            assert "clone" in state_class.__dict__ and not hasattr(state_class.to_dict, "adds_digest")
