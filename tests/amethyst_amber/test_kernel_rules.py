"""The compiled rules (``kernel/rules.py``) play exactly as ``rules.py``: the
same deal from a seed, then step by step the same position (every field,
the bitboards and the generator words), the same legal mask in the acting
seat's frame, seat to move and end, and the same returns; on every option
the configurations in ``kernel_configs`` push to its ends."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.amethyst_amber.kernel import rules as kernel
from meeplezoo.envs.amethyst_amber.kernel import slots as S
from meeplezoo.envs.amethyst_amber.kernel.game_row import game_row
from meeplezoo.envs.amethyst_amber.kernel.spec import KERNEL
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame
from meeplezoo.envs.core.compiled import pcg64
from meeplezoo.envs.core.compiled.random_play import random_player
from tests.amethyst_amber.kernel_configs import CONFIGS, HOARD, RAID, game_of
from tests.amethyst_amber.kernel_play import play_both, same_position, same_view, uniform


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_kernel_plays_as_the_rules(index):
    game = game_of(index)
    assert play_both(game, index, uniform(np.random.default_rng(index))) > 0


def test_the_random_runs_reach_every_action_kind_capture_and_end():
    """The differential runs are worth something only if they place, move,
    step, capture attackers and resources, free prisoners, win and run out of turns."""
    seen: Counter = Counter()

    def note(py, _row) -> None:
        if any(py.prisoners_under):
            seen["prisoner"] += 1
        if py.hand[0] or py.hand[1]:
            seen["captured resource"] += 1

    for config in (RAID, HOARD):
        game = AmethystAmberGame(**config)
        for seed in range(3):
            play_both(game, seed, uniform(np.random.default_rng([99, seed])), seen, full=False, check=note)
    kinds = {key[1] for key in seen if isinstance(key, tuple)}
    assert kinds >= {"place_defender", "select", "dest", "end", "place_attacker", "place_resource", "step"}
    assert {("END", "over"), "prisoner", "captured resource"} <= set(seen)
    play_both(game_of(len(CONFIGS) - 1), 0, uniform(np.random.default_rng(0)), seen, full=False)
    assert ("END", "truncated") in seen


def test_pass_is_the_only_action_when_nothing_else_is_legal():
    """A seat with no defender, no attacker and nothing in hand or reserve passes."""
    game = AmethystAmberGame(defenders_per_player=0, attackers_per_player=2)
    position = game.new_initial_state(3).to_dict()
    position["reserve_attackers"] = [0, 2]
    position["current"] = 0
    py = game.state_from_dict(position)
    row = S.STATE_LAYOUT.write(py, np.zeros(S.STATE_WIDTH, dtype=np.int64))
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    same_view(py, row, game_row(game), mask)
    assert np.flatnonzero(mask).tolist() == [kernel.PASS]
    py.apply(kernel.PASS)
    kernel.apply_action(row, game_row(game), kernel.PASS)
    same_position(py, row, game, full=True)
    same_view(py, row, game_row(game), mask)


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**63 - 2),
    picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=300),
)
def test_any_seed_and_choices_play_the_same(index, seed, picks):
    game = game_of(index)
    it = iter(picks)
    play_both(game, seed, lambda count: next(it) % count, full=False, most=len(picks))


def test_the_engines_random_player_takes_the_kth_legal_action_drawn_from_its_generator():
    play = random_player(KERNEL)
    for index in (0, 4):
        game = game_of(index)
        grow = game_row(game)
        row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
        kernel.new_game(row, grow, 5)
        gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
        pcg64.seed(gen, 17)
        rng = pcg64.from_words(gen)
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        steps = play(row, grow, gen, mask, 10**6)
        py = game.new_initial_state(5)
        replayed = 0
        while not py.done:
            legal = np.flatnonzero(py.legal_action_mask())
            py.apply(int(legal[rng.integers(0, len(legal))]))
            replayed += 1
        assert steps == replayed
        same_position(py, row, game, full=True)
        assert play(row, grow, gen, mask, 10) == 0


def test_the_deal_from_seed_zero_to_big_seeds():
    for index in range(len(CONFIGS)):
        game = game_of(index)
        for seed in (0, 1, 2**32 + 7, 2**63 - 2):
            row = np.zeros(S.STATE_WIDTH, dtype=np.int64)
            kernel.new_game(row, game_row(game), seed)
            same_position(game.new_initial_state(seed), row, game, full=True)


def test_bitboards_round_trip_through_the_row_and_too_wide_ones_are_refused():
    game = game_of(0)
    py = game.new_initial_state(0)
    py.defender_bits = [1 << 360 | 1 << 63 | 1, 1 << 64]
    row = S.STATE_LAYOUT.write(py, np.zeros(S.STATE_WIDTH, dtype=np.int64))
    assert S.STATE_LAYOUT.read(row, game).defender_bits == py.defender_bits
    py.defender_bits = [1 << (64 * S.WORDS), 0]
    with pytest.raises(ValueError, match="does not fit"):
        S.STATE_LAYOUT.write(py, np.zeros(S.STATE_WIDTH, dtype=np.int64))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_many_games_play_as_the_rules(index):
    game = game_of(index)
    for seed in range(1000, 1030):
        play_both(game, seed, uniform(np.random.default_rng([index, seed])), full=seed % 10 == 0)
