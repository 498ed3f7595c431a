"""The az baselines shipped with the package: they load, fit their game and
play legal moves; without torch an az agent names the extra to install."""

from __future__ import annotations

import warnings
from importlib.resources import files

import pytest

from meeplezoo import envs
from meeplezoo.agents.az import baseline_table, load_network, shipped_baselines
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.registry import make_agent
from tests.agents.helpers import observation_dict, random_positions

SHIPPED = shipped_baselines()


def test_at_least_one_baseline_ships():
    assert SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_baseline_is_small_fits_its_game_and_plays_legal_moves(name):
    pytest.importorskip("torch")
    path = files("meeplezoo.agents") / "baselines" / f"{name}.pt2"
    assert path.stat().st_size <= 2 * 1024 * 1024
    family, players = baseline_table(name)
    game = envs.make_game(family, **({"num_players": players} if players else {}))
    agent = make_agent(f"az:baseline={name},sims=4", seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for state in random_positions(game, 5, seed=2, max_plies=40):
            seat = state.current_player
            action = agent.act(observation_dict(state, seat), SeatView(state, seat))
            assert state.legal_action_mask()[action]
    trained_on = load_network(path).meta["game"]
    older = [w for w in caught if "an earlier version" in str(w.message)]
    assert bool(older) == (trained_on != game.info.name), trained_on


def test_baseline_names_carry_the_table_size():
    assert baseline_table("gem_mountain") == ("gem_mountain", None)
    assert baseline_table("gem_mountain_v0") == ("gem_mountain", None)
    assert baseline_table("gem_mountain_4p") == ("gem_mountain", 4)
    assert baseline_table("gem_mountain_v0_5p") == ("gem_mountain", 5)


def test_a_baseline_at_another_table_size_names_the_one_to_use():
    pytest.importorskip("torch")
    game = envs.make_game("princes_of_amber", num_players=4)
    state = game.new_initial_state(0)
    seat = state.current_player
    agent = make_agent("az:baseline=princes_of_amber,sims=4", seed=0)
    with pytest.raises(
        ValueError, match=r"not princes_of_amber_v\d with 4 players.*baseline=princes_of_amber_4p"
    ):
        agent.act(observation_dict(state, seat), SeatView(state, seat))


@pytest.mark.parametrize("missing", ["torch", "threadpoolctl"])
def test_az_without_its_libraries_names_the_train_extra(monkeypatch, missing):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a)
    )
    with pytest.raises(ValueError, match=rf"need {missing}: pip install 'meeplezoo\[train\]'"):
        make_agent("az:baseline=princes_of_amber")


@pytest.mark.parametrize("name", SHIPPED)
def test_baseline_names_no_source_file_of_the_machine_that_exported_it(name):
    import re
    import zipfile

    path = files("meeplezoo.agents") / "baselines" / f"{name}.pt2"
    with zipfile.ZipFile(str(path)) as archive:
        for entry in archive.infolist():
            found = re.search(rb'"/[^"]*\.py', archive.read(entry))
            assert found is None, f"{entry.filename} names {found.group()[1:]!r}"
