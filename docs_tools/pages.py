"""Markdown written from the code and the results JSON while the site builds.

A page holds a marker line such as ``<!-- generated: game gem_mountain -->``
and :func:`expand` replaces it with the matching generator's output, so the
configuration tables, action blocks, observation layouts and result tables
are read from the games and files of the build, never typed by hand.
"""

from __future__ import annotations

import importlib
import itertools
import json
import re
from collections.abc import Callable

import numpy as np

import meeplezoo
from docs_tools.figures import RESULTS, ROOT, base_name
from meeplezoo.envs.core.options import markdown_table as options_table
from meeplezoo.envs.rules_tables import BEGIN, END

MARKER = re.compile(r"^<!-- generated: (\w+)(?: (\w+))? -->$", re.MULTILINE)


def full_name(game: str) -> str:
    return meeplezoo.resolve(game)


def summary_table(name: str) -> str:
    """Import line, players, information, and the spaces per table size."""
    game_cls = meeplezoo.game_class(name)
    info = game_cls.info
    lines = [
        "| property | value |",
        "|---|---|",
        f'| Import | `meeplezoo.make("{name}")` or `from meeplezoo.envs import {name}` |',
        f"| Players | {info.min_players}-{info.max_players} (default {info.default_players}) |"
        if info.min_players != info.max_players
        else f"| Players | {info.min_players} |",
        f"| Hidden information | {'yes' if info.hidden_information else 'no'} |",
        f"| Chance | {'yes' if info.chance else 'no'} |",
        f"| Zero-sum | {'yes' if info.zero_sum else 'no'} |",
    ]
    for players in range(info.min_players, info.max_players + 1):
        game = meeplezoo.make_game(name, num_players=players)
        dtype = np.dtype(game.observation_dtype).name
        shape = "x".join(map(str, game.observation_shape))
        lines.append(
            f"| {players} players | `Discrete({game.num_actions})` actions, observation {shape} {dtype} |"
        )
    return "\n".join(lines)


def action_blocks(name: str) -> str:
    """The action space as consecutive runs of actions whose names share a first word."""
    game = meeplezoo.make_game(name)
    state = game.new_initial_state(seed=0)
    labels = [state.action_to_string(action) for action in range(game.num_actions)]
    lines = ["| actions | count | kind | first name | last name |", "|---|---:|---|---|---|"]
    runs = itertools.groupby(enumerate(labels), key=lambda pair: pair[1].split()[0] if pair[1] else "")
    for kind, members in runs:
        members = list(members)
        first, last = members[0], members[-1]
        span = f"{first[0]}" if first[0] == last[0] else f"{first[0]}-{last[0]}"
        lines.append(f"| {span} | {len(members)} | {kind} | `{first[1]}` | `{last[1]}` |")
    return "\n".join(lines)


def observation_layout(name: str) -> str:
    """Shape, type, value range and, where declared, the board planes."""
    game = meeplezoo.make_game(name)
    size = int(np.prod(game.observation_shape))
    low, high = np.min(game.observation_low), np.max(game.observation_high)
    lines = ["| entries | what |", "|---|---|"]
    planes = getattr(game, "observation_planes", None)
    if planes:
        count, rows, cols = planes
        board = count * rows * cols
        lines.append(f"| 0-{board - 1} | {count} board planes of {rows}x{cols} cells, plane-major |")
        if board < size:
            lines.append(
                f"| {board}-{size - 1} | {size - board} scalar features (counts, scores, phase, turn) |"
            )
    else:
        lines.append(f"| 0-{size - 1} | {size} features, no board planes |")
    dtype = np.dtype(game.observation_dtype).name
    note = (
        f"\nDefault configuration: {size} values of type `{dtype}`, each between {low} and {high}; "
        "the observation is the acting seat's view, "
        "built only from what that seat may know. Every entry is described in the rules page below."
    )
    return "\n".join(lines) + "\n" + note


def version_history(name: str) -> str:
    """The "Version History" list of the game's entry module docstring."""
    doc = importlib.import_module(f"meeplezoo.envs.{name}").__doc__ or ""
    parts = re.split(r"^#+ Version History\s*$", doc, flags=re.MULTILINE)
    return parts[1].strip() if len(parts) > 1 else "* v0: initial release."


def rules_page(name: str) -> str:
    """The rules page with its headings one level down and its configuration
    table replaced by a pointer to the generated one above."""
    text = (ROOT / meeplezoo.game_class(name).info.rules_page).read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + "See [Configuration](#configuration) above." + rest.split(END, 1)[1]
    text = re.sub(r"^(#+) ", lambda match: "#" + match.group(1) + " ", text, flags=re.MULTILINE)
    return re.sub(r"\A## .*\n", "", text)  # the page title is the game page's own


def game_page(game: str) -> str:
    name = full_name(game)
    info = meeplezoo.game_class(name).info
    return "\n\n".join(
        [
            f"# {info.title} (`{name}`)",
            f"![{info.title}: a game under way, as render('rgb_array') draws it](../images/games/{game}.png)",
            summary_table(name),
            f"`meeplezoo rules {game}` prints the rules below; `meeplezoo play {game}` plays it in a terminal.",
            "## Configuration\n\nKeys of `meeplezoo.make(name, **config)` and `--config KEY=VALUE`:",
            options_table(meeplezoo.game_class(name).options),
            "## Actions\n\nThe action space, in index order (names as `env.decode_action` gives them):",
            action_blocks(name),
            "## Observation",
            observation_layout(name),
            "## Version history",
            version_history(name),
            "## Rules",
            rules_page(name),
        ]
    )


def games_table(argument: str | None = None) -> str:
    """Every registered game with a link to its page (``here``: from a page in games/ itself)."""
    folder = "" if argument == "here" else "games/"
    lines = [
        "| game | players | hidden information | actions | observation (default) |",
        "|---|---|---|---:|---|",
    ]
    for name in meeplezoo.names():
        game, info = meeplezoo.make_game(name), meeplezoo.game_class(name).info
        players = (
            f"{info.min_players}-{info.max_players}"
            if info.min_players != info.max_players
            else info.min_players
        )
        shape = "x".join(map(str, game.observation_shape)) + " " + np.dtype(game.observation_dtype).name
        hidden = "yes" if info.hidden_information else "no"
        link = f"[{info.title}]({folder}{base_name(name)}.md)"
        lines.append(f"| {link} `{name}` | {players} | {hidden} | {game.num_actions} | {shape} |")
    return "\n".join(lines)


def _load(stem: str) -> dict:
    return json.loads((RESULTS / f"{stem}.json").read_text())


def training_table(_argument: str | None = None) -> str:
    """MaskablePPO self-play: the final agent against random, per game."""
    lines = ["| game (players) | learner steps | CPU minutes | wins vs random [95% CI] | details |"]
    lines.append("|---|---:|---:|---|---|")
    for path in sorted(RESULTS.glob("training_*.json")):
        data = json.loads(path.read_text())
        if "evaluations" not in data:
            continue
        final = data["evaluations"]["final, sampled"]
        low, high = final["win_ci95"]
        lines.append(
            f"| {base_name(data['game'])} ({data['players']}) | {data['timesteps']:,} "
            f"| {data['train_cpu_seconds'] / 60:.1f} | {final['wins']}/{final['games']} = **{final['win_rate']:.0%}** "
            f"[{low:.0%}, {high:.0%}] | [{path.stem}](results/{path.stem}.md) |"
        )
    return "\n".join(lines)


def az_table(_argument: str | None = None) -> str:
    """Expert iteration: each shipped network against ``mcts:sims=200``."""
    lines = ["| result | game (players) | self-play games | CPU minutes | against `mcts:sims=200` |"]
    lines.append("|---|---|---:|---:|---|")
    for path in sorted(RESULTS.glob("az_*.json")):
        data = json.loads(path.read_text())
        trained, final, table = data.get("trained"), data.get("final"), data.get("table")
        if not trained or not (final or table):
            continue
        if final:
            outcome = f"{final['wins']} of {final['games']} won ({final['win_rate']:.0%})"
        else:
            ranked = sorted(table, key=lambda row: -row["ordinal"])
            outcome = "rated " + ", ".join(
                f"`{_short_agent(row['agent'])}` {row['ordinal']:.1f}" for row in ranked
            )
        page = (
            f"[{path.stem}](results/{path.stem}.md)" if (RESULTS / f"{path.stem}.md").exists() else path.stem
        )
        lines.append(
            f"| {page} | {base_name(data['game'])} ({data['players']}) | {trained['games']:,} "
            f"| {trained['cpu_seconds'] / 60:.0f} | {outcome} |"
        )
    return "\n".join(lines)


def _short_agent(spec: str) -> str:
    return "az (this network)" if spec.startswith("az:") else spec


def step_loop_table(_argument: str | None = None) -> str:
    data = _load("step_loop")
    lines = [f"Measured {data['date']} on {data['machine']['cpu']} ({data['machine']['cores']} cores).", ""]
    lines += ["| subject | settings | AEC steps/s | rules steps/s |", "|---|---|---:|---:|"]
    for row in data["results"]:
        settings = ", ".join(f"{key}={value}" for key, value in row["config"].items()) or "default"
        rules = f"{row['rules']['median']:,.0f}" if row.get("rules") else "-"
        lines.append(f"| {row['name']} | {settings} | {row['aec']['median']:,.0f} | {rules} |")
    return "\n".join(lines)


def engine_table(_argument: str | None = None) -> str:
    """Per game: the kernel's random play, make_vec at 1024, the AEC loop on both backends."""
    data = _load("compiled_engine")
    c4 = data["connect_four_v3"]
    lines = [
        f"Measured {data['date']}, {data['threads']} threads; connect_four_v3's AEC loop {c4:,.0f} steps/s.",
        "",
    ]
    lines += [
        "| game | rules: compiled / Python | make_vec 1024 | AEC: compiled / Python |",
        "|---|---:|---:|---:|",
    ]
    for name, game in data["games"].items():
        rules, aec = game["rules"], game["aec"]
        lines.append(
            f"| {name} | {rules['compiled']:,.0f} / {rules['python']:,.0f} | {game['make_vec']['1024']:,.0f} "
            f"| {aec['compiled']:,.0f} / {aec['python']:,.0f} |"
        )
    if "startup_seconds" in data:
        startup = data["startup_seconds"]
        lines += ["", f"Compiling every kernel into an empty cache took {startup['first']:.0f} s; a later "
                  f"process loads them in {startup['cached']:.1f} s. Pgx: {data['pgx']}."]  # fmt: skip
    return "\n".join(lines)


def results_index(_argument: str | None = None) -> str:
    """Every results file, by its title."""
    lines = []
    for path in sorted(RESULTS.glob("*.md")):
        title = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
        lines.append(f"- [{title}]({path.stem}.md)")
    return "\n".join(lines)


def replay_sizes(_argument: str | None = None) -> str:
    data = _load("replay_pages")
    lines = ["| game | moves | page size |", "|---|---:|---:|"]
    lines += [
        f"| {row['game']} | {row['moves']:,} | {row['page_bytes'] / 1024:,.0f} KiB |" for row in data["rows"]
    ]
    return "\n".join(lines)


GENERATORS: dict[str, Callable[[str | None], str]] = {
    "game": game_page,
    "games_table": games_table,
    "training_table": training_table,
    "az_table": az_table,
    "step_loop_table": step_loop_table,
    "engine_table": engine_table,
    "results_index": results_index,
    "replay_sizes": replay_sizes,
}


def expand(markdown: str, post: Callable[[str], str] = lambda text: text) -> str:
    """The page with every marker replaced by its generated Markdown, passed through ``post``."""

    def replace(match: re.Match) -> str:
        kind, argument = match.group(1), match.group(2)
        if kind not in GENERATORS:
            raise ValueError(f"unknown generated block {kind!r}; known: {sorted(GENERATORS)}")
        return post(GENERATORS[kind](argument))

    return MARKER.sub(replace, markdown)
