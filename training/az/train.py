"""Expert iteration (``meeplezoo train GAME --algo az``): self-play with the
search, a replay buffer, a learner, periodic checkpoints and evaluation.

A round: the workers play ``games_per_round`` games with the current weights,
their positions enter the buffer, and the learner makes enough gradient steps
that each new position is used ``train_ratio`` times on average; the new
weights go out with the next round's tasks. A run lives in one folder::

    run.json                      what is trained (game, config, settings, seed)
    state.pt, buffer.npz          learner (network, optimizer, counters, sampler) and replay buffer: --resume
    latest.pt2                    the newest network (an ``az:path=`` file)
    checkpoints/net_<G>_games.pt2 the network after G self-play games: each checkpoint, evaluation and run's end
    best.pt2, best.json           the best network so far (beats the previous best)
    evaluations.jsonl             one line per evaluation: against MCTS and the previous best
    tb/                           TensorBoard logs

``resume`` continues a run folder: the step, game and position counts go on,
and a run resumed from its last save trains the same network as one never stopped.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.agents.arena import derive_seed, tournament
from meeplezoo.envs.core.state import Game
from meeplezoo.training.az.settings import DEFAULTS, az_settings, play_settings
from meeplezoo.training.train import load_run_file

RUN_FILE = "run.json"
STATE_FILE = "state.pt"
BUFFER_FILE = "buffer.npz"


def split_az_config(game_cls, pairs: dict[str, Any]) -> tuple[dict, dict]:
    """``--config`` pairs into game settings and az settings."""
    game_config, overrides = {}, {}
    for key, value in pairs.items():
        if key in game_cls.defaults:
            game_config[key] = value
        elif key in DEFAULTS:
            overrides[key] = value
        else:
            raise ValueError(
                f"unknown config key {key!r}: not a game setting ({', '.join(sorted(game_cls.defaults))}) "
                f"nor an az setting ({', '.join(sorted(DEFAULTS))})"
            )
    return game_config, overrides


def _rules(game, game_config: dict) -> Game:
    if isinstance(game, Game):
        return game
    return envs.game_class(game)(**game_config)


def evaluate_network(
    rules: Game, path: Path, opponent: str, games: int, sims: int, seed: int, progress=None
) -> dict:
    """The network at ``path`` (searching ``sims`` simulations) in one seat
    against ``opponent`` in every other seat, seats rotating: win rate (alone
    best), score rate (draws half) and both openskill ordinals."""
    spec = f"az:path={path},sims={sims}"
    n = rules.num_players
    result = tournament(
        rules,
        [spec] + [opponent] * (n - 1),
        games,
        players=n,
        seed=seed,
        workers=1,
        progress=progress or False,
    )
    return {**result.first_against_rest(), "opponent": opponent}


class _Display:
    """One tqdm bar over the run's self-play games that says what runs now."""

    def __init__(self, total: int, enabled: bool, name: str) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, disable=not enabled, desc=f"{name} self-play", unit="game", leave=False)

    def status(self, text: str) -> None:
        self.bar.set_postfix_str(text, refresh=True)

    def games(self, count: int) -> None:
        self.bar.update(count)

    def close(self) -> None:
        self.bar.close()


def train_az(
    game: str | Game | None = None,
    players: int | None = None,
    games: int = 64,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    seed: int = 0,
    progress: bool = True,
    log=print,
) -> dict:
    """Train (or resume) ``games`` more self-play games; returns the summary.

    ``game`` is a registry name or a rules ``Game``; ``config`` mixes game
    settings and az settings (:mod:`meeplezoo.training.az.settings`);
    ``workers`` self-play processes (0: this process), or Ray tasks with
    ``backend="ray"`` (at ``address``, or a local Ray)."""
    import torch

    from meeplezoo.training.az.buffer import ReplayBuffer
    from meeplezoo.training.az.learner import Learner
    from meeplezoo.training.az.network import AZNetwork, export_network
    from meeplezoo.training.az.selfplay import Workers, weights_bytes

    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    name_of = (lambda g: g.info.name) if isinstance(game, Game) else (lambda g: envs.resolve(g))
    if resume is not None:
        run_dir = Path(resume)
        saved = load_run_file(run_dir / RUN_FILE, ("algo", "game", "game_config", "overrides", "seed"))
        if saved["algo"] != "az":
            raise ValueError(f"{resume} is not an az run")
        if game is None:
            game = saved["game"]
        elif name_of(game) != saved["game"]:
            raise ValueError(f"{resume} is a run of {saved['game']}, not {name_of(game)}")
        game_cls = type(game) if isinstance(game, Game) else envs.game_class(game)
        game_config = dict(saved["game_config"])
        overrides = {**saved["overrides"], **split_az_config(game_cls, config or {})[1]}
        seed = saved["seed"]
        out = Path(out) if out is not None else run_dir
    else:
        if game is None:
            raise ValueError("name a game to train (or --resume a run)")
        game_cls = type(game) if isinstance(game, Game) else envs.game_class(game)
        game_config, overrides = split_az_config(game_cls, config or {})
        if players is not None:
            if isinstance(game, Game):
                raise ValueError("set the player count on the Game itself")
            game_config["num_players"] = players
        out = Path(out) if out is not None else Path("runs") / f"{envs.strip_version(name_of(game))}_az"
    rules = _rules(game, game_config)
    settings = az_settings(rules.info.name, overrides)
    if settings["margin_value_weight"] and not hasattr(rules.new_initial_state(0), "scores"):
        weight = settings["margin_value_weight"]
        raise ValueError(
            f"margin_value_weight={weight} needs a game that keeps scores; {rules.info.name} has none"
        )
    # built before the run folder: a setting it refuses leaves nothing behind
    buffer = ReplayBuffer(rules, int(settings["buffer_size"]), bool(settings["augment"]))
    if out.exists() and not out.is_dir():
        raise ValueError(f"run folder {str(out)!r} is an existing file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    run_info = {
        "algo": "az",
        "game": rules.info.name,
        "num_players": rules.num_players,
        "game_config": {**game_config, "num_players": rules.num_players}
        if "num_players" in rules.defaults
        else game_config,
        "overrides": overrides,
        "seed": seed,
    }
    (out / RUN_FILE).write_text(json.dumps(run_info, indent=2))

    torch.manual_seed(seed)
    torch.set_num_threads(int(settings["torch_threads"]))
    net = AZNetwork(rules, int(settings["hidden"]), int(settings["channels"]), str(settings["body"]))
    learner = Learner(net, settings)
    counters = {"games": 0, "positions": 0, "moves": 0, "simulations": 0, "worker_seconds": 0.0}
    counters.update({"learn_seconds": 0.0, "eval_seconds": 0.0, "last_eval": 0, "last_checkpoint": 0})
    sampler_state = None
    if resume is not None and (out / STATE_FILE).exists():
        data = torch.load(out / STATE_FILE, weights_only=False)
        learner.load_state_dict(data["learner"])
        counters.update(data["counters"])
        sampler_state = data.get("sampler")  # absent in runs saved before it was kept
        if (out / BUFFER_FILE).exists():
            buffer.load(out / BUFFER_FILE)
    rng = np.random.default_rng(derive_seed(seed, 4, counters["games"]))
    if sampler_state is not None:  # minibatches drawn on from where the run stopped: resume is exact
        rng.bit_generator.state = sampler_state
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(out / "tb"))
    spec = dict(net.spec)
    pool = Workers(workers, backend, address)
    display = _Display(games, progress, rules.info.name)
    target = counters["games"] + games
    started = time.perf_counter()
    history: list[dict] = []

    def trained_info() -> dict:
        return {
            "games": counters["games"],
            "positions": counters["positions"],
            "learner_steps": learner.steps,
            "cpu_seconds": counters["worker_seconds"] + counters["learn_seconds"],
        }

    def save_state(numbered: bool = False) -> None:
        state = {"learner": learner.state_dict(), "counters": counters, "sampler": rng.bit_generator.state}
        torch.save(state, out / STATE_FILE)
        buffer.save(out / BUFFER_FILE)
        latest = export_network(net, rules, out / "latest.pt2", trained_info(), play_settings(settings))
        if numbered:  # the end of a run leaves a point for the learning curve
            (out / "checkpoints").mkdir(exist_ok=True)
            shutil.copyfile(latest, out / "checkpoints" / f"net_{counters['games']}_games.pt2")

    try:
        while counters["games"] < target:
            count = min(int(settings["games_per_round"]), target - counters["games"])
            seeds = [derive_seed(seed, 3, counters["games"] + i) for i in range(count)]
            display.status("self-play")
            records = pool.play(rules, spec, weights_bytes(net), seeds, settings, on_done=display.games)
            new_positions = 0
            for record in records:
                buffer.add(record)
                new_positions += len(record.policies)
                counters["moves"] += record.length
                counters["simulations"] += record.simulations
                counters["worker_seconds"] += record.search_seconds
            counters["games"] += count
            counters["positions"] += new_positions
            steps = math.ceil(new_positions * float(settings["train_ratio"]) / int(settings["batch_size"]))
            display.status(f"learning ({steps} steps)")
            t0 = time.process_time()
            losses = learner.train(buffer, steps, rng) if len(buffer) else {}
            counters["learn_seconds"] += time.process_time() - t0
            g = counters["games"]
            for key, value in losses.items():
                writer.add_scalar(f"train/{key}", value, g)
            writer.add_scalar("selfplay/mean_length", np.mean([r.length for r in records]), g)
            writer.add_scalar("selfplay/buffer", len(buffer), g)
            every = int(settings["checkpoint_every"])
            if every and g - counters["last_checkpoint"] >= every:
                counters["last_checkpoint"] = g
                display.status("checkpoint")
                save_state(numbered=True)  # a numbered copy too: the learning curve's points
            every = int(settings["eval_every"])
            if every and g - counters["last_eval"] >= every and g < target:
                counters["last_eval"] = g
                history.append(
                    _evaluate(rules, net, out, settings, counters, trained_info(), writer, display)
                )
        save_state(numbered=True)
        if int(settings["eval_games"]) > 0 and counters["last_eval"] != counters["games"]:
            counters["last_eval"] = counters["games"]
            history.append(_evaluate(rules, net, out, settings, counters, trained_info(), writer, display))
            save_state()
    except BaseException:  # Ctrl-C, SIGTERM (the CLI raises it) or a failure: stop the workers now
        pool.close(wait=False)
        raise
    finally:
        display.close()
        pool.close()
        writer.close()
    wall = time.perf_counter() - started
    stats = {
        **trained_info(),
        "games_this_run": games,
        "wall_seconds": wall,
        "simulations_per_second": counters["simulations"] / counters["worker_seconds"]
        if counters["worker_seconds"]
        else 0.0,
        "learn_seconds": counters["learn_seconds"],
        "eval_seconds": counters["eval_seconds"],
    }
    (out / "training_stats.json").write_text(json.dumps(stats, indent=2))
    log(
        f"az: {games} self-play games this run ({counters['games']} in all, {counters['positions']} positions, "
        f"{learner.steps} learner steps) in {wall:.0f}s; run folder {out}"
    )
    for row in history:
        for key in ("mcts", "best"):
            if key in row:
                r = row[key]
                log(
                    f"  after {row['games']} games vs {r['opponent']}: won {r['wins']}/{r['games']} "
                    f"({r['win_rate']:.0%}), rating {r['rating']:.2f} vs {r['opponent_rating']:.2f}"
                )
    return {"out": str(out), "stats": stats, "evaluations": history, "run": run_info}


def _evaluate(rules, net, out: Path, settings, counters, trained: dict, writer, display) -> dict:
    """Export the network, play it against MCTS and the previous best, keep
    it as the best if it beats that one (or there is none)."""
    from meeplezoo.training.az.network import export_network

    t0 = time.perf_counter()
    g = counters["games"]
    path = export_network(
        net, rules, out / "checkpoints" / f"net_{g}_games.pt2", trained, play_settings(settings)
    )
    games = int(settings["eval_games"])
    sims = int(settings["eval_sims"])
    seed = derive_seed(0, 5, g)
    opponent = str(settings["eval_mcts_spec"])

    def status(what):
        return lambda done, total: display.status(f"evaluating vs {what} {done}/{total}")

    row: dict = {"games": g, "cpu_seconds": trained["cpu_seconds"], "network": str(path)}
    if games > 0:
        row["mcts"] = evaluate_network(rules, path, opponent, games, sims, seed, status(opponent))
        writer.add_scalar("eval/mcts/win_rate", row["mcts"]["win_rate"], g)
        writer.add_scalar("eval/mcts/rating", row["mcts"]["rating"], g)
    best_json = out / "best.json"
    best = json.loads(best_json.read_text()) if best_json.exists() else None
    promote = best is None
    if best is not None and games > 0 and (out / "best.pt2").exists():
        previous = f"az:path={out / 'best.pt2'},sims={sims}"
        row["best"] = evaluate_network(rules, path, previous, games, sims, seed + 1, status("the best"))
        row["best"]["opponent"] = f"best ({best['games']} games)"
        writer.add_scalar("eval/best/score_rate", row["best"]["score_rate"], g)
        promote = row["best"]["score_rate"] > 0.55
    if promote:
        shutil.copyfile(path, out / "best.pt2")
        best_json.write_text(json.dumps({"games": g, "network": str(path), "evaluation": row}, indent=2))
    row["promoted"] = promote
    with open(out / "evaluations.jsonl", "a") as fh:
        fh.write(json.dumps(row) + "\n")
    counters["eval_seconds"] += time.perf_counter() - t0
    return row
