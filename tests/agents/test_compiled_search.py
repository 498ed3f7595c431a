"""The compiled ``mcts``/``ismcts`` search and the compiled PUCT tree: legal,
deterministic, blind to what the searching seat cannot see, and built on
the reference's tree rules.

Cost: one compile of the search per process when numba's disk cache is cold
(about 20-40 s on two busy cores, shared with every other test that searches
Gem Mountain), then under 10 s for the whole file.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import meeplezoo
from meeplezoo import envs
from meeplezoo.agents.base import SeatView
from meeplezoo.agents.compiled import tree as T
from meeplezoo.agents.compiled.puct import CompiledPUCTSearch
from meeplezoo.agents.compiled.uct import scores_as_the_reference, uct_search
from meeplezoo.agents.ismcts import ISMCTSAgent
from meeplezoo.agents.mcts import MCTSAgent, TreeSearch
from meeplezoo.agents.puct import PUCTSearch, UniformEvaluator, run_searches
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs.core.backends import start_state
from meeplezoo.envs.core.compiled.masks import list_legal
from meeplezoo.envs.core.compiled.state import CompiledState
from tests.agents.helpers import observation_dict, random_positions
from tests.core.toy_game import HighCardGame

GAME = "gem_mountain_v0"


def _positions(num_players: int, count: int, seed: int) -> list[CompiledState]:
    """Compiled positions reached by random play, each with a real choice to make."""
    game = envs.make_game(GAME, num_players=num_players)
    rng = np.random.default_rng(seed)
    out, game_seed = [], 0
    while len(out) < count:
        state = start_state(game, seed * 1000 + game_seed)
        game_seed += 1
        for _ in range(int(rng.integers(0, 50))):
            if state.done:
                break
            legal = np.flatnonzero(state.legal_action_mask())
            state.apply(int(legal[rng.integers(legal.size)]))
        if not state.done and state.legal_action_mask().sum() > 1:
            out.append(state)
    return out


@pytest.mark.parametrize("per_simulation", [False, True], ids=["mcts", "ismcts"])
def test_resampling_what_the_seat_cannot_see_changes_no_choice_nor_visit(per_simulation):
    differing = 0
    for k, state in enumerate(_positions(2, 6, seed=11)):
        seat = state.current_player
        twin = state.determinize(seat, np.random.default_rng(500 + k))  # other hidden tiles, other dice
        differing += not np.array_equal(twin.row, state.row)
        mask = state.legal_action_mask()
        first = uct_search(state, seat, mask, 60, 1.4, 8, per_simulation, seed=k)
        second = uct_search(twin, seat, mask, 60, 1.4, 8, per_simulation, seed=k)
        assert first[0] == second[0], f"position {k}: the choice depends on hidden state"
        assert np.array_equal(first[1], second[1]), f"position {k}: visit counts depend on hidden state"
    assert differing >= 5  # the twins really differ in what the seat cannot see


@pytest.mark.parametrize("cls", [MCTSAgent, ISMCTSAgent])
def test_agents_search_compiled_and_stay_blind_to_hidden_state(cls):
    state = _positions(2, 1, seed=12)[0]
    seat = state.current_player
    twin = state.determinize(seat, np.random.default_rng(3))
    choices = {
        cls(seed=4, sims=40, depth=6).act(observation_dict(s, seat), SeatView(s, seat)) for s in (state, twin)
    }
    assert len(choices) == 1


def test_the_same_seed_gives_the_same_search_and_the_real_state_is_untouched():
    state = _positions(3, 1, seed=13)[0]
    before = state.row.copy()
    seat, mask = state.current_player, state.legal_action_mask()
    runs = [uct_search(state, seat, mask, 80, 1.4, 10, True, seed=21) for _ in range(2)]
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])
    assert np.array_equal(state.row, before)


def test_every_simulation_visits_one_legal_root_move_and_the_choice_is_the_most_visited():
    for state in _positions(2, 4, seed=14):
        mask = state.legal_action_mask()
        action, visits = uct_search(state, state.current_player, mask, 50, 1.4, 5, False, seed=2)
        assert visits.sum() == 50
        assert not visits[~mask].any()
        assert mask[action] and visits[action] == visits.max()


def test_a_reference_state_is_searched_as_its_compiled_twin():
    compiled = _positions(2, 1, seed=15)[0]
    reference = compiled.reference()
    seat = compiled.current_player
    assert SeatView(reference, seat).compiled_state() is not None
    choices = [
        MCTSAgent(seed=9, sims=30, depth=5).act(observation_dict(s, seat), SeatView(s, seat))
        for s in (compiled, reference)
    ]
    assert choices[0] == choices[1]


@pytest.mark.parametrize("num_players", [2, 5])
@pytest.mark.parametrize(
    "spec",
    [
        "mcts:sims=12,depth=4",
        "ismcts:sims=12,depth=4",
        "mcts:sims=3,depth=2,backend=python",
        "ismcts:sims=3,depth=2,backend=python",
    ],
)
def test_every_spec_plays_only_legal_moves_through_the_aec_env(spec, num_players):
    env = meeplezoo.make(GAME, num_players=num_players)
    env.reset(seed=num_players)
    agent = make_agent(spec, seed=1)
    for name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.agent_name_mapping[name]
        action = agent.act(observation, SeatView(env.game_state, seat))
        assert observation["action_mask"][action], f"{spec} chose illegal {action}"
        env.step(action)
    assert all(env.terminations.values()) or all(env.truncations.values())


def test_backend_is_checked():
    with pytest.raises(ValueError, match="backend"):
        MCTSAgent(backend="gpu")
    state = HighCardGame(num_players=2).new_initial_state(0)
    agent = MCTSAgent(seed=0, sims=4, backend="compiled")
    with pytest.raises(ValueError, match="no compiled search"):
        agent.act(observation_dict(state, 0), SeatView(state, 0))
    assert MCTSAgent(backend="python").describe() == "mcts(backend=python,c=1.4,depth=20,sims=200)"
    assert MCTSAgent().describe() == "mcts(c=1.4,depth=20,sims=200)"


def test_a_kernel_without_the_rules_estimate_leaves_the_search_to_python():
    from dataclasses import replace

    from meeplezoo.envs.core.compiled.kernel import kernel_of
    from meeplezoo.envs.core.state import State

    kernel = kernel_of(envs.make_game(GAME))
    assert scores_as_the_reference(kernel)
    assert not scores_as_the_reference(replace(kernel, evaluate=None))  # its rules estimate unfinished games
    assert scores_as_the_reference(replace(kernel, evaluate=None, state_cls=State))  # the default: returns()


# --- the tree's rules, as the reference's -------------------------------------------


def _tree_with_children(actions, visits, totals_of_seat0):
    links, totals = T.new_tree(len(actions) + 1, 2)
    for node, (action, count, total) in enumerate(zip(actions, visits, totals_of_seat0), start=1):
        links[node, T.VISITS], links[node, T.AVAIL], links[node, T.ACTION] = count, count, action
        links[node, T.NEXT], links[T.ROOT, T.FIRST] = links[T.ROOT, T.FIRST], node
        totals[node, 0] = total
    return links, totals


def test_root_choice_takes_the_most_visits_then_the_better_mean_then_the_lower_action():
    mask = np.zeros(6, dtype=np.bool_)
    mask[[1, 3, 4, 5]] = True
    links, totals = _tree_with_children([1, 3, 4, 5], [5, 7, 7, 7], [5.0, 1.0, 3.5, 3.5])
    visits = np.zeros(6, dtype=np.int64)
    assert T.root_choice(links, totals, mask, 0, visits) == 4  # 7 visits; mean 0.5 ties 5, the lower wins
    assert list(visits) == [0, 5, 0, 7, 7, 7]


def test_selection_scores_uct_on_the_movers_share_and_counts_availability():
    mask = np.zeros(4, dtype=np.bool_)
    mask[[0, 2]] = True
    links, totals = _tree_with_children([0, 2], [4, 1], [4.0, 0.0])  # means 1.0 and 0.0 in [-1, 1]
    child_of = np.full(4, -1, dtype=np.int64)
    T.index_children(links, T.ROOT, child_of)
    legal = np.zeros(4, dtype=np.int64)
    count = list_legal(mask, legal)
    action, child = T.select(links, totals, legal, count, child_of, 0, 1.4, -1.0, 0.5)
    scores = [
        (1.0 + 1) * 0.5 + 1.4 * math.sqrt(math.log(5) / 4),
        (0.0 + 1) * 0.5 + 1.4 * math.sqrt(math.log(2) / 1),
    ]
    assert action == (0 if scores[0] > scores[1] else 2) and links[child, T.ACTION] == action
    assert list(links[1:, T.AVAIL]) == [5, 2]


def test_expansion_draws_each_untried_move_and_credits_the_tried_ones():
    mask = np.array([True, False, True, True, True])
    drawn = set()
    gen = np.random.default_rng(1)
    from meeplezoo.envs.core.compiled import pcg64

    words = pcg64.to_words(gen)
    for _ in range(40):
        links, totals = _tree_with_children([2], [3], [0.0])
        child_of = np.full(5, -1, dtype=np.int64)
        T.index_children(links, T.ROOT, child_of)
        grown = np.zeros((3, T.LINK_WIDTH), dtype=np.int64)
        grown[:2] = links
        legal = np.zeros(5, dtype=np.int64)
        count = list_legal(mask, legal)
        untried = T.count_untried(legal, count, child_of)
        action, node = T.expand(grown, T.ROOT, 2, legal, count, child_of, untried, words)
        drawn.add(int(action))
        assert grown[1, T.AVAIL] == 4 and grown[node, T.AVAIL] == 1 and grown[T.ROOT, T.FIRST] == node
    assert drawn == {0, 3, 4}


class _KeptRoot(TreeSearch):
    """The reference search, keeping its root for the test to read."""

    def _simulate(self, state, root):
        self.root = root
        super()._simulate(state, root)


@pytest.mark.slow
def test_compiled_and_reference_searches_share_their_visits_alike():
    """One algorithm, two random streams: summed over seeds, each root move's
    share of the visits agrees (about 60 s, mostly the reference)."""
    game, sims = envs.make_game(GAME), 300
    for reference in random_positions(game, 4, seed=5, max_plies=60):
        seat, mask = reference.current_player, reference.legal_action_mask()
        if mask.sum() < 2:
            continue
        compiled, reference_visits = CompiledState.of(reference), np.zeros(game.num_actions)
        compiled_visits = sum(
            uct_search(compiled, seat, mask, sims, 1.4, 20, False, seed)[1] for seed in range(4)
        )
        for seed in range(4):
            agent = MCTSAgent(seed=seed, sims=sims, backend="python")
            search = _KeptRoot(sims, 1.4, 20, agent.rng)
            search.best_action(
                agent._sampler(SeatView(reference, seat)), np.flatnonzero(mask), seat, 2, (-1, 1)
            )
            for action, child in search.root.children.items():
                reference_visits[action] += child.n
        gap = np.abs(compiled_visits / compiled_visits.sum() - reference_visits / reference_visits.sum())
        assert gap.max() < 0.1, f"visit shares differ by {gap.max():.2f}"


# --- the compiled PUCT tree -----------------------------------------------------------


class _ObservationEvaluator:
    """A fixed function of each observation: priors rising with the action
    index, values from the observation's sum (so a search that read another
    seat's hidden view would drift)."""

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    def evaluate(self, observations, masks):
        masks = np.asarray(masks, dtype=np.float64)
        priors = masks * np.arange(1, masks.shape[1] + 1)
        priors /= priors.sum(axis=1, keepdims=True)
        totals = np.asarray(observations, dtype=np.float64).reshape(len(observations), -1).sum(axis=1)
        values = np.tanh(np.outer(np.sin(totals), np.linspace(-1, 1, self.num_players)))
        return priors, values


def _puct_pair(reference, seed: int, evaluator, **settings):
    seat = reference.current_player
    view, rng = SeatView(reference, seat), np.random.default_rng(seed)
    python = PUCTSearch(reference.game, lambda: view.sample(rng), 40, rng, **settings).run(evaluator)
    compiled = CompiledPUCTSearch(
        CompiledState.of(reference), seat, 40, np.random.default_rng(seed), **settings
    )
    run_searches([compiled], evaluator)
    return python, compiled


@pytest.mark.parametrize("search_batch", [1, 8])
def test_compiled_puct_visits_as_the_reference_with_a_uniform_prior_and_zero_value(search_batch):
    game = envs.make_game(GAME)
    for k, reference in enumerate(random_positions(game, 4, seed=3, max_plies=40)):
        if reference.legal_action_mask().sum() < 2:
            continue
        python, compiled = _puct_pair(reference, k, UniformEvaluator(2), search_batch=search_batch)
        assert np.array_equal(python.visit_counts(), compiled.visit_counts()), f"position {k}"
        assert python.best_action(reference.current_player) == compiled.best_action(reference.current_player)


def test_compiled_puct_selects_by_the_prior_as_the_reference():
    game = envs.make_game(GAME)
    for k, reference in enumerate(random_positions(game, 3, seed=4, max_plies=40)):
        evaluator = _ObservationEvaluator(2)
        evaluator.evaluate = lambda obs, masks, inner=evaluator.evaluate: (
            inner(obs, masks)[0],
            np.zeros((len(obs), 2)),
        )
        python, compiled = _puct_pair(reference, k, evaluator, search_batch=4, prior_temperature=2.0)
        assert np.array_equal(python.visit_counts(), compiled.visit_counts()), f"position {k}"


def test_compiled_puct_batches_many_searches_and_never_reads_hidden_state():
    states = _positions(2, 3, seed=16)
    evaluator = _ObservationEvaluator(2)
    twins = [s.determinize(s.current_player, np.random.default_rng(7)) for s in states]
    runs = []
    for group in (states, twins):
        searches = [
            CompiledPUCTSearch(s, s.current_player, 30, np.random.default_rng(i)) for i, s in enumerate(group)
        ]
        run_searches(searches, evaluator)  # every search's leaves in one evaluator call per round
        runs.append([search.visit_counts() for search in searches])
    for state, first, second in zip(states, *runs):
        assert np.array_equal(first, second)  # the same search on a twin that hides other tiles
        assert first.sum() == 29 and not first[~state.legal_action_mask()].any()


def test_compiled_puct_noise_and_driving_errors():
    state = _positions(2, 1, seed=17)[0]
    search = CompiledPUCTSearch(
        state, state.current_player, 20, np.random.default_rng(0), dirichlet_alpha=0.3
    )
    leaves = search.requests()
    assert len(leaves) == 1 and leaves[0].observation.shape == state.game.observation_shape
    with pytest.raises(RuntimeError, match="feed"):
        search.requests()
    with pytest.raises(ValueError, match="expected 1 evaluations"):
        search.feed(np.zeros((2, state.game.num_actions)), np.zeros((2, 2)))
    search.feed(*UniformEvaluator(2).evaluate([leaf.observation for leaf in leaves], [leaves[0].mask]))
    run_searches([search], UniformEvaluator(2))
    assert search.done and search.visit_counts().sum() == 19
    assert (
        state.legal_action_mask()[search.sample_action(1.0)]
        and state.legal_action_mask()[search.best_action(0)]
    )
    with pytest.raises(ValueError, match="sims"):
        CompiledPUCTSearch(state, 0, 0, np.random.default_rng(0))


def test_gem_mountains_moves_let_the_search_walk_without_reference_counting():
    """Its whole move path is allocation-free (the earthquake shuffles in
    place), so the compiled search's descent and rollouts borrow."""
    from meeplezoo.agents.compiled.uct import moves_borrow
    from meeplezoo.envs.core.compiled.jit import JIT_DISABLED

    kernel = start_state(envs.make_game("gem_mountain_v0"), 0, backend="compiled").kernel
    bound = {name: getattr(kernel, name) for name in ("legal_mask", "apply_action", "current_player")}
    assert moves_borrow(bound) is not JIT_DISABLED
