"""`meeplezoo bench` end to end: the CI smoke test of the real games and peers."""

import json

import pytest

from meeplezoo import envs
from meeplezoo.benchmarks.subjects import PEERS, select_subjects
from meeplezoo.cli import main
from tests.cli_helpers import assert_one_error_line


def test_quick_bench_covers_every_game_peer_and_the_floor(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--json", str(out), "--markdown", str(tmp_path / "bench.md")]) == 0
    data = json.loads(out.read_text())
    measured = {r["name"] for r in data["results"]}
    assert set(envs.names()) <= measured
    for label, _module, _kwargs in PEERS:
        assert label in measured or label in data["skipped"]
    assert "floor" in measured
    errors = {r["label"]: r["error"] for r in data["results"] if "error" in r}
    assert not errors
    assert "Step-loop throughput" in capsys.readouterr().out


def test_games_option_always_adds_baseline_and_floor():
    subjects, _skipped = select_subjects(["tictactoe_v3"])
    names = [s.name for s in subjects]
    assert names[-1] == "floor" and "tictactoe_v3" in names
    assert "connect_four_v3" in names or "connect_four_v3" in _skipped


def test_unknown_subject_is_refused(capsys):
    assert main(["bench", "--games", "no_such_game"]) == 2
    assert_one_error_line(capsys.readouterr().err, "unknown benchmark subject", "no_such_game")


def test_fewer_than_five_repeats_is_refused(capsys):
    assert main(["bench", "--games", "floor", "--repeats", "3"]) == 2
    assert_one_error_line(capsys.readouterr().err, "--repeats")


@pytest.mark.parametrize("name", envs.names() or [None])
def test_profile_names_hot_spots(name):
    if name is None:
        pytest.skip("no game registered yet")
    from meeplezoo.benchmarks.profile_game import profile

    text = profile(name, steps=300)
    assert "AEC loop" in text and "rules loop" in text and "tottime" in text


def test_missing_peer_is_skipped_with_the_install_hint(monkeypatch):
    from meeplezoo.benchmarks import subjects

    monkeypatch.setattr(subjects, "PEERS", [("absent_v0", "no_such_package.absent_v0", {})])
    found, skipped = subjects.peer_subjects()
    assert found == []
    assert "no_such_package" in skipped["absent_v0"] and "meeplezoo[bench]" in skipped["absent_v0"]


def test_missing_peer_hint_keeps_the_extra_in_brackets(monkeypatch, capsys):
    from meeplezoo.benchmarks import subjects

    # the baseline peer, always added, is what a machine without the bench extra misses
    monkeypatch.setattr(subjects, "PEERS", [(subjects.BASELINE, "no_such_package.connect_four_v3", {})])
    assert main(["bench", "--games", "floor", "--quick", "--repeats", "5", "--seconds", "0.005"]) == 0
    assert "pip install 'meeplezoo[bench]'" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--json", "--markdown"])
def test_unwritable_report_path_is_refused_before_timing(option, tmp_path, capsys, monkeypatch):
    from meeplezoo.benchmarks import suite

    monkeypatch.setattr(suite, "run", lambda *a, **k: pytest.fail("timed before checking the report path"))
    assert main(["bench", "--games", "floor", option, str(tmp_path)]) == 2
    assert_one_error_line(capsys.readouterr().err, option, str(tmp_path))
    (tmp_path / "a_file").write_text("keep me")
    assert main(["bench", "--games", "floor", option, str(tmp_path / "a_file" / "bench.json")]) == 2
    assert_one_error_line(capsys.readouterr().err, "a_file")
    assert [p.name for p in tmp_path.iterdir()] == ["a_file"]
    assert (tmp_path / "a_file").read_text() == "keep me"
