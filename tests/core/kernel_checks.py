"""The comparisons every kernel's differential test makes after each step:
the row against the reference State written by the layout, and the view a
player gets (mask, seat to move, end flags)."""

from __future__ import annotations

import numpy as np

import meeplezoo


def assert_same_position(layout, py, row, game, full: bool) -> None:
    """The row holds ``py`` word for word (naming the fields that differ);
    with ``full``, read back it is the same position dict too."""
    expected = layout.write(py, np.zeros(layout.width, dtype=np.int64))
    if not np.array_equal(row, expected):
        wrong = sorted(
            name for name, slot in layout.slots.items() if (row != expected)[slot.offset : slot.end].any()
        )
        raise AssertionError(f"the rows differ in {wrong}")
    if full:
        assert layout.read(row, game).to_dict() == py.to_dict()


def assert_same_view(kernel, py, row, grow, mask) -> None:
    """The same legal mask, seat to move and end (``kernel``: the rules module)."""
    kernel.legal_mask(row, grow, mask)
    np.testing.assert_array_equal(mask, py.legal_action_mask())
    assert kernel.current_player(row) == py.current_player
    assert kernel.is_terminal(row) == py.terminal
    assert kernel.is_truncated(row) == py.truncated


def reference_view(env) -> tuple[np.ndarray, np.ndarray, int]:
    """The AEC env's observation, mask and seat to move (a make_vec slot's view)."""
    obs = env.observe(env.agent_selection)
    return obs["observation"], obs["action_mask"].astype(bool), env.agent_name_mapping[env.agent_selection]


def reference_step(env, action: int) -> tuple[np.ndarray, bool, bool]:
    """One move; at the game's end its rewards and flags, then the next game (as a slot resets)."""
    env.step(action)
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        rewards = np.array([env.rewards[a] for a in env.possible_agents])
        ended = env.terminations[agent], env.truncations[agent]
        env.reset()
        return rewards, *ended
    return np.zeros(len(env.possible_agents)), False, False


def play_slots_against_the_reference(vec, refs, state, steps: int, rng) -> int:
    """Step a make_vec batch and one AEC env per slot with the same random
    actions, checking each slot's view (the observation byte for byte, so
    float bits too) and each step's rewards and flags; returns the games ended."""
    ended = 0
    for _ in range(steps):
        for i, env in enumerate(refs):
            obs, mask, seat = reference_view(env)
            assert state.current_player[i] == seat
            assert np.array_equal(state.legal_action_mask[i], mask)
            assert np.array_equal(state.observation[i].view(np.uint8), obs.view(np.uint8))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask])
        state = vec.step(actions)
        for i, env in enumerate(refs):
            rewards, terminated, truncated = reference_step(env, int(actions[i]))
            assert np.array_equal(state.rewards[i], rewards.astype(state.rewards.dtype))  # float32, as Pgx
            assert (state.terminated[i], state.truncated[i]) == (terminated, truncated)
            ended += terminated or truncated
    return ended


def play_fresh_slots_against_the_reference(
    name: str, config: dict, seed: int, slots: int, steps: int, rng
) -> int:
    """:func:`play_slots_against_the_reference` from the start: ``make_vec``
    reset at ``seed`` beside one AEC env per slot on the Python rules,
    slot ``i`` seeded ``seed + i``; returns the games ended."""
    vec = meeplezoo.make_vec(name, slots, **config)
    state = vec.reset(seed)
    refs = [meeplezoo.make(name, backend="python", **config) for _ in range(slots)]
    for i, env in enumerate(refs):
        env.reset(seed=seed + i)
    return play_slots_against_the_reference(vec, refs, state, steps, rng)
