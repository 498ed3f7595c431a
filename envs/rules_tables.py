"""Write each rules page's configuration table from its game's options.

``python -m meeplezoo.envs.rules_tables`` rewrites the table between the two
marker lines of every ``seeds/<game>.md`` whose game declares ``options``;
``--check`` only reports pages that are out of date (a test runs it), so the
page cannot drift from the defaults and bounds the code enforces.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meeplezoo import envs
from meeplezoo.envs.core.options import markdown_table

BEGIN = (
    "<!-- configuration table: written from the game's options by python -m meeplezoo.envs.rules_tables -->"
)
END = "<!-- end of configuration table -->"
PROJECT_ROOT = Path(envs.__file__).resolve().parent.parent


def page_path(game_cls) -> Path:
    return PROJECT_ROOT / game_cls.info.rules_page


def with_table(text: str, table: str, page: str) -> str:
    """``text`` with the part between the markers replaced by ``table``."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"{page}: no configuration table markers ({BEGIN!r} ... {END!r})")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def pages() -> list[tuple[Path, str, str]]:
    """(page, current text, text with the generated table) per game with options."""
    found = []
    for name in envs.names():
        game_cls = envs.game_class(name)
        if not game_cls.options:
            continue
        path = page_path(game_cls)
        text = path.read_text(encoding="utf-8")
        found.append(
            (path, text, with_table(text, markdown_table(game_cls.options), game_cls.info.rules_page))
        )
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list the pages that are out of date")
    args = parser.parse_args(argv)
    stale = [path for path, old, new in pages() if old != new]
    if args.check:
        for path in stale:
            print(f"{path.name}: configuration table out of date")
        return 1 if stale else 0
    for path, old, new in pages():
        if old != new:
            path.write_text(new, encoding="utf-8")
            print(f"{path.name}: configuration table written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
