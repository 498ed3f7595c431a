"""Shared bits of the training tests: tiny settings and the games to cover."""

from __future__ import annotations

import pytest

from meeplezoo import envs

TINY = {
    "n_steps": 128,
    "batch_size": 64,
    "n_epochs": 1,
    "net_arch": [32, 32],
    "eval_every": 0,
    "snapshot_every": 128,
    "checkpoint_every": 256,
    "final_games": 3,
    "final_workers": 1,
    "eval_mcts_spec": "mcts:sims=2",
}


def game_names() -> list:
    """Every registered game, or one skipped placeholder while none exists."""
    names = envs.names()
    if not names:
        return [pytest.param(None, marks=pytest.mark.skip(reason="no game registered yet"))]
    return names
