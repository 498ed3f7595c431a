"""The position estimate of an unfinished game (``GemMountainState.evaluate``).

The whole-state estimate scores the current holdings, every secret start
tile included. A seat's estimate reads only what that seat may know: its own
secret counts, each other seat's secret is a tile of the hidden bag it could
be (the determinization's model: drawn in turn, uniformly among the fitting
tiles), and every face-down tile it has not seen carries a gem with the
share of gem tiles in the hidden bag. The result is the exact expectation
of the estimate over the other seats' secrets, with the spread from the
expected number of gem tiles still on the map: the same for every state the
seat cannot tell apart, and cheap (at most 8 ** 4 deals, in numpy).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.ranking import soft_rank_rewards
from meeplezoo.envs.gem_mountain.tiles import GEM_VALUES, HAS_GEM, NUM_GEMS, PLAIN

# points of score still open at the end, and per gem tile left
SPREAD_AT_END, SPREAD_PER_CELL = 5.0, 0.5
SCORE_DIFF_SCALE = 20.0  # score_diff rewards: (own - mean of the others) / this
NO_GEM = NUM_GEMS  # the class of a secret action tile: it scores nothing
_VALUES = np.asarray(GEM_VALUES, dtype=np.float64)


def spread(gem_tiles_left: float) -> float:
    """Points of play still to come: the blur of the soft rank."""
    return SPREAD_AT_END + SPREAD_PER_CELL * gem_tiles_left


def whole_state(state) -> np.ndarray:
    """The estimate from everything the state holds (search bots score their
    own determinized copies with it)."""
    if state.game.config["reward_mode"] != "rank":
        return state.returns()
    return soft_rank_rewards(state.scores(), spread(state.gem_tiles_left))


def seat_view(state, viewer: int) -> np.ndarray:
    """The expected estimate over what ``viewer`` cannot see."""
    hidden_cells, secret_seats, bag = state.hidden_tiles(viewer)
    if not hidden_cells and not secret_seats:
        return whole_state(state)  # it reads nothing the viewer cannot see
    fitting = [0] * (NO_GEM + 1)
    for design in bag:
        if _fits_secret(state, design):
            fitting[min(design, NO_GEM)] += 1  # a plain tile's id is its content
    chances, drawn = secret_deals(fitting, len(secret_seats))
    scores = deal_scores(state.gem_counts([viewer]), secret_seats, drawn)
    if state.game.config["reward_mode"] != "rank":
        return chances @ score_differences(scores)
    hidden = set(hidden_cells)
    known = sum(1 for i, d in enumerate(state.cells) if d >= 0 and HAS_GEM[d] and i not in hidden)
    left = np.full(len(chances), float(known))
    if hidden_cells:
        # the hidden cells are dealt from what the secrets leave in the bag
        gems_drawn = (drawn < NUM_GEMS).sum(axis=1)
        gem_tiles = sum(1 for d in bag if HAS_GEM[d])
        left += len(hidden_cells) * (gem_tiles - gems_drawn) / (len(bag) - len(secret_seats))
    return chances @ soft_ranks(scores, spread(left))


def _fits_secret(state, design: int) -> bool:
    """Whether a secret start tile of this game could be ``design``."""
    return PLAIN[design] and (state.game.config["start_tiles"] != "action_secret" or design >= NUM_GEMS)


def secret_deals(fitting: list[int], draws: int) -> tuple[np.ndarray, np.ndarray]:
    """Every way to draw ``draws`` tiles one after another, each uniformly
    among the fitting tiles left (``fitting``: how many of each class): the
    chance of each deal and the class drawn at each draw."""
    chances = np.ones(1)
    drawn = np.zeros((1, 0), dtype=np.int64)
    left = np.asarray([fitting], dtype=np.float64)
    for _ in range(draws):
        split = chances[:, None] * left / left.sum(axis=1, keepdims=True)
        rows, classes = np.nonzero(split)
        chances = split[rows, classes]
        drawn = np.column_stack([drawn[rows], classes])
        left = left[rows]
        left[np.arange(len(rows)), classes] -= 1
    return chances, drawn


def deal_scores(counts: list[list[int]], secret_seats: list[int], drawn: np.ndarray) -> np.ndarray:
    """Scores of every deal (``[deal, seat]``): ``counts`` are the gems
    known per seat, ``drawn[deal, j]`` the class of ``secret_seats[j]``'s tile.

    A gem type scores by its own column of counts alone, so each column is
    scored once per set of secret seats that may add one to it (most of a
    gem: +value per gem, least: -value per gem; all tied: net 0) and every
    deal sums the columns it picks."""
    m = len(secret_seats)
    subsets = (np.arange(2**m)[:, None] >> np.arange(m)) & 1  # [subset, j]
    columns = np.repeat(np.asarray(counts, dtype=np.int64).T[:, None, :], 2**m, axis=1)
    columns[:, :, secret_seats] += subsets  # [gem, subset, seat]
    most = columns.max(axis=2, keepdims=True)
    least = columns.min(axis=2, keepdims=True)
    table = ((columns == most).astype(np.int64) - (columns == least)) * columns * _VALUES[:, None, None]
    bits = 1 << np.arange(m)
    scores = np.zeros((len(drawn), len(counts)))
    for gem in range(NUM_GEMS):
        scores += table[gem][((drawn == gem) * bits).sum(axis=1)]
    return scores


def soft_ranks(scores: np.ndarray, spreads: np.ndarray) -> np.ndarray:
    """``soft_rank_rewards`` of every deal, each with its own spread (one
    tanh per pair of seats, given to the first and taken from the second)."""
    n = scores.shape[1]
    first, second = np.triu_indices(n, 1)
    pairs = np.tanh((scores[:, first] - scores[:, second]) / spreads[:, None])
    incidence = np.zeros((len(first), n))
    incidence[np.arange(len(first)), first] = 1.0
    incidence[np.arange(len(first)), second] = -1.0
    return pairs @ incidence / (n - 1)


def score_differences(scores: np.ndarray) -> np.ndarray:
    """The score_diff reward of every deal: (own - mean of the others) / 20."""
    n = scores.shape[1]
    total = scores.sum(axis=1, keepdims=True)
    return (scores - (total - scores) / (n - 1)) / SCORE_DIFF_SCALE
