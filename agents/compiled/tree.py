"""The open-loop UCT tree as arrays, for the compiled searches.

A node is a row of ``links`` (visits, availability, first child, next
sibling, the action that leads to it) and a row of ``totals`` (every seat's
summed return, for max^n). Children form a linked list; while a node is
being visited, ``child_of[action]`` maps its actions to their children, and
the node's legal actions are listed once (``masks.list_legal``), so a step
costs the node's legal moves, not the game's action count. None of
these functions reads a game state: they run the same for every kernel.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.jit import njit, njit_borrowing

VISITS, AVAIL, FIRST, NEXT, ACTION = range(5)
LINK_WIDTH = 5
ROOT = 0
NONE = np.int64(-1)
ZERO = np.int64(0)


@njit
def new_tree(capacity, num_players):
    """Room for ``capacity`` nodes (one per simulation, plus the root); the root alone."""
    links = np.zeros((capacity, LINK_WIDTH), dtype=np.int64)
    totals = np.zeros((capacity, num_players), dtype=np.float64)
    links[ROOT, FIRST] = NONE
    links[ROOT, NEXT] = NONE
    links[ROOT, ACTION] = NONE
    return links, totals


@njit_borrowing
def index_children(links, node, child_of):
    """Point ``child_of[action]`` at each child of ``node`` (undone by :func:`clear_children`)."""
    child = links[node, FIRST]
    while child >= 0:
        child_of[links[child, ACTION]] = child
        child = links[child, NEXT]


@njit_borrowing
def clear_children(links, node, child_of):
    """Reset the entries :func:`index_children` set, so ``child_of`` is all -1 again."""
    child = links[node, FIRST]
    while child >= 0:
        child_of[links[child, ACTION]] = NONE
        child = links[child, NEXT]


@njit_borrowing
def count_untried(legal, count, child_of):
    """Legal actions of the node (the first ``count`` of ``legal``) without a child yet."""
    untried = 0
    for k in range(count):
        untried += child_of[legal[k]] < 0
    return untried


@njit_borrowing
def expand(links, node, size, legal, count, child_of, untried, gen):
    """The reference's expansion: every existing legal child gains availability,
    then one untried legal action, uniformly drawn in action order, gets a new
    node with availability 1. Returns (action, new node)."""
    pick = pcg64.bounded(gen, ZERO, np.int64(untried))
    chosen = NONE
    for k in range(count):
        action = legal[k]
        child = child_of[action]
        if child >= 0:
            links[child, AVAIL] += 1
        elif pick == 0 and chosen < 0:
            chosen = action
        else:
            pick -= 1
    links[size, VISITS] = 0
    links[size, AVAIL] = 1
    links[size, ACTION] = chosen
    links[size, FIRST] = NONE
    links[size, NEXT] = links[node, FIRST]
    links[node, FIRST] = size
    return chosen, size


@njit_borrowing
def select(links, totals, legal, count, child_of, player, c, low, scale):
    """UCT on the player's own share (max^n), as the reference: every legal
    child gains availability; the first child (in action order) of the highest
    ``(mean - low) * scale + c * sqrt(log(avail) / visits)`` wins. Returns (action, child)."""
    best_action, best_child, best_score = NONE, NONE, -math.inf
    for k in range(count):
        action = legal[k]
        child = child_of[action]
        links[child, AVAIL] += 1
        visits = float(links[child, VISITS])
        score = (totals[child, player] / visits - low) * scale + c * math.sqrt(
            math.log(float(links[child, AVAIL])) / visits
        )
        if score > best_score:
            best_action, best_child, best_score = action, child, score
    return best_action, best_child


@njit_borrowing
def backup(links, totals, path, length, values):
    """Every node on the path counts the visit and adds every seat's value."""
    for step in range(length):
        node = path[step]
        links[node, VISITS] += 1
        for seat in range(values.shape[0]):
            totals[node, seat] += values[seat]


@njit
def root_choice(links, totals, root_legal, seat, visits):
    """The most visited legal root move, ties to the better mean return for
    ``seat``, then to the lower action (the reference's rule); fills
    ``visits[action]`` with each root child's visit count."""
    child = links[ROOT, FIRST]
    while child >= 0:
        visits[links[child, ACTION]] = links[child, VISITS]
        child = links[child, NEXT]
    best, best_visits, best_mean = NONE, NONE, -math.inf
    for action in range(root_legal.shape[0]):
        if not root_legal[action]:
            continue
        if best < 0:
            best = action  # the first legal move when no child was tried
        count = visits[action]
        if count == 0:
            continue
        mean = totals[_child_with(links, action), seat] / count
        if count > best_visits or (count == best_visits and mean > best_mean):
            best, best_visits, best_mean = action, count, mean
    return best


@njit_borrowing
def _child_with(links, action):
    """The root's child reached by ``action``."""
    child = links[ROOT, FIRST]
    while links[child, ACTION] != action:
        child = links[child, NEXT]
    return child
