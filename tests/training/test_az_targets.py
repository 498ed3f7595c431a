"""Value targets of expert-iteration self-play: a game cut at ``max_moves``
scores each searched position by its own mover's estimate, which reads only
what that mover knows; ``search_value_weight`` moves each target towards the
root search's value of its position, and ``margin_value_weight`` a finished
game's result towards its squashed score margins."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.puct import UniformEvaluator, relative_values
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame
from meeplezoo.envs.amoeba.rules import AmoebaGame
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.training.az import selfplay
from meeplezoo.training.az.selfplay import Margin, margin_values, play_games, value_targets
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

    def keep_the_last_state(run, game, seconds, search_weight, margin, ownership):
        seen["state"], seen["movers"] = run.state.clone(), [sample[3] for sample in run.samples]
        return record_game(run, game, seconds, search_weight, margin, ownership)

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

    def keep_the_search_values(run, game, seconds, search_weight, margin, ownership):
        searched.extend(relative_values(sample[4], sample[3]) for sample in run.samples)
        return record_game(run, game, seconds, search_weight, margin, ownership)

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


def test_margin_values_squash_each_seats_lead_over_the_others_mean():
    state, _ = play_random_state(GemMountainGame(num_players=3), 7)
    assert state.done
    scores = np.asarray(state.scores(), dtype=np.float64)
    leads = [scores[p] - (scores.sum() - scores[p]) / 2 for p in range(3)]
    margins = margin_values(state, 10.0)
    assert np.allclose(margins, np.tanh(np.array(leads) / 10.0))
    assert np.argmax(margins) == np.argmax(scores) and (np.abs(margins) < 1).all()
    # a smaller scale calls the same lead more of a win
    assert (np.abs(margin_values(state, 2.0)) >= np.abs(margins)).all()


def test_margin_weight_moves_a_finished_games_targets_towards_its_margins():
    state, _ = play_random_state(AmoebaGame(), 3)
    assert state.done and state.scores()[0] != state.scores()[1]
    movers = [0, 1, 1]
    result = value_targets(state, movers)
    whole = value_targets(state, movers, Margin(1.0, 3.0))
    half = value_targets(state, movers, Margin(0.5, 3.0))
    for row, mover in zip(whole, movers):
        assert row.tolist() == relative_values(margin_values(state, 3.0), mover).tolist()
    assert np.allclose(half, (result + whole) / 2)
    assert not np.allclose(result, whole)


def test_margin_weight_leaves_a_cut_games_estimates_alone():
    state, _ = play_random_state(GemMountainGame(**SECRET_DARK_TUNNELS), 3, until=20)
    assert not state.done
    assert value_targets(state, [0, 1], Margin(1.0, 3.0)).tolist() == value_targets(state, [0, 1]).tolist()


def test_margin_weight_needs_a_game_that_keeps_scores():
    state, _ = play_random_state(AmethystAmberGame(), 2)
    with pytest.raises(ValueError, match="AmethystAmberState"):
        value_targets(state, [0], Margin(0.5, 1.0))
    assert value_targets(state, [0]).tolist() == [state.returns().tolist()]
