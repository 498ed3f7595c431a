"""What every trainer does the same way with its run folder: split the
``--config`` pairs, start or resume a run, refuse to mix two runs in one
folder, and seed the run's random streams.

PPO (:mod:`meeplezoo.training.train`), expert iteration
(:mod:`meeplezoo.training.az.train`) and RLlib (:mod:`meeplezoo.training.rllib`)
all go through it, so they follow one resume rule:

    A resumed run keeps what it was started with: its game, the game's
    settings and its seed. Training settings given again (``--config``) take
    the place of the saved ones and are saved with the run. A seed other
    than the run's own is refused (ValueError naming both): with the saved
    seed a run resumed from its last save goes on as one never stopped.

A fresh run refuses a folder that already holds a run (its record file), so
two runs never mix their checkpoints and logs there: resume it, name another
folder, or ask to overwrite it (which first removes what the earlier run wrote).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.agents.arena import derive_seed
from meeplezoo.envs.core.state import Game

RUN_FILE = "run.json"
DEFAULT_SEED = 0
# How each trainer's run record names it; a record without one is a PPO run
# (PPO runs were saved before the record named its algorithm).
RUN_KINDS = {"ppo": "a PPO run", "az": "an az run"}


class SeedStream(IntEnum):
    """The independent random streams of one run: each draws
    ``derive_seed(run seed, stream, index)``, so adding draws to one stream
    never moves another (and a resumed run draws on where it stopped)."""

    SELF_PLAY = 3  # one seed per self-play game, by the game's number in the run
    MINIBATCHES = 4  # the learner's sampler, by the games played when it started
    EVALUATION = 5  # one seed per evaluation, by the games played when it ran


def stream_seed(run_seed: int, stream: SeedStream, index: int) -> int:
    """The seed of draw ``index`` of ``stream`` in the run seeded ``run_seed``."""
    return derive_seed(run_seed, int(stream), index)


def game_name(game: str | Game) -> str:
    """The registered name (version included) of a game name or a rules Game."""
    return game.info.name if isinstance(game, Game) else envs.resolve(game)


def game_settings_of(game: str | Game) -> dict[str, Any]:
    """The game's own config keys and their defaults."""
    return dict(game.defaults if isinstance(game, Game) else envs.game_class(game).defaults)


def split_config(
    game: str | Game, pairs: dict[str, Any], settings: dict[str, Any], kind: str = "training setting"
) -> tuple[dict, dict]:
    """``--config`` pairs into the game's settings and the trainer's (keys of
    ``settings``); a key that is neither is a ValueError listing both."""
    game_keys = game_settings_of(game)
    game_config, overrides = {}, {}
    for key, value in pairs.items():
        if key in game_keys:
            game_config[key] = value
        elif key in settings:
            overrides[key] = value
        else:
            raise ValueError(
                f"unknown config key {key!r}: not a game setting ({', '.join(sorted(game_keys))}) "
                f"nor {_article(kind)} ({', '.join(sorted(settings))})"
            )
    return game_config, overrides


def _article(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


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


def resumed_seed(saved_seed: int, asked: int | None, run_dir: str | Path) -> int:
    """The resume rule's seed: the run's own; None asks for it, any other is refused."""
    if asked is not None and int(asked) != int(saved_seed):
        raise ValueError(
            f"{run_dir} was started with seed {saved_seed}, not {asked}: "
            "a resumed run keeps its seed (leave --seed out, or start a new run)"
        )
    return int(saved_seed)


def check_run_folder(out: Path, run_file: str = RUN_FILE, overwrite: bool = False) -> None:
    """Refuse a file as the run folder, and a folder that holds another run
    unless ``overwrite``: checked before anything is written."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"run folder {str(out)!r} is an existing file, not a folder")
    if not overwrite and (out / run_file).exists():
        raise ValueError(
            f"{out} already holds a run: --resume {out} to continue it, --out another folder, "
            "or --overwrite to replace it"
        )


def clear_run_folder(out: Path, entries: Iterable[str]) -> None:
    """Remove what an earlier run wrote in ``out`` (``entries``: the names a
    trainer writes), so an overwritten run keeps nothing of it."""
    for name in entries:
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()


@dataclass
class RunPlan:
    """What a run trains and where, settled before anything is written."""

    algo: str
    game: str | Game  # a registered name (as given) or a rules Game
    game_config: dict[str, Any]
    overrides: dict[str, Any]  # training settings given or saved, not the defaults
    seed: int
    out: Path
    resumed: bool
    overwrite: bool = False
    resume_from: Path | None = None  # the folder a resumed run continues (its checkpoints)

    @property
    def name(self) -> str:
        return game_name(self.game)


@dataclass
class RunRequest:
    """A trainer's arguments that :func:`plan_run` reads."""

    algo: str
    game: str | Game | None
    players: int | None
    config: dict[str, Any] | None
    out: str | Path | None
    resume: str | Path | None
    seed: int | None
    overwrite: bool = False


def plan_run(request: RunRequest, settings: dict[str, Any], kind: str, folder_suffix: str = "") -> RunPlan:
    """Start a run or resume one (the module's rule); ``settings`` are the
    trainer's defaults (its known keys), ``kind`` what error messages call
    them, and a new run's folder is ``runs/<game><folder_suffix>`` unless
    ``out`` names one."""
    if request.resume is not None:
        plan = _resumed_plan(request, settings, kind)
    else:
        plan = _new_plan(request, settings, kind, folder_suffix)
    if not plan.resumed or plan.out.resolve() != Path(request.resume).resolve():
        check_run_folder(plan.out, RUN_FILE, plan.overwrite)
    return plan


def _new_plan(request: RunRequest, settings: dict[str, Any], kind: str, folder_suffix: str) -> RunPlan:
    game = request.game
    if game is None:
        raise ValueError("name a game to train (or --resume a run)")
    game_config, overrides = split_config(game, request.config or {}, settings, kind)
    if request.players is not None:
        if isinstance(game, Game):
            raise ValueError("set the player count on the Game itself")
        game_config["num_players"] = request.players
    default_out = Path("runs") / f"{envs.strip_version(game_name(game))}{folder_suffix}"
    return RunPlan(
        request.algo,
        game,
        game_config,
        overrides,
        DEFAULT_SEED if request.seed is None else int(request.seed),
        Path(request.out) if request.out is not None else default_out,
        resumed=False,
        overwrite=request.overwrite,
    )


def _resumed_plan(request: RunRequest, settings: dict[str, Any], kind: str) -> RunPlan:
    run_dir = Path(request.resume)
    saved = load_run_file(run_dir / RUN_FILE, ("game", "game_config", "overrides", "seed"))
    if saved.get("algo", "ppo") != request.algo:
        raise ValueError(
            f"{run_dir} is not {RUN_KINDS[request.algo]} (its record says {saved.get('algo')!r})"
        )
    game = request.game
    if game is None:
        game = saved["game"]
    elif game_name(game) != saved["game"]:
        raise ValueError(f"{run_dir} is a run of {saved['game']}, not {game_name(game)}")
    overrides = {**saved["overrides"], **split_config(game, request.config or {}, settings, kind)[1]}
    return RunPlan(
        request.algo,
        game,
        dict(saved["game_config"]),
        overrides,
        resumed_seed(saved["seed"], request.seed, run_dir),
        Path(request.out) if request.out is not None else run_dir,
        resumed=True,
        overwrite=request.overwrite,
        resume_from=run_dir,
    )


def open_run_folder(plan: RunPlan, run_info: dict[str, Any], entries: Iterable[str]) -> None:
    """Create the run folder (clearing an overwritten run's ``entries``) and
    write its record: the last step before training, once every setting passed."""
    if plan.overwrite and not plan.resumed:
        clear_run_folder(plan.out, entries)
    plan.out.mkdir(parents=True, exist_ok=True)
    (plan.out / RUN_FILE).write_text(json.dumps(run_info, indent=2))
