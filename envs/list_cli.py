"""``meeplezoo list``: the games, their players and their space sizes.

The game names are what people type into every other command, so the table
never cuts them: on a narrow terminal the other columns wrap, then the least
needed ones are dropped, and as a last resort the names print as a list.
"""

from __future__ import annotations

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core.backends import has_kernel

HELP = "list the games with players, action and observation sizes"

# the columns in the order shown; every one but the name may wrap between words
COLUMNS = ["game", "title", "players", "hidden", "chance", "actions", "observation"]
# the columns a narrow terminal loses first, in that order
DROP_ORDER = ["title", "chance", "hidden", "observation", "players", "actions"]


def add_arguments(parser) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON instead of a table")
    output.add_argument(
        "--markdown", action="store_true", help="print the Markdown games table of the README"
    )


def short_name(name: str) -> str:
    """``gem_mountain_v0`` -> ``gem_mountain``: the name the commands accept."""
    return envs.strip_version(name)


def game_rows() -> list[dict]:
    rows = []
    for name in envs.names():
        game = envs.make_game(name)
        info = game.info
        rows.append(
            {
                "game": name,
                "title": info.title,
                "players": f"{info.min_players}-{info.max_players}"
                if info.min_players != info.max_players
                else str(info.min_players),
                "default_players": info.default_players,
                "hidden_information": info.hidden_information,
                "chance": info.chance,
                "backend": "compiled" if has_kernel(game) else "python",
                "actions": game.num_actions,
                "observation": "x".join(map(str, game.observation_shape))
                + " "
                + np.dtype(game.observation_dtype).name,
                "rules": info.rules_page,
                "rules_command": f"meeplezoo rules {short_name(name)}",
            }
        )
    return rows


def _cells(row: dict) -> dict[str, str]:
    return {
        **{key: str(row[key]) for key in ("game", "title", "players", "actions", "observation")},
        "hidden": "yes" if row["hidden_information"] else "no",
        "chance": "yes" if row["chance"] else "no",
    }


def narrowest_widths(rows: list[dict], headers: list[str]) -> dict[str, int]:
    """Each column's narrowest width that breaks no word (a name never
    breaks at all: it is one word)."""
    return {
        h: max(len(word) for text in [h, *(_cells(r)[h] for r in rows)] for word in text.split())
        for h in headers
    }


def table_width(widths: dict[str, int]) -> int:
    """Width of a rich table with these column widths: a border and one
    space of padding either side of every column."""
    return sum(widths.values()) + 3 * len(widths) + 1


def build_table(rows: list[dict], headers: list[str]):
    """A rich Table of ``rows`` with the columns ``headers``, each column at
    least as wide as its longest word so that only whole words wrap."""
    from rich.table import Table

    widths = narrowest_widths(rows, headers)
    table = Table(title="meeplezoo games", caption="rules of a game: meeplezoo rules GAME")
    for header in headers:
        table.add_column(header, no_wrap=header == "game", min_width=widths[header])
    for row in rows:
        cells = _cells(row)
        table.add_row(*(cells[h] for h in headers))
    return table


def fitting_table(rows: list[dict], width: int):
    """The table with the most columns that fits ``width`` without breaking
    a word, dropping columns in DROP_ORDER; None when not even the names fit
    beside the borders."""
    headers = list(COLUMNS)
    for dropped in range(len(DROP_ORDER) + 1):
        kept = [h for h in headers if h not in DROP_ORDER[:dropped]]
        if table_width(narrowest_widths(rows, kept)) <= width:
            return build_table(rows, kept)
    return None


def print_table(rows: list[dict], console) -> None:
    table = fitting_table(rows, console.width)
    if table is None:
        for row in rows:
            console.print(row["game"], soft_wrap=True)
        return
    console.print(table)


def markdown_table(rows: list[dict]) -> str:
    """The README's games table: links work on the repository page."""
    lines = [
        "| game | players | hidden information | default backend | actions | observation (default config) | rules |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        page = r["rules"]
        lines.append(
            f"| [`{r['game']}`](envs/{r['game']}.py) | {r['players']} (default {r['default_players']}) "
            f"| {'yes' if r['hidden_information'] else 'no'} | {r['backend']} | {r['actions']} | {r['observation']} "
            f"| [{page}]({page}) |"
        )
    return "\n".join(lines)


def run(args) -> int:
    rows = game_rows()
    if args.json:
        import json

        print(json.dumps(rows, indent=1))
        return 0
    if args.markdown:
        print(markdown_table(rows))
        return 0
    from rich.console import Console

    console = Console()
    if not console.is_terminal:  # piped: don't squeeze the table to 80 columns
        console = Console(width=140)
    print_table(rows, console)
    return 0
