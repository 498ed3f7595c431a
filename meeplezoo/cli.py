"""The ``meeplezoo`` command: one entry, subcommands loaded on demand.

Each subcommand lives beside the code it drives (``meeplezoo.training.cli``
for ``train``, ``meeplezoo.benchmarks.cli`` for ``bench``...) and exposes ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Only the chosen one is
imported, so ``meeplezoo list`` never pays for torch.

Errors are handled here, once for every subcommand: a person's mistake (a
bad argument, or a :class:`~meeplezoo.envs.core.errors.UsageError`: an
unknown game, a bad setting, a missing or malformed file; or an optional
extra that is not installed) is one line on stderr and exit status 2. A
subcommand raises UsageError itself, or reads a person's input inside
:func:`user_input`, which turns the ValueError or OSError of that input into
one. Anything else is a bug of the package: its traceback is kept, with a
line that gives the command to report, and exit status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import shlex
import signal
import sys
import traceback

from meeplezoo.envs.core.errors import UsageError

SUBCOMMANDS: dict[str, str] = {
    "list": "meeplezoo.envs.list_cli",
    "rules": "meeplezoo.envs.rules_cli",
    "play": "meeplezoo.agents.play_cli",
    "arena": "meeplezoo.agents.arena_cli",
    "replay": "meeplezoo.agents.replay_cli",
    "view": "meeplezoo.agents.web.view_cli",
    "serve": "meeplezoo.agents.web.serve_cli",
    "train": "meeplezoo.training.cli",
    "bench": "meeplezoo.benchmarks.cli",
}

USAGE_ERROR = 2
INTERNAL_ERROR = 1

# The optional extra that brings each top-level module a command may miss.
EXTRA_OF_MODULE: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
    "ray": "distributed",
}

CONFIG_OPTION = "--config"

# The same, for ``python -m meeplezoo.training.benchmark``, which has its own main.
MISTAKES = (ValueError, OSError, ImportError)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C: Python's default would end the process
    without running ``finally`` blocks, leaving an arena's or a trainer's
    worker processes to finish their games unwatched."""


def _raise_terminated(signum, frame) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Inside, SIGTERM raises :class:`Terminated`; the handler found is put
    back on the way out. Long jobs run outside the CLI (``python -m
    meeplezoo.benchmarks.az_results``) use it too."""
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class CommandParser(argparse.ArgumentParser):
    """argparse for the meeplezoo commands.

    A usage mistake prints one line (not the usage block) and exits 2, like
    every other error of the command. ``--config`` pairs can be repeated
    (``--config a=1 --config b=2``) or listed after one ``--config``; a word
    without ``=`` ends the list, so a game name written after the pairs stays
    the positional it is.
    """

    def error(self, message: str):
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see '{self.prog} --help')\n")

    def parse_known_args(self, args=None, namespace=None):
        words = sys.argv[1:] if args is None else list(args)
        return super().parse_known_args(split_config_runs(words), namespace)


def split_config_runs(words: list[str]) -> list[str]:
    """``--config a=1 b=2 game`` -> ``--config a=1 --config b=2 game``.

    After the first pair, only words holding ``=`` (and not starting with
    ``-``) continue the list; game names never hold ``=``, so they are never
    taken for a config pair."""
    out: list[str] = []
    expecting = None  # "value": the word after --config; "more": further pairs may follow
    for i, word in enumerate(words):
        if word == "--":
            out.extend(words[i:])
            break
        if expecting == "value":
            out.append(word)
            expecting = "more"
            continue
        if expecting == "more" and "=" in word and not word.startswith("-"):
            out += [CONFIG_OPTION, word]
            continue
        if word == CONFIG_OPTION:
            expecting = "value"
        elif word.startswith(CONFIG_OPTION + "="):
            expecting = "more"
        else:
            expecting = None
        out.append(word)
    return out


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    """The game positional, worded the same in every subcommand."""
    parser.add_argument("game", help="game name, e.g. gem_mountain (see 'meeplezoo list')")


def add_agents_option(parser: argparse.ArgumentParser, help: str) -> None:
    """The one ``--agents SPEC ...`` option of the commands that seat bots."""
    parser.add_argument("--agents", nargs="+", required=True, metavar="SPEC", help=help)


def add_config_option(parser: argparse.ArgumentParser, help: str) -> None:
    """The one ``--config KEY=VALUE`` option, the same in every subcommand."""
    parser.add_argument(
        CONFIG_OPTION,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"{help}; repeat it or list several pairs (--config a=1 b=2)",
    )


def _available() -> dict[str, object]:
    found = {}
    for name, module in SUBCOMMANDS.items():
        try:
            found[name] = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                continue  # subcommand not installed in this checkout
            raise
    return found


def _usage(found: dict[str, object]) -> str:
    lines = ["usage: meeplezoo <command> [options]", "", "commands:"]
    for name, module in found.items():
        lines.append(f"  {name:<8} {getattr(module, 'HELP', '')}")
    lines.append("")
    lines.append("Run 'meeplezoo <command> --help' for a command's options.")
    return "\n".join(lines)


def one_line(text: str) -> str:
    """An error message on one line: a wrapped or multi-line message from a
    library would otherwise look like several errors."""
    return " ".join(str(text).split())


def describe_error(exc: BaseException) -> str:
    """What went wrong, for a person: the file and the reason for a file
    error, the extra to install for a missing module, the message otherwise."""
    if isinstance(exc, ModuleNotFoundError):
        top = (exc.name or "").split(".")[0]
        extra = EXTRA_OF_MODULE.get(top)
        if extra:
            return f"needs the '{extra}' extra (module {top} is missing): pip install 'meeplezoo[{extra}]'"
        return f"a dependency is missing: module {exc.name or exc} (reinstall meeplezoo)"
    if isinstance(exc, OSError) and exc.filename is not None:
        target = f"{exc.filename} -> {exc.filename2}" if exc.filename2 is not None else f"{exc.filename}"
        return f"{target}: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def fail(command: str, exc: BaseException) -> int:
    """Report ``exc`` as the one error line of ``command``; returns the exit status."""
    print(f"{command}: {one_line(describe_error(exc))}", file=sys.stderr)
    return USAGE_ERROR


def missing_extra(exc: BaseException) -> bool:
    """Whether ``exc`` is a module of an optional extra that is not installed
    (the person's setup, not a bug: the line names what to install)."""
    return isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in EXTRA_OF_MODULE


def report_bug(argv: list[str]) -> int:
    """Print the traceback of the exception being handled, then the line a
    bug report needs; returns the exit status."""
    traceback.print_exc()
    print(
        f"meeplezoo {argv[0]}: internal error (a bug in meeplezoo, not in your input); "
        f"please report it with the traceback above and the command: meeplezoo {shlex.join(argv)}",
        file=sys.stderr,
    )
    return INTERNAL_ERROR


@contextlib.contextmanager
def user_input():
    """Inside, a ValueError or OSError is a mistake in what the person gave
    (a name, a setting, a file) and leaves as a one-line UsageError. Wrap
    only the code that reads their input, so a bug elsewhere keeps its
    traceback."""
    try:
        yield
    except UsageError:
        raise
    except (ValueError, OSError) as exc:
        raise UsageError(one_line(describe_error(exc))) from exc


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage(_available()))
        return 0
    name = argv[0]
    if name not in SUBCOMMANDS:
        print(
            f"meeplezoo: unknown command {name!r}; commands: {', '.join(SUBCOMMANDS)} "
            "(see 'meeplezoo --help')",
            file=sys.stderr,
        )
        return USAGE_ERROR
    module = importlib.import_module(SUBCOMMANDS[name])
    parser = CommandParser(prog=f"meeplezoo {name}", description=getattr(module, "HELP", None))
    module.add_arguments(parser)
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as exc:  # --help (0) or a usage error, already printed on one line
        return int(exc.code or 0)
    return _run(module, args, argv)


def _run(module, args: argparse.Namespace, argv: list[str]) -> int:
    """Run a parsed subcommand; a person's mistake is one line (exit 2), a bug
    its traceback and the command to report (exit 1)."""
    command = f"meeplezoo {argv[0]}"
    try:
        with sigterm_as_interrupt():
            return int(module.run(args) or 0)
    except Terminated:
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        return 130
    except UsageError as exc:
        return fail(command, exc)
    except Exception as exc:
        if missing_extra(exc):
            return fail(command, exc)
        return report_bug(argv)


def parse_config(pairs: list[str] | None) -> dict:
    """``["k=v", ...]`` to a dict; values parsed as JSON when they can be
    (``3``, ``true``, ``"x"``), else kept as strings."""
    import json

    config = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UsageError(f"config entries look like key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        try:
            config[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            config[key.strip()] = value
    return config


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
