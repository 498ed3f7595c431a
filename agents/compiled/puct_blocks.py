"""Where a compiled PUCT search keeps its tree: four flat blocks and their layout.

A search lives in an int block (a header of counters and sizes, the tree's
links, the waiting leaves' paths and the per-node buffers), a float block
(the tree's values and priors, the leaves' estimates), an observation block
and a bool block (the leaves' masks). :func:`carve` makes the views from
the int block's header, in compiled code and, as :data:`carve_in_python`,
in Python, so the layout is written once. :class:`SearchBlocks` holds one
set with the root and work rows, and is reset for each search that reuses
it: a bot's decisions share one set.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.agents.compiled import tree as T
from meeplezoo.envs.core.compiled.jit import njit

EDGE_N, VISITS, FIRST, NEXT, ACTION, HAS_PRIOR = range(6)  # one row of links per node
LINK_WIDTH = 6
# the int block's header: the counters, then the search's settings and sizes
STARTED, FINISHED, PENDING, SIZE, SEAT, SIMS, GEN_AT, CAPACITY, BATCH, PLAYERS, ACTIONS, HEADER = range(12)
LEAF_NODE, LEAF_PLAYER, LEAF_LENGTH = range(3)  # one row of leaf_info per waiting leaf
NONE = np.int64(-1)


@njit(inline="always")
def carve(ints, floats, observations, bools):
    """The search's arrays as views of its four blocks (sizes in the int
    block's header): the tree, the per-node buffers and the waiting leaves.
    Python reads the same views through :data:`carve_in_python`."""
    capacity, batch, players, actions = ints[CAPACITY], ints[BATCH], ints[PLAYERS], ints[ACTIONS]
    at = HEADER
    links = ints[at : at + capacity * LINK_WIDTH].reshape((capacity, LINK_WIDTH))
    at += capacity * LINK_WIDTH
    paths = ints[at : at + batch * capacity].reshape((batch, capacity))
    at += batch * capacity
    movers = ints[at : at + batch * capacity].reshape((batch, capacity))
    at += batch * capacity
    info = ints[at : at + batch * 3].reshape((batch, 3))
    at += batch * 3
    child_of, legal = ints[at : at + actions], ints[at + actions : at + 2 * actions]
    w = floats[: capacity * players].reshape((capacity, players))
    at = capacity * players
    value_sum = floats[at : at + capacity * players].reshape((capacity, players))
    at += capacity * players
    prior = floats[at : at + capacity * actions].reshape((capacity, actions))
    at += capacity * actions
    estimates = floats[at : at + batch * players].reshape((batch, players))
    values = floats[at + batch * players : at + (batch + 1) * players]
    masks, mask = bools[: batch * actions].reshape((batch, actions)), bools[batch * actions :]
    tree = (links, w, value_sum, prior)
    return tree, (mask, child_of, values, legal), (paths, movers, info, observations, masks, estimates)


carve_in_python = getattr(carve, "py_func", carve)  # numpy's views, as the search object keeps them


def block_sizes(capacity: int, batch: int, players: int, actions: int) -> tuple[int, int, int]:
    """The lengths of the int, float and bool blocks :func:`carve` reads."""
    ints = HEADER + capacity * LINK_WIDTH + 2 * batch * capacity + 3 * batch + 2 * actions
    floats = 2 * capacity * players + capacity * actions + (batch + 1) * players
    return ints, floats, (batch + 1) * actions


class SearchBlocks:
    """One search's blocks, its root and work rows, and Python's views of
    them, for ``sims`` simulations of ``game`` in batches of ``batch``
    leaves over state rows of ``width`` words.

    A bot keeps one set between its decisions and each new search resets
    it (:meth:`reset`) instead of allocating and carving a new one (about
    45 us a search, where a Gem Mountain decision spends about 1 ms outside
    its network). A search made on a set owns
    it until the next :meth:`reset`, so only a caller that is done with the
    last search may hand its set on."""

    def __init__(self, game, sims: int, batch: int, width: int) -> None:
        self.shape = self.shape_of(game, sims, batch, width)
        capacity, players, actions = sims + 1, game.num_players, game.num_actions
        int_size, float_size, bool_size = block_sizes(capacity, batch, players, actions)
        self.ints = np.zeros(int_size, dtype=np.int64)
        self.ints[CAPACITY], self.ints[BATCH], self.ints[PLAYERS], self.ints[ACTIONS] = (
            capacity, batch, players, actions,
        )  # fmt: skip
        self.floats, self.bools = np.zeros(float_size), np.zeros(bool_size, dtype=np.bool_)
        self.observations = np.zeros((batch, math.prod(game.observation_shape)), game.observation_dtype)
        self.root, self.work = np.zeros(width, dtype=np.int64), np.zeros(width, dtype=np.int64)
        tree, buffers, leaves = carve_in_python(self.ints, self.floats, self.observations, self.bools)
        self.links, self.w, self.value_sum, self.prior = tree
        self.child_of, self.info, self.masks = buffers[1], leaves[2], leaves[4]
        self.observation_batch = self.observations.reshape((batch, *game.observation_shape))
        self.no_priors, self.no_values = np.zeros((0, actions)), np.zeros((0, players))

    @staticmethod
    def shape_of(game, sims: int, batch: int, width: int) -> tuple:
        """What a set's sizes depend on: two searches with the same shape can share one."""
        return (sims, batch, width, game.num_players, game.num_actions, game.observation_shape,
                np.dtype(game.observation_dtype))  # fmt: skip

    def reset(self, row: np.ndarray, seat: int, gen_at: int) -> None:
        """Ready for a new search of the state row ``row`` for ``seat`` (one
        compiled call: :func:`clear_for_search`)."""
        clear_for_search(self.ints, self.floats, self.observations, self.bools, self.root, row, seat, gen_at)


@njit
def clear_for_search(ints, floats, observations, bools, root, row, seat, gen_at):
    """The header's counters and the rows of the nodes the last search made
    cleared (no search writes a row past the nodes it makes), the root's
    links and the per-node buffer set as a new set has them, ``row`` copied
    in as the root."""
    tree, buffers, _ = carve(ints, floats, observations, bools)
    made = max(ints[SIZE], 1)
    for rows in (tree[1], tree[2], tree[3]):
        for node in range(made):
            for k in range(rows.shape[1]):
                rows[node, k] = 0.0
    links = tree[0]
    for node in range(made):
        for k in range(LINK_WIDTH):
            links[node, k] = 0
    links[T.ROOT, FIRST] = links[T.ROOT, ACTION] = NONE
    for action in range(buffers[1].shape[0]):
        buffers[1][action] = NONE
    for k in range(CAPACITY):
        ints[k] = 0
    ints[SIZE], ints[SEAT], ints[SIMS], ints[GEN_AT] = 1, seat, ints[CAPACITY] - 1, gen_at
    for k in range(row.shape[0]):
        root[k] = row[k]
