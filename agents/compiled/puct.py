"""A PUCT tree in compiled code, its leaves evaluated in batches by Python.

The search of :class:`meeplezoo.agents.puct.PUCTSearch` with the tree in
numba: selection by PUCT with the reference's first-play value,
tie-breaking and virtual loss, expansion of one node per simulation, backup
of per-seat value vectors. With ``value_mix`` above 0 a leaf's value blends
the network's with the game's estimate, read by the kernel's ``evaluate``
after ``value_rollout`` random moves (the rollout of
:mod:`meeplezoo.agents.compiled.uct`), as the reference blends them.
Each simulation starts from the searching seat's view: the kernel's
``determinize`` in hidden-information games, the position itself
otherwise, with the generator reseeded from the search's own words in games
with chance (so the random stream differs from the reference's; the search
is deterministic for a given ``rng``).

:class:`CompiledPUCTSearch` has the reference's driving interface
(``requests``/``feed``/``done``, ``visit_counts``, ``best_action``,
``sample_action``), so :func:`meeplezoo.agents.puct.run_searches` batches
its leaves with those of other searches, the games of a self-play worker,
into one network call. The prior's Dirichlet noise and temperature are
drawn in Python from ``rng``, as the reference draws them.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from meeplezoo.agents.compiled import tree as T
from meeplezoo.agents.compiled import uct
from meeplezoo.agents.compiled.puct_blocks import (
    ACTION,
    BATCH,
    EDGE_N,
    FINISHED,
    FIRST,
    GEN_AT,
    HAS_PRIOR,
    HEADER,
    LEAF_LENGTH,
    LEAF_NODE,
    LEAF_PLAYER,
    NEXT,
    NONE,
    PENDING,
    SEAT,
    SIMS,
    SIZE,
    STARTED,
    VISITS,
    SearchBlocks,
    carve,
)
from meeplezoo.agents.puct import check_evaluations
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing
from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.core.compiled.masks import copy_mask, list_legal
from meeplezoo.envs.core.compiled.specialise import specialise

MIX = uct.RESEED + 1  # the settings of uct.search_settings, then the weight of the game's estimate

# Placeholders: each kernel's copy of the templates binds these names (see specialise.py).
legal_mask = apply_action = returns = current_player = observe = sample = descend = rollout = collect = None


@njit_borrowing
def select(links, w, value_sum, prior, node, legal, count, child_of, player, c_puct, low, scale):
    """The legal action (the first ``count`` of ``legal``, in action order) of
    the highest PUCT score, the first on ties; the prior renormalised over
    the actions legal in this sample (the reference's ``_select``)."""
    total_prior, total_visits = 0.0, 0
    for k in range(count):
        action = legal[k]
        total_prior += prior[node, action]
        if child_of[action] >= 0:
            total_visits += links[child_of[action], EDGE_N]
    visits = links[node, VISITS]
    fpu = (value_sum[node, player] / visits - low) * scale if visits else 0.5
    explore = math.sqrt(total_visits + 1)
    best, best_score = NONE, -math.inf
    for k in range(count):
        action = legal[k]
        p = prior[node, action] / total_prior if total_prior > 0 else 1.0 / count
        child = child_of[action]
        if child < 0 or links[child, EDGE_N] == 0:
            score = fpu + c_puct * p * explore
        else:
            edge = links[child, EDGE_N]
            score = (w[child, player] / edge - low) * scale + c_puct * p * explore / (1 + edge)
        if score > best_score:
            best, best_score = action, score
    return best


@njit_borrowing
def child_for(links, node, action, size):
    """The child of ``node`` by ``action``, made (node ``size``) if new; returns (child, new size)."""
    child = links[node, FIRST]
    while child >= 0:
        if links[child, ACTION] == action:
            return child, size
        child = links[child, NEXT]
    links[size, EDGE_N], links[size, VISITS], links[size, HAS_PRIOR] = 0, 0, 0
    links[size, FIRST], links[size, ACTION] = NONE, action
    links[size, NEXT] = links[node, FIRST]
    links[node, FIRST] = size
    return size, size + 1


@njit_borrowing
def backup(links, w, value_sum, path, players, length, leaf, values, low):
    """Every edge of the path adds the value vector and drops its virtual
    loss; every node counts a real visit and adds the value (the reference's ``_backup``)."""
    parent = T.ROOT
    for step in range(length):
        child, player = path[step], players[step]
        for seat in range(values.shape[0]):
            w[child, seat] += values[seat]
            value_sum[parent, seat] += values[seat]
        w[child, player] -= low
        links[parent, VISITS] += 1
        parent = child
    for seat in range(values.shape[0]):
        value_sum[leaf, seat] += values[seat]
    links[leaf, VISITS] += 1


@njit
def store_priors(links, prior_rows, info, priors):
    """Each waiting leaf's prior becomes its node's (the first leaf to reach
    a node gives it), as the reference's ``feed`` does at temperature 1."""
    for k in range(priors.shape[0]):
        node = info[k, LEAF_NODE]
        if links[node, HAS_PRIOR]:
            continue
        for action in range(priors.shape[1]):
            prior_rows[node, action] = priors[k, action]
        links[node, HAS_PRIOR] = 1


@njit
def backup_all(tree, leaves, relative, low, mix):
    """Back up every waiting leaf, its values turned from the mover's
    relative order (itself first) into seat order and, with ``mix`` above
    0, blended with the leaf's estimate as the reference blends them."""
    links, w, value_sum = tree[0], tree[1], tree[2]
    paths, players, info, estimates = leaves[0], leaves[1], leaves[2], leaves[5]
    num_players = relative.shape[1]
    values = np.zeros(num_players)
    for k in range(relative.shape[0]):
        mover = info[k, LEAF_PLAYER]
        for j in range(num_players):
            values[(mover + j) % num_players] = relative[k, j]
        if mix > 0:
            for seat in range(num_players):
                values[seat] = (1.0 - mix) * values[seat] + mix * estimates[k, seat]
        backup(
            links, w, value_sum, paths[k], players[k], info[k, LEAF_LENGTH], info[k, LEAF_NODE], values, low
        )


@njit
def most_visited(links, w, legal, seat):
    """The ``legal`` root action (in action order) of the most visits, ties
    to the better mean for ``seat``, then to the lower action."""
    child_of = np.full(legal[-1] + 1, NONE)
    child = links[T.ROOT, FIRST]
    while child >= 0:
        if links[child, ACTION] < child_of.shape[0]:
            child_of[links[child, ACTION]] = child
        child = links[child, NEXT]
    best, best_visits, best_mean = NONE, -1, -math.inf
    for action in legal:
        child, visits, mean = child_of[action], 0, 0.0
        if child >= 0 and links[child, EDGE_N]:
            visits = links[child, EDGE_N]
            mean = w[child, seat] / visits
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best, best_visits, best_mean = action, visits, mean
    return best


def _descend(state, game, tree, settings, searcher, buffers, leaves, slot, counters):
    """One walk from the root: a finished game is backed up at once (False);
    else the first node without a prior becomes waiting leaf ``slot`` (True),
    with the game's estimate of it when the settings mix one in."""
    links, w, value_sum, prior = tree
    mask, child_of, values, legal = buffers
    paths, players, info, observations, masks, estimates = leaves
    node, length = T.ROOT, 0
    while True:
        if current_player(state) < 0:
            returns(state, game, values)
            backup(links, w, value_sum, paths[slot], players[slot], length, node, values, settings[uct.LOW])
            counters[FINISHED] += 1
            return False
        player = current_player(state)
        legal_mask(state, game, mask)
        if links[node, HAS_PRIOR] == 0:
            observe(state, game, player, observations[slot])
            copy_mask(mask, masks[slot])
            info[slot, LEAF_NODE], info[slot, LEAF_PLAYER], info[slot, LEAF_LENGTH] = node, player, length
            if settings[MIX] > 0:  # the leaf's observation and mask are copied: the rollout may move on
                rollout(state, game, np.int64(settings[uct.DEPTH]), searcher, mask, estimates[slot])
            return True
        T.index_children(links, node, child_of)
        c_puct, low, scale = settings[uct.C], settings[uct.LOW], settings[uct.SCALE]
        count = list_legal(mask, legal)
        action = select(links, w, value_sum, prior, node, legal, count, child_of, player, c_puct, low, scale)
        T.clear_children(links, node, child_of)
        child, size = child_for(links, node, action, counters[SIZE])
        counters[SIZE] = size
        links[child, EDGE_N] += 1  # virtual visit, made real by the backup
        w[child, player] += settings[uct.LOW]  # virtual loss for the mover
        paths[slot, length], players[slot, length] = child, player
        length += 1
        apply_action(state, game, action)
        node = child


def _collect(
    root, game, seat, sims, limit, settings, gen_at, searcher, tree, work, buffers, leaves, counters
):
    """Start simulations until ``limit`` leaves wait (the reference's ``requests``)."""
    reseed = settings[uct.RESEED] != 0.0
    while counters[PENDING] < limit and counters[STARTED] < sims:
        counters[STARTED] += 1
        sample(root, root, game, seat, True, reseed, gen_at, searcher, work)
        waiting = descend(work, game, tree, settings, searcher, buffers, leaves, counters[PENDING], counters)
        if waiting:
            counters[PENDING] += 1
        elif tree[0][T.ROOT, HAS_PRIOR] == 0:
            break


def _round(root, game, settings, searcher, work, ints, floats, observations, bools, priors, relative):
    """One call per round: the waiting leaves' evaluations (``priors``
    rows stored where a node has none yet; none when Python stored them),
    backed up, then the next leaves collected. Returns how many wait."""
    tree, buffers, leaves = carve(ints, floats, observations, bools)
    counters = ints[:HEADER]
    if counters[PENDING]:
        store_priors(tree[0], tree[3], leaves[2], priors)
        backup_all(tree, leaves, relative, settings[uct.LOW], settings[MIX])
        counters[FINISHED] += counters[PENDING]
        counters[PENDING] = 0
    limit = ints[BATCH] if tree[0][T.ROOT, HAS_PRIOR] else 1
    seat, sims, gen_at = ints[SEAT], ints[SIMS], ints[GEN_AT]
    collect(root, game, seat, sims, limit, settings, gen_at, searcher, tree, work, buffers, leaves, counters)
    return counters[PENDING]


@cache
def compiled_round(kernel: Kernel) -> Any:
    """The compiled round over ``kernel`` (compiled once per kernel)."""
    tag = kernel.cache_tag
    names = ("legal_mask", "apply_action", "returns", "current_player", "observe")
    bound = uct.bind_rollouts(kernel, {name: getattr(kernel, name) for name in names})
    bound["descend"] = specialise(_descend, tag, bound)
    bound["collect"] = specialise(_collect, tag, bound)
    return specialise(_round, tag, bound)


class _Leaf:
    """A waiting leaf as :func:`~meeplezoo.agents.puct.run_searches` reads it."""

    __slots__ = ("observation", "mask")

    def __init__(self, observation: np.ndarray, mask: np.ndarray) -> None:
        self.observation, self.mask = observation, mask


class CompiledPUCTSearch:
    """One decision's PUCT search of ``state`` (a CompiledState) for ``seat``.

    Settings as :class:`~meeplezoo.agents.puct.PUCTSearch`: ``sims`` counts
    simulations, the root's own evaluation included; ``dirichlet_alpha``
    mixes noise into the root prior (self-play; None in evaluation);
    ``value_mix`` weighs the game's estimate, read ``value_rollout`` random
    moves past a leaf, in its value; ``prior_temperature`` flattens every
    prior. ``rng`` seeds the search's words and draws the noise and sampled
    moves. A kernel that does not score positions as its rules do
    (:func:`~meeplezoo.agents.compiled.uct.scores_as_the_reference`) would
    blend another estimate: with ``value_mix`` above 0 it is a ValueError.
    ``blocks``: the :class:`SearchBlocks` of an earlier search its caller
    is done with, reset and reused where they fit (a bot's decisions).

    Each round is one compiled call (:func:`compiled_round`): ``feed``
    backs the evaluations up and collects the next leaves at once, so
    ``request_batch`` only hands them out."""

    def __init__(
        self, state, seat: int, sims: int, rng: np.random.Generator, c_puct: float = 1.25,
        search_batch: int = 8, dirichlet_alpha: float | None = None, dirichlet_weight: float = 0.25,
        prior_temperature: float = 1.0, value_mix: float = 0.0, value_rollout: int = 0,
        blocks: SearchBlocks | None = None,
    ) -> None:  # fmt: skip
        from meeplezoo.agents.puct import check_search_settings

        check_search_settings(sims, value_mix, value_rollout, prior_temperature, search_batch)
        kernel = state.kernel
        if value_mix and not uct.scores_as_the_reference(kernel):
            raise ValueError(f"{state.game.info.name}'s kernel has no estimate for value_mix={value_mix!r}")
        game = self.game = state.game
        self.rng, self.seat, self.sims, self.search_batch = rng, int(seat), int(sims), int(search_batch)
        self.dirichlet_alpha, self.dirichlet_weight = dirichlet_alpha, float(dirichlet_weight)
        self.prior_power = 1.0 / float(prior_temperature)
        self._round = compiled_round(kernel)
        settings = np.empty(MIX + 1)
        settings[:MIX] = uct.search_settings(game, c_puct, int(value_rollout), True)
        gen_at = uct.generator_offset(kernel)
        settings[uct.RESEED], settings[MIX] = float(game.info.chance and gen_at >= 0), value_mix
        searcher = pcg64.seeded_words(int(rng.integers(2**63 - 1)))
        blocks = self.blocks = self._blocks_for(blocks, state.row, max(gen_at, 0))
        self._round_arrays = (
            blocks.root, kernel.game_row(game), settings, searcher, blocks.work, blocks.ints, blocks.floats,
            blocks.observations, blocks.bools,
        )  # fmt: skip
        self._ints, self._links, self._w = blocks.ints, blocks.links, blocks.w
        self._value_sum, self._prior = blocks.value_sum, blocks.prior
        self._info, self._masks = blocks.info, blocks.masks
        self._handed_out = False
        self.root_legal: np.ndarray | None = None

    def _blocks_for(self, blocks: SearchBlocks | None, row: np.ndarray, gen_at: int) -> SearchBlocks:
        """``blocks`` reset for this search where they fit it, else a new set."""
        shape = SearchBlocks.shape_of(self.game, self.sims, self.search_batch, row.shape[0])
        if blocks is None or blocks.shape != shape:
            blocks = SearchBlocks(self.game, self.sims, self.search_batch, row.shape[0])
        blocks.reset(row, self.seat, gen_at)
        return blocks

    def _play_round(self, priors: np.ndarray, relative: np.ndarray) -> int:
        return self._round(*self._round_arrays, priors, relative)

    @property
    def done(self) -> bool:
        return self._ints[FINISHED] >= self.sims

    @property
    def finished(self) -> int:
        """Simulations backed up so far (the reference's ``finished``)."""
        return int(self._ints[FINISHED])

    def requests(self) -> list[_Leaf]:
        """Start simulations until ``search_batch`` leaves wait (only the
        root's, first); simulations that end the game are backed up at once."""
        return [_Leaf(observation, mask) for observation, mask in zip(*self.request_batch())]

    def request_batch(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`requests` as the evaluator takes them: the waiting leaves'
        observations and masks, stacked (views of the search's buffers, valid
        until :meth:`feed`)."""
        if self._handed_out:
            raise RuntimeError("feed the pending leaves before asking for more")
        pending = self._ints[PENDING]
        if pending == 0 and not self.done:  # the first round, or one whose walks all ended the game
            pending = self._play_round(self.blocks.no_priors, self.blocks.no_values)
        self._handed_out = pending > 0
        return self.blocks.observation_batch[:pending], self._masks[:pending]

    def feed(self, priors: np.ndarray, values: np.ndarray) -> None:
        """The evaluations of the waiting leaves, in order: priors over
        actions and values in each leaf's seat-relative order. The next
        leaves are collected in the same compiled call."""
        pending = (
            int(self._ints[PENDING]) if self._handed_out else 0
        )  # leaves collected, not yet asked for: none
        check_evaluations(priors, values, pending)
        if not pending:
            return
        relative = np.ascontiguousarray(values, dtype=np.float64)
        if self._links[T.ROOT, HAS_PRIOR] and self.prior_power == 1.0:  # no noise, no temperature
            rows = np.ascontiguousarray(priors, dtype=np.float64).reshape(pending, -1)
        else:
            self._store_priors_one_by_one(priors, pending)
            rows = self.blocks.no_priors
        self._handed_out = False
        self._play_round(rows, relative)

    def run_rest(self, evaluator) -> bool:
        """The rest of the search's rounds, its leaves alone in each
        evaluator call (a bot's decision), once the root's prior is stored
        (its noise, its legal actions: :meth:`feed`) at temperature 1: each
        round is then the evaluator's call and one compiled call, without the
        hand-out bookkeeping that leaves batched with other searches' need
        (a round's Python was a sixth of a decision's time outside the
        network). False, having done nothing, before that."""
        if not self._links[T.ROOT, HAS_PRIOR] or self.prior_power != 1.0 or self._handed_out:
            return False
        play, arrays, ints, sims = self._round, self._round_arrays, self._ints, self.sims
        observations, masks, blocks = self.blocks.observation_batch, self._masks, self.blocks
        pending = int(ints[PENDING])
        while pending or ints[FINISHED] < sims:
            if not pending:  # a round whose walks all ended the game: collect again
                pending = play(*arrays, blocks.no_priors, blocks.no_values)
                continue
            priors, values = evaluator.evaluate(observations[:pending], masks[:pending])
            check_evaluations(priors, values, pending)
            priors = np.ascontiguousarray(priors, dtype=np.float64)
            pending = play(*arrays, priors, np.ascontiguousarray(values, dtype=np.float64))
        return True

    def _store_priors_one_by_one(self, priors: np.ndarray, pending: int) -> None:
        """The root's prior (with its noise) or priors at a temperature, in Python."""
        links, info = self._links, self._info
        for k in range(pending):
            node = int(info[k, LEAF_NODE])
            if not links[node, HAS_PRIOR]:
                if node == T.ROOT:
                    self.root_legal = np.flatnonzero(self._masks[k])
                self._prior[node] = self._prior_of(np.asarray(priors[k], dtype=np.float64), node == T.ROOT)
                links[node, HAS_PRIOR] = 1

    def _prior_of(self, prior: np.ndarray, at_root: bool) -> np.ndarray:
        """The prior flattened by the temperature, with the root's noise."""
        if self.prior_power != 1.0:
            powered = prior**self.prior_power
            prior = powered / powered.sum() if powered.sum() > 0 else prior
        legal = self.root_legal
        if at_root and self.dirichlet_alpha is not None and legal is not None and legal.size >= 2:
            prior = np.array(prior)
            noise = self.rng.dirichlet(np.full(legal.size, float(self.dirichlet_alpha)))
            prior[legal] = (1 - self.dirichlet_weight) * prior[legal] + self.dirichlet_weight * noise
        return prior

    def visit_counts(self) -> np.ndarray:
        """Visits per action at the root (length ``num_actions``)."""
        counts, links = np.zeros(self.game.num_actions), self._links
        child = links[T.ROOT, FIRST]
        while child >= 0:
            counts[links[child, ACTION]] = links[child, EDGE_N]
            child = links[child, NEXT]
        return counts

    def root_values(self) -> np.ndarray:
        """Mean value vector per root action (zeros where unvisited)."""
        links, w = self._links, self._w
        means = np.zeros((self.game.num_actions, self.game.num_players))
        child = links[T.ROOT, FIRST]
        while child >= 0:
            if links[child, EDGE_N]:
                means[links[child, ACTION]] = w[child] / links[child, EDGE_N]
            child = links[child, NEXT]
        return means

    def root_value(self) -> np.ndarray:
        """The mean value vector of every simulation so far, in seat order:
        the search's own estimate of the root position."""
        visits = self._links[T.ROOT, VISITS]
        return self._value_sum[T.ROOT] / visits if visits else np.zeros(self.game.num_players)

    def best_action(self, seat: int) -> int:
        """The most visited root action (ties: the better mean for ``seat``, then the lower action)."""
        return int(most_visited(self._links, self._w, self.root_legal, np.int64(seat)))

    def sample_action(self, temperature: float) -> int:
        """An action drawn with probability proportional to visits^(1/T)."""
        legal, visits = self.root_legal, self.visit_counts()[self.root_legal]
        if temperature <= 0 or visits.sum() == 0:
            return int(legal[int(np.argmax(visits))])
        weights = visits ** (1.0 / temperature)
        return int(legal[int(self.rng.choice(legal.size, p=weights / weights.sum()))])
