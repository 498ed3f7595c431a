"""The compiled PUCT search as the ``az`` bot and self-play run it: the
reference's visits and values (the game's estimate blended in too), per-seat
backup at 3 to 5 players, terminal returns, batched leaves, no reading of
what the searching seat cannot see, and legal play through the AEC env.

Cost: the compiled search is compiled once per kernel when numba's disk
cache is cold (about 30 s per game on two busy cores, shared with
test_compiled_search.py), then about 10 s for the whole file.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.az import AZAgent
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.compiled import puct as P
from meeplezoo.agents.compiled.puct import CompiledPUCTSearch, most_visited
from meeplezoo.agents.puct import PUCTSearch, UniformEvaluator, absolute_values, run_searches
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs.core.backends import start_state
from meeplezoo.envs.core.compiled.state import CompiledState
from tests.agents.helpers import observation_dict, random_positions
from tests.agents.test_puct import FixedValue, LinearEvaluator

GEM_MOUNTAIN = "gem_mountain_v0"
PERFECT_INFORMATION = "amethyst_amber_v0"  # no hidden facts and no chance: every sample is the position


def _pair(reference, seed: int, evaluator, sims: int = 40, **settings):
    """The reference and the compiled search of one position, run to the end."""
    seat = reference.current_player
    view, rng = SeatView(reference, seat), np.random.default_rng(seed)
    python = PUCTSearch(reference.game, lambda: view.sample(rng), sims, rng, **settings).run(evaluator)
    compiled = CompiledPUCTSearch(
        CompiledState.of(reference), seat, sims, np.random.default_rng(seed), **settings
    )
    run_searches([compiled], evaluator)
    return python, compiled


def _choices(game, count: int, seed: int):
    """``count`` positions reached by random play where the seat to move has a choice."""
    positions = random_positions(game, 4 * count, seed=seed, max_plies=40)
    return [s for s in positions if s.legal_action_mask().sum() > 1][:count]


@pytest.mark.parametrize("value_mix", [0.0, 0.5, 1.0])
def test_visits_and_values_as_the_reference_with_the_games_estimate_blended_in(value_mix):
    game = envs.make_game(PERFECT_INFORMATION)
    for k, reference in enumerate(_choices(game, 3, seed=5)):
        python, compiled = _pair(reference, k, UniformEvaluator(2), value_mix=value_mix, search_batch=4)
        assert np.array_equal(python.visit_counts(), compiled.visit_counts()), f"position {k}"
        assert np.allclose(python.root_values(), compiled.root_values(), atol=1e-12)
        assert np.allclose(python.root_value(), compiled.root_value(), atol=1e-12)
        assert python.finished == compiled.finished == 40


def test_a_rollout_reads_the_estimate_after_random_moves():
    game = envs.make_game(PERFECT_INFORMATION)
    reference = _choices(game, 1, seed=6)[0]
    values = []
    for rollout in (0, 3, 3):
        search = CompiledPUCTSearch(
            CompiledState.of(reference), reference.current_player, 24, np.random.default_rng(1),
            value_mix=1.0, value_rollout=rollout,
        )  # fmt: skip
        run_searches([search], UniformEvaluator(2))
        values.append(search.root_value())
    assert np.array_equal(values[1], values[2])  # the rollout's moves come from the search's seed
    assert not np.array_equal(values[0], values[1])  # and they move the position the estimate reads


@pytest.mark.parametrize("players", [3, 4, 5])
def test_per_seat_values_back_up_in_each_movers_frame(players):
    game = envs.make_game(GEM_MOUNTAIN, num_players=players)
    relative = np.linspace(1.0, -1.0, players)  # the mover's own value first, then clockwise
    state = _choices(game, 1, seed=players)[0]
    seat = state.current_player
    alone = CompiledPUCTSearch(CompiledState.of(state), seat, 1, np.random.default_rng(0))
    run_searches([alone], FixedValue(relative))
    assert np.array_equal(alone.root_value(), absolute_values(relative, seat))
    python, compiled = _pair(state, 0, FixedValue(relative), sims=30, search_batch=3)
    assert np.array_equal(python.visit_counts(), compiled.visit_counts())
    assert np.allclose(python.root_values(), compiled.root_values(), atol=1e-12)
    # every simulation backs up a seat-order vector of the mover's relative values: they sum alike
    assert compiled.root_value().sum() == pytest.approx(relative.sum())


def _last_choice(game, seed: int):
    """A compiled position where some legal move ends the game."""
    rng = np.random.default_rng(seed)
    state, history = start_state(game, seed), []
    while not state.done:
        history.append(state.clone())
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(legal.size)]))
    for position in reversed(history):
        legal = np.flatnonzero(position.legal_action_mask())
        endings = {int(a): _after(position, a) for a in legal}
        endings = {a: after for a, after in endings.items() if after.done}
        if legal.size > 1 and endings:
            return position, endings
    raise AssertionError("no decision ends this game")


def _after(position, action):
    after = position.clone()
    after.apply(int(action))
    return after


@pytest.mark.parametrize("name", [PERFECT_INFORMATION, GEM_MOUNTAIN])
def test_terminal_values_are_the_games_returns(name):
    game = envs.make_game(name)
    position, endings = _last_choice(game, seed=2)
    search = CompiledPUCTSearch(position, position.current_player, 60, np.random.default_rng(0))
    run_searches([search], UniformEvaluator(game.num_players))  # zero value everywhere but the end
    visits, means = search.visit_counts(), search.root_values()
    assert all(visits[action] for action in endings)
    for action, after in endings.items():
        assert np.array_equal(means[action], np.asarray(after.returns(), dtype=np.float64))


def test_a_finished_position_backs_up_its_returns_each_simulation_and_the_search_ends():
    game = envs.make_game(GEM_MOUNTAIN)
    position, endings = _last_choice(game, seed=2)
    finished = CompiledState.of(next(iter(endings.values())))
    search = CompiledPUCTSearch(finished, 0, 5, np.random.default_rng(0), search_batch=4)
    observations, _ = search.request_batch()  # no leaf waits: the walk ended the game at once
    assert len(observations) == 0 and not search.done
    run_searches([search], UniformEvaluator(game.num_players))
    assert search.done and search.finished == 5
    assert np.array_equal(search.root_value(), np.asarray(finished.returns(), dtype=np.float64))


def test_a_feed_takes_only_the_leaves_handed_out():
    game = envs.make_game(GEM_MOUNTAIN)
    state = CompiledState.of(_choices(game, 1, seed=5)[0])
    search = CompiledPUCTSearch(state, state.current_player, 20, np.random.default_rng(0), search_batch=4)
    evaluator = UniformEvaluator(game.num_players)
    search.feed(*evaluator.evaluate(*search.request_batch()))  # the root; the next four wait, not asked for
    with pytest.raises(ValueError, match="expected 0 evaluations"):
        search.feed(np.zeros((4, game.num_actions)), np.zeros((4, 2)))
    search.feed(np.zeros((0, game.num_actions)), np.zeros((0, 2)))  # nothing asked, nothing fed
    assert search.finished == 1
    observations, masks = search.request_batch()
    assert len(observations) == 4
    search.feed(*evaluator.evaluate(observations, masks))
    assert search.finished == 5


def test_a_search_on_reused_blocks_is_the_search_on_fresh_ones():
    """A bot's decisions share one set of blocks: whatever the last search
    left in them (a bigger tree, another seat, leaves never fed), the next
    search visits, values and chooses as on a new set."""
    game = envs.make_game(GEM_MOUNTAIN)
    evaluator = LinearEvaluator(game)
    positions = [CompiledState.of(state) for state in _choices(game, 4, seed=21)]
    blocks = None
    for k, state in enumerate(positions + positions[::-1]):
        seat = state.current_player
        settings = dict(search_batch=4, value_mix=0.5, value_rollout=3)
        fresh = CompiledPUCTSearch(state, seat, 24, np.random.default_rng(k), **settings)
        run_searches([fresh], evaluator)
        reused = CompiledPUCTSearch(state, seat, 24, np.random.default_rng(k), blocks=blocks, **settings)
        assert blocks is None or reused.blocks is blocks
        run_searches([reused], evaluator)
        assert np.array_equal(fresh.visit_counts(), reused.visit_counts()), f"decision {k}"
        assert np.array_equal(fresh.root_values(), reused.root_values())
        assert fresh.best_action(seat) == reused.best_action(seat)
        blocks = reused.blocks
        if k == 2:  # a search left with leaves handed out and never fed
            CompiledPUCTSearch(state, seat, 24, np.random.default_rng(9), blocks=blocks).request_batch()


def test_blocks_of_another_shape_are_not_reused():
    game = envs.make_game(GEM_MOUNTAIN)
    state = CompiledState.of(_choices(game, 1, seed=22)[0])
    first = CompiledPUCTSearch(state, state.current_player, 8, np.random.default_rng(0))
    other = CompiledPUCTSearch(state, state.current_player, 16, np.random.default_rng(0), blocks=first.blocks)
    assert other.blocks is not first.blocks


def test_the_az_bot_decides_as_with_a_new_search_each_time():
    game = envs.make_game(GEM_MOUNTAIN)
    states = _choices(game, 5, seed=23)
    reusing, fresh = (AZAgent(seed=4, sims=16, uniform=True, value_mix=0.5) for _ in range(2))
    for state in states:
        seat = state.current_player
        chosen = reusing.act(observation_dict(state, seat), SeatView(state, seat))
        fresh._blocks = None
        assert chosen == fresh.act(observation_dict(state, seat), SeatView(state, seat))
    assert reusing._blocks is not None


@pytest.mark.parametrize(
    "edges,expected",
    [
        ({3: (5, 1.0), 7: (6, 0.0)}, 7),  # the most visits, whatever the mean
        ({3: (6, 1.0), 7: (6, 4.0)}, 7),  # equal visits: the better mean for the seat
        ({3: (6, 3.0), 7: (6, 3.0)}, 3),  # equal visits and mean: the lower action
        ({7: (1, -5.0)}, 7),  # one visit beats none (the unvisited 1 and 3 count zero)
        ({}, 1),  # nothing visited: the lowest legal action
    ],
)
def test_the_chosen_move_is_the_most_visited_then_the_better_mean_then_the_lower_action(edges, expected):
    """The compiled choice, on a hand-made root (seat 1's means), as the reference's lexsort chooses."""
    links, w = np.zeros((len(edges) + 1, 6), np.int64), np.zeros((len(edges) + 1, 2))
    links[0, P.FIRST] = -1
    for node, (action, (visits, total)) in enumerate(edges.items(), start=1):
        links[node, P.EDGE_N], links[node, P.ACTION], links[node, P.FIRST] = visits, action, -1
        links[node, P.NEXT], links[0, P.FIRST] = links[0, P.FIRST], node  # pushed on the root's children
        w[node, 1] = total
    legal = np.array([1, 3, 7], np.int64)
    assert most_visited(links, w, legal, np.int64(1)) == expected
    counts = np.array([edges.get(a, (0, 0.0))[0] for a in legal])
    means = np.array([edges[a][1] / edges[a][0] if a in edges else 0.0 for a in legal])
    assert legal[np.lexsort((-means, -counts))[0]] == expected  # the reference's rule


@pytest.mark.parametrize("value_mix,value_rollout", [(0.0, 0), (0.5, 3)])
def test_resampling_what_the_seat_cannot_see_leaves_action_and_visits_unchanged(value_mix, value_rollout):
    game = envs.make_game(GEM_MOUNTAIN, num_players=3)
    evaluator = LinearEvaluator(game)
    for k, state in enumerate(_choices(game, 3, seed=9)):
        seat = state.current_player
        twin = state.determinize(seat, np.random.default_rng(40 + k))  # other hidden tiles, other dice
        results = []
        for position in (state, twin):
            agent = AZAgent(
                seed=3, sims=16, value_mix=value_mix, value_rollout=value_rollout, evaluator=evaluator
            )
            search = agent.search(SeatView(position, seat))
            assert isinstance(search, CompiledPUCTSearch)
            results.append((search.best_action(seat), search.visit_counts().tolist()))
        assert results[0] == results[1], f"position {k}"


def test_batched_leaves_get_the_priors_and_values_of_one_at_a_time():
    game = envs.make_game(GEM_MOUNTAIN)
    evaluator = LinearEvaluator(game)
    states = [CompiledState.of(s) for s in _choices(game, 2, seed=12)]

    def make(state, seed):
        return CompiledPUCTSearch(
            state, state.current_player, 24, np.random.default_rng(seed), search_batch=4
        )

    alone = []
    for i, state in enumerate(states):
        search = make(state, i)
        run_searches([search], evaluator)
        alone.append((search.visit_counts().tolist(), search.root_value().tolist()))
    together = [make(s, i) for i, s in enumerate(states)]
    run_searches(together, evaluator)  # one evaluator call per round for every search's leaves
    assert [(s.visit_counts().tolist(), s.root_value().tolist()) for s in together] == alone


def test_the_az_bot_searches_compiled_unless_told_python_and_says_so():
    game = envs.make_game(GEM_MOUNTAIN)
    state = _choices(game, 1, seed=13)[0]
    view = SeatView(state, state.current_player)
    assert isinstance(AZAgent(seed=0, sims=4, uniform=True).search(view), CompiledPUCTSearch)
    python = make_agent("az:uniform=true,sims=4,backend=python", seed=0)
    assert type(python.search(view)) is PUCTSearch and "backend=python" in python.describe()
    assert "backend" not in make_agent("az:uniform=true,sims=4", seed=0).describe()
    with pytest.raises(ValueError, match="backend must be one of"):
        make_agent("az:uniform=true,backend=gpu")


def test_backend_compiled_on_a_game_without_a_kernel_is_refused():
    from tests.core.toy_game import HighCardGame

    state = HighCardGame(num_players=2).new_initial_state(0)
    agent = AZAgent(seed=0, sims=4, uniform=True, backend="compiled")
    with pytest.raises(ValueError, match="has no compiled search; use backend=python"):
        agent.act(observation_dict(state, state.current_player), SeatView(state, state.current_player))
    assert type(AZAgent(seed=0, sims=4, uniform=True).search(SeatView(state, 0))) is PUCTSearch


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_az_plays_only_legal_moves_through_the_aec_env(players, backend):
    env = envs.make(GEM_MOUNTAIN, num_players=players)
    env.reset(seed=players)
    agents = {
        name: AZAgent(seed=i, sims=4, uniform=True, value_mix=0.5, backend=backend)
        for i, name in enumerate(env.agents)
    }
    for step, name in enumerate(env.agent_iter()):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated or step >= 40:
            break
        seat = env.game_state.current_player
        action = agents[name].act(observation, SeatView(env.game_state, seat))
        assert observation["action_mask"][action], f"illegal {action} at step {step}"
        env.step(action)


def test_a_kernel_without_its_rules_estimate_keeps_the_reference_when_the_estimate_is_blended(monkeypatch):
    from meeplezoo.agents.compiled import uct

    game = envs.make_game(GEM_MOUNTAIN)
    state = _choices(game, 1, seed=14)[0]
    view = SeatView(state, state.current_player)
    monkeypatch.setattr(uct, "scores_as_the_reference", lambda kernel: False)
    assert type(AZAgent(seed=0, sims=4, uniform=True, value_mix=0.5).search(view)) is PUCTSearch
    assert isinstance(AZAgent(seed=0, sims=4, uniform=True).search(view), CompiledPUCTSearch)
    with pytest.raises(ValueError, match="has no estimate for value_mix=0.5"):
        CompiledPUCTSearch(CompiledState.of(state), 0, 4, np.random.default_rng(0), value_mix=0.5)
