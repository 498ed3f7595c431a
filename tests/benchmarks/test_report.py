"""Ratios, targets and the written report, from results of a real tiny run."""

import json
from pathlib import Path

from meeplezoo.benchmarks import report, suite
from meeplezoo.benchmarks.subjects import Subject, floor_subject, game_subjects_for
from meeplezoo.benchmarks.timing import Settings
from tests.core.toy_game import HighCardEnv, HighCardGame

TINY = Settings(repeats=5, repeat_seconds=0.005, warmup_seconds=0.002, call_seconds=0.002, positions=4)


def _run():
    # the floor stands in for the baseline too, so the ratio logic is exercised without peers
    baseline = Subject(name="connect_four_v3", kind="peer", make_env=floor_subject().make_env)
    subjects = game_subjects_for("high_card_v0", HighCardGame, HighCardEnv) + [baseline, floor_subject()]
    return suite.run(subjects, TINY, {"chess_v6": "not installed"}, command="meeplezoo bench --quick")


def test_ratios_divide_medians_of_the_same_run():
    result = _run()
    by_label = {r["label"]: r for r in result["results"]}
    game, floor = by_label["high_card_v0"], by_label["floor"]
    base = by_label["connect_four_v3"]["aec"]["values"]
    assert len(base) == 5
    assert game["vs_baseline"]["values"] == [a / b for a, b in zip(game["aec"]["values"], base)]
    assert game["vs_floor"]["values"] == [
        a / b for a, b in zip(game["aec"]["values"], floor["aec"]["values"])
    ]
    assert floor["vs_floor"]["median"] == 1.0
    aec_targets = [t for t in result["targets"] if "AEC" in t["target"]]
    assert [t["subject"] for t in aec_targets] == ["high_card_v0", "high_card_v0 heavy"]
    assert all(t["met"] == (by_label[t["subject"]]["vs_baseline"]["median"] >= 2.0) for t in aec_targets)


def test_a_failing_subject_is_reported_not_fatal():
    def broken():
        raise RuntimeError(f"no board ({Path(suite.__file__).resolve()})")

    result = suite.run([Subject(name="broken", kind="game", make_env=broken), floor_subject()], TINY)
    assert result["results"][0]["error"] == "RuntimeError: no board (benchmarks/suite.py)"
    assert "aec" in result["results"][1]
    assert "error: RuntimeError: no board" in report.markdown(result)


def test_saved_report_has_command_method_and_machine(tmp_path):
    result = _run()
    report.save(result, tmp_path / "r.json", tmp_path / "r.md")
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["command"] == "meeplezoo bench --quick"
    assert data["machine"]["cores"] >= 1 and data["machine"]["packages"]["numpy"]
    assert data["settings"]["repeats"] == 5 and data["settings"]["clock"] == "cpu"
    text = (tmp_path / "r.md").read_text()
    assert "`meeplezoo bench --quick`" in text and "## Method" in text
    assert "chess_v6: not installed" in text
    assert "| high_card_v0 heavy |" in text and "num_players=4" in text
