"""The search-strength benchmark plays both matches and merges its reports."""

from __future__ import annotations

import json

from meeplezoo.benchmarks import search_strength


def test_both_matches_are_played_and_a_later_run_adds_to_the_report(tmp_path):
    json_path, md_path = tmp_path / "strength.json", tmp_path / "strength.md"
    common = ["--games", "2", "--batch", "1", "--sims", "2", "--positions", "2"]
    files = ["--json", str(json_path), "--markdown", str(md_path)]
    assert search_strength.main(["--matches", "equal-time", *common, *files]) == 0
    assert search_strength.main(["--matches", "equal-sims", *common, *files]) == 0
    report = json.loads(json_path.read_text())
    assert set(report["matches"]) == {"equal-sims", "equal-time"}
    for match, row in report["matches"].items():
        assert row["games"] == 2 and row["wins"] + row["draws"] <= 2
        assert row["reference_sims"] == 2 and f"--matches {match}" in row["command"]
        low, high = row["score_ci95"]
        assert low <= row["score_rate"] <= high
    assert report["matches"]["equal-sims"]["compiled_sims"] == 2
    assert report["calibration"]["compiled_sims"] == report["matches"]["equal-time"]["compiled_sims"]
    text = md_path.read_text()
    assert "| equal-sims | 2 | 2 | 2 |" in text and "| equal-time |" in text
