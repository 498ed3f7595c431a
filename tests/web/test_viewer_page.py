"""``meeplezoo view``: one self-contained page per replay, with one frame
per position, the move names, and nothing a ``--viewer`` seat may not know."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from meeplezoo.agents.web.move_labels import move_label
from meeplezoo.agents.web.tile_codec import decode_frames
from meeplezoo.agents.web.viewer_page import viewer_html
from meeplezoo.cli import main
from meeplezoo.envs.core.replay import replay_states
from tests.web.helpers import hidden_seatings, page_data, random_replay, seatings

SHORT = 16  # moves kept of each random game (each position is drawn: the cost)


@pytest.mark.parametrize(("name", "players"), seatings())
def test_spectator_page_has_every_position_and_move_name(name, players):
    record = random_replay(name, players, seed=players, max_moves=SHORT)
    html = viewer_html(record)
    data = page_data(html)
    frames = decode_frames(data["pictures"])
    assert len(frames) == len(data["labels"]) == len(record.actions) + 1
    assert data["labels"][0] is None
    assert "Spectator view: everything is shown" in data["viewNote"]
    for i, state in enumerate(replay_states(record)):
        assert np.array_equal(frames[i], state.render_rgb(None))
        if i < len(record.actions):
            assert data["moved"][i + 1] == state.current_player
            assert data["labels"][i + 1] == state.action_to_string(record.actions[i])


def test_page_is_self_contained():
    html = viewer_html(random_replay("gem_mountain_v0", 3, seed=5, max_moves=SHORT))
    assert not re.search(r"https?://", html)
    for attr in re.findall(r'(?:src|href)\s*=\s*["\']([^"\']*)', html):
        assert attr.startswith(("data:", "#")), attr
    assert "<script src" not in html and '<link rel="stylesheet"' not in html


def test_final_position_shows_the_returns():
    record = random_replay("gem_mountain_v0", 2, seed=1)
    data = page_data(viewer_html(record))
    assert data["toMove"][-1] == -1
    assert data["rewards"][-1] == record.meta["returns"]
    assert all(r == [0.0, 0.0] for r in data["rewards"][:-1])


@pytest.mark.parametrize(("name", "players"), hidden_seatings())
def test_viewer_page_is_the_same_for_positions_the_viewer_cannot_tell_apart(name, players):
    viewer = players - 1
    record = random_replay(name, players, seed=11 * players, max_moves=30)
    data = page_data(viewer_html(record, viewer))
    frames = decode_frames(data["pictures"])
    assert f"Seen by player_{viewer}" in data["viewNote"]
    rng = np.random.default_rng(players)
    for i, state in enumerate(replay_states(record)):
        twin = state.determinize(viewer, rng)
        assert np.array_equal(frames[i], twin.render_rgb(viewer)), f"picture {i} shows hidden information"
        if i == len(record.actions):
            break
        action = record.actions[i]
        if twin.legal_action_mask()[action]:
            assert data["labels"][i + 1] == move_label(twin, action, viewer)


def test_amoeba_viewer_page_hides_the_other_seats_tile_choices():
    record = random_replay("amoeba_v0", 2, seed=3, max_moves=SHORT)
    data = page_data(viewer_html(record, 0))
    others = [label for label, seat in zip(data["labels"][1:], data["moved"][1:]) if seat != 0]
    own = [label for label, seat in zip(data["labels"][1:], data["moved"][1:]) if seat == 0]
    assert "select a tile (not shown)" in others
    assert not any("tile" in label and "not shown" not in label for label in others)
    assert any(label.startswith("select slot") for label in own)


# --- the command ------------------------------------------------------------------


@pytest.fixture
def replay_file(tmp_path):
    path = tmp_path / "game.json"
    random_replay("gem_mountain_v0", 2, seed=2, max_moves=12).save(path)
    return path


def test_view_writes_the_page_beside_the_replay(replay_file, capsys):
    assert main(["view", str(replay_file)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert (replay_file.parent / "game.html").read_text().startswith("<!DOCTYPE html>")
    assert main(["view", str(replay_file), "--viewer", "1", "-o", str(replay_file.parent / "p1.html")]) == 0
    assert "Seen by player_1" in (replay_file.parent / "p1.html").read_text()


def _tamper(path, **changes):
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing", "No such file"),
        ("not_json", "not valid JSON"),
        ("not_replay", "not a meeplezoo replay"),
        ("tampered", "is not legal"),
        ("out_of_range", "action #0 (1000000) is not legal"),
        ("viewer", "is not a seat of this game (seats 0-1)"),
        ("output", "No such file"),
        ("overwrite", "would overwrite the replay"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(case, message, replay_file, tmp_path, capsys):
    args = ["view", str(replay_file)]
    if case == "missing":
        args = ["view", str(tmp_path / "nothing.json")]
    elif case == "not_json":
        replay_file.write_text("{not json")
    elif case == "not_replay":
        replay_file.write_text("{}")
    elif case == "tampered":
        actions = json.loads(replay_file.read_text())["actions"]
        _tamper(replay_file, actions=actions[:3] + [actions[3] + 1 if actions[3] < 80 else 0] * 40)
    elif case == "out_of_range":
        _tamper(replay_file, actions=[10**6])
    elif case == "viewer":
        args += ["--viewer", "2"]
    elif case == "output":
        args += ["-o", str(tmp_path / "no" / "such" / "folder.html")]
    elif case == "overwrite":
        args += ["-o", str(replay_file)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("meeplezoo view: "), err
    assert message in err


def test_arena_replays_html_writes_a_page_beside_each_replay(tmp_path, capsys):
    common = ["arena", "gem_mountain", "--agents", "random", "random", "--games", "2", "--no-progress"]
    assert main([*common, "--out", str(tmp_path / "a"), "--replays", "html"]) == 0
    names = sorted(p.name for p in (tmp_path / "a" / "replays").iterdir())
    assert names == ["game_00000.html", "game_00000.json", "game_00001.html", "game_00001.json"]
    assert main([*common, "--out", str(tmp_path / "b"), "--replays"]) == 0
    assert sorted(p.name for p in (tmp_path / "b" / "replays").iterdir()) == [
        "game_00000.json",
        "game_00001.json",
    ]
