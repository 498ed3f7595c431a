"""The compiled rules (``kernel/rules.py``) play exactly as ``rules.py``: the
same deal from a seed, then step by step the same position (every field,
the deck, the fights and the generator), the same legal mask, seat to move
and end, and the same returns; on every configuration the tests name."""

from __future__ import annotations

from collections import Counter
from functools import partial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.gold_rush_gangs.kernel import rules as kernel
from meeplezoo.envs.gold_rush_gangs.kernel import slots as S
from meeplezoo.envs.gold_rush_gangs.kernel.game_row import game_row
from tests.core.kernel_checks import assert_same_position, assert_same_view
from tests.gold_rush_gangs.kernel_configs import CONFIGS, game_of

LAYOUT_STATE = S.STATE_LAYOUT
SMALL_BOARDS = [index for index in range(len(CONFIGS)) if game_of(index).num_cells < 100]


same_position = partial(assert_same_position, LAYOUT_STATE)  # (py, row, game, full)
same_view = partial(assert_same_view, kernel)  # (py, row, grow, mask)


def play_both(game, seed, pick, seen: Counter | None = None, full: bool = True, check=None) -> int:
    """Deal from ``seed`` on both sides and play ``pick(legal count)`` until the
    end, comparing after every step (and calling ``check(py, row)``); returns the steps."""
    grow = game_row(game)
    py = game.new_initial_state(seed)
    row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
    kernel.new_game(row, grow, seed)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    steps = 0
    while True:
        same_position(py, row, game, full)
        same_view(py, row, grow, mask)
        if check is not None:
            check(py, row)
        if py.done:
            break
        legal = np.flatnonzero(mask)
        action = int(legal[pick(len(legal))])
        if seen is not None:
            seen[py.action_to_string(action).split(" ")[0]] += 1
        pile = len(py.deck.draw_pile)
        py.apply(action)
        kernel.apply_action(row, grow, action)
        steps += 1
        if seen is not None:
            seen["fights"] += len(py.last_combat)
            seen["reshuffles"] += len(py.deck.draw_pile) > pile
    if seen is not None:
        seen["truncated" if py.truncated else "won"] += 1
    out = np.full(game.num_players, np.nan)
    kernel.returns(row, grow, out)
    np.testing.assert_allclose(out, py.returns(), rtol=0, atol=1e-12)
    return steps


def uniform(rng: np.random.Generator):
    return lambda count: int(rng.integers(count))


def mover(rng: np.random.Generator, game):
    """Ends a turn only one time in eight: games with more steps, fights and deliveries."""

    def pick(count: int) -> int:
        if count > 1 and rng.random() < 0.875:
            return int(rng.integers(count - 1))  # END is the last action
        return int(rng.integers(count))

    return pick


@pytest.mark.parametrize("index", SMALL_BOARDS)
def test_the_kernel_plays_as_the_rules(index):
    game = game_of(index)
    steps = 0
    for seed in range(3):
        steps += play_both(game, seed, mover(np.random.default_rng([index, seed]), game), full=seed == 0)
    assert steps > 0


def test_the_random_runs_reach_every_action_fight_and_end():
    """The differential runs are worth something only if they reach every kind of
    action, fights, the deck's reshuffle, wins and the turn limit."""
    seen: Counter = Counter()
    for index in SMALL_BOARDS:
        for seed in range(3):
            play_both(
                game_of(index), seed, mover(np.random.default_rng([index, seed]), None), seen, full=False
            )
    assert {"store", "deploy", "move", "pickup", "break", "end"} <= set(seen)
    assert seen["fights"] > 0 and seen["reshuffles"] > 0
    assert seen["won"] > 0 and seen["truncated"] > 0


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.sampled_from(SMALL_BOARDS),
    seed=st.integers(0, 2**63 - 2),
    picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=300),
)
def test_any_seed_and_choices_play_the_same(index, seed, picks):
    game = game_of(index)
    it = iter(picks)
    play_both(game, seed, lambda count: next(it, 0) % count, full=False)


def test_play_random_takes_the_kth_legal_action_drawn_from_its_generator():
    for index in (SMALL_BOARDS[0], SMALL_BOARDS[2]):
        game = game_of(index)
        grow = game_row(game)
        row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
        kernel.new_game(row, grow, 5)
        gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
        pcg64.seed(gen, 17)
        rng = pcg64.from_words(gen)
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        steps = kernel.play_random(row, grow, gen, mask, 10**6)
        py = game.new_initial_state(5)
        replayed = 0
        while not py.done:
            legal = np.flatnonzero(py.legal_action_mask())
            py.apply(int(legal[rng.integers(0, len(legal))]))
            replayed += 1
        assert steps == replayed
        same_position(py, row, game, full=True)
        assert kernel.play_random(row, grow, gen, mask, 10) == 0


def test_the_deal_from_seed_zero_to_big_seeds_on_a_used_row():
    """A new game overwrites every word of a row that held another game."""
    for index in range(len(CONFIGS)):
        game = game_of(index)
        grow = game_row(game)
        row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
        kernel.new_game(row, grow, 3)
        gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
        pcg64.seed(gen, 9)
        kernel.play_random(row, grow, gen, np.zeros(game.num_actions, dtype=np.bool_), 60)
        for seed in (0, 1, 2**32 + 7, 2**63 - 2):
            kernel.new_game(row, grow, seed)
            same_position(game.new_initial_state(seed), row, game, full=True)


def test_a_loaded_position_plays_on_in_the_kernel():
    """A row written from a mid-game reference State (as ``CompiledState.of`` does) plays on as it."""
    game = game_of(SMALL_BOARDS[0])
    py = game.new_initial_state(11)
    rng = np.random.default_rng(3)
    for _ in range(80):
        legal = np.flatnonzero(py.legal_action_mask())
        py.apply(int(legal[rng.integers(len(legal))]))
    py = game.state_from_dict(py.to_dict())
    row = LAYOUT_STATE.write(py, np.zeros(S.STATE_WIDTH, dtype=np.int64))
    grow, mask = game_row(game), np.zeros(game.num_actions, dtype=np.bool_)
    while not py.done:
        same_view(py, row, grow, mask)
        legal = np.flatnonzero(mask)
        action = int(legal[rng.integers(len(legal))])
        py.apply(action)
        kernel.apply_action(row, grow, action)
        same_position(py, row, game, full=False)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_many_games_play_as_the_rules(index):
    game = game_of(index)
    for seed in range(1000, 1000 + (6 if game.num_cells > 100 else 60)):
        rng = np.random.default_rng([index, seed])
        pick = mover(rng, game) if seed % 2 else uniform(rng)
        play_both(game, seed, pick, full=seed % 10 == 0)
