"""Expert iteration's self-play on the compiled search: the same games for
the same seeds, legal moves, and records of the reference's format.

Cost: about 5 s once the compiled search of Gem Mountain is in numba's disk
cache (tests/agents/test_compiled_puct.py compiles it too).
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.compiled.puct import CompiledPUCTSearch
from meeplezoo.agents.puct import PUCTSearch, UniformEvaluator
from meeplezoo.training.az import selfplay
from meeplezoo.training.az.selfplay import play_games
from meeplezoo.training.az.settings import az_settings

GAME = "gem_mountain_v0"
SMALL = {"sims": 6, "search_batch": 2, "max_moves": 24, "temperature_moves": 6}


class SeenObservations(UniformEvaluator):
    """A uniform prior and a value from the observation (so a search that
    read another seat's hidden view would play differently)."""

    def evaluate(self, observations, masks):
        priors, _ = super().evaluate(observations, masks)
        totals = np.asarray(observations, dtype=np.float64).reshape(len(observations), -1).sum(axis=1)
        return priors, np.tanh(np.outer(np.sin(totals), np.linspace(1, -1, self.num_players)))


def _records(backend: str, players: int = 2, seeds=(3, 4)):
    game = envs.make_game(GAME, num_players=players)
    settings = az_settings("gem_mountain", {**SMALL, "search_backend": backend})
    return play_games(game, SeenObservations(players), list(seeds), settings)


def _fields(record):
    return (record.observations, record.masks, record.policies, record.values, record.returns, record.length)


def test_the_same_seeds_play_the_same_games():
    first, second = _records("auto"), _records("auto")
    for one, other in zip(first, second):
        for ours, theirs in zip(_fields(one), _fields(other)):
            assert np.array_equal(ours, theirs)
        assert one.simulations == other.simulations


@pytest.mark.parametrize("players", [2, 5])
def test_compiled_self_play_records_what_the_reference_records(players):
    compiled, python = _records("compiled", players, seeds=(7,)), _records("python", players, seeds=(7,))
    for ours, theirs in zip(compiled, python):
        assert 0 < ours.length <= SMALL["max_moves"] and len(ours.returns) == players
        for mine, reference in zip(_fields(ours)[:4], _fields(theirs)[:4]):
            assert mine.dtype == reference.dtype and mine.shape[1:] == reference.shape[1:]
        assert np.all(ours.policies[~ours.masks] == 0) and np.allclose(ours.policies.sum(axis=1), 1.0)
        assert ours.simulations == SMALL["sims"] * len(ours.policies)


@pytest.mark.parametrize("backend,kind", [("auto", CompiledPUCTSearch), ("python", PUCTSearch)])
def test_the_search_backend_setting_picks_the_search(backend, kind, monkeypatch):
    built = []
    search = selfplay._search
    monkeypatch.setattr(
        selfplay, "_search", lambda run, settings: built.append(search(run, settings)) or built[-1]
    )
    _records(backend, seeds=(1,))
    assert built and all(type(one) is kind for one in built)


def test_an_unknown_search_backend_is_refused():
    with pytest.raises(ValueError, match="search_backend"):
        az_settings("gem_mountain", {"search_backend": "gpu"})


class CollectorWatch(UniformEvaluator):
    """Notes whether Python's cycle collector runs while a search asks."""

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self.seen: set[bool] = set()

    def evaluate(self, observations, masks):
        import gc

        self.seen.add(gc.isenabled())
        return super().evaluate(observations, masks)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_rests_while_games_are_played_and_comes_back(enabled):
    import gc

    game, watch = envs.make_game(GAME), CollectorWatch(2)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        play_games(game, watch, [1], az_settings("gem_mountain", SMALL))
        assert watch.seen == {False} and gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_workers_thread_limit_reaches_numpys_matrix_products():
    """The numpy twin's matrix products run on numpy's BLAS: a worker holds
    its threads as it holds torch's (idle BLAS threads spin and doubled
    compiled self-play's CPU time)."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import torch

    before_blas = threadpoolctl.threadpool_info()
    before_torch = torch.get_num_threads()
    try:
        selfplay.limit_threads(1)
        blas = [pool for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]
        assert blas and all(pool["num_threads"] == 1 for pool in blas)
        assert torch.get_num_threads() == 1
    finally:
        threadpoolctl.threadpool_limits(limits=before_blas)
        torch.set_num_threads(before_torch)
