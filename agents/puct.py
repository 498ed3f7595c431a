"""PUCT search guided by a prior over actions and a value per seat (AlphaZero-style).

The tree is open-loop, as in :mod:`meeplezoo.agents.mcts`: a node is the
sequence of actions that led to it, and every simulation replays them on its
own root sample. In hidden-information games each simulation starts from a
fresh determinization of the searching seat's information set
(:meth:`~meeplezoo.agents.base.SeatView.sample`), never the true state; chance
comes from the sample's own freshly seeded generator.

Values are vectors, one entry per seat (like ``State.returns()``); every node
keeps every seat's total and the seat to move picks by its own entry (max^n).
An evaluator maps a batch of (observation, mask) pairs of the seat to move to
priors over actions and values in that seat's relative order (itself first,
then clockwise), so one network serves every seat.

Leaves are evaluated in batches: a search keeps up to ``search_batch`` simulations
in flight, each marking its path with a virtual loss so the next one takes
another path, and :func:`run_searches` evaluates the leaves of several
searches (several games in self-play) in one call of the evaluator.

``value_mix`` blends the network's value at a leaf with the game's own
estimate of that position (``State.evaluate()`` on the search's sample), as
AlphaGo blended its value network with rollouts: a young network's value is
noise, and the estimate gives the search a signal from the first game. At 0
(the default) the search is pure AlphaZero. With ``value_rollout`` moves the
estimate is read after that many random moves from the leaf (AlphaGo's fast
rollouts, here random: the mcts bot's own capped rollout); 0 reads it at
the leaf itself.

Where the game has a compiled kernel, :func:`seat_search` builds the same
search with its tree and the game in compiled code
(:mod:`meeplezoo.agents.compiled.puct`); ``backend="python"`` keeps this
reference. The two differ only in their random streams.

``prior_temperature`` flattens the network's prior before the search uses
it (prior ** (1 / T), renormalised), as Leela Chess Zero's policy softmax
temperature does: a network trained on a few hundred games is confidently
wrong in some positions, and a prior near zero keeps the search off a move
however good it would prove. 1 (the default) uses the prior as it is; a
large T tends to the uniform prior.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from meeplezoo.agents.mcts import rollout_value

DEFAULT_C_PUCT = 1.25  # exploration weight, on values scaled to [0, 1] by the reward range
DEFAULT_SEARCH_BATCH = 8

# One name per search setting, the same in az specs, network files, az
# training settings and PUCTSearch. The old names of az specs and network
# files still work for one version (a DeprecationWarning names the new one).
SEARCH_SETTINGS = ("sims", "value_mix", "value_rollout", "prior_temperature", "search_batch")
RENAMED_SETTINGS = {
    "mix": "value_mix",
    "rollout": "value_rollout",
    "prior_temp": "prior_temperature",
    "batch": "search_batch",
}


def renamed_settings(settings: dict, owner: str, warn: bool = True) -> dict:
    """``settings`` with each old name (:data:`RENAMED_SETTINGS`) replaced by
    its new one, with a DeprecationWarning naming it unless ``warn`` is off
    (a file written before the rename: nobody typed the old name). A setting
    given under both names is a ValueError."""
    renamed = {}
    for key, value in settings.items():
        new = RENAMED_SETTINGS.get(key)
        if new is None:
            renamed[key] = value
            continue
        if new in settings:
            raise ValueError(f"{owner}: {key}= is the old name of {new}=; give only {new}=")
        if warn:
            warnings.warn(
                f"{owner}: the setting {key}= is now called {new}=; the old name goes in the next version",
                DeprecationWarning,
                stacklevel=3,
            )
        renamed[new] = value
    return renamed


class Evaluator(Protocol):
    """What the search asks of a network: ``evaluate(observations, masks)``
    with a batch of observations (stacked, the game's dtype) and bool masks
    returns ``(priors, values)``: priors ``[batch, num_actions]`` (zero on
    illegal actions, summing to one) and values ``[batch, num_players]`` in the
    seat to move's relative order."""

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class UniformEvaluator:
    """A uniform prior over the legal actions and a value of zero for every
    seat: with it PUCT is search by visit counts alone (tests, and a
    network-free reference)."""

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        masks = np.asarray(masks, dtype=bool)
        priors = masks / np.maximum(masks.sum(axis=1, keepdims=True), 1)
        return priors.astype(np.float64), np.zeros((masks.shape[0], self.num_players))


def absolute_values(relative: np.ndarray, player: int) -> np.ndarray:
    """Values in seat order from values in ``player``'s relative order
    (``relative[k]`` is seat ``(player + k) % n``'s)."""
    return np.roll(np.asarray(relative, dtype=np.float64), player)


def relative_values(values: np.ndarray, player: int) -> np.ndarray:
    """The inverse of :func:`absolute_values`: ``player``'s entry first."""
    return np.roll(np.asarray(values, dtype=np.float64), -player)


class _Node:
    """One node: its prior (a list over actions, None until evaluated), the
    statistics of the edge that leads to it (``n`` visits, virtual ones
    included, and ``w`` the summed value vector), and its own real visits and
    value sum (the first-play value of its unvisited children).

    Plain Python numbers, not small numpy arrays: selection reads a handful of
    them per legal action on every step of every simulation, where numpy's
    per-call overhead costs more than the arithmetic."""

    __slots__ = ("prior", "children", "n", "w", "visits", "value_sum")

    def __init__(self, num_players: int) -> None:
        self.prior: list[float] | None = None
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = [0.0] * num_players
        self.visits = 0  # real (not virtual) simulations through this node
        self.value_sum = [0.0] * num_players


@dataclass
class Leaf:
    """A simulation waiting for its evaluation."""

    path: list  # (node, action, player) edges from the root
    node: _Node
    player: int
    observation: np.ndarray
    mask: np.ndarray
    estimate: np.ndarray | None = None  # the game's own value of the leaf, seat order (value_mix > 0)


def check_search_settings(sims, value_mix, value_rollout, prior_temperature, search_batch=1) -> None:
    """ValueError naming the first setting out of range: the one rule for the
    settings a search takes, an az agent is given and a network file carries."""
    if int(sims) < 1:
        raise ValueError(f"sims must be at least 1, got {sims!r}")
    if not 0.0 <= float(value_mix) <= 1.0:
        raise ValueError(f"value_mix must be between 0 and 1, got {value_mix!r}")
    if int(value_rollout) < 0:
        raise ValueError(f"value_rollout must be at least 0 moves, got {value_rollout!r}")
    if not float(prior_temperature) > 0:
        raise ValueError(f"prior_temperature must be above 0, got {prior_temperature!r}")
    if int(search_batch) < 1:
        raise ValueError(f"search_batch must be at least 1, got {search_batch!r}")


class PUCTSearch:
    """One decision's search. Drive it with :func:`run_searches` (or
    :meth:`run`); then :meth:`visit_counts` holds the root's visits.

    ``sample()`` returns a fresh root state per simulation (a SeatView
    sample); ``sims`` counts simulations, the root's own evaluation included.
    ``dirichlet_alpha`` mixes Dirichlet noise into the root prior (self-play;
    None in evaluation), with weight ``dirichlet_weight``. ``value_mix`` is
    the weight of the game's estimate in a leaf's value, read ``value_rollout``
    random moves past the leaf; ``prior_temperature`` flattens the prior
    (module docstring). ``search_batch`` leaves wait together for the evaluator.
    """

    def __init__(
        self,
        game,
        sample: Callable[[], object],
        sims: int,
        rng: np.random.Generator,
        c_puct: float = DEFAULT_C_PUCT,
        search_batch: int = DEFAULT_SEARCH_BATCH,
        dirichlet_alpha: float | None = None,
        dirichlet_weight: float = 0.25,
        value_mix: float = 0.0,
        value_rollout: int = 0,
        prior_temperature: float = 1.0,
        **old_names,
    ) -> None:
        if old_names:  # batch= and rollout=, their names before the rename: for one version
            given = renamed_settings(old_names, "PUCTSearch")
            unknown = sorted(set(given) - {"search_batch", "value_rollout"})
            if unknown:
                raise TypeError(f"PUCTSearch got an unexpected keyword argument {unknown[0]!r}")
            search_batch = given.get("search_batch", search_batch)
            value_rollout = given.get("value_rollout", value_rollout)
        check_search_settings(sims, value_mix, value_rollout, prior_temperature, search_batch)
        self.prior_power = 1.0 / float(prior_temperature)
        self.game = game
        self.value_rollout = int(value_rollout)
        self.value_mix = float(value_mix)
        self.sample = sample
        self.sims = int(sims)
        self.rng = rng
        self.c_puct = float(c_puct)
        self.search_batch = int(search_batch)
        self.dirichlet_alpha = dirichlet_alpha
        self.dirichlet_weight = float(dirichlet_weight)
        lo, hi = game.reward_range
        self._lo = float(lo)
        self._scale = 1.0 / (hi - lo) if hi > lo else 1.0
        self.num_players = game.num_players
        self.root = _Node(game.num_players)
        self.started = 0  # simulations begun (finished or in flight)
        self.finished = 0
        self._pending: list[Leaf] = []
        self.root_legal: np.ndarray | None = None

    @property
    def done(self) -> bool:
        return self.finished >= self.sims

    # --- collecting leaves ---------------------------------------------------
    def requests(self) -> list[Leaf]:
        """Start simulations until ``search_batch`` leaves wait for an evaluation
        (only the root's, first); simulations that end in a finished game
        are backed up at once."""
        if self._pending:
            raise RuntimeError("feed the pending leaves before asking for more")
        limit = 1 if self.root.prior is None else self.search_batch
        while len(self._pending) < limit and self.started < self.sims:
            self.started += 1
            leaf = self._descend(self.sample())
            if leaf is not None:
                self._pending.append(leaf)
            if self.root.prior is None and leaf is None:
                break
        return list(self._pending)

    def request_batch(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`requests` as the evaluator takes them: the waiting leaves'
        observations and masks, stacked."""
        leaves = self.requests()
        if not leaves:
            shape = (0, *self.game.observation_shape)
            return np.zeros(shape, self.game.observation_dtype), np.zeros((0, self.game.num_actions), bool)
        return np.stack([leaf.observation for leaf in leaves]), np.stack([leaf.mask for leaf in leaves])

    def _descend(self, state) -> Leaf | None:
        node = self.root
        path: list = []
        while True:
            if state.done:
                self._backup(path, node, np.asarray(state.returns(), dtype=np.float64))
                return None
            player = state.current_player
            mask = state.legal_action_mask()
            if node.prior is None:
                if node is self.root:
                    self.root_legal = np.flatnonzero(mask)
                observation = state.observation(player)
                if self.value_mix == 0:
                    return Leaf(path, node, player, observation, mask)
                if self.value_rollout:  # the leaf's own observation and mask must outlive the moves
                    observation, mask = np.array(observation), np.array(mask)
                estimate = rollout_value(state, self.value_rollout, self.rng)
                return Leaf(path, node, player, observation, mask, estimate)
            action = self._select(node, np.flatnonzero(mask).tolist(), player)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = _Node(self.num_players)
            child.n += 1  # virtual visit, made real by the backup
            child.w[player] += self._lo  # virtual loss for the mover
            path.append((node, child, player))
            state.apply_unchecked(action)
            node = child

    def _select(self, node: _Node, legal: list[int], player: int) -> int:
        """The legal action of the highest PUCT score, the first one on ties
        (the prior is renormalised over the actions legal in this sample)."""
        prior, children = node.prior, node.children
        lo, scale = self._lo, self._scale
        total_prior, total_visits = 0.0, 0
        for action in legal:
            total_prior += prior[action]
            child = children.get(action)
            if child is not None:
                total_visits += child.n
        uniform = 1.0 / len(legal)
        fpu = (node.value_sum[player] / node.visits - lo) * scale if node.visits else 0.5
        explore = math.sqrt(total_visits + 1)
        c_puct = self.c_puct
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            p = prior[action] / total_prior if total_prior > 0 else uniform
            child = children.get(action)
            if child is None or child.n == 0:
                score = fpu + c_puct * p * explore
            else:
                score = (child.w[player] / child.n - lo) * scale + c_puct * p * explore / (1 + child.n)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    # --- feeding evaluations ---------------------------------------------------
    def feed(self, priors: np.ndarray, values: np.ndarray) -> None:
        """The evaluations of the leaves :meth:`requests` returned, in order:
        priors over actions and values in each leaf's seat-relative order."""
        leaves, self._pending = self._pending, []
        check_evaluations(priors, values, len(leaves))
        for leaf, prior, value in zip(leaves, priors, values):
            if leaf.node.prior is None:
                prior = self._flattened(np.asarray(prior, dtype=np.float64))
                if leaf.node is self.root:
                    prior = self._root_noise(prior)
                leaf.node.prior = prior.tolist()
            value = absolute_values(value, leaf.player)
            if leaf.estimate is not None:
                value = (1.0 - self.value_mix) * value + self.value_mix * leaf.estimate
            self._backup(leaf.path, leaf.node, value)

    def _flattened(self, prior: np.ndarray) -> np.ndarray:
        if self.prior_power == 1.0:
            return prior
        powered = prior**self.prior_power
        total = powered.sum()
        return powered / total if total > 0 else prior

    def _root_noise(self, prior: np.ndarray) -> np.ndarray:
        prior = np.array(prior, dtype=np.float64)
        if self.dirichlet_alpha is None or self.root_legal is None or self.root_legal.size < 2:
            return prior
        noise = self.rng.dirichlet(np.full(self.root_legal.size, float(self.dirichlet_alpha)))
        w = self.dirichlet_weight
        prior[self.root_legal] = (1 - w) * prior[self.root_legal] + w * noise
        return prior

    def _backup(self, path: list, leaf: _Node, values: np.ndarray) -> None:
        values = values.tolist()
        lo = self._lo
        for node, child, player in path:
            w, total = child.w, node.value_sum
            for seat, value in enumerate(values):
                w[seat] += value
                total[seat] += value
            w[player] -= lo  # the virtual loss comes off
            node.visits += 1
        total = leaf.value_sum
        for seat, value in enumerate(values):
            total[seat] += value
        leaf.visits += 1
        self.finished += 1

    # --- results -------------------------------------------------------------
    def run(self, evaluator: Evaluator) -> PUCTSearch:
        run_searches([self], evaluator)
        return self

    def visit_counts(self) -> np.ndarray:
        """Visits per action at the root (length ``num_actions``)."""
        counts = np.zeros(self.game.num_actions)
        for action, child in self.root.children.items():
            counts[action] = child.n
        return counts

    def root_values(self) -> np.ndarray:
        """Mean value vector per root action (zeros where unvisited)."""
        means = np.zeros((self.game.num_actions, self.num_players))
        for action, child in self.root.children.items():
            if child.n:
                means[action] = np.asarray(child.w) / child.n
        return means

    def root_value(self) -> np.ndarray:
        """The mean value vector of every simulation so far, in seat order:
        the search's own estimate of the root position."""
        if not self.root.visits:
            return np.zeros(self.num_players)
        return np.asarray(self.root.value_sum) / self.root.visits

    def best_action(self, seat: int) -> int:
        """The most visited root action (ties: the better mean for ``seat``)."""
        legal = self.root_legal
        n = self.visit_counts()[legal]
        q = self.root_values()[legal, seat]
        order = np.lexsort((-q, -n))  # most visits first, then the higher value
        return int(legal[order[0]])

    def sample_action(self, temperature: float) -> int:
        """An action drawn with probability proportional to visits^(1/T)."""
        legal = self.root_legal
        n = self.visit_counts()[legal]
        if temperature <= 0 or n.sum() == 0:
            return int(legal[int(np.argmax(n))])
        weights = n ** (1.0 / temperature)
        return int(legal[int(self.rng.choice(legal.size, p=weights / weights.sum()))])


def check_evaluations(priors, values, pending: int) -> None:
    """An evaluator's answer holds one prior and one value per waiting leaf."""
    if len(priors) != pending or len(values) != pending:
        raise ValueError(f"expected {pending} evaluations, got {len(priors)} priors, {len(values)} values")


def run_searches(searches: Sequence[PUCTSearch], evaluator: Evaluator) -> None:
    """Run every search to the end, evaluating all their waiting leaves
    together in one evaluator call per round."""
    if len(searches) == 1:
        _run_one(searches[0], evaluator)
        return
    active = [s for s in searches if not s.done]
    while active:
        asked = [(search, *search.request_batch()) for search in active]
        asked = [entry for entry in asked if len(entry[1])]
        if asked:
            if len(asked) == 1:
                obs, masks = asked[0][1], asked[0][2]
            else:
                obs = np.concatenate([entry[1] for entry in asked])
                masks = np.concatenate([entry[2] for entry in asked])
            priors, values = evaluator.evaluate(obs, masks)
            start = 0
            for search, batch, _ in asked:
                search.feed(priors[start : start + len(batch)], values[start : start + len(batch)])
                start += len(batch)
        active = [s for s in active if not s.done]


def _run_one(search: PUCTSearch, evaluator: Evaluator) -> None:
    """:func:`run_searches` for a single search (a bot's decision), without
    the bookkeeping of several: a compiled round is a few microseconds, and
    the compiled search runs the rounds after the root's itself (``run_rest``)."""
    run_rest = getattr(search, "run_rest", None)
    while not search.done:
        if run_rest is not None and run_rest(evaluator):
            return
        observations, masks = search.request_batch()
        if len(observations):
            search.feed(*evaluator.evaluate(observations, masks))


def compiled_position(view, backend: str | None, value_mix: float, owner: str):
    """The seat's position as a CompiledState for the compiled search, or
    None for this reference: ``backend="python"``, a game without a kernel
    (or without a compiled ``determinize``), or ``value_mix`` above 0 over a
    kernel that does not estimate positions as its rules do.
    ``backend="compiled"`` where none can run is a ValueError."""
    if backend == "python":
        return None
    compiled = view.compiled_state()
    if compiled is not None and value_mix:
        from meeplezoo.agents.compiled.uct import scores_as_the_reference

        compiled = compiled if scores_as_the_reference(compiled.kernel) else None
    if compiled is None and backend == "compiled":
        raise ValueError(f"{owner}: {view.game.info.name} has no compiled search; use backend=python")
    return compiled


def seat_search(
    view, sims: int, rng: np.random.Generator, backend: str | None = None, blocks=None, **settings
):
    """A search of ``view``'s position for its seat (a
    :class:`~meeplezoo.agents.base.SeatView`): compiled where
    :func:`compiled_position` allows, else :class:`PUCTSearch` over the
    view's samples. ``settings``: PUCTSearch's keyword settings; ``blocks``:
    an earlier compiled search's, which the caller is done with, to reuse
    (see :class:`~meeplezoo.agents.compiled.puct_blocks.SearchBlocks`)."""
    compiled = compiled_position(view, backend, float(settings.get("value_mix", 0.0)), "az")
    if compiled is not None:
        from meeplezoo.agents.compiled.puct import CompiledPUCTSearch

        return CompiledPUCTSearch(compiled, view.seat, sims, rng, blocks=blocks, **settings)
    return PUCTSearch(view.game, lambda: view.sample(rng), sims, rng, **settings)
