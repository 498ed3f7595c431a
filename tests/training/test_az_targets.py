"""Value targets of expert-iteration self-play: a game cut at ``max_moves``
scores each searched position by its own mover's estimate, which reads only
what that mover knows; ``search_value_weight`` moves each target towards the
root search's value of its position."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.puct import UniformEvaluator, relative_values
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.training.az import selfplay
from meeplezoo.training.az.selfplay import play_games, value_targets
from meeplezoo.training.az.settings import az_settings
from tests.conformance.play import play_random_state

record_game = selfplay._record
# face-down tiles and secret start tiles: the whole-state estimate reads both
SECRET_DARK_TUNNELS = {"num_players": 3, "dark_tunnels": True, "start_tiles": "any_secret"}


def test_a_cut_games_targets_are_each_movers_own_estimate():
    game = GemMountainGame(**SECRET_DARK_TUNNELS)
    state, _ = play_random_state(game, 3, until=20)
    assert not state.done
    movers = [0, 1, 2, 1, 0]
    targets = value_targets(state, movers)
    peeks = 0
    for row, mover in zip(targets, movers):
        assert row.tolist() == relative_values(state.evaluate(viewer=mover), mover).tolist()
        for k in range(3):  # a world the mover cannot tell apart gives it the same target
            world = state.determinize(mover, np.random.default_rng(k))
            assert value_targets(world, [mover])[0].tolist() == row.tolist()
            peeks += world.evaluate()[mover] != state.evaluate()[mover]
    assert peeks > 0, "the whole-state estimate should differ between those worlds"


def test_a_finished_games_targets_are_its_returns():
    game = GemMountainGame(**SECRET_DARK_TUNNELS)
    state, _ = play_random_state(game, 4)
    assert state.done
    targets = value_targets(state, [2, 0])
    assert targets.tolist() == [relative_values(state.returns(), 2).tolist(), state.returns().tolist()]


def test_a_cut_self_play_game_records_each_seats_own_estimate():
    game = GemMountainGame(**SECRET_DARK_TUNNELS)
    settings = {**az_settings("gem_mountain", {"max_moves": 12}), "sims": 2, "search_batch": 1}
    seen = {}

    def keep_the_last_state(run, game, seconds, search_weight):
        seen["state"], seen["movers"] = run.state.clone(), [sample[3] for sample in run.samples]
        return record_game(run, game, seconds, search_weight)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(selfplay, "_record", keep_the_last_state)
        (record,) = play_games(game, UniformEvaluator(game.num_players), [5], settings)
    state = seen["state"]
    assert record.cut and record.length == 12 and not state.done
    assert record.values.tolist() == value_targets(state, seen["movers"]).astype(np.float32).tolist()
    assert record.returns == [float(state.evaluate(viewer=p)[p]) for p in range(game.num_players)]


def _self_play(weight: float):
    game = GemMountainGame(num_players=2)
    settings = {**az_settings("gem_mountain", {"search_value_weight": weight}), "sims": 8, "search_batch": 2}
    searched = []

    def keep_the_search_values(run, game, seconds, search_weight):
        searched.extend(relative_values(sample[4], sample[3]) for sample in run.samples)
        return record_game(run, game, seconds, search_weight)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(selfplay, "_record", keep_the_search_values)
        (record,) = play_games(game, UniformEvaluator(game.num_players), [11], settings)
    return record, np.array(searched, dtype=np.float32)


def test_search_value_weight_moves_targets_towards_the_root_search_value():
    final, searched = _self_play(0.0)
    whole, searched_again = _self_play(1.0)
    half, _ = _self_play(0.5)
    assert not final.cut and len(final.values) > 10
    assert np.array_equal(searched, searched_again), "the weight must not change the games played"
    assert np.array_equal(whole.policies, final.policies)
    assert np.allclose(whole.values, searched)
    assert np.allclose(half.values, (final.values + searched) / 2, atol=1e-6)
    assert not np.allclose(final.values, searched), "the search's values should differ from the result"
    # the searcher's own entry of the root value is its search's estimate, between the reward bounds
    lo, hi = GemMountainGame(num_players=2).reward_range
    assert ((searched >= lo - 1e-9) & (searched <= hi + 1e-9)).all()
