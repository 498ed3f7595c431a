"""The compiled rules (``kernel/rules.py``) play exactly as ``rules.py``: the
same deal from a seed, then step by step the same position (every field
and the generator), the same legal mask, seat to move and end, and the same
returns; for every configuration the tests name, the splits of amoebas
included (random play on small boards, and the rule book's split pictures
with every tile and rotation tried)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeplezoo.envs.amoeba.kernel import rules as kernel
from meeplezoo.envs.amoeba.kernel.game_row import game_row
from tests.amoeba.helpers import own, start_turn
from tests.amoeba.kernel_configs import (
    CONFIGS,
    LAYOUT,
    game_of,
    play_both,
    row_of,
    same_position,
    same_view,
    uniform,
)
from tests.amoeba.test_splits import t_with_bystander, t_with_long_arm


def test_the_kernel_plays_as_the_rules_on_every_config():
    """Random games on every configuration; they are worth something only
    if they reach every phase, splits and both ends (merged bystanders: the
    split pictures below)."""
    seen: Counter = Counter()
    for index in range(len(CONFIGS)):
        for seed in range(2):
            rng = np.random.default_rng([index, seed])
            play_both(game_of(index), seed, uniform(rng), seen, full=seed == 0)
    assert seen["select"] and seen["anchor"] and seen["claim"]
    assert seen["split"]
    assert seen["truncated"] and seen["over"]


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**63 - 2),
    picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=300),
)
def test_any_seed_and_choices_play_the_same(index, seed, picks):
    it = iter(picks)
    play_both(game_of(index), seed, lambda count: next(it, 0) % count, full=False)


def test_the_deal_from_seed_zero_to_big_seeds():
    for index in range(len(CONFIGS)):
        game = game_of(index)
        for seed in (0, 1, 2**32 + 7, 2**63 - 2):
            row = LAYOUT.new_rows(1)[0]
            kernel.new_game(row, game_row(game), seed)
            same_position(game.new_initial_state(seed), row, full=True)


def _split_pictures():
    """The rule book's split pictures (``test_splits.py``), owned as there."""
    g, st = t_with_bystander(num_players=3)
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 2, d=0)
    yield st
    g, st = t_with_bystander(nuclei_per_player=1)
    own(st, (11, 12), 1, d=1)
    own(st, (13, 14), 0, d=0)
    yield st
    g, st = t_with_bystander()
    own(st, (11, 12), 1, d=1)
    yield st
    g, st = t_with_long_arm()
    st.put_ground(39, 1, g.geo.anchor_index(11, 13))
    own(st, (11, 14), 0, d=1)
    yield st


def _explore(py, depth: int, seen: Counter) -> None:
    """Every legal action from ``py`` on both sides, ``depth`` steps deep
    (``seen`` counts the positions compared and the splits made)."""
    grow = game_row(py.game)
    row = row_of(py)
    mask = np.zeros(py.game.num_actions, dtype=np.bool_)
    same_view(py, row, grow, mask)
    seen["positions"] += 1
    if depth == 0 or py.done:
        return
    for action in np.flatnonzero(mask):
        after, after_row = py.clone(), row.copy()
        after.apply(int(action))
        kernel.apply_action(after_row, grow, int(action))
        same_position(after, after_row, full=False)
        if after.last_split is not None:
            seen["split merged" if after.last_split["merged"] else "split"] += 1
        _explore(after, depth - 1, seen)


HANDS = [[37, 39, 38], [40, 41, 39]]


def test_every_cover_of_the_split_pictures_plays_the_same():
    seen: Counter = Counter()
    for picture in _split_pictures():
        for hand in HANDS:
            st = picture.clone()
            start_turn(st, 0, hand, die=2)
            _explore(st, 2, seen)
    assert seen["positions"] > 50
    assert seen["split"] and seen["split merged"]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_many_games_play_as_the_rules(index):
    game = game_of(index)
    for seed in range(1000, 1060):
        play_both(game, seed, uniform(np.random.default_rng([index, seed])), full=seed % 10 == 0)
