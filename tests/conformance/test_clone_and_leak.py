"""clone() is independent of its source; determinize() keeps exactly what a
player knows, so the player's observation cannot tell the difference."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance.cases import CASE_IDS, CASES
from tests.conformance.play import play_random_state, random_action

HIDDEN = [c for c in CASES if c.make_game().info.hidden_information]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_stepping_a_clone_never_changes_the_source(case):
    game = case.make_game()
    for seed in range(4):
        state, _ = play_random_state(game, seed, until=5 + 7 * seed)
        if state.done:
            continue
        before = state.to_dict()
        clone = state.clone()
        assert clone.to_dict() == before
        rng = np.random.default_rng(seed)
        while not clone.done:
            clone.apply(random_action(clone.legal_action_mask(), rng))
        assert state.to_dict() == before
        # and the source still plays the same as a fresh copy of itself
        again = game.state_from_dict(before)
        a = random_action(state.legal_action_mask(), np.random.default_rng(1))
        state.apply(a)
        again.apply(a)
        assert state.to_dict() == again.to_dict()


@pytest.mark.parametrize("case", HIDDEN, ids=[c.id for c in HIDDEN])
def test_determinize_does_not_change_what_the_player_sees(case):
    game = case.make_game()
    checked = 0
    for seed in range(12):
        state, _ = play_random_state(game, seed, until=3 + 9 * seed)
        before = state.to_dict()
        for player in range(game.num_players):
            obs = state.observation(player)
            for k in range(3):
                sample = state.determinize(player, np.random.default_rng(100 * seed + k))
                assert np.array_equal(sample.observation(player), obs), (
                    f"player {player}'s observation changed under determinization"
                )
                assert sample.current_player == state.current_player
                if state.current_player == player:
                    assert np.array_equal(sample.legal_action_mask(), state.legal_action_mask())
                checked += 1
        assert state.to_dict() == before, "determinize() changed its source"
    assert checked > 0


@pytest.mark.parametrize("case", HIDDEN, ids=[c.id for c in HIDDEN])
def test_determinizations_differ_somewhere(case):
    """Resampling must actually resample hidden things (else the leak test
    above proves nothing)."""
    game = case.make_game()
    differs = False
    for seed in range(12):
        state, _ = play_random_state(game, seed, until=seed % 4 + (seed // 4) * 6)
        if state.done:
            continue
        p = state.current_player
        samples = [state.determinize(p, np.random.default_rng(k)).to_dict() for k in range(4)]
        if any(s != samples[0] for s in samples[1:]):
            differs = True
            break
    assert differs


@pytest.mark.parametrize("case", HIDDEN, ids=[c.id for c in HIDDEN])
def test_determinize_depends_only_on_the_information_set(case):
    """Two states that differ only in what the player cannot see (the truth
    and a determinization of it) resample to the same state for the same
    generator: a searcher's choices cannot depend on hidden things."""
    game = case.make_game()
    for seed in range(6):
        state, _ = play_random_state(game, seed, until=seed * 7)
        if state.done:
            continue
        p = state.current_player
        twin = state.determinize(p, np.random.default_rng(999 + seed))
        a = state.determinize(p, np.random.default_rng(seed)).to_dict()
        b = twin.determinize(p, np.random.default_rng(seed)).to_dict()
        a.pop("rng", None)
        b.pop("rng", None)
        assert a == b, "determinize() reads hidden information of the state it is given"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_evaluate_fits_the_reward_range(case):
    game = case.make_game()
    lo, hi = game.reward_range
    for seed in range(4):
        state, _ = play_random_state(game, seed, until=10 * seed)
        values = np.asarray(state.evaluate(), dtype=float)
        assert values.shape == (game.num_players,)
        assert np.all(values >= lo - 1e-9) and np.all(values <= hi + 1e-9)
        if state.done:
            assert np.allclose(values, state.returns())
