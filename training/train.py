"""Self-play training of a MaskablePPO agent on any meeplezoo game.

A run lives in one folder::

    run.json                     what was trained (game, players, config, seed)
    checkpoints/model_<N>_steps.zip   every ``checkpoint_every`` steps and at the end
    league/snapshot_<N>_steps.pt      frozen policies for the opponent pool
    best_model.zip, best.json    the best model by evaluation so far
    evaluations.jsonl            one line per evaluation
    tb/                          TensorBoard logs
    final_eval.json, training_stats.json

``resume`` reloads the newest checkpoint and the league of a run folder and
continues the step count (``timesteps`` more steps).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.state import Game
from meeplezoo.training import configs
from meeplezoo.training.league import League, PolicyOpponent, load_policy
from meeplezoo.training.selfplay import SelfPlayEnv, make_game

RUN_FILE = "run.json"
_CHECKPOINT = re.compile(r"^model_(\d+)_steps\.zip$")
_SNAPSHOT = re.compile(r"^snapshot_(\d+)_steps\.pt$")


def split_config(game: str | Game, pairs: dict[str, Any]) -> tuple[dict, dict]:
    """Split ``--config`` pairs into the game's config keys and training
    settings (keys of :data:`meeplezoo.training.configs.DEFAULTS`)."""
    game_keys = set(game.defaults if isinstance(game, Game) else envs.game_class(game).defaults)
    game_config, overrides = {}, {}
    for key, value in pairs.items():
        if key in game_keys:
            game_config[key] = value
        elif key in configs.DEFAULTS:
            overrides[key] = value
        else:
            raise ValueError(
                f"unknown config key {key!r}: not a game setting ({', '.join(sorted(game_keys))}) "
                f"nor a training setting ({', '.join(sorted(configs.DEFAULTS))})"
            )
    return game_config, overrides


def _numbered(folder: Path, pattern: re.Pattern) -> list[tuple[int, Path]]:
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := pattern.match(p.name))]
    return sorted(found)


def load_run_file(path: str | Path, required: tuple[str, ...] = ()) -> dict:
    """A run folder's JSON record; a damaged one is a ValueError naming the
    file (a missing one, the OSError), so ``--resume`` of a wrong folder says
    which file is wrong."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} is not a run record: {exc}") from None
    missing = [key for key in required if not isinstance(data, dict) or key not in data]
    if missing:
        raise ValueError(f"{path} is not a run record (missing {', '.join(missing)})")
    return data


def latest_checkpoint(run_dir: str | Path) -> Path:
    found = _numbered(Path(run_dir) / "checkpoints", _CHECKPOINT)
    if not found:
        raise ValueError(f"no checkpoint to resume in {run_dir}/checkpoints")
    return found[-1][1]


def _env_factory(game, game_config: dict, params: dict):
    def make():
        import torch

        torch.set_num_threads(int(params["torch_threads"]))
        league = League(
            weights=configs.league_weights(params),
            window=int(params["league_window"]),
            bots={"mcts": params["league_mcts_spec"]},
        )
        return SelfPlayEnv(
            game,
            None if isinstance(game, Game) else game_config,
            league=league,
            skip_forced=bool(params["skip_forced"]),
            reward_shaping=float(params["reward_shaping"]),
            gamma=float(params["gamma"]),
        )

    return make


def make_vec_env(game, game_config: dict, params: dict, n_envs: int, seed: int):
    """``n_envs`` self-play envs: in worker processes when more than one."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if n_envs > 1:
        venv = SubprocVecEnv([_env_factory(game, game_config, params) for _ in range(n_envs)])
    else:
        venv = DummyVecEnv([_env_factory(game, game_config, params)])
    venv.seed(seed)
    return VecMonitor(venv)


def _describe_game(game) -> str:
    return game.info.name if isinstance(game, Game) else envs.resolve(game)


def train(
    game: str | Game | None = None,
    players: int | None = None,
    timesteps: int = 20_000,
    n_envs: int = 1,
    config: dict[str, Any] | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    eval_every: int | None = None,
    eval_games: int | None = None,
    seed: int = 0,
    progress: bool = True,
    final_eval: bool = True,
    console=None,
) -> dict:
    """Train (or resume) a self-play run; returns its summary dict.

    ``game`` is a registry name or a rules ``Game`` (then ``players`` and the
    game part of ``config`` must be set on the Game itself). ``config`` mixes
    game settings and training settings (:mod:`meeplezoo.training.configs`).
    """
    import torch
    from rich.console import Console
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.callbacks import (
        ArenaEvalCallback,
        LeagueCallback,
        ProgressCallback,
        RunCheckpointCallback,
        planned_steps,
    )

    if resume is not None:
        run_dir = Path(resume)
        saved = load_run_file(run_dir / RUN_FILE, ("game", "game_config", "overrides", "seed"))
        if game is None:
            game = saved["game"]
        elif _describe_game(game) != saved["game"]:
            raise ValueError(f"{resume} is a run of {saved['game']}, not {_describe_game(game)}")
        game_config = dict(saved["game_config"])
        overrides = {**saved["overrides"], **split_config(game, config or {})[1]}
        seed = saved["seed"] if seed == 0 else seed
        out = Path(out) if out is not None else run_dir
    else:
        if game is None:
            raise ValueError("name a game to train (or --resume a run)")
        game_config, overrides = split_config(game, config or {})
        if players is not None:
            if isinstance(game, Game):
                raise ValueError("set the player count on the Game itself")
            game_config["num_players"] = players
        out = Path(out) if out is not None else Path("runs") / envs.strip_version(_describe_game(game))
    if isinstance(game, str):
        game = envs.resolve(game)
    rules = make_game(game, None if isinstance(game, Game) else game_config)
    # the command line's --eval-every/--eval-games are checked like --config's,
    # but stay out of the saved overrides: a resumed run takes its own
    arguments = {
        key: value
        for key, value in (("eval_every", eval_every), ("eval_games", eval_games))
        if value is not None
    }
    params = configs.hyperparams(_describe_game(game), {**overrides, **arguments})
    if out.exists() and not out.is_dir():
        raise ValueError(f"run folder {str(out)!r} is an existing file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    run_info = {
        "game": _describe_game(game),
        "num_players": rules.num_players,
        "game_config": game_config,
        "overrides": overrides,
        "seed": seed,
        "n_envs": n_envs,
    }
    (out / RUN_FILE).write_text(json.dumps(run_info, indent=2))

    torch.set_num_threads(int(params["torch_threads"]))
    venv = make_vec_env(game, game_config, params, n_envs, seed)
    league_dir = out / "league"
    if resume is not None:
        model = MaskablePPO.load(
            str(latest_checkpoint(resume)), env=venv, device="cpu", tensorboard_log=str(out / "tb")
        )
        for _, path in _numbered(Path(resume) / "league", _SNAPSHOT)[-int(params["league_window"]) :]:
            venv.env_method("add_snapshot", str(path))
    else:
        model = MaskablePPO(
            env=venv,
            seed=seed,
            device="cpu",
            verbose=0,
            tensorboard_log=str(out / "tb"),
            **configs.ppo_kwargs(params, rules),
        )
    console = console or Console()
    start_steps = int(model.num_timesteps)
    planned = planned_steps(int(timesteps), int(model.n_steps), n_envs)
    if planned != int(timesteps):
        console.print(
            f"{int(timesteps):,} steps asked: PPO learns in whole rollouts of "
            f"{model.n_steps * n_envs:,} steps, so this run makes {planned:,}",
            soft_wrap=True,
        )
    bar = ProgressCallback(planned, console) if progress else None
    opponents = [
        ("random", int(params["eval_games"])),
        (params["eval_mcts_spec"], int(params["eval_mcts_games"])),
    ]
    evaluator = ArenaEvalCallback(
        rules,
        out,
        int(params["eval_every"]),
        opponents,
        seed=seed + 1000,
        deterministic=bool(params["eval_deterministic"]),
        on_status=bar.status if bar else None,
    )
    callbacks = [
        LeagueCallback(league_dir, int(params["snapshot_every"])),
        RunCheckpointCallback(out / "checkpoints", int(params["checkpoint_every"])),
        evaluator,
        *([bar] if bar else []),
    ]
    env_before = venv.env_method("timing")
    t0 = time.perf_counter()
    model.learn(
        total_timesteps=int(timesteps),
        callback=callbacks,
        reset_num_timesteps=resume is None,
        tb_log_name="selfplay",
    )
    wall = time.perf_counter() - t0
    env_after = venv.env_method("timing")
    steps = int(model.num_timesteps) - start_steps
    env_seconds = sum(a[0] - b[0] for a, b in zip(env_after, env_before)) / len(env_after)
    (out / "checkpoints").mkdir(exist_ok=True)
    final_path = out / "checkpoints" / f"model_{model.num_timesteps}_steps.zip"
    model.save(str(final_path))
    venv.close()
    train_wall = wall - evaluator.seconds
    stats = {
        "timesteps_total": int(model.num_timesteps),
        "timesteps_this_run": steps,
        "learn_seconds": wall,
        "eval_seconds": evaluator.seconds,
        # throughput and env share leave the periodic evaluation out
        "steps_per_second": steps / train_wall if train_wall > 0 else 0.0,
        "env_share": env_seconds / train_wall if train_wall > 0 else 0.0,
        "n_envs": n_envs,
        "torch_threads": torch.get_num_threads(),
    }
    (out / "training_stats.json").write_text(json.dumps(stats, indent=2))
    summary = {"out": str(out), "final_model": str(final_path), "stats": stats, "run": run_info}
    if final_eval:
        summary["final_eval"] = final_evaluation(rules, out, final_path, params, seed, console, progress)
    return summary


def final_evaluation(
    rules: Game,
    out: Path,
    final_path: Path,
    params: dict,
    seed: int,
    console=None,
    progress: bool = False,
) -> dict:
    """A short arena tournament of the best model by evaluation (else the
    final one) with random and MCTS; prints its tables and saves the report
    under ``arena/`` (plus ``final_eval.json``). With ``progress`` a status
    line counts the games, which take a while on the long games."""
    from rich.console import Console

    console = console or Console()
    best = out / "best_model.zip"
    chosen = best if best.exists() else final_path
    policy = load_policy(str(chosen))
    games = int(params["final_games"])
    if games <= 0:
        return {"model": str(chosen), "agents": []}
    from meeplezoo.agents.arena import tournament

    trained = PolicyOpponent(policy, deterministic=bool(params["eval_deterministic"]), label="trained")
    console.print(
        f"[bold]{rules.info.title}[/bold], {rules.num_players} players: {chosen.name} against random and MCTS"
    )
    entrants = [trained, "random", params["eval_mcts_spec"]]
    with console.status(f"closing games: 0/{games}") if progress else contextlib.nullcontext() as status:
        result = tournament(
            rules,
            entrants,
            games,
            players=rules.num_players,
            seed=seed + 2000,
            workers=int(params["final_workers"]),
            out=out / "arena",
            progress=(lambda done, total: status.update(f"closing games: {done}/{total}"))
            if progress
            else False,
        )
    result.print(console)
    report = {"model": str(chosen), "agents": result.agent_rows(), "pairs": result.pairwise_rows()}
    (out / "final_eval.json").write_text(json.dumps(report, indent=2))
    return report
