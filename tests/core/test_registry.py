"""The explicit game registry: one list, matched by the entry modules, and a
rules-layer path that never loads PettingZoo or Gymnasium."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from meeplezoo import envs

ENVS_FOLDER = Path(envs.__file__).parent


def test_every_entry_module_is_registered_and_every_registered_game_has_one():
    entry_modules = {path.stem for path in ENVS_FOLDER.glob("*_v[0-9]*.py")}
    assert entry_modules == set(envs.GAMES)
    assert envs.names() == sorted(entry_modules)


@pytest.mark.parametrize("name", sorted(envs.GAMES))
def test_the_registered_game_class_is_the_one_the_env_wraps(name):
    entry = importlib.import_module(f"meeplezoo.envs.{name}")
    assert envs.game_class(name) is entry.raw_env.game_cls
    assert envs.game_class(envs.strip_version(name)) is entry.raw_env.game_cls
    assert envs.game_class(name).info.name == name


def test_make_game_leaves_pettingzoo_and_gymnasium_unimported():
    code = (
        "import sys, meeplezoo\n"
        "game = meeplezoo.make_game('gem_mountain')\n"
        "state = game.new_initial_state(0)\n"
        "state.apply(int(state.legal_actions()[0]))\n"
        "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("name", ["chess", "gem_mountain_v9", "princes_of_amber_v0", ""])
def test_unknown_and_retired_names_are_refused_with_the_known_ones(name):
    with pytest.raises(ValueError, match="known games|replaced by"):
        envs.make_game(name)


@pytest.mark.parametrize("name", envs.names())
def test_player_bounds_are_declared_once_by_the_num_players_option(name):
    game_class = envs.game_class(name)
    option = game_class.options["num_players"]
    info = game_class.info
    assert (info.min_players, info.max_players, info.default_players) == (
        option.low,
        option.high,
        option.default,
    )
    assert info.players is option


def test_game_info_refuses_bounds_that_differ_from_its_option():
    from meeplezoo.envs.core.options import integer
    from meeplezoo.envs.core.state import GameInfo

    seats = integer(2, 2, 4, "seats")
    info = GameInfo(name="g_v0", title="G", hidden_information=False, chance=False, players=seats)
    assert (info.min_players, info.max_players, info.default_players) == (2, 4, 2)
    with pytest.raises(ValueError, match=r"player bounds \(2, 5, 2\) differ"):
        GameInfo(
            name="g_v0", title="G", hidden_information=False, chance=False, players=seats,
            min_players=2, max_players=5, default_players=2,
        )  # fmt: skip
    with pytest.raises(ValueError, match="declare players"):
        GameInfo(name="g_v0", title="G", hidden_information=False, chance=False)


def test_a_misspelt_game_suggests_the_nearest_name():
    with pytest.raises(ValueError, match=r"unknown game 'gem_mountian' \(did you mean 'gem_mountain'\?\)"):
        envs.make_game("gem_mountian")
