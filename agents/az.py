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
from meeplezoo.agents.puct import (
    DEFAULT_C_PUCT,
    DEFAULT_SEARCH_BATCH,
    SEARCH_SETTINGS,
    UniformEvaluator,
    check_search_settings,
    renamed_settings,
    run_searches,
    seat_search,
)
from meeplezoo.envs import strip_version
from meeplezoo.envs.core.backends import BACKENDS

DEFAULT_SIMS = 64
# an az agent's search settings when neither its spec nor its network file names them
SEARCH_DEFAULTS = {
    "sims": DEFAULT_SIMS,
    "value_mix": 0.0,
    "value_rollout": 0,
    "prior_temperature": 1.0,
    "search_batch": DEFAULT_SEARCH_BATCH,
}
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


def network_priors_and_values(numpy_network, module, observations, masks) -> tuple[np.ndarray, np.ndarray]:
    """A network's masked priors and float64 values for a batch of
    positions: from its numpy forward where that suits the call's size
    (:meth:`NumpyNetwork.suits`), else from torch's ``module``."""
    observations = np.asarray(observations, dtype=np.float32)
    if numpy_network is not None and numpy_network.suits(observations):
        logits, values = numpy_network(observations)
    else:
        import torch

        with torch.inference_mode():
            logits, values = (out.numpy() for out in module(torch.as_tensor(observations)))
    return softmax_masked(logits, np.asarray(masks, dtype=bool)), values.astype(np.float64)


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
        return network_priors_and_values(self.numpy_network, self.module, observations, masks)


def network_file(path: str | Path) -> Path:
    """``path`` if it is a file, else the ValueError every loader gives."""
    if not Path(path).is_file():
        raise ValueError(f"az network not found: {path}")
    return Path(path)


def load_network(path: str | Path) -> NetworkEvaluator:
    """Load (once per process) a network file written by training."""
    path = network_file(path)
    require_torch()  # even for a cached network: an agent says what it needs the same way each time
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)  # a rewritten file loads afresh
    if key not in _NETWORKS:
        import torch
        from threadpoolctl import threadpool_limits

        # one thread: the batches are small, and a second thread on a busy core only waits
        torch.set_num_threads(1)
        threadpool_limits(1, user_api="blas")  # the same for numpy's matrix products
        program, meta = _read_program(path)
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
    return _read_program(network_file(path))


def _read_program(path: Path):
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


def play_settings_of(meta: dict) -> dict:
    """The search settings a network file carries, by their current names
    (files written before the rename say ``mix``, ``rollout``, ``batch``)."""
    return renamed_settings(meta.get("play", {}), "az network file", warn=False)


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
        """sb3-contrib's own ``get_distribution`` and ``predict_values``: the
        forward pass the policy trained with, whatever its feature extractor."""
        import torch

        policy = self.policy
        with torch.no_grad():
            obs, _ = policy.obs_to_tensor(np.asarray(observations))
            # Categorical's logits are log-probabilities: the masked softmax below gives the same prior
            logits = policy.get_distribution(obs).distribution.logits.cpu().numpy()
            own = policy.predict_values(obs).cpu().numpy()[:, 0]
        n = self.num_players
        values = np.empty((own.size, n))
        values[:, 0] = own
        if n > 1:
            values[:, 1:] = -own[:, None] / (n - 1)
        return softmax_masked(logits, np.asarray(masks, dtype=bool)), values


class AZAgent(Agent):
    """PUCT with a network's prior and value, max^n over the seats.

    Parameters: one of ``path`` (a network file), ``baseline`` (a game name:
    the shipped network) or ``policy`` (a MaskablePPO zip); ``c`` the
    exploration weight; and the search settings of :mod:`meeplezoo.agents.puct`,
    each by default what the network file says it was evaluated with, else
    :data:`SEARCH_DEFAULTS`: ``sims`` simulations per decision;
    ``value_mix`` the weight of the game's own estimate in a leaf's value;
    ``value_rollout`` random moves played past a leaf before that estimate is
    read; ``prior_temperature`` flattens the network's prior, prior ** (1 / T);
    ``search_batch`` leaves evaluated together (virtual loss keeps them apart).
    The old names ``mix``, ``rollout``, ``prior_temp`` and ``batch`` still
    work for one version, with a DeprecationWarning. ``uniform=true``
    replaces the network by a uniform prior and zero values (a reference).
    Play is greedy: the most visited move, no noise. ``backend``:
    ``compiled`` searches with the tree and the game in the game's kernel
    (an error where it has none), ``python`` on the rules layer; unset,
    compiled where the game has a kernel. The two are the same search with
    different random streams.
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
        value_mix: float | None = None,
        value_rollout: int | None = None,
        prior_temperature: float | None = None,
        search_batch: int | None = None,
        uniform: bool = False,
        evaluator=None,
        backend: str | None = None,
        **old_names,
    ) -> None:
        given = {
            "sims": sims,
            "value_mix": value_mix,
            "value_rollout": value_rollout,
            "prior_temperature": prior_temperature,
            "search_batch": search_batch,
        }
        given = _given_settings(given, old_names)
        sources = {"path": path, "baseline": baseline, "policy": policy}
        path = _network_source(sources, uniform, evaluator)
        played = play_settings_of(load_network(path).meta) if path is not None else {}
        settings = {
            name: given.get(name, played.get(name, SEARCH_DEFAULTS[name])) for name in SEARCH_SETTINGS
        }
        check_search_settings(**settings)
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        self.sims, self.search_batch = int(settings["sims"]), int(settings["search_batch"])
        self.value_mix, self.value_rollout = float(settings["value_mix"]), int(settings["value_rollout"])
        self.prior_temperature = float(settings["prior_temperature"])
        named = {key: str(value) for key, value in sources.items() if value}
        chosen = {"uniform": True} if uniform else {}
        chosen.update({} if backend is None else {"backend": backend})
        super().__init__(seed, **named, **self._spec_settings(), **chosen)
        self.path, self.policy_path, self.uniform, self.backend = path, policy, bool(uniform), backend
        self.baseline, self.c = baseline, float(c)
        self._evaluator = evaluator
        self._checked = None
        self._blocks = None  # the last decision's compiled search blocks, reused by the next

    def _spec_settings(self) -> dict:
        """The search settings the agent's description names: those off their defaults."""
        spec = {"sims": self.sims}
        if self.value_mix:
            spec["value_mix"] = self.value_mix
            if self.value_rollout:  # the rollout only feeds the game's estimate
                spec["value_rollout"] = self.value_rollout
        if self.prior_temperature != 1.0:
            spec["prior_temperature"] = self.prior_temperature
        if self.search_batch != DEFAULT_SEARCH_BATCH:
            spec["search_batch"] = self.search_batch
        return spec

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

    def search(self, view: SeatView, dirichlet_alpha: float | None = None, blocks=None):
        """A finished search of the seat's position: in the game's kernel
        where :func:`~meeplezoo.agents.puct.compiled_position` allows, else
        a :class:`PUCTSearch` on the rules layer. ``blocks``: an earlier
        compiled search's, to reuse (see :func:`~meeplezoo.agents.puct.seat_search`)."""
        evaluator = self.evaluator(view.game)
        search = seat_search(
            view, self.sims, self.rng, self.backend, blocks=blocks, c_puct=self.c,
            search_batch=self.search_batch, dirichlet_alpha=dirichlet_alpha, value_mix=self.value_mix,
            value_rollout=self.value_rollout, prior_temperature=self.prior_temperature,
        )  # fmt: skip
        run_searches([search], evaluator)
        return search

    def act(self, observation: dict, view: SeatView | None = None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        if legal.size == 1:
            return int(legal[0])
        if view is None:
            raise ValueError(f"{self.name} needs a SeatView to search")
        search = self.search(view, blocks=self._blocks)  # the search ends here: its blocks serve the next
        self._blocks = getattr(search, "blocks", None)
        return search.best_action(view.seat)


def _given_settings(given: dict, old_names: dict) -> dict:
    """The search settings a spec named, by their current names (an old name
    warns; one that is no setting at all is the TypeError of a bad keyword)."""
    named = renamed_settings({**{k: v for k, v in given.items() if v is not None}, **old_names}, "az")
    unknown = sorted(set(named) - set(SEARCH_SETTINGS))
    if unknown:
        raise TypeError(f"AZAgent got an unexpected keyword argument {unknown[0]!r}")
    return named


def _network_source(sources: dict, uniform: bool, evaluator) -> str | None:
    """The network file of ``path=`` or ``baseline=`` (None for ``policy=``,
    ``uniform`` or a given evaluator), after checking that one source is named."""
    named = [key for key, value in sources.items() if value is not None]
    if len(named) > 1:
        raise ValueError(f"az takes one of path=, baseline= or policy=, got {', '.join(named)}")
    if not named and not uniform and evaluator is None:
        raise ValueError("az needs path=<network.pt2>, baseline=<game> or policy=<checkpoint.zip>")
    if sources["policy"] is not None:
        from meeplezoo.agents.policy import policy_checkpoint

        policy_checkpoint(sources["policy"])
        require_torch()
        return None
    if sources["baseline"] is not None:
        return str(baseline_path(sources["baseline"]))
    return sources["path"]
