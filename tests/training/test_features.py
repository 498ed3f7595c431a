"""Policy input layers: the board CNN reads planes and globals where the game says."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces

from meeplezoo import envs
from meeplezoo.training import configs
from meeplezoo.training.features import PlanesCNN, SymlogFlatten
from meeplezoo.training.league import load_policy
from meeplezoo.training.train import train
from tests.training.helpers import TINY

PLANES, ROWS, COLS, GLOBALS = 3, 4, 5, 7


def cnn() -> PlanesCNN:
    space = spaces.Box(-127, 127, (PLANES * ROWS * COLS + GLOBALS,), np.int8)
    torch.manual_seed(0)
    return PlanesCNN(space, (PLANES, ROWS, COLS), channels=6, out_channels=2, global_features=4)


def test_cnn_output_is_per_cell_features_then_globals():
    net = cnn()
    out = net(torch.zeros(3, PLANES * ROWS * COLS + GLOBALS))
    assert out.shape == (3, 2 * ROWS * COLS + 4) == (3, net.features_dim)


def test_cnn_reads_planes_as_images_and_lets_the_globals_shift_them():
    net = cnn()
    board = PLANES * ROWS * COLS
    base = torch.zeros(1, board + GLOBALS)
    moved_global, moved_cell = base.clone(), base.clone()
    moved_global[0, board + 3] = 50.0
    moved_cell[0, 1 * ROWS * COLS + 2 * COLS + 3] = 1.0  # plane 1, row 2, column 3
    out, out_g, out_c = net(base), net(moved_global), net(moved_cell)
    split = 2 * ROWS * COLS
    assert torch.equal(out[:, split:], out_c[:, split:])  # a cell leaves the global part alone
    assert not torch.equal(out[:, split:], out_g[:, split:])
    assert not torch.equal(out[:, :split], out_g[:, :split])  # globals reach every cell's features
    # two 3x3 convolutions: a cell reaches at most two steps away; (0, 0) is three from (2, 3)
    maps = (out_c - out)[0, :split].reshape(2, ROWS, COLS).abs().sum(0)
    assert maps[0, 0] == 0


def test_cnn_refuses_planes_larger_than_the_observation():
    with pytest.raises(ValueError, match="do not fit"):
        PlanesCNN(spaces.Box(0, 1, (10,), np.float32), (2, 3, 3))


def test_symlog_squeezes_counters_and_keeps_zero_and_one_apart():
    out = SymlogFlatten(spaces.Box(-127, 127, (3,), np.int8))(torch.tensor([[0.0, 1.0, 127.0]]))
    assert out[0, 0] == 0 and out[0, 1] == pytest.approx(np.log(2)) and out[0, 2] < 5


def test_features_setting_is_checked():
    params = configs.hyperparams("gem_mountain", {"features": "cnn"})
    with pytest.raises(ValueError, match="board planes"):
        configs.ppo_kwargs(params, None)
    with pytest.raises(ValueError, match="features must be"):
        configs.ppo_kwargs(configs.hyperparams("gem_mountain", {"features": "transformer"}))


PLANE_GAMES = [n for n in envs.names() if envs.make_game(n).observation_planes is not None]


@pytest.mark.parametrize("name", PLANE_GAMES)
def test_cnn_policy_trains_and_plays_legal_moves(name, tmp_path):
    summary = train(
        name,
        timesteps=128,
        config={**TINY, "features": "cnn", "cnn_channels": 4},
        out=tmp_path,
        progress=False,
        final_eval=False,
    )
    policy = load_policy(summary["final_model"])
    assert isinstance(policy.features_extractor, PlanesCNN)
    game = envs.make_game(name)
    state = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        if state.done:
            break
        p = state.current_player
        mask = state.legal_action_mask()
        action, _ = policy.predict(state.observation(p), action_masks=mask, deterministic=True)
        assert mask[int(action)]
        state.apply(int(rng.choice(np.flatnonzero(mask))))


def test_board_policy_scores_every_cell_with_the_same_weights():
    """Two cells with the same features and surroundings get the same
    per-cell score; the dense part is what may tell them apart."""
    from meeplezoo.training.policies import CellActionHead

    cells, channels = 6, 3
    head = CellActionHead(channels * cells + 2, channels, cells, [0, 1, 2, 3, 4, 5, 5 + cells, -1])
    torch.nn.init.zeros_(head.dense.weight)
    torch.nn.init.zeros_(head.dense.bias)
    latent = torch.zeros(1, channels * cells + 2)
    latent[0, [1, 4]] = 2.0  # channel 0 of cells 1 and 4
    logits = head(latent)[0]
    assert logits.shape == (8,)
    assert logits[1] == logits[4] != logits[0]
    assert logits[0] == logits[2] == logits[3] == logits[5]
    assert logits[7] == 0  # not a cell action: the dense part only
    assert head.score.out_features == 2  # action 6 is a second kind of cell action


def test_board_policy_trains_saves_and_reloads(tmp_path):
    from meeplezoo.training.policies import BoardPolicy

    summary = train(
        "gem_mountain",
        timesteps=128,
        config={**TINY, "features": "board", "cnn_channels": 4},
        out=tmp_path,
        progress=False,
        final_eval=False,
    )
    policy = load_policy(summary["final_model"])
    assert isinstance(policy, BoardPolicy)
    snapshots = sorted((tmp_path / "league").glob("*"))
    assert snapshots and isinstance(load_policy(str(snapshots[0])), BoardPolicy)
    game = envs.make_game("gem_mountain")
    state = game.new_initial_state(0)
    mask = state.legal_action_mask()
    action, _ = policy.predict(state.observation(state.current_player), action_masks=mask, deterministic=True)
    assert mask[int(action)]


def test_board_features_need_a_game_with_cell_actions():
    with pytest.raises(ValueError, match="action_cells"):
        configs.ppo_kwargs(configs.hyperparams("amoeba", {"features": "board"}), envs.make_game("amoeba"))
