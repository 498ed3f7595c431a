"""The command's two kinds of failure: a person's mistake (UsageError, an
argument error) is one line and exit 2; anything else is a bug, shown with
its traceback and the command to report, exit 1."""

import pytest

from meeplezoo.cli import INTERNAL_ERROR, USAGE_ERROR, main, user_input
from meeplezoo.envs import rules_cli
from meeplezoo.envs.core.errors import UsageError
from tests.cli_helpers import assert_one_error_line


@pytest.mark.parametrize("bug", [KeyError("seat"), AttributeError("no attribute 'board'"), ValueError("x")])
def test_an_internal_error_keeps_its_traceback_and_names_the_command(bug, monkeypatch, capsys):
    def broken(game):
        raise bug

    monkeypatch.setattr(rules_cli, "rules_page_text", broken)
    monkeypatch.setattr(rules_cli, "user_input", _no_conversion)
    assert main(["rules", "gem_mountain"]) == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err and type(bug).__name__ in err
    last = err.splitlines()[-1]
    assert "internal error" in last and last.endswith("the command: meeplezoo rules gem_mountain")


def _no_conversion():
    import contextlib

    return contextlib.nullcontext()


def test_a_usage_error_is_one_line(monkeypatch, capsys):
    def refused(game):
        raise UsageError("gem_mountain_v0 declares no rules page")

    monkeypatch.setattr(rules_cli, "rules_page_text", refused)
    assert main(["rules", "gem_mountain"]) == USAGE_ERROR
    assert_one_error_line(capsys.readouterr().err, "meeplezoo rules", "no rules page")


def test_user_input_turns_value_and_file_errors_into_usage_errors_and_nothing_else(tmp_path):
    with pytest.raises(UsageError, match="unknown game 'chess'") as caught:
        with user_input():
            from meeplezoo import envs

            envs.resolve("chess")
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(UsageError, match="missing.json"):
        with user_input():
            open(tmp_path / "missing.json")
    with pytest.raises(KeyError):
        with user_input():
            raise KeyError("a bug, not an input")
