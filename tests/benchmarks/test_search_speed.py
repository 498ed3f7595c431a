"""The az search-speed benchmark and the az run record write their tables."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from meeplezoo.benchmarks import az_results, search_speed  # noqa: E402


def test_search_speed_reports_both_bots_on_the_same_positions(tmp_path):
    out = tmp_path / "speed.md"
    assert (
        search_speed.main(
            [
                "--games",
                "princes_of_amber",
                "--positions",
                "2",
                "--sims",
                "4",
                "--profile",
                "--markdown",
                str(out),
                "--json",
                str(tmp_path / "speed.json"),
            ]
        )
        == 0
    )
    row = json.loads((tmp_path / "speed.json").read_text())["rows"][0]
    assert row["positions"] == 2 and row["az_sims"] == 4
    assert row["az_sims_per_second"] > 0 and row["mcts_sims_per_second"] > 0
    assert set(row["az_profile"]) == {*search_speed.PARTS, "tree (selection, backup)"}
    assert "| princes_of_amber_v1 |" in out.read_text()


def test_self_play_speed_keeps_each_searchs_median_round():
    """Rounds of both searches take turns; the row keeps each one's median
    round and lists them all, and names the recipe's settings it was given."""
    from meeplezoo import envs

    row = search_speed.selfplay_row(envs.make_game("gem_mountain_v0"), games=1, rounds=3, config={"sims": 8})
    assert row["selfplay_sims"] == 8 and row["selfplay_config"] == {"sims": 8}
    for backend in ("python", "compiled"):
        rounds = row[f"selfplay_{backend}_rounds_games_per_cpu_minute"]
        assert len(rounds) == 3 and min(rounds) > 0
        assert row[f"selfplay_{backend}_games_per_cpu_minute"] == sorted(rounds)[1]
        assert 0 < row[f"selfplay_{backend}_network_share"] < 1
    table = "\n".join(search_speed.selfplay_table([{"game": "g", **row}]))
    assert "the median of 3 rounds" in table and "| g | sims=8 | 1 | 8 |" in table


def test_run_record_tables_name_the_figures():
    row = {"agent": "az:path=x.pt2,sims=64", "opponent": "mcts:sims=200", "games": 10, "wins": 6, "draws": 0}
    row.update({"win_rate": 0.6, "win_ci95": [0.31, 0.83], "rating": 2.0, "opponent_rating": 1.0})
    row.update(
        {"ms_per_decision": 30.0, "opponent_ms_per_decision": 90.0, "selfplay_games": 96, "cpu_minutes": 3.5}
    )
    report = {"game": "princes_of_amber_v1", "players": 2, "trained": {"games": 96, "cpu_seconds": 210.0}}
    report.update({"curve": [row], "final": row, "table": []})
    text = az_results.markdown(report, "python -m meeplezoo.benchmarks.az_results princes_of_amber --run r")
    assert "| 96 | 3.5 | 10 | 6 | 60% (31%-83%) |" in text
    assert "6 wins, 0 draws in 10 games" in text


def test_run_record_of_a_table_alone_writes_the_table():
    report = {"game": "gem_mountain_v0", "players": 4, "trained": {"games": 1500}, "curve": [], "final": None}
    row = {"agent": "mcts:sims=200", "ordinal": 18.7, "win_rate": 0.53, "decision_ms": 89.8, "games": 60}
    report["table"] = [row, {**row, "agent": "az:path=x.pt2", "ordinal": 15.7, "win_rate": 0.35}]
    text = az_results.markdown(
        report, "python -m meeplezoo.benchmarks.az_results gem_mountain --table-games 60"
    )
    assert "Table with mcts:sims=200 and random (60 games" in text
    assert "| az:path=x.pt2 | 15.70 | 35% | 90 |" in text
    assert "Not measured in this run." in text and "Final head-to-head" not in text


def test_merged_pieces_name_the_network_of_the_final_head_to_head():
    row = {"agent": "az:path=final.pt2", "opponent": "mcts:sims=200", "games": 10, "wins": 3, "draws": 1}
    row.update({"ms_per_decision": 30.0, "opponent_ms_per_decision": 90.0})
    curve_point = {**row, "agent": "az:path=early.pt2", "selfplay_games": 64, "cpu_minutes": 1.0}
    curve_piece = {"network": "early.pt2", "trained": {"games": 64}, "curve": [curve_point], "final": None}
    finals = [
        {"network": "final.pt2", "trained": {"games": 640}, "curve": [], "final": dict(row)} for _ in "ab"
    ]
    merged = az_results.merge_reports([curve_piece, *finals])
    assert merged["network"] == "final.pt2" and merged["trained"] == {"games": 640}
    assert merged["curve"] == [curve_point]
    assert (merged["final"]["games"], merged["final"]["wins"], merged["final"]["draws"]) == (20, 6, 2)


def test_merging_two_table_pieces_is_refused_rather_than_dropping_one():
    table_row = {"agent": "az:path=x.pt2", "ordinal": 15.7, "games": 60}
    pieces = [{"network": "x.pt2", "curve": [], "final": None, "table": [dict(table_row)]} for _ in "ab"]
    with pytest.raises(ValueError, match="2 of the pieces carry a table"):
        az_results.merge_reports(pieces)
    one_table = az_results.merge_reports([pieces[0], {"network": "x.pt2", "curve": [], "final": None}])
    assert one_table["table"] == [table_row]


def test_network_forward_benchmark_times_both_forwards_on_the_same_positions(tmp_path):
    from meeplezoo.benchmarks import network_forward

    out = tmp_path / "forward.md"
    arguments = [
        "--games",
        "gem_mountain",
        "--batches",
        "1",
        "--positions",
        "2",
        "--sims",
        "4",
        "--rounds",
        "1",
    ]
    assert network_forward.main([*arguments, "--markdown", str(out), "--json", str(tmp_path / "f.json")]) == 0
    row = json.loads((tmp_path / "f.json").read_text())["rows"][0]
    assert (row["game"], row["sims"], row["batch"], row["positions"]) == ("gem_mountain_v0", 4, 1, 2)
    assert row["torch_ms_per_decision"] > 0 and row["numpy_ms_per_decision"] > 0
    assert "| gem_mountain_v0 | 2 | 4 | 1 |" in out.read_text()
    with pytest.raises(SystemExit):
        network_forward.main([*arguments[:2], "--batches", "0"])


@pytest.mark.parametrize(
    "pair, named", [("sims", "key=value"), ("nonsense=1", "'nonsense'"), ("sims=0", "sims must be")]
)
def test_a_bad_selfplay_setting_is_refused_before_any_measuring(pair, named, capsys, monkeypatch):
    monkeypatch.setattr(search_speed, "measure", lambda *args: pytest.fail("measured a bad recipe"))
    with pytest.raises(SystemExit) as exit_info:
        search_speed.main(["--games", "gem_mountain_v0", "--selfplay-games", "1", "--selfplay-config", pair])
    assert exit_info.value.code == 2 and named in capsys.readouterr().err
