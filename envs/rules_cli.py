"""``meeplezoo rules GAME``: print a game's rules page, as implemented.

The pages ship inside the package (``meeplezoo.rules_pages``, the
repository's ``seeds/`` folder), so this works from an installed wheel,
where no ``seeds/`` folder exists to open.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import PurePosixPath

from meeplezoo import envs
from meeplezoo.cli import user_input
from meeplezoo.envs.core.errors import UsageError

HELP = "print a game's rules page (every interpretation included)"


def add_arguments(parser) -> None:
    parser.add_argument("game", help="game name, e.g. gem_mountain (see 'meeplezoo list')")


def rules_page_text(game: str) -> str:
    """The Markdown rules page of ``game`` (with or without its version
    suffix), read from the package data."""
    info = envs.game_class(game).info
    if not info.rules_page:
        raise UsageError(f"{info.name} declares no rules page")
    page = files("meeplezoo.rules_pages") / PurePosixPath(info.rules_page).name
    return page.read_text(encoding="utf-8")


def run(args) -> int:
    with user_input():
        text = rules_page_text(args.game)
    print(text, end="")
    return 0
