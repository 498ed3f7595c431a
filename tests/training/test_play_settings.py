"""Rewriting the search settings a network file carries."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo import envs  # noqa: E402
from meeplezoo.agents.az import AZAgent, load_network  # noqa: E402
from meeplezoo.training.az.network import AZNetwork, export_network  # noqa: E402
from meeplezoo.training.az.play_settings import main, set_play  # noqa: E402


@pytest.fixture
def network(tmp_path):
    game = envs.make_game("gem_mountain")
    play = {"sims": 5, "value_mix": 1.0, "prior_temperature": 4.0}
    return game, export_network(AZNetwork(game, hidden=8), game, tmp_path / "net.pt2", {"games": 3}, play)


def test_new_settings_reach_the_agent_and_the_weights_stay(network):
    game, path = network
    observations = np.stack([game.new_initial_state(seed).observation(0) for seed in range(3)])
    masks = np.stack([game.new_initial_state(seed).legal_action_mask() for seed in range(3)])
    before = load_network(path).evaluate(observations, masks)
    assert AZAgent(path=str(path)).search_batch == 8  # a file that names no batch: the search's default
    assert set_play(path, sims=7, value_rollout=3, search_batch=1) == {
        "sims": 7,
        "value_mix": 1.0,
        "prior_temperature": 4.0,
        "value_rollout": 3,
        "search_batch": 1,
    }
    agent = AZAgent(path=str(path))
    settings = (agent.sims, agent.value_mix, agent.value_rollout, agent.prior_temperature, agent.search_batch)
    assert settings == (7, 1.0, 3, 4.0, 1)
    assert agent.describe().endswith(
        "path=" + str(path) + ",prior_temperature=4.0,search_batch=1,sims=7,value_mix=1.0,value_rollout=3)"
    )
    assert AZAgent(path=str(path), search_batch=4).search_batch == 4  # a spec overrides the file
    after = load_network(path)
    assert after.meta["trained"] == {"games": 3}
    for old, new in zip(before, after.evaluate(observations, masks)):
        np.testing.assert_array_equal(old, new)


@pytest.mark.parametrize(
    "changes, named",
    [
        ({"sims": 0}, "sims"),
        ({"value_mix": 1.5}, "value_mix"),
        ({"value_rollout": -1}, "value_rollout"),
        ({"prior_temperature": 0.0}, "prior_temperature"),
        ({"search_batch": 0}, "search_batch"),
        ({"search_batch": 2.5}, "search_batch"),
        ({"search_batch": True}, "search_batch"),
        ({"value_mix": 0.0, "value_rollout": 5}, "value_rollout"),
        ({"depth": 3}, "depth"),
    ],
)
def test_bad_settings_are_refused_and_the_file_is_unchanged(network, changes, named):
    _, path = network
    content = path.read_bytes()
    with pytest.raises(ValueError, match=named):
        set_play(path, **changes)
    assert path.read_bytes() == content


def test_command_shows_and_sets(network, capsys):
    _, path = network
    main([str(path)])
    assert '"sims": 5' in capsys.readouterr().out
    main([str(path), "--sims", "9", "--value-rollout", "2"])
    assert '"value_rollout": 2' in capsys.readouterr().out
    assert AZAgent(path=str(path)).sims == 9
    main([str(path), "--search-batch", "1"])
    assert '"search_batch": 1' in capsys.readouterr().out
    assert AZAgent(path=str(path)).search_batch == 1
    with pytest.raises(SystemExit):
        main([str(path), "--value-mix", "2"])
    assert "value_mix" in capsys.readouterr().err


def test_old_option_and_setting_names_still_work_with_a_warning(network, capsys):
    _, path = network
    with pytest.warns(DeprecationWarning, match="--batch is now --search-batch"):
        main([str(path), "--batch", "2"])
    assert '"search_batch": 2' in capsys.readouterr().out
    with pytest.warns(DeprecationWarning, match="rollout= is now called value_rollout="):
        assert set_play(path, rollout=4)["value_rollout"] == 4


def test_a_file_that_is_not_a_network_is_refused(tmp_path):
    bogus = tmp_path / "bogus.pt2"
    bogus.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="bogus.pt2"):
        set_play(bogus, sims=3)
    assert bogus.read_bytes() == b"not a network"
