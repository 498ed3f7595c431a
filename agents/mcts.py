"""Monte Carlo tree search over the rules layer, for any number of players.

One search engine serves both search bots. Each simulation starts from a state
the seat may know of (a :class:`~agents.base.SeatView` sample), walks the tree
by UCT, adds one node, plays random moves to the end (or to a depth cap) and
backs the whole vector of returns up the path: every node keeps every seat's
total, and the seat to move at a node picks by its own share (max^n).

The tree is open-loop: a node is the sequence of actions that led to it, and
each simulation replays them on its own sample, so chance outcomes are sampled
afresh every time. Children count how often they were legal when their parent
was visited ("availability"), which is plain UCT when the legal moves never
change and the information-set MCTS rule when determinizations differ.

``MCTSAgent`` searches one determinization per decision (for perfect
information that is the position itself); ``ISMCTSAgent`` (agents.ismcts)
draws a fresh one per simulation.

Where the game has a compiled kernel both run the same search in compiled
code (:mod:`meeplezoo.agents.compiled.uct`), tens of times faster;
``backend=python`` keeps this reference search.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.agents.base import Agent, SeatView
from meeplezoo.envs.core.backends import BACKENDS
from meeplezoo.envs.core.state import derive_rng

DEFAULT_DEPTH = 20  # random moves per rollout before the position is scored


class _Node:
    __slots__ = ("children", "n", "w", "avail")

    def __init__(self, num_players: int) -> None:
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = np.zeros(num_players)
        self.avail = 0


def rollout_value(state, depth: int | None, rng: np.random.Generator) -> np.ndarray:
    """Play uniformly random legal moves on ``state`` (a sample the search
    owns) until the game ends or ``depth`` moves are played (``None``: to
    the end); the returns if it ended, else :func:`leaf_value`."""
    steps = 0
    while not state.done:
        if depth is not None and steps >= depth:
            return leaf_value(state)
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply_unchecked(int(legal[int(rng.integers(legal.size))]))
        steps += 1
    return np.asarray(state.returns(), dtype=float)


def leaf_value(state) -> np.ndarray:
    """Value of a position where a capped rollout stops: the game's
    ``evaluate()`` where a state offers one (an estimate of each seat's
    return from an unfinished position), else its ``returns()`` of the
    unfinished position (many games score points so far), else 0. The
    state is the search's own sample (a determinization in games with
    hidden information): reading all of it reads a world the searcher
    drew, never the true hidden cards."""
    n = state.game.num_players
    evaluate = getattr(state, "evaluate", None)
    try:
        values = np.asarray(evaluate() if callable(evaluate) else state.returns(), dtype=float)
    except (ValueError, NotImplementedError, AssertionError):
        return np.zeros(n)
    if values.shape != (n,) or not np.all(np.isfinite(values)):
        return np.zeros(n)
    return values


class TreeSearch:
    """The search itself; ``sample()`` hands out one root state per simulation."""

    def __init__(self, sims: int, c: float, depth: int | None, rng: np.random.Generator) -> None:
        self.sims = sims
        self.c = c
        self.depth = depth
        self.rng = rng

    def best_action(self, sample, legal_root: np.ndarray, seat: int, num_players: int, reward_range) -> int:
        """Most visited root move after ``sims`` simulations (ties: the
        better mean return for ``seat``)."""
        lo, hi = reward_range
        self._scale = 1.0 / (hi - lo) if hi > lo else 1.0
        self._lo = lo
        root = _Node(num_players)
        for _ in range(self.sims):
            self._simulate(sample(), root)
        best, best_key = int(legal_root[0]), None
        for a in legal_root:
            child = root.children.get(int(a))
            if child is None:
                continue
            key = (child.n, child.w[seat] / max(child.n, 1))
            if best_key is None or key > best_key:
                best, best_key = int(a), key
        return best

    def _simulate(self, state, root: _Node) -> None:
        rng = self.rng
        node = root
        path = [root]
        while not state.done:
            player = state.current_player
            legal = np.flatnonzero(state.legal_action_mask())
            children = node.children
            untried = [int(a) for a in legal if int(a) not in children]
            if untried:
                for a in legal:
                    child = children.get(int(a))
                    if child is not None:
                        child.avail += 1
                a = untried[int(rng.integers(len(untried)))]
                child = _Node(len(node.w))
                child.avail = 1
                children[a] = child
                state.apply_unchecked(a)
                path.append(child)
                break
            a, child = self._select(children, legal, player)
            state.apply_unchecked(a)
            path.append(child)
            node = child
        values = self._rollout(state)
        for node in path:
            node.n += 1
            node.w += values

    def _select(self, children: dict, legal: np.ndarray, player: int):
        best_a, best_child, best_u = -1, None, -math.inf
        c, scale, lo = self.c, self._scale, self._lo
        for a in legal:
            child = children[int(a)]
            child.avail += 1
            u = (child.w[player] / child.n - lo) * scale + c * math.sqrt(math.log(child.avail) / child.n)
            if u > best_u:
                best_a, best_child, best_u = int(a), child, u
        return best_a, best_child

    def _rollout(self, state) -> np.ndarray:
        return rollout_value(state, self.depth, self.rng)


def _legal_or_raise(observation: dict) -> np.ndarray:
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise ValueError("no legal action in the mask")
    return legal


class MCTSAgent(Agent):
    """UCT with random rollouts (max^n for n players).

    Parameters: ``sims`` simulations per decision, ``c`` the exploration
    constant (returns are scaled to [0, 1] by the game's reward range),
    ``depth`` a cap on rollout length (``depth=none``: play to the end;
    some games run to hundreds of random moves); a capped
    rollout is scored by the game's returns of the unfinished position (0
    for games that only score finished ones). In hidden-information games it searches a single
    determinization drawn for the decision, never the true state.
    ``backend``: ``compiled`` searches in the game's kernel (an error where
    it has none), ``python`` on the rules layer; unset, compiled where the
    game has a kernel. The two are the same search with different random
    streams.
    """

    name = "mcts"
    needs_view = True
    per_simulation = False  # determinize every simulation (ismcts) instead of once per decision

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 200,
        c: float = 1.4,
        depth: int | str | None = DEFAULT_DEPTH,
        backend: str | None = None,
    ):
        if isinstance(depth, str) and depth.lower() in ("none", "null", "inf", "end"):
            depth = None
        if int(sims) < 1:
            raise ValueError(f"sims must be at least 1, got {sims!r}")
        if depth is not None and int(depth) < 0:
            raise ValueError(f"depth must be >= 0, got {depth!r}")
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        params = {"sims": int(sims), "c": float(c), "depth": None if depth is None else int(depth)}
        super().__init__(seed, **params, **({} if backend is None else {"backend": backend}))
        self.sims, self.c = int(sims), float(c)
        self.depth = None if depth is None else int(depth)
        self.backend = backend

    def act(self, observation: dict, view: SeatView | None = None) -> int:
        legal = _legal_or_raise(observation)
        if legal.size == 1:
            return int(legal[0])
        if view is None:
            raise ValueError(f"{self.name} needs a SeatView to search")
        compiled = self._compiled_position(view)
        if compiled is not None:
            return self.compiled_search(compiled, view.seat, np.asarray(observation["action_mask"]) != 0)[0]
        search = TreeSearch(self.sims, self.c, self.depth, self.rng)
        game = view.game
        return search.best_action(self._sampler(view), legal, view.seat, game.num_players, game.reward_range)

    def _compiled_position(self, view: SeatView):
        """The compiled position to search, or None for the reference search."""
        if self.backend == "python":
            return None
        compiled = view.compiled_state()
        if compiled is not None:
            from meeplezoo.agents.compiled.uct import scores_as_the_reference

            compiled = compiled if scores_as_the_reference(compiled.kernel) else None
        if compiled is None and self.backend == "compiled":
            raise ValueError(f"{self.name}: {view.game.info.name} has no compiled search; use backend=python")
        return compiled

    def compiled_search(self, compiled, seat: int, root_legal: np.ndarray) -> tuple[int, np.ndarray]:
        """The compiled search of ``compiled`` (a CompiledState) for ``seat``:
        the chosen move and each move's root visit count. Its generator is
        seeded from the agent's for each decision."""
        from meeplezoo.agents.compiled.uct import uct_search

        seed = int(self.rng.integers(2**63 - 1))
        return uct_search(
            compiled, seat, root_legal, self.sims, self.c, self.depth, self.per_simulation, seed
        )

    def _sampler(self, view: SeatView):
        """One determinization per decision; each simulation copies it, with
        a fresh generator so chance differs between simulations."""
        base = view.sample(self.rng)
        chance = view.game.info.chance
        rng = self.rng

        def sample():
            state = base.clone()
            if chance:
                state.rng = derive_rng(rng, seed_bound=2**63)
            return state

        return sample
