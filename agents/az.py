"""The ``az`` agent: PUCT search (agents.puct) guided by a network.

Specs::

    az:path=runs/x/best.pt2,sims=64      a network trained by ``meeplezoo train --algo az``
    az:baseline=gem_mountain            the network shipped with the package for that game
    az:baseline=gem_mountain_4p         ... for its four-player table
    az:policy=runs/x/best_model.zip     the policy and value of a MaskablePPO checkpoint

A trained network is a ``torch.export`` program with its metadata (game,
players, sizes) in one file, so playing it needs torch alone, not the
training code. torch is imported only when an ``az`` agent is built; without
it the agent says which extra to install. Networks are cached per file and
process.
"""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from importlib.resources import files
from pathlib import Path

import numpy as np

from meeplezoo.agents.base import Agent, SeatView
from meeplezoo.agents.numpy_network import numpy_forward
from meeplezoo.agents.puct import DEFAULT_C_PUCT, PUCTSearch, UniformEvaluator
from meeplezoo.envs import strip_version

DEFAULT_SIMS = 64
DEFAULT_BATCH = 8
META_FILE = "meeplezoo.json"  # the metadata entry inside a network file
NETWORK_FORMAT = 1

_NETWORKS: dict[tuple, object] = {}


def require_torch() -> None:
    """Fail in one line, naming the extra, when torch (or threadpoolctl,
    which holds numpy's products to one thread beside it) is missing."""
    missing = [name for name in ("torch", "threadpoolctl") if importlib.util.find_spec(name) is None]
    if missing:
        raise ValueError(f"az agents need {' and '.join(missing)}: pip install 'meeplezoo[train]'")


_TABLE_SUFFIX = re.compile(r"_(\d+)p$")


def baseline_table(name: str) -> tuple[str, int | None]:
    """The game and table size a baseline's name stands for: ``gem_mountain``
    is the game's default table, ``gem_mountain_4p`` a four-player one (a
    network's value head has one entry per seat, so each table size has its own)."""
    match = _TABLE_SUFFIX.search(str(name))
    if match is None:
        return strip_version(str(name)), None
    return strip_version(str(name)[: match.start()]), int(match.group(1))


def shipped_baselines() -> list[str]:
    folder = files("meeplezoo.agents") / "baselines"
    if not folder.is_dir():
        return []
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".pt2"))


def baseline_path(game: str) -> Path:
    """The shipped network of ``game`` (with or without its version suffix,
    with a ``_<N>p`` suffix for a table other than the game's default)."""
    family, players = baseline_table(game)
    name = family if players is None else f"{family}_{players}p"
    path = files("meeplezoo.agents") / "baselines" / f"{name}.pt2"
    if not path.is_file():
        raise ValueError(
            f"no az baseline for {game!r}; shipped baselines: {', '.join(shipped_baselines()) or 'none'}"
        )
    return Path(str(path))


def softmax_masked(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Row-wise softmax over the legal actions only (zero elsewhere)."""
    logits = np.where(masks, logits.astype(np.float64), -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


class NetworkEvaluator:
    """A trained network (a ``torch.export`` program) as the search's evaluator.

    Once :meth:`check` has matched it to a game, an :class:`AZNetwork`'s
    program runs as numpy (:mod:`meeplezoo.agents.numpy_network`) on the
    small batches a search asks about, 1.2 to 2.9 times sooner than torch;
    larger batches and any other network keep the program's own forward."""

    def __init__(self, module, meta: dict, program=None) -> None:
        self.module = module
        self.meta = meta
        self.num_players = int(meta["num_players"])
        self.program = program
        self.numpy_network = None

    def check(self, game) -> None:
        """Refuse a network of another game, table size or action space. A
        network of an earlier version of the same game (same observation and
        actions) still plays, with a warning: it learned the older rules."""
        wanted = (game.info.name, game.num_players, game.num_actions, list(game.observation_shape))
        trained_on = self.meta["game"]
        if trained_on != game.info.name and strip_version(trained_on) == strip_version(game.info.name):
            warnings.warn(
                f"the az network was trained on {trained_on}, an earlier version of {game.info.name}'s rules",
                stacklevel=2,
            )
            trained_on = game.info.name
        have = (
            trained_on,
            self.num_players,
            self.meta["num_actions"],
            list(self.meta["observation_shape"]),
        )
        if wanted != have:
            raise ValueError(
                f"the az network is for {have[0]} with {have[1]} players ({have[2]} actions), "
                f"not {wanted[0]} with {wanted[1]} players ({wanted[2]} actions)"
            )
        if self.program is not None and self.numpy_network is None:
            self.numpy_network = numpy_forward(self.program, self.module, self.meta, game)

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        observations = np.asarray(observations, dtype=np.float32)
        if self.numpy_network is not None and self.numpy_network.suits(observations):
            logits, values = self.numpy_network(observations)
        else:
            import torch

            with torch.inference_mode():
                logits, values = (out.numpy() for out in self.module(torch.as_tensor(observations)))
        return softmax_masked(logits, np.asarray(masks, dtype=bool)), values.astype(np.float64)


def load_network(path: str | Path) -> NetworkEvaluator:
    """Load (once per process) a network file written by training."""
    if not Path(path).is_file():
        raise ValueError(f"az network not found: {path}")
    stat = Path(path).stat()
    key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)  # a rewritten file loads afresh
    if key not in _NETWORKS:
        require_torch()
        import torch
        from threadpoolctl import threadpool_limits

        # one thread: the batches are small, and a second thread on a busy core only waits
        torch.set_num_threads(1)
        threadpool_limits(1, user_api="blas")  # the same for numpy's matrix products
        program, meta = read_network_file(path)
        _NETWORKS[key] = NetworkEvaluator(trusting_module(program), meta, program)
    return _NETWORKS[key]


def trusting_module(program):
    """The program as a module that skips torch's checks of each call's
    inputs: the evaluator only ever passes float32 batches of the observation
    shape that :meth:`NetworkEvaluator.check` matched against the game, and
    on a search's one-position calls those checks cost more than the layers."""
    module = program.module(check_guards=False)
    module.validate_inputs = False
    return module


def read_network_file(path: str | Path):
    """The exported program and the metadata of a network file (ValueError
    naming the file if it is not one)."""
    if not Path(path).is_file():
        raise ValueError(f"az network not found: {path}")
    require_torch()
    import torch

    extra = {META_FILE: ""}
    try:
        program = torch.export.load(str(path), extra_files=extra)
        meta = json.loads(extra[META_FILE])
    except Exception as exc:  # a damaged or foreign file: say which, in one line
        raise ValueError(f"{path} is not an az network file: {type(exc).__name__}: {exc}") from None
    if meta.get("format") != NETWORK_FORMAT:
        raise ValueError(f"{path}: az network format {meta.get('format')!r}, expected {NETWORK_FORMAT}")
    return program, meta


class PPOEvaluator:
    """A MaskablePPO checkpoint's policy and value as the search's evaluator.

    PPO's value is the acting seat's own expected return; the other seats get
    an equal share of its opposite (the games are zero-sum), which is what
    max^n needs to back up through their moves."""

    def __init__(self, model, num_players: int) -> None:
        import torch

        torch.set_num_threads(1)  # as for the az networks: small batches, one thread
        self.policy = model.policy
        self.num_players = num_players

    def check(self, game) -> None:
        shape = tuple(self.policy.observation_space.shape)
        if shape != tuple(game.observation_shape) or int(self.policy.action_space.n) != game.num_actions:
            raise ValueError(
                f"the PPO checkpoint does not fit {game.info.name} (observation or actions differ)"
            )

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import torch

        policy = self.policy
        with torch.no_grad():
            obs, _ = policy.obs_to_tensor(np.asarray(observations))
            pi_features = policy.extract_features(obs, policy.pi_features_extractor)
            vf_features = policy.extract_features(obs, policy.vf_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(pi_features)).cpu().numpy()
            own = policy.value_net(policy.mlp_extractor.forward_critic(vf_features)).cpu().numpy()[:, 0]
        n = self.num_players
        values = np.empty((own.size, n))
        values[:, 0] = own
        if n > 1:
            values[:, 1:] = -own[:, None] / (n - 1)
        return softmax_masked(logits, np.asarray(masks, dtype=bool)), values


class AZAgent(Agent):
    """PUCT with a network's prior and value, max^n over the seats.

    Parameters: one of ``path`` (a network file), ``baseline`` (a game name:
    the shipped network) or ``policy`` (a MaskablePPO zip); ``sims``
    simulations per decision (default: what the network file says it was
    evaluated with, else 64); ``c`` the exploration weight; ``batch`` leaves
    evaluated together (virtual loss keeps them apart; default: the file's,
    else 8); ``mix`` the weight
    of the game's own estimate in a leaf's value (see agents.puct; default:
    the network file's, else 0); ``rollout`` random moves played past a
    leaf before that estimate is read (default: the file's, else 0);
    ``prior_temp`` flattens the network's prior, prior ** (1 / T) (default:
    the file's, else 1, the prior as it is); ``uniform=true`` replaces the
    network by a uniform prior and zero values (a reference).
    Play is greedy: the most visited move, no noise.
    """

    name = "az"
    needs_view = True

    def __init__(
        self,
        seed: int | None = None,
        path: str | None = None,
        baseline: str | None = None,
        policy: str | None = None,
        sims: int | None = None,
        c: float = DEFAULT_C_PUCT,
        batch: int | None = None,
        mix: float | None = None,
        rollout: int | None = None,
        prior_temp: float | None = None,
        uniform: bool = False,
        evaluator=None,
    ) -> None:
        sources = [
            k for k, v in (("path", path), ("baseline", baseline), ("policy", policy)) if v is not None
        ]
        if len(sources) > 1:
            raise ValueError(f"az takes one of path=, baseline= or policy=, got {', '.join(sources)}")
        if not sources and not uniform and evaluator is None:
            raise ValueError("az needs path=<network.pt2>, baseline=<game> or policy=<checkpoint.zip>")
        if baseline is not None:
            path = str(baseline_path(baseline))
        if path is not None and not Path(path).is_file():
            raise ValueError(f"az network not found: {path}")
        if policy is not None and not Path(policy).is_file():
            raise ValueError(f"policy checkpoint not found: {policy}")
        if sources:
            require_torch()
        played = load_network(path).meta.get("play", {}) if path is not None else {}
        sims = played.get("sims", DEFAULT_SIMS) if sims is None else sims
        mix = played.get("mix", 0.0) if mix is None else mix
        rollout = played.get("rollout", 0) if rollout is None else rollout
        prior_temp = played.get("prior_temperature", 1.0) if prior_temp is None else prior_temp
        batch = played.get("batch", DEFAULT_BATCH) if batch is None else batch
        if int(sims) < 1 or int(batch) < 1:
            raise ValueError(f"az needs sims >= 1 and batch >= 1, got sims={sims!r}, batch={batch!r}")
        if not 0.0 <= float(mix) <= 1.0:
            raise ValueError(f"az needs 0 <= mix <= 1, got mix={mix!r}")
        if int(rollout) < 0:
            raise ValueError(f"az needs rollout >= 0, got rollout={rollout!r}")
        if not float(prior_temp) > 0:
            raise ValueError(f"az needs prior_temp > 0, got prior_temp={prior_temp!r}")
        params = {k: str(v) for k, v in (("path", path), ("baseline", baseline), ("policy", policy)) if v}
        if baseline is not None:
            params.pop("path")
        extra = {"mix": float(mix)} if float(mix) else {}
        if float(mix) and int(rollout):
            extra["rollout"] = int(rollout)
        if float(prior_temp) != 1.0:
            extra["prior_temp"] = float(prior_temp)
        if int(batch) != DEFAULT_BATCH:
            extra["batch"] = int(batch)
        super().__init__(seed, **params, sims=int(sims), **extra, **({"uniform": True} if uniform else {}))
        self.path, self.policy_path, self.uniform = path, policy, bool(uniform)
        self.baseline = baseline
        self.sims, self.c, self.batch = int(sims), float(c), int(batch)
        self.mix, self.rollout, self.prior_temp = float(mix), int(rollout), float(prior_temp)
        self._evaluator = evaluator
        self._checked = None

    def evaluator(self, game):
        """The evaluator for ``game``, loaded on first use and checked against it."""
        if self._evaluator is None:
            if self.path is not None:
                self._evaluator = load_network(self.path)
            elif self.policy_path is not None:
                from meeplezoo.agents.policy import load_model

                self._evaluator = PPOEvaluator(load_model(self.policy_path), game.num_players)
            else:
                self._evaluator = UniformEvaluator(game.num_players)
        key = (game.info.name, game.num_players)
        if self._checked != key and hasattr(self._evaluator, "check"):
            try:
                self._evaluator.check(game)
            except ValueError as exc:
                if self.baseline is None:
                    raise
                family = strip_version(game.info.name)
                own = [name for name in shipped_baselines() if baseline_table(name)[0] == family]
                raise ValueError(
                    f"{exc}; shipped baselines of {family}: {', '.join(own) or 'none'} "
                    f"(a {game.num_players}-player table would be baseline={family}_{game.num_players}p)"
                ) from None
        self._checked = key
        return self._evaluator

    def search(self, view: SeatView, dirichlet_alpha: float | None = None) -> PUCTSearch:
        """A finished search of the seat's position."""
        game = view.game
        evaluator = self.evaluator(game)
        rng = self.rng
        search = PUCTSearch(
            game,
            lambda: view.sample(rng),
            self.sims,
            rng,
            c_puct=self.c,
            batch=self.batch,
            dirichlet_alpha=dirichlet_alpha,
            value_mix=self.mix,
            rollout=self.rollout,
            prior_temperature=self.prior_temp,
        )
        return search.run(evaluator)

    def act(self, observation: dict, view: SeatView | None = None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        if legal.size == 1:
            return int(legal[0])
        if view is None:
            raise ValueError(f"{self.name} needs a SeatView to search")
        return self.search(view).best_action(view.seat)
