"""PUCT search (agents.puct): the tree policy, per-seat backup, terminal
values, no peeking at hidden state, and batched evaluation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.az import AZAgent
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.mcts import rollout_value
from meeplezoo.agents.puct import (
    PUCTSearch,
    UniformEvaluator,
    absolute_values,
    run_searches,
)
from meeplezoo.agents.registry import make_agent
from tests.agents.helpers import observation_dict, random_positions
from tests.core.toy_game import STOP, SWAP, HighCardGame

C = 1.25


class FixedValue(UniformEvaluator):
    """Uniform prior, the same seat-relative value vector for every leaf."""

    def __init__(self, relative):
        super().__init__(len(relative))
        self.relative = np.asarray(relative, dtype=float)

    def evaluate(self, observations, masks):
        priors, _ = super().evaluate(observations, masks)
        return priors, np.tile(self.relative, (len(masks), 1))


class LinearEvaluator:
    """A fixed random linear 'network' of the observation: priors and values
    that depend on what the seat sees, and only on that."""

    def __init__(self, game, seed=0):
        rng = np.random.default_rng(seed)
        size = int(np.prod(game.observation_shape))
        self.policy = rng.normal(size=(size, game.num_actions)) / math.sqrt(size)
        self.value = rng.normal(size=(size, game.num_players)) / math.sqrt(size)

    def evaluate(self, observations, masks):
        x = np.asarray(observations, dtype=float).reshape(len(observations), -1)
        logits = np.where(masks, x @ self.policy, -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True), np.tanh(x @ self.value)


def reference_puct(game, sample, sims: int) -> tuple[np.ndarray, list[int]]:
    """Textbook PUCT, one simulation at a time, with a uniform prior and a
    zero value: root visits per action and the root action of each simulation."""
    lo, hi = game.reward_range
    nodes: dict[tuple, dict] = {}
    order: list[int] = []
    for _ in range(sims):
        state, path, edges = sample(), (), []
        while True:
            if state.done:
                value = np.asarray(state.returns(), dtype=float)
                break
            node = nodes.get(path)
            if node is None:
                nodes[path] = {"n": {}, "w": {}, "visits": 0, "sum": np.zeros(game.num_players)}
                value = np.zeros(game.num_players)
                break
            player, legal = state.current_player, [int(a) for a in state.legal_actions()]
            total = sum(node["n"].get(a, 0) for a in legal)
            parent = (node["sum"][player] / node["visits"] - lo) / (hi - lo) if node["visits"] else 0.5
            best, best_score = None, -math.inf
            for a in legal:
                n = node["n"].get(a, 0)
                q = (node["w"][a][player] / n - lo) / (hi - lo) if n else parent
                score = q + C * (1 / len(legal)) * math.sqrt(total + 1) / (1 + n)
                if score > best_score:
                    best, best_score = a, score
            edges.append((node, best))
            if not path:
                order.append(best)
            state.apply(best)
            path += (best,)
        for node, a in edges:
            node["n"][a] = node["n"].get(a, 0) + 1
            node["w"][a] = node["w"].get(a, np.zeros(game.num_players)) + value
            node["visits"] += 1
            node["sum"] = node["sum"] + value
        leaf = nodes[path] if path in nodes else None
        if leaf is not None:
            leaf["visits"] += 1
            leaf["sum"] = leaf["sum"] + value
    visits = np.zeros(game.num_actions)
    for a, n in nodes[()]["n"].items():
        visits[a] = n
    return visits, order


@pytest.mark.parametrize("players", [2, 3])
def test_uniform_prior_and_zero_value_is_textbook_puct_visit_for_visit(players):
    game = HighCardGame(num_players=players)
    state = game.new_initial_state(4)
    view = SeatView(state, state.current_player)
    sims = 60
    rng = np.random.default_rng(9)
    snapshots = []

    def sample():  # root visits (virtual ones included) as each simulation starts
        snapshots.append(search.visit_counts())
        return view.sample(rng)

    search = PUCTSearch(game, sample, sims, rng, c_puct=C, search_batch=1)
    search.run(UniformEvaluator(players))
    snapshots.append(search.visit_counts())
    steps = [np.flatnonzero(b - a) for a, b in zip(snapshots, snapshots[1:])]
    assert steps[0].size == 0 and all(step.size == 1 for step in steps[1:])
    order = [int(step[0]) for step in steps[1:]]
    rng_ref = np.random.default_rng(9)
    visits, reference_order = reference_puct(game, lambda: view.sample(rng_ref), sims)
    assert search.visit_counts().tolist() == visits.tolist()
    assert order == reference_order
    assert search.visit_counts()[[SWAP, STOP]].sum() == sims - 1  # every simulation but the root's own


def test_values_back_up_per_seat_in_each_movers_frame():
    game = HighCardGame(num_players=3)
    state = game.new_initial_state(1)
    view = SeatView(state, 0)
    rng = np.random.default_rng(0)
    # every leaf says: the seat to move there gets 1, the others 0
    search = PUCTSearch(game, lambda: view.sample(rng), 3, rng, search_batch=1).run(
        FixedValue([1.0, 0.0, 0.0])
    )
    for action in (SWAP, STOP):  # each child once; seat 1 moves there
        assert search.visit_counts()[action] == 1
        assert search.root_values()[action].tolist() == [0.0, 1.0, 0.0]
    assert search.root.value_sum == [1.0, 2.0, 0.0]  # its own evaluation (seat 0 to move) and both children
    assert absolute_values([1.0, 2.0, 3.0], 2).tolist() == [2.0, 3.0, 1.0]


def test_terminal_values_are_the_games_returns():
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(5)
    state.apply(STOP)  # seat 0 stops; seat 1's STOP ends the game
    finished = state.clone()
    finished.apply(STOP)
    rng = np.random.default_rng(2)
    # the leaf value the evaluator claims is ignored where the game has ended
    search = PUCTSearch(game, state.clone, 12, rng, search_batch=4).run(FixedValue([0.3, 0.3]))
    assert search.visit_counts()[STOP] > 0
    assert search.root_values()[STOP].tolist() == finished.returns().tolist()


@pytest.mark.parametrize("mix", [1.0, 0.25])
def test_value_mix_blends_the_games_estimate_into_leaf_values(mix):
    game = HighCardGame(num_players=3)
    state = game.new_initial_state(4)
    rng = np.random.default_rng(0)
    network = [1.0, 0.0, 0.0]  # the seat to move at every leaf gets 1
    search = PUCTSearch(game, state.clone, 3, rng, search_batch=1, value_mix=mix).run(FixedValue(network))
    for action in (SWAP, STOP):  # one visit each, seat 1 to move there
        child = state.clone()
        child.apply(action)
        expected = (1 - mix) * absolute_values(network, 1) + mix * child.evaluate()
        assert search.visit_counts()[action] == 1
        assert np.allclose(search.root_values()[action], expected)


def test_rollout_reads_the_estimate_after_random_moves_from_the_leaf():
    game = HighCardGame(num_players=3)
    differs = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        # one simulation: only the root is evaluated, with its rollout drawn first from the search's rng
        search = PUCTSearch(game, state.clone, 1, np.random.default_rng(seed), value_mix=1.0, value_rollout=2)
        search.run(FixedValue([0.0, 0.0, 0.0]))
        replayed = rollout_value(state.clone(), 2, np.random.default_rng(seed))
        assert np.allclose(search.root.value_sum, replayed)
        differs += not np.allclose(replayed, state.evaluate())
    assert differs  # the rollout moved the position on


def test_value_mix_outside_zero_to_one_is_refused():
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="value_mix must be between 0 and 1, got 1.5"):
        PUCTSearch(game, state.clone, 4, rng, value_mix=1.5)
    with pytest.raises(ValueError, match="value_mix must be between 0 and 1, got -0.1"):
        AZAgent(uniform=True, value_mix=-0.1)
    with pytest.raises(ValueError, match="value_rollout must be at least 0 moves, got -2"):
        PUCTSearch(game, state.clone, 4, rng, value_rollout=-2)


class FixedPrior(UniformEvaluator):
    """The same prior for every leaf, renormalised over its legal actions."""

    def __init__(self, prior, num_players):
        super().__init__(num_players)
        self.prior = np.asarray(prior, dtype=float)

    def evaluate(self, observations, masks):
        priors = np.where(masks, self.prior, 0.0)
        return priors / priors.sum(axis=1, keepdims=True), np.zeros((len(masks), self.num_players))


@pytest.mark.parametrize("temperature", [1.0, 2.0, 4.0])
def test_prior_temperature_flattens_the_prior_the_search_uses(temperature):
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(3)
    prior = np.zeros(game.num_actions)
    prior[[SWAP, STOP]] = [0.9, 0.1]
    search = PUCTSearch(game, state.clone, 1, np.random.default_rng(0), prior_temperature=temperature)
    search.run(FixedPrior(prior, 2))
    flat = prior ** (1 / temperature)
    assert np.allclose(search.root.prior, flat / flat.sum())


def test_a_flatter_prior_sends_visits_to_the_move_the_prior_disfavours():
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(3)
    prior = np.zeros(game.num_actions)
    prior[[SWAP, STOP]] = [0.98, 0.02]
    visits = {}
    for temperature in (1.0, 8.0):
        search = PUCTSearch(game, state.clone, 40, np.random.default_rng(0), prior_temperature=temperature)
        visits[temperature] = search.run(FixedPrior(prior, 2)).visit_counts()[STOP]
    assert visits[8.0] > visits[1.0]


def test_prior_temperature_at_or_below_zero_is_refused():
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(0)
    with pytest.raises(ValueError, match="prior_temperature must be above 0, got 0"):
        PUCTSearch(game, state.clone, 4, np.random.default_rng(0), prior_temperature=0)
    with pytest.raises(ValueError, match="prior_temperature must be above 0, got -1"):
        AZAgent(uniform=True, prior_temperature=-1)


def hidden_games():
    out = [("high_card", HighCardGame(num_players=3))]
    for name in envs.names():
        game = envs.make_game(name)
        if game.info.hidden_information and name.startswith(("gem_mountain", "princes_of_amber")):
            out.append((name, game))
    return out


@pytest.mark.parametrize("mix", [0.0, 0.5], ids=["network", "mixed_estimate"])
@pytest.mark.parametrize("name,game", hidden_games(), ids=lambda x: x if isinstance(x, str) else "")
def test_search_never_reads_what_the_seat_cannot_see(name, game, mix):
    evaluator = LinearEvaluator(game)
    for k, state in enumerate(random_positions(game, 3, seed=7, max_plies=30)):
        seat = state.current_player
        if state.legal_actions().size < 2:
            continue
        resampled = state.determinize(seat, np.random.default_rng(100 + k))  # other hidden facts
        results = []
        for position in (state, resampled):
            search = AZAgent(seed=11, sims=16, value_mix=mix, evaluator=evaluator).search(
                SeatView(position, seat)
            )
            results.append((search.best_action(seat), search.visit_counts().tolist()))
        assert results[0] == results[1]
        agent = AZAgent(seed=11, sims=16, value_mix=mix, evaluator=evaluator)
        assert agent.act(observation_dict(resampled, seat), SeatView(resampled, seat)) == results[0][0]


def test_searches_run_together_match_searches_run_alone():
    game = HighCardGame(num_players=3)
    evaluator = LinearEvaluator(game)
    states = random_positions(game, 3, seed=1, max_plies=3)

    def make(state, seed):
        view, rng = SeatView(state, state.current_player), np.random.default_rng(seed)
        return PUCTSearch(game, lambda: view.sample(rng), 30, rng, search_batch=4)

    alone = [make(s, i).run(evaluator).visit_counts().tolist() for i, s in enumerate(states)]
    together = [make(s, i) for i, s in enumerate(states)]
    run_searches(together, evaluator)
    assert [s.visit_counts().tolist() for s in together] == alone


def test_az_spec_needs_a_network_and_names_the_shipped_baselines():
    with pytest.raises(ValueError, match="az needs path="):
        AZAgent()
    with pytest.raises(ValueError, match="one of path=, baseline= or policy="):
        AZAgent(path="a.pt2", policy="b.zip")
    pytest.importorskip("torch")
    with pytest.raises(ValueError, match="no az baseline for 'no_such_game'"):
        AZAgent(baseline="no_such_game")
    with pytest.raises(ValueError, match="az network not found"):
        AZAgent(path="missing.pt2")


@pytest.mark.parametrize(
    ("old_spec", "new_spec", "attribute", "value"),
    [
        ("mix=0.5", "value_mix=0.5", "value_mix", 0.5),
        ("value_mix=0.5,rollout=3", "value_mix=0.5,value_rollout=3", "value_rollout", 3),
        ("prior_temp=2", "prior_temperature=2", "prior_temperature", 2.0),
    ],
)
def test_an_old_setting_name_still_works_and_warns_with_the_new_one(old_spec, new_spec, attribute, value):
    with pytest.warns(DeprecationWarning, match=f"is now called {attribute}="):
        old = make_agent(f"az:uniform=true,{old_spec}", seed=0)
    new = make_agent(f"az:uniform=true,{new_spec}", seed=0)
    assert getattr(old, attribute) == getattr(new, attribute) == value
    assert old.describe() == new.describe()


def test_the_old_batch_name_reaches_the_search():
    game = HighCardGame(num_players=2)
    state = game.new_initial_state(0)
    with pytest.warns(DeprecationWarning, match="batch= is now called search_batch="):
        agent = make_agent("az:uniform=true,batch=2,sims=4", seed=0)
    assert agent.search_batch == 2
    with pytest.warns(DeprecationWarning, match="search_batch="):
        search = PUCTSearch(game, state.clone, 4, np.random.default_rng(0), batch=2)
    assert search.search_batch == 2


def test_a_setting_under_both_names_or_an_unknown_one_is_refused():
    with pytest.raises(ValueError, match="mix= is the old name of value_mix="):
        AZAgent(uniform=True, value_mix=0.5, mix=0.5)
    with pytest.raises(ValueError, match="bad parameters for 'az'.*depth"):
        make_agent("az:uniform=true,depth=3")
