"""The compiled rules (``kernel/rules.py``) play exactly as the reference
``AmberState``: the same deal from a seed, then step by step the same
position (every field: the princes, the hands and memories, the deck, the
frame stack, the war and the generator), the same legal mask, seat to move
and end, and the same returns; on 2 to 5 players and every option."""

from __future__ import annotations

from collections import Counter
from functools import partial

import numpy as np
import pytest

from meeplezoo.envs.core.compiled.layout import layout_of
from meeplezoo.envs.princes_of_amber.cards import Phase
from meeplezoo.envs.princes_of_amber.game import AmberGame
from meeplezoo.envs.princes_of_amber.kernel import rules as kernel
from meeplezoo.envs.princes_of_amber.kernel.game_row import game_row
from meeplezoo.envs.princes_of_amber.state import AmberState
from tests.core.kernel_checks import assert_same_position, assert_same_view
from tests.princes_of_amber.kernel_configs import CONFIGS

LAYOUT = layout_of(AmberState)
same_position = partial(assert_same_position, LAYOUT)  # (py, row, game, full)
same_view = partial(assert_same_view, kernel)  # (py, row, grow, mask)


def play_both(game: AmberGame, seed: int, pick, seen: Counter | None = None, full_every: int = 50) -> int:
    """Deal from ``seed`` on both sides and play ``pick(legal count)`` until the
    end, comparing after every step; returns the steps."""
    grow = game_row(game)
    py = game.new_initial_state(seed)
    row = LAYOUT.new_rows(1)[0]
    kernel.new_game(row, grow, seed)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    steps = 0
    while True:
        same_position(py, row, game, steps % full_every == 0 or py.done)
        same_view(py, row, grow, mask)
        if py.done:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[pick(len(legal))])
        if seen is not None:
            seen[py.phase_name()] += 1
        py.apply(action)
        kernel.apply_action(row, grow, action)
        steps += 1
    if seen is not None:
        seen["truncated" if py.truncated else "won"] += 1
    out = np.full(game.num_players, np.nan)
    kernel.returns(row, grow, out)
    np.testing.assert_array_equal(out, py.returns())
    return steps


def uniform(rng: np.random.Generator):
    return lambda count: int(rng.integers(count))


def test_the_kernel_plays_as_the_rules():
    """One game per configuration, compared at every step; together they ask
    every decision but the rarest (the slow sweep has them), and end won and truncated."""
    seen: Counter = Counter()
    for index, config in enumerate(CONFIGS):
        play_both(AmberGame(**config), index, uniform(np.random.default_rng(index)), seen)
    rare = {"SHADOW_MASTERY", "SUCCESSION", "BLOCK"}  # asked once in hundreds of games
    wanted = {phase.name for phase in Phase if phase != Phase.GAME_OVER} - rare
    assert wanted | {"won", "truncated"} <= set(seen), sorted(wanted - set(seen))


def test_a_loaded_position_plays_on_in_the_kernel():
    """A position read from its dict (mid-war, with memories) continues in the row as in the rules."""
    game = AmberGame(**CONFIGS[3])
    grow = game_row(game)
    rng = np.random.default_rng(7)
    py = game.new_initial_state(7)
    while py.war is None or not any(py.known_top):
        if py.done:
            py = game.new_initial_state(int(rng.integers(10**6)))
        legal = py.legal_actions()
        py.apply(int(legal[rng.integers(len(legal))]))
    py = game.state_from_dict(py.to_dict())
    row = LAYOUT.write(py, LAYOUT.new_rows(1)[0])
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    for _ in range(60):
        same_position(py, row, game, False)
        same_view(py, row, grow, mask)
        if py.done:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[rng.integers(len(legal))])
        py.apply(action)
        kernel.apply_action(row, grow, action)


def test_the_deal_from_seed_zero_to_big_seeds_on_a_used_row():
    game = AmberGame(num_players=4, attribute_mode="rolled", deck_override=["GOSSIP", "FIGHT", "GOSSIP"])
    grow = game_row(game)
    row = LAYOUT.new_rows(1)[0]
    row[:] = 12345  # a used row: new_game writes every word
    for seed in (0, 1, 2**31 - 1, 2**40 + 3, 2**63 - 1):
        kernel.new_game(row, grow, seed)
        same_position(game.new_initial_state(seed), row, game, True)


@pytest.mark.slow
def test_many_games_play_as_the_rules():
    """Twenty games per configuration (several minutes in all), the rarest decisions among them."""
    seen: Counter = Counter()
    for config in CONFIGS:
        game = AmberGame(**config)
        for seed in range(1000, 1020):
            play_both(game, seed, uniform(np.random.default_rng(seed)), seen, full_every=25)
    assert {phase.name for phase in Phase if phase != Phase.GAME_OVER} <= set(seen)
