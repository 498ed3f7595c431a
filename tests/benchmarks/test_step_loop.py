"""Measurements on the toy game: every figure present, sane and seeded."""

import math

import pytest

from meeplezoo.benchmarks.step_loop import measure, play_aec, play_rules
from meeplezoo.benchmarks.subjects import floor_subject, game_configs, game_subjects_for, heaviest_config
from meeplezoo.benchmarks.timing import Settings
from tests.core.toy_game import HighCardEnv, HighCardGame

TINY = Settings(
    repeats=5, repeat_seconds=0.005, warmup_seconds=0.002, call_seconds=0.002, positions=4, clock="wall"
)


def toy_subjects():
    return game_subjects_for("high_card_v0", HighCardGame, HighCardEnv)


def test_heaviest_config_is_the_test_config_with_most_players():
    assert heaviest_config("high_card_v0", HighCardGame) == {"num_players": 4}
    assert game_configs("high_card_v0", HighCardGame) == [{}, {"num_players": 4}]


def test_toy_game_gives_default_and_heavy_subjects():
    subjects = toy_subjects()
    assert [s.label for s in subjects] == ["high_card_v0", "high_card_v0 heavy"]
    assert subjects[1].make_game().num_players == 4
    assert subjects[1].make_env().game.num_players == 4


def test_random_play_is_seeded():
    a = HighCardEnv()
    b = HighCardEnv()
    assert play_aec(a, 300, seed=3) == play_aec(b, 300, seed=3)
    assert a.actions == b.actions
    assert play_rules(HighCardGame(), 300, seed=3) == play_rules(HighCardGame(), 300, seed=3)


@pytest.mark.parametrize("subject", toy_subjects(), ids=lambda s: s.label)
def test_measure_reports_every_figure(subject):
    r = measure(subject, TINY)
    for loop in ("aec", "rules"):
        assert r[loop]["min"] <= r[loop]["median"] <= r[loop]["max"]
        assert r[loop]["min"] > 0 and r[loop]["units_per_repeat"] >= 1 and r[loop]["games_per_repeat"] >= 1
        assert len(r[loop]["values"]) == 5
    for key in ("observe", "observation", "mask", "reset", "clone"):
        cost = r["costs_s"][key]
        assert 0 < cost["min"] <= cost["median"] <= cost["max"] and math.isfinite(cost["max"])
    assert r["memory_bytes"] > 0
    n = subject.make_game().num_players
    assert r["observation_bytes"] == (10 + n + 2) * 4 and r["mask_bytes"] == 2


def test_floor_has_no_rules_layer():
    r = measure(floor_subject(), TINY)
    assert r["rules"] is None and "clone" not in r["costs_s"] and r["aec"]["median"] > 0


def test_fixed_seat_game_reports_only_its_defaults():
    import dataclasses

    from meeplezoo.envs.core.options import integer

    two_seats = integer(2, 2, 2, "seats at the table")

    class FixedSeats(HighCardGame):
        info = dataclasses.replace(
            HighCardGame.info, players=two_seats, min_players=None, max_players=None, default_players=None
        )
        options = {**HighCardGame.options, "num_players": two_seats}

    assert heaviest_config("fixed", FixedSeats) == {}
    assert game_configs("fixed", FixedSeats) == [{}]
