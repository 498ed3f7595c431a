"""The Princes of Amber war benchmark counts what the games did."""

from __future__ import annotations

import json

from meeplezoo.benchmarks import princes_wars
from meeplezoo.envs.princes_of_amber.rules import AmberGame


def test_a_game_record_is_seeded_and_consistent():
    game = AmberGame(num_players=3)
    record = princes_wars.play_game(game, 4)
    assert record == princes_wars.play_game(game, 4)
    assert record.turns > 0 and record.truncated == (record.winner < 0)
    for fought, won in record.wars.values():
        assert 0 <= won <= fought
    if record.first_taker < 0:
        assert sum(won for _, won in record.wars.values()) == 0  # no war won without a taking


def test_the_table_and_json_cover_every_seat_count(tmp_path, capsys):
    out = tmp_path / "wars.json"
    argv = [
        "--players",
        "2",
        "3",
        "--games",
        "3",
        "--config",
        "amber_defenders=leader_only",
        "--json",
        str(out),
    ]
    assert princes_wars.main(argv) == 0
    rows = json.loads(out.read_text())
    assert [r["players"] for r in rows] == [2, 3] and all(r["games"] == 3 for r in rows)
    assert rows[0]["config"] == {"amber_defenders": "leader_only"}
    assert set(rows[0]["cards_played"]) == {k.name for k in princes_wars.CARDS}
    printed = capsys.readouterr().out
    assert "| 2 |" in printed and "| 3 |" in printed
