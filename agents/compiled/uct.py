"""UCT and information-set MCTS in compiled code, for any game with a kernel.

The same algorithm as :mod:`meeplezoo.agents.mcts`, step for step: an
open-loop tree with availability counts, expansion of one uniformly drawn
untried move, uniformly random rollouts capped at ``depth`` moves and scored
by the kernel's ``evaluate`` of the whole (sampled) state, max^n backup of
every seat's value, and the most visited root move (ties: the better mean,
then the lower action). Only the random stream differs: every draw comes
from the search's own PCG64 words, seeded by the agent for each decision,
so a search is deterministic for a given seed (it runs on one thread).

Each simulation starts from a sample of what the searching seat may know:
``mcts`` determinizes once per decision and copies that sample,
``ismcts`` determinizes afresh every simulation; the kernel's
``determinize`` deals the unseen part from the seat's view, so the true
hidden cards are never read. In games with chance each copy's generator is
reseeded from the search's words: the true generator would tell the dice.

The templates below are compiled once per kernel (:func:`specialise`), with
the kernel's functions as their globals, so numba's disk cache keeps them.
The walk down the tree and the rollout's moves skip numba's reference
counting where the kernel's moves do (``njit_borrowing``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from meeplezoo.agents.compiled import tree as T
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.batch import pick_legal
from meeplezoo.envs.core.compiled.jit import is_borrowing
from meeplezoo.envs.core.compiled.kernel import Kernel
from meeplezoo.envs.core.compiled.masks import list_legal
from meeplezoo.envs.core.compiled.specialise import specialise
from meeplezoo.envs.core.rng import SEED_BOUND as RNG_SEED_BOUND

WHOLE_STATE = np.int64(-1)  # evaluate's viewer: the whole state (the search's own sample)
SEED_BOUND = np.int64(RNG_SEED_BOUND)  # a sample's seed, drawn below it as the rules draw seeds
ZERO = np.int64(0)
NO_CAP = -1  # rollout depth: play to the end
# the search's settings, one float64 array: the exploration constant, the reward
# range's low end and 1 / its width, the rollout cap, and two flags
C, LOW, SCALE, DEPTH, PER_SIMULATION, RESEED = range(6)

# Placeholders: each kernel's copy of the templates binds these names (see specialise.py).
legal_mask = apply_action = returns = current_player = evaluate = determinize = None
leaf_value = play_out = rollout = sample = descend = simulate = None


def _returns_as_estimate(state, game, viewer, out):
    """A kernel without ``evaluate``: the returns of the unfinished position
    (the reference State's default ``evaluate``)."""
    returns(state, game, out)


def _no_determinize(state, game, seat, searcher, out):
    """A perfect-information kernel: a sample is the position itself."""
    for k in range(state.shape[0]):
        out[k] = state[k]


def _leaf_value(state, game, out):
    """Where a capped rollout stops: the estimate of the whole state, or
    zeros when it is not finite (the reference's ``leaf_value``)."""
    evaluate(state, game, WHOLE_STATE, out)
    for seat in range(out.shape[0]):
        if not np.isfinite(out[seat]):
            out[:] = 0.0
            return


def _play_out(state, game, depth, gen, mask):
    """Uniformly random legal moves until the game ends or ``depth`` moves
    were played (-1: no cap); whether the cap stopped it."""
    steps = 0
    while current_player(state) >= 0:
        if depth >= 0 and steps >= depth:
            return True
        legal_mask(state, game, mask)
        apply_action(state, game, pick_legal(mask, gen))
        steps += 1
    return False


def _rollout(state, game, depth, gen, mask, out):
    """:func:`_play_out`, scored by the game's returns at its end, or by
    :func:`_leaf_value` where the cap stopped it."""
    if play_out(state, game, depth, gen, mask):
        leaf_value(state, game, out)
    else:
        returns(state, game, out)


def _sample(root, base, game, seat, per_simulation, reseed, gen_at, searcher, out):
    """One simulation's start: a fresh determinization of ``root`` from
    ``seat``'s view (``per_simulation``), else a copy of the decision's
    sample ``base``; with chance, the copy's generator reseeded from the
    search's words."""
    if per_simulation:
        determinize(root, game, seat, searcher, out)
    else:
        for k in range(base.shape[0]):
            out[k] = base[k]
    if reseed:
        pcg64.seed(
            out[gen_at : gen_at + pcg64.WORDS].view(np.uint64), pcg64.bounded(searcher, ZERO, SEED_BOUND)
        )


def _descend(state, game, links, totals, size, c, low, scale, gen, buffers, path):
    """Walk the tree from the root by UCT, playing each move on ``state``,
    until a node has an untried legal move (expanded: one new node) or the
    game ends. Returns (tree size, path length). ``buffers``: the mask,
    ``child_of`` and the list of legal actions, each as long as the mask."""
    mask, child_of, legal = buffers
    node, length = T.ROOT, 1
    path[0] = T.ROOT
    while current_player(state) >= 0:
        player = current_player(state)
        legal_mask(state, game, mask)
        count = list_legal(mask, legal)
        T.index_children(links, node, child_of)
        untried = T.count_untried(legal, count, child_of)
        if untried > 0:
            action, child = T.expand(links, node, size, legal, count, child_of, untried, gen)
            size += 1
        else:
            action, child = T.select(links, totals, legal, count, child_of, player, c, low, scale)
        T.clear_children(links, node, child_of)
        apply_action(state, game, action)
        path[length] = child
        length += 1
        node = child
        if untried > 0:
            break
    return size, length


def _simulate(
    root, base, game, seat, settings, gen_at, searcher, links, totals, size, work, buffers, path, values
):
    """One simulation: sample, descend, roll out, back up; returns the tree's size.
    ``settings``: see :data:`C` and the names after it."""
    mask = buffers[0]
    c, low, scale = settings[C], settings[LOW], settings[SCALE]
    depth, per_simulation, reseed = (
        np.int64(settings[DEPTH]),
        settings[PER_SIMULATION] != 0.0,
        settings[RESEED] != 0.0,
    )
    sample(root, base, game, seat, per_simulation, reseed, gen_at, searcher, work)
    size, length = descend(work, game, links, totals, size, c, low, scale, searcher, buffers, path)
    rollout(work, game, depth, searcher, mask, values)
    T.backup(links, totals, path, length, values)
    return size


def _search(root, game, seat, sims, num_players, settings, gen_at, searcher, root_legal, visits):
    """``sims`` simulations from the seat's view of ``root``; the chosen root
    move, with each root move's visit count written to ``visits``."""
    links, totals = T.new_tree(sims + 1, num_players)
    base = np.empty_like(root)
    work = np.empty_like(root)
    if settings[PER_SIMULATION] == 0.0:  # one sample for the whole decision
        determinize(root, game, seat, searcher, base)
    mask = np.zeros(root_legal.shape[0], dtype=np.bool_)
    child_of = np.full(root_legal.shape[0], T.NONE, dtype=np.int64)
    legal = np.zeros(root_legal.shape[0], dtype=np.int64)
    path = np.zeros(sims + 2, dtype=np.int64)
    values = np.zeros(num_players, dtype=np.float64)
    size = np.int64(1)
    for _ in range(sims):
        size = simulate(
            root,
            base,
            game,
            seat,
            settings,
            gen_at,
            searcher,
            links,
            totals,
            size,
            work,
            (mask, child_of, legal),
            path,
            values,
        )
    return T.root_choice(links, totals, root_legal, seat, visits)


def bind_rollouts(kernel: Kernel, bound: dict[str, Any]) -> dict[str, Any]:
    """Add the sampling and rollout templates, compiled over ``kernel``, to
    ``bound`` (which holds the kernel's move functions); the moves of the
    rollout borrow where the kernel's moves do (``njit_borrowing``)."""
    tag = kernel.cache_tag
    bound["evaluate"] = kernel.evaluate or specialise(_returns_as_estimate, tag, bound)
    bound["determinize"] = kernel.determinize or specialise(_no_determinize, tag, bound)
    bound["leaf_value"] = specialise(_leaf_value, tag, bound, inline="always")
    bound["play_out"] = specialise(_play_out, tag, bound, borrowing=moves_borrow(bound))
    bound["rollout"] = specialise(_rollout, tag, bound, inline="always")
    bound["sample"] = specialise(_sample, tag, bound, inline="always")
    return bound


def moves_borrow(bound: dict[str, Any]) -> bool:
    """Whether the kernel's move functions skip reference counting, so a
    template that only moves and reads masks may too."""
    return all(is_borrowing(bound[name]) for name in ("legal_mask", "apply_action", "current_player"))


@cache
def compiled_search(kernel: Kernel) -> Any:
    """The compiled UCT search over ``kernel`` (compiled once per kernel, then loaded from disk)."""
    tag = kernel.cache_tag
    names = ("legal_mask", "apply_action", "returns", "current_player")
    bound = bind_rollouts(kernel, {name: getattr(kernel, name) for name in names})
    bound["descend"] = specialise(_descend, tag, bound, borrowing=moves_borrow(bound))
    bound["simulate"] = specialise(_simulate, tag, bound, inline="always")
    return specialise(_search, tag, bound)


@cache
def scores_as_the_reference(kernel: Kernel) -> bool:
    """Whether the kernel scores capped rollouts as the reference search
    does: with its own ``evaluate``, or with ``returns`` where the rules keep
    the default estimate (their ``returns()``). A kernel without the
    estimate its rules define would search a different game: the agents
    then search in Python."""
    from meeplezoo.envs.core.state import State

    if kernel.evaluate is not None:
        return True
    cls = kernel.state_cls
    return cls.evaluate is State.evaluate and getattr(cls, "_evaluate", None) is getattr(
        State, "_evaluate", None
    )


@cache
def generator_offset(kernel: Kernel) -> int:
    """Where the state row keeps the game's generator words (-1: no generator)."""
    from meeplezoo.envs.core.compiled.layout import layout_of

    slots = layout_of(kernel.state_cls).slots.values()
    return next((slot.offset for slot in slots if slot.field.kind == "generator"), -1)


def search_settings(game, c: float, depth: int | None, per_simulation: bool) -> np.ndarray:
    """The float settings array of :func:`_search` for ``game``."""
    low, high = game.reward_range
    settings = np.zeros(6, dtype=np.float64)
    settings[C], settings[LOW] = c, low
    settings[SCALE] = 1.0 / (high - low) if high > low else 1.0
    settings[DEPTH] = NO_CAP if depth is None else depth
    settings[PER_SIMULATION] = float(per_simulation and game.info.hidden_information)
    settings[RESEED] = float(game.info.chance)
    return settings


def uct_search(
    state,
    seat: int,
    root_legal: np.ndarray,
    sims: int,
    c: float,
    depth: int | None,
    per_simulation: bool,
    seed: int,
) -> tuple[int, np.ndarray]:
    """Search ``state`` (a CompiledState) for ``seat``: the chosen move and
    each move's root visit count. ``per_simulation``: determinize every
    simulation (``ismcts``), else once per decision (``mcts``). ``seed``
    seeds the search's own generator. The search works on copies; it reads
    the true row only through the kernel's ``determinize`` from ``seat``'s
    view (or, in a perfect-information game, as the position it is)."""
    game, kernel = state.game, state.kernel
    gen_at = generator_offset(kernel)
    settings = search_settings(game, c, depth, per_simulation)
    if gen_at < 0:
        settings[RESEED] = 0.0
    searcher = pcg64.seeded_words(seed)
    visits = np.zeros(game.num_actions, dtype=np.int64)
    legal = np.array(root_legal, dtype=np.bool_)  # a writable copy: one compiled signature for every caller
    action = compiled_search(kernel)(
        state.row.copy(), kernel.game_row(game), np.int64(seat), np.int64(sims), np.int64(game.num_players),
        settings, np.int64(max(gen_at, 0)), searcher, legal, visits,
    )  # fmt: skip
    return int(action), visits
