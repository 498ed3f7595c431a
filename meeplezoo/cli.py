"""The ``meeplezoo`` command: one entry, subcommands loaded on demand.

Each subcommand lives beside the code it drives (``meeplezoo.training.cli``
for ``train``, ``meeplezoo.benchmarks.cli`` for ``bench``...) and exposes ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``. Only the chosen one is
imported, so ``meeplezoo list`` never pays for torch.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS: dict[str, str] = {
    "list": "meeplezoo.envs.list_cli",
    "play": "meeplezoo.agents.play_cli",
    "arena": "meeplezoo.agents.arena_cli",
    "replay": "meeplezoo.agents.replay_cli",
    "train": "meeplezoo.training.cli",
    "bench": "meeplezoo.benchmarks.cli",
}


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


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage(_available()))
        return 0
    name = argv[0]
    if name not in SUBCOMMANDS:
        print(f"meeplezoo: unknown command {name!r}\n", file=sys.stderr)
        print(_usage(_available()), file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name])
    parser = argparse.ArgumentParser(prog=f"meeplezoo {name}", description=getattr(module, "HELP", None))
    module.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:
        print(f"meeplezoo {name}: {exc}", file=sys.stderr)
        return 2


def parse_config(pairs: list[str] | None) -> dict:
    """``["k=v", ...]`` to a dict; values parsed as JSON when they can be
    (``3``, ``true``, ``"x"``), else kept as strings."""
    import json

    config = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ValueError(f"config entries look like key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        try:
            config[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            config[key.strip()] = value
    return config


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
