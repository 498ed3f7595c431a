"""``meeplezoo list``: the games, their players and their space sizes."""

from __future__ import annotations

import numpy as np

from meeplezoo import envs

HELP = "list the games with players, action and observation sizes"


def add_arguments(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


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
                "actions": game.num_actions,
                "observation": "x".join(map(str, game.observation_shape))
                + " "
                + np.dtype(game.observation_dtype).name,
                "rules": info.rules_page,
            }
        )
    return rows


def run(args) -> int:
    rows = game_rows()
    if args.json:
        import json

        print(json.dumps(rows, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="meeplezoo games")
    for col in ("game", "title", "players", "hidden", "chance", "actions", "observation", "rules"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["game"],
            r["title"],
            r["players"],
            "yes" if r["hidden_information"] else "no",
            "yes" if r["chance"] else "no",
            str(r["actions"]),
            r["observation"],
            r["rules"],
        )
    console = Console()
    if not console.is_terminal:  # piped: don't squeeze the table to 80 columns
        console = Console(width=140)
    console.print(table)
    return 0
