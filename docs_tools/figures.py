"""Every image of the site, written from the games and the results JSON.

``python -m docs_tools`` runs :func:`write_all`. Each figure is a function
from the repository's current code or measured results to a PNG, so a
changed render or a new result changes the picture the next time it runs,
and a test compares the committed pictures with fresh ones.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

import meeplezoo
from docs_tools.plots import Series, bar_chart, line_chart

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
IMAGES = ROOT / "docs" / "images"
BOARD_SEED = 3
BOARD_MOVES = 24  # random moves before the picture, so the board shows a game under way


def base_name(name: str) -> str:
    """``gem_mountain_v0`` -> ``gem_mountain``: the page and picture name, stable across versions."""
    return name.rsplit("_v", 1)[0]


def board_picture(name: str) -> Image.Image:
    """The spectator's picture of a seeded game after a few random legal moves."""
    env = meeplezoo.make(name, render_mode="rgb_array")
    env.reset(seed=BOARD_SEED)
    rng = np.random.default_rng(BOARD_SEED)
    for _move in range(BOARD_MOVES):
        if not env.agents:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return Image.fromarray(env.render())


def _results(pattern: str) -> list[tuple[str, dict]]:
    return [(path.stem, json.loads(path.read_text())) for path in sorted(RESULTS.glob(pattern))]


def learning_curves() -> dict[str, list[tuple[int, list[dict]]]]:
    """Per game, (players, curve points) of every expert-iteration run that
    recorded a curve against ``mcts:sims=200``, the recipe reruns included."""
    curves: dict[str, list[tuple[int, list[dict]]]] = {}
    for _stem, data in _results("az_*.json"):
        for source in (data, data.get("recipe_rerun") or {}):
            points = [p for p in source.get("curve") or [] if "cpu_minutes" in p]
            if points and "game" in data:
                curves.setdefault(base_name(data["game"]), []).append((int(data["players"]), points))
    return curves


def curve_chart(game: str, runs: list[tuple[int, list[dict]]]) -> Image.Image:
    """Win rate against ``mcts:sims=200`` (95% interval shaded) over training CPU minutes."""
    series = [
        Series(
            f"{players} players (a fair share: {100 // players}%)",
            [(p["cpu_minutes"], p["win_rate"] * 100) for p in points],
            [(p["win_ci95"][0] * 100, p["win_ci95"][1] * 100) for p in points],
        )
        for players, points in sorted(runs)
    ]
    title = f"{game}: expert iteration against mcts:sims=200"
    return line_chart(title, "training CPU minutes", "wins, % of games", series, y_range=(0.0, 100.0))


def rating_chart(curves: dict[str, list[tuple[int, list[dict]]]]) -> Image.Image:
    """The network's rating lead over ``mcts:sims=200`` at each checkpoint, every game."""
    series = [
        Series(
            f"{game} ({players}p)", [(p["cpu_minutes"], p["rating"] - p["opponent_rating"]) for p in points]
        )
        for game, runs in sorted(curves.items())
        for players, points in sorted(runs)
    ]
    return line_chart(
        "Rating of the network minus rating of mcts:sims=200", "training CPU minutes", "rating lead", series
    )


def ppo_chart() -> Image.Image:
    """Wins of the trained MaskablePPO agent against random, per game."""
    bars = []
    for _stem, data in _results("training_*.json"):
        if "evaluations" not in data:
            continue
        final = data["evaluations"]["final, sampled"]
        label = (
            f"{base_name(data['game'])} ({data['players']}p), {data['train_cpu_seconds'] / 60:.0f} CPU min"
        )
        bars.append((label, final["win_rate"] * 100, 0))
    return bar_chart("MaskablePPO self-play: wins against random (%)", "wins, % of games", bars)


def throughput_chart() -> Image.Image:
    """AEC steps per second of every game beside PettingZoo's classic environments."""
    data = json.loads((RESULTS / "step_loop.json").read_text())
    colour = {"game": 0, "heavy game": 0, "peer": 1, "floor": 2}
    bars = []
    for row in data["results"]:
        config = ", ".join(f"{key}={value}" for key, value in row["config"].items() if key == "num_players")
        label = (
            row["name"]
            + (f" ({config})" if config else "")
            + (" *" if row["kind"] == "heavy game" and not config else "")
        )
        bars.append((label, row["aec"]["median"], colour[row["kind"]]))
    return bar_chart(
        "AEC loop: steps per second (one core, log scale)", "steps per second", bars, log_scale=True
    )


def engine_chart() -> Image.Image:
    """Each compiled game's speed-ups in one run: the kernel's random play over
    its Python rules, make_vec at batch 1024 over the Python AEC loop, and the
    compiled AEC loop over connect_four_v3's."""
    data = json.loads((RESULTS / "compiled_engine.json").read_text())
    bars = []
    for name, game in data["games"].items():
        short = name.rsplit("_v", 1)[0]
        bars.append(
            (f"{short}: rules / Python rules", game["rules"]["compiled"] / game["rules"]["python"], 0)
        )
        bars.append(
            (f"{short}: make_vec 1024 / Python AEC", game["make_vec"]["1024"] / game["aec"]["python"], 1)
        )
        bars.append((f"{short}: AEC / connect_four_v3", game["aec"]["compiled"] / data["connect_four_v3"], 2))
    return bar_chart("The compiled engine: how many times faster (log scale)", "times faster", bars, True)


def arena_report(folder: Path) -> Path:
    """The report PNG of a small arena run, as ``meeplezoo arena --out`` writes it."""
    command = [sys.executable, "-m", "meeplezoo.cli", "arena", "gem_mountain", "--agents", "random"]
    command += ["mcts:sims=25", "ismcts:sims=25", "--players", "3", "--games", "6", "--out", str(folder)]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
    return folder / "report.png"


def replay_page(name: str, folder: Path) -> dict:
    """One random game written as a replay page by the arena; its length and size."""
    out = folder / base_name(name)
    command = [sys.executable, "-m", "meeplezoo.cli", "arena", name, "--agents", "random", "random"]
    command += [
        "--games",
        "1",
        "--seed",
        str(BOARD_SEED),
        "--out",
        str(out),
        "--replays",
        "html",
        "--no-progress",
    ]
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=7200)
    page = out / "replays" / "game_00000.html"
    moves = len(json.loads((out / "replays" / "game_00000.json").read_text())["actions"])
    return {"game": name, "moves": moves, "page_bytes": page.stat().st_size, "page": page}


def write_browser_figures(images: Path, folder: Path) -> list[Path]:
    """The replay page sizes (written after each game, the longest game last) and the
    viewer's screenshot of the Gem Mountain page."""
    rows, written = [], []
    for name in sorted(meeplezoo.names(), key=lambda name: name.startswith("gold_rush_gangs")):
        rows.append(replay_page(name, folder))
        write_replay_results(rows)
        if name.startswith("gem_mountain"):
            viewer = images / "browser" / "viewer.png"
            viewer.parent.mkdir(parents=True, exist_ok=True)
            screenshot(rows[-1]["page"], viewer)
            written.append(viewer)
    return written + [RESULTS / "replay_pages.md", RESULTS / "replay_pages.json"]


def write_replay_results(rows: list[dict]) -> None:
    """benchmarks/results/replay_pages.{json,md}: the page sizes the browser page quotes."""
    kept = [{key: row[key] for key in ("game", "moves", "page_bytes")} for row in rows]
    how = f"one game of random play per game, arena seed {BOARD_SEED}, `meeplezoo arena ... --replays html`"
    data = {"command": "python -m docs_tools", "method": how, "rows": kept}
    (RESULTS / "replay_pages.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = ["# Replay page sizes", "", f"Written by `python -m docs_tools`: {how}.", ""]
    lines += ["| game | moves | page |", "|---|---:|---:|"]
    lines += [f"| {row['game']} | {row['moves']:,} | {row['page_bytes'] / 1024:,.0f} KiB |" for row in kept]
    (RESULTS / "replay_pages.md").write_text("\n".join(lines) + "\n")


def screenshot(page: Path, picture: Path, size: str = "1100,900") -> None:
    """A headless Chromium picture of a page (the browser tests' Chromium)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise RuntimeError("chromium is needed for the browser screenshots (apt-get install chromium)")
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += [f"--window-size={size}", f"--screenshot={picture}", page.as_uri()]
    subprocess.run(command, check=True, capture_output=True, timeout=120)


def figures() -> dict[str, Callable[[], Image.Image]]:
    """Every deterministic image, by its path under ``docs/images``."""
    made: dict[str, Callable[[], Image.Image]] = {}
    for name in meeplezoo.names():
        made[f"games/{base_name(name)}.png"] = lambda name=name: board_picture(name)
    curves = learning_curves()
    for game, runs in curves.items():
        made[f"training/az_{game}.png"] = lambda game=game, runs=runs: curve_chart(game, runs)
    made["training/az_ratings.png"] = lambda: rating_chart(curves)
    made["training/ppo_wins.png"] = ppo_chart
    made["benchmarks/step_loop.png"] = throughput_chart
    made["benchmarks/compiled_engine.png"] = engine_chart
    return made


def write_all(images: Path = IMAGES, with_arena: bool = True) -> list[Path]:
    """Write every figure and, unless told not to, what needs games played or a browser:
    the arena report, the replay page sizes and the viewer's screenshot. Returns the paths."""
    written = []
    for relative, make in figures().items():
        path = images / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        make().save(path, optimize=True)
        written.append(path)
    if with_arena:
        with tempfile.TemporaryDirectory() as folder:
            report = Image.open(arena_report(Path(folder)))
            path = images / "arena" / "report.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            report.save(path, optimize=True)
            written.append(path)
            written += write_browser_figures(images, Path(folder) / "replays")
    return written
