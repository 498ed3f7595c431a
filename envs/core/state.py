"""The rules-state contract every meeplezoo game implements.

The split follows OpenSpiel: a :class:`Game` holds one validated configuration
and everything that depends only on it (board geometry, tile tables, action
and observation sizes), built once; a :class:`State` is one position of that
game. States never import PettingZoo: search bots and tests drive them
directly, and :mod:`meeplezoo.envs.core.aec` wraps them for PettingZoo.

Chance comes only from ``State.rng``, a numpy ``Generator`` seeded by
``Game.new_initial_state(seed)`` and copied by ``clone()``, so the same seed
and the same actions replay bit for bit.
"""

from __future__ import annotations

import abc
import copy
import difflib
import functools
import hashlib
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.fields import (  # noqa: F401 (generated_clone re-exported beside State)
    Field,
    compile_clone,
    fields_from_dict,
    fields_to_dict,
    generated_clone,
)
from meeplezoo.envs.core.integers import (  # noqa: F401 (integer_index re-exported: games import it from here)
    check_integer,
    integer_index,
)
from meeplezoo.envs.core.options import Option, defaults_of, validated_config
from meeplezoo.envs.core.rng import (  # noqa: F401 (re-exported: the generator belongs to the contract)
    SEED_BOUND,
    clone_rng,
    derive_rng,
    make_rng,
    rng_from_dict,
    rng_to_dict,
)


@dataclass(frozen=True, kw_only=True)
class GameInfo:
    """Static facts about a game, declared once (like OpenSpiel's GameType).

    ``players`` is the game's ``num_players`` option (an ``integer`` from
    :mod:`meeplezoo.envs.core.options`): the player-count bounds and default
    are read from it, so they are written once, in the options declaration
    (``options = {"num_players": info.players, ...}`` or the reverse).
    Passing ``min_players``, ``max_players`` and ``default_players`` instead
    is the old way, kept for one version."""

    name: str  # registry name, e.g. "gem_mountain_v0"
    title: str  # human title, e.g. "Gem Mountain"
    hidden_information: bool
    chance: bool
    players: Option | None = None
    min_players: int | None = None
    max_players: int | None = None
    default_players: int | None = None
    zero_sum: bool = True
    version: int = 0  # the k of the entry module name <name>_v<k> (a packaging test checks)
    rules_page: str = ""  # path of the rules page, relative to the project root

    def __post_init__(self) -> None:
        given = (self.min_players, self.max_players, self.default_players)
        if self.players is None:
            if None in given:
                raise ValueError(f"{self.name}: declare players (the num_players option)")
            return
        declared = (self.players.low, self.players.high, self.players.default)
        if given != (None, None, None) and given != declared:
            raise ValueError(
                f"{self.name}: player bounds {given} differ from the num_players option's {declared}"
            )
        for attribute, value in zip(("min_players", "max_players", "default_players"), declared):
            object.__setattr__(self, attribute, value)


def config_digest(config: dict) -> str:
    """Short sha256 of a validated config (keys sorted): a position or a
    replay records it, so it is never loaded into a game of another config."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# What a game's loader may raise on a malformed dict; the checked loader turns
# each into a ValueError that says the position does not fit the game.
LOADER_MISTAKES = (KeyError, TypeError, IndexError, AttributeError, OverflowError, StopIteration)


def load_position(game: Game, data: Any, load: Callable[[Any], State]) -> State:
    """The one checked path every position takes (``Game.state_from_dict``):
    a dict, of this config, without a key the game does not write, read by
    the game's ``load(data)`` without crashing, then the game's own
    consistency rules (``State.check_position``)."""
    name = game.info.name
    if not isinstance(data, dict):
        raise TypeError(f"{name}: a position must be a dict, got {type(data).__name__}")
    recorded = data.get("config_digest")
    if recorded is not None and recorded != game.config_digest:
        raise ValueError(
            f"{name}: the position's config_digest {recorded!r} belongs to another config than this game's "
            f"({game.config_digest!r}); load it into a game made with the config it was saved from"
        )
    try:
        state = load(data)
        check_known_keys(name, data, state.to_dict())
        state.check_position()
    except ValueError:
        raise
    except LOADER_MISTAKES as exc:
        raise ValueError(
            f"{name}: the position does not fit this game ({type(exc).__name__}: {exc})"
        ) from None
    return state


def check_known_keys(game_name: str, data: dict, written: dict) -> None:
    """A ValueError naming the first key of ``data`` that the game never
    writes (``written`` is what the loaded state's ``to_dict`` gives) and
    the nearest key it does write: a typo such as ``"cur"`` would otherwise
    load without a word and the entry it meant keep its default."""
    unknown = sorted(key for key in data if key not in written)
    if unknown:
        known = sorted(str(key) for key in written)
        nearest = difflib.get_close_matches(str(unknown[0]), known, n=1, cutoff=0.0)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
        raise ValueError(
            f"{game_name}: the position has an unknown key {unknown[0]!r}{hint} (known keys: {known})"
        )


def _old_override(cls: type, public: str, marker: str, wrap: Callable[[Callable], Callable]) -> None:
    """The old way a game hooked in, kept for one version: a class that still
    overrides ``public`` itself (instead of its ``_``-named hook) gets that
    override wrapped in the base class's checks, with a DeprecationWarning
    that names the hook to override instead."""
    method = cls.__dict__.get(public)
    if method is None or getattr(method, marker, False):
        return
    warnings.warn(
        f"{cls.__qualname__} overrides {public}(); override _{public}() instead, which "
        f"{public}() calls after its checks (the old override keeps working for one version)",
        DeprecationWarning,
        stacklevel=3,
    )
    wrapped = functools.wraps(method)(wrap(method))
    setattr(wrapped, marker, True)
    setattr(cls, public, wrapped)


def _old_loader(load: Callable) -> Callable:
    return lambda game, data: load_position(game, data, lambda position: load(game, position))


def _old_writer(write: Callable) -> Callable:
    return lambda state: {**write(state), "config_digest": state.game.config_digest}


def _old_estimate(estimate: Callable) -> Callable:
    return lambda state, viewer=None: estimate(state, None if viewer is None else state.check_viewer(viewer))


class Game(abc.ABC):
    """One configuration of a game; builds its states.

    Subclasses set ``info`` and ``options`` (each setting declared once, see
    :mod:`meeplezoo.envs.core.options`; ``defaults`` is derived from it) and
    may override ``validate`` for checks that tie several keys together.
    ``config`` is the full, validated configuration (defaults filled in).
    After ``__init__`` the attributes below must be set:

    - ``num_players``: seats in this configuration;
    - ``num_actions``: size of the flat ``Discrete`` action space;
    - ``observation_shape``, ``observation_dtype``, ``observation_low``,
      ``observation_high``: the observation Box;
    - ``reward_range``: (min, max) of any player's return;
    - ``max_turns``: the turn limit at which a state reports ``truncated``.

    ``observation_planes`` is optional: ``(planes, rows, cols)`` when the
    observation vector starts with that many plane-major board images (the
    rest are global values), so a policy can convolve over the board.
    ``action_cells`` (optional, with it) gives, per action, the cell of those
    planes the action is about, as ``kind * rows * cols + cell`` (one kind per
    sort of cell action), or -1; a policy can then score every cell with the
    same weights. ``ownership_planes`` (optional, with the planes) names
    the planes that say who holds each cell, as 0 for nobody or 1 + the
    holder's seat counted from the observer: expert iteration can learn to
    foresee them at the game's end (``ownership_weight``), as KataGo's
    networks learn the final owner of every point beside the result.
    """

    info: ClassVar[GameInfo]
    options: ClassVar[dict[str, Option]] = {}
    defaults: ClassVar[dict[str, Any]] = {}

    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_dtype: Any = np.float32
    observation_low: float = 0.0
    observation_high: float = 1.0
    reward_range: tuple[float, float] = (-1.0, 1.0)
    max_turns: int
    observation_planes: tuple[int, int, int] | None = None
    action_cells: np.ndarray | None = None
    ownership_planes: tuple[int, ...] | None = None
    # Builds the game's observation encoder from the validated game. The game
    # package (envs/<game>/__init__.py) sets it from its observe module, so
    # rules.py never imports the encoder: the observer reads the state, never
    # the reverse. The encoder may set the observation Box attributes above.
    observer_factory: ClassVar[Callable[[Game], Any] | None] = None
    observer: Any = None
    # Builds the game's board symmetries (envs.core.symmetry) from the
    # validated game; set by the game package beside the observer, whose
    # layout the maps follow. None: the game declares none.
    symmetry_factory: ClassVar[Callable[[Game], tuple] | None] = None
    _symmetries: tuple | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "options" in cls.__dict__:
            cls.defaults = defaults_of(cls.options)
        _old_override(cls, "state_from_dict", "checked", _old_loader)

    def __init__(self, **config: Any) -> None:
        unknown = sorted(set(config) - set(self.defaults))
        if unknown:
            raise ValueError(
                f"{self.info.name}: unknown config key(s) {unknown}; known keys are {sorted(self.defaults)}"
            )
        self.config: dict[str, Any] = {**copy.deepcopy(self.defaults), **config}
        self.num_players = check_integer(
            self.config.get("num_players", self.info.default_players),
            f"{self.info.name}: num_players",
            self.info.min_players,
            self.info.max_players,
        )
        if self.options:
            self.config = validated_config(self.options, self.config, self.info.name)
        self.validate()
        # hashed once: every saved position and replay carries it
        self.config_digest = config_digest(self.config)
        if self.observer_factory is not None:
            self.observer = self.observer_factory(self)

    def symmetries(self) -> tuple:
        """The transformations that leave play unchanged, the identity left
        out (:class:`~meeplezoo.envs.core.symmetry.Symmetry`), built once."""
        if self._symmetries is None:
            factory = type(self).symmetry_factory  # a plain function, not a method
            self._symmetries = tuple(factory(self)) if factory is not None else ()
        return self._symmetries

    def validate(self) -> None:  # noqa: B027 (optional hook: a game without settings needs none)
        """Check ``self.config`` (raise ValueError naming the key) and build
        everything that depends only on it; set the size attributes."""

    @abc.abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """A fresh game; all setup chance drawn from ``make_rng(seed)``."""

    def state_from_dict(self, data: dict) -> State:
        """Rebuild a state written by ``State.to_dict`` (inverse of it).

        The shared checks (:func:`load_position`) run around the game's
        :meth:`_state_from_dict`: a dict, whose ``config_digest`` (when
        present) is this game's, with no key the game does not write, that
        loads without crashing and passes the state's ``check_position``;
        anything else is a ValueError (TypeError for a non-dict) and no
        state is returned."""
        return load_position(self, data, self._state_from_dict)

    def _state_from_dict(self, data: dict) -> State:
        """The game's loader, called by :meth:`state_from_dict` inside its
        checks (usually ``XState.from_dict(self, data)``)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _state_from_dict")

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"{type(self).__name__}({self.config})"


class State(abc.ABC):
    """One position. Subclasses hold the game data in plain attributes.

    Required: ``game`` (the Game), ``rng`` (numpy Generator), and the methods
    marked abstract. ``current_player`` is the seat that decides now (an
    out-of-turn responder included); it is -1 once the game is over.
    """

    game: Game
    rng: np.random.Generator
    # The state's attributes, declared once (see meeplezoo.envs.core.fields):
    # the keyed part of to_dict()/from_dict() comes from this tuple, and a
    # class body may add ``clone = generated_clone()`` to copy them fast.
    fields: ClassVar[tuple[Field, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Only the old hooks, kept for one version (each with a
        DeprecationWarning): overrides of ``to_dict`` and ``evaluate``
        themselves, and a class that declares ``fields`` but no ``clone``."""
        super().__init_subclass__(**kwargs)
        if "fields" in cls.__dict__ and "clone" not in cls.__dict__:
            warnings.warn(
                f"{cls.__qualname__} declares fields but no clone; add clone = generated_clone() "
                "to its body (generated for it for one more version)",
                DeprecationWarning,
                stacklevel=2,
            )
            cls.clone = compile_clone(cls, cls.fields)
        _old_override(cls, "to_dict", "adds_digest", _old_writer)
        _old_override(cls, "evaluate", "checks_viewer", _old_estimate)

    # --- whose move -------------------------------------------------------
    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """Seat to act now, or -1 when the game is over."""

    # --- moves ------------------------------------------------------------
    @abc.abstractmethod
    def legal_action_mask(self) -> np.ndarray:
        """Bool array of length ``game.num_actions``; never all False while
        the game runs (a forced pass action covers 'no legal move'), all
        False once it is over (``apply`` relies on that)."""

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_action_mask())

    def apply(self, action: int) -> None:
        """Play a legal action for ``current_player``.

        Raises ValueError naming the value, and changes nothing, when the game
        is over or ``action`` is not a legal action index (bools, floats and
        strings included). The checks live here once so that every game
        rejects the same inputs with the same words; the move itself is the
        game's :meth:`_apply_action`. The common case (a legal Python int) is
        tested first and cheaply: search bots and benchmarks call this per
        move; the exact reason for a refusal is worked out only on refusal."""
        a = action if type(action) is int else integer_index(action)
        if a is None or not (0 <= a < self.game.num_actions and self._is_legal(a)):
            self._refuse(action)
        self._apply_action(a)

    def apply_unchecked(self, action: int) -> None:
        """Play ``action`` without the checks of :meth:`apply`.

        For callers that already know the action is a legal Python int of a
        running game (the AEC env after its own checks, search bots that
        draw from ``legal_actions()``): they skip paying for the checks twice
        on the hot path. An illegal action here may corrupt the state."""
        self._apply_action(action)

    def _refuse(self, action: Any) -> None:
        """Raise the ValueError that says why :meth:`apply` refuses ``action``
        (checked in this order: game over, not an integer, out of range,
        illegal here)."""
        name = self.game.info.name
        if self.current_player < 0:
            raise ValueError(f"{name}: the game is over; cannot apply action {action!r}")
        a = integer_index(action)
        if a is None:
            raise ValueError(f"{name}: action must be an integer, got {action!r}")
        n = self.game.num_actions
        if not 0 <= a < n:
            raise ValueError(f"{name}: action {a} is outside 0..{n - 1}")
        raise ValueError(
            f"{name}: illegal action {a} ({self.action_to_string(a)}) in phase {self.phase_name()!r}"
        )

    def _is_legal(self, action: int) -> bool:
        """Whether the in-range ``action`` is legal now (False for every
        action once the game is over, as the mask is all False then). Games
        with a cheaper test than indexing the whole mask override it."""
        return self.legal_action_mask()[action]

    @abc.abstractmethod
    def _apply_action(self, action: int) -> None:
        """The game's move: play ``action``, a legal Python int, for
        ``current_player``. Called only after the checks of :meth:`apply`
        (or by :meth:`apply_unchecked`, whose callers made them)."""

    # --- end of game --------------------------------------------------------
    @property
    @abc.abstractmethod
    def terminal(self) -> bool:
        """The game ended by its rules."""

    @property
    def truncated(self) -> bool:
        """The turn limit was reached before the rules ended the game."""
        return False

    @property
    def done(self) -> bool:
        return self.terminal or self.truncated

    @abc.abstractmethod
    def returns(self) -> np.ndarray:
        """Final reward per seat (float64, length num_players). Meaningful
        once ``done``; for a truncated game, the game's truncation rule."""

    def evaluate(self, viewer: int | None = None) -> np.ndarray:
        """Estimated return per seat of this position, within the game's
        reward range; equal to ``returns()`` once the game is over.

        ``viewer=None`` reads the whole state: search bots score capped
        rollouts of their own determinized copies with it. With a seat,
        the estimate reads only what that seat may know, as its observation
        does: anything a learner receives (reward shaping, value targets)
        uses this form, or its rewards would depend on what it cannot see.

        The default is ``returns()`` itself, which suits games whose returns
        rank the score so far and read nothing hidden; games whose
        unfinished positions return zeros override it with a heuristic
        (material, score lead...), and a hidden-information game whose
        estimate reads hidden things must honour ``viewer`` (the
        conformance suite resamples what the viewer cannot see and checks).

        The viewer is checked here (:meth:`check_viewer`); the estimate itself
        is the game's :meth:`_evaluate`."""
        return self._evaluate(None if viewer is None else self.check_viewer(viewer))

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        """The game's estimate for ``viewer`` (None or a checked seat); the
        default is ``returns()``."""
        return np.asarray(self.returns(), dtype=np.float64)

    def check_viewer(self, viewer: Any) -> int:
        """``viewer`` as a seat of this game: a TypeError for anything but an
        integer, a ValueError for a seat the game does not have."""
        seat = integer_index(viewer)
        if seat is None:
            raise TypeError(f"{self.game.info.name}: viewer must be a seat (an int), got {viewer!r}")
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"{self.game.info.name}: viewer {seat} is not a seat of 0..{n - 1}")
        return seat

    # --- views --------------------------------------------------------------
    def observation(self, player: int) -> np.ndarray:
        """What ``player`` sees, from its own point of view; depends only on
        information that player may know. Written by the game's observer
        (``game.observer.encode(state, player)``); a game without one
        overrides this method."""
        return self.game.observer.encode(self, player)

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A copy that keeps everything ``player`` knows and resamples the
        rest from ``rng``. Perfect-information games return a clone.

        The result must depend only on ``player``'s information and ``rng``:
        resample from pools in a canonical order (sorted), never in the order
        the true state holds hidden things, or a searcher's choices would
        depend on what it cannot know. The true generator knows future chance,
        so the games with hidden information give the copy a generator derived
        from ``rng``; the clone of a perfect-information game keeps the
        state's, and ``SeatView.sample`` reseeds every sample for the search
        bots."""
        if self.game.info.hidden_information:
            raise NotImplementedError(f"{self.game.info.name} must override determinize")
        return self.clone()

    # --- copies and serialisation ------------------------------------------
    def clone(self) -> State:
        """Deep, independent copy (the generator included). Games override
        this with a faster field-by-field copy where it matters."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def to_dict(self) -> dict:
        """Plain JSON-able dict of the whole state (the generator included):
        the game's :meth:`_to_dict` and the ``config_digest`` of its game."""
        data = self._to_dict()
        data["config_digest"] = self.game.config_digest
        return data

    def _to_dict(self) -> dict:
        """The game's entries of the position dict. The default writes the
        keyed ``fields``; games with entries that are not one field each
        extend it (``data = super()._to_dict()``, then their own)."""
        if not self.fields:
            raise NotImplementedError(f"{type(self).__name__} declares no fields; override _to_dict")
        return fields_to_dict(self, self.fields)

    @classmethod
    def from_dict(cls, game: Game, data: dict) -> State:
        """Inverse of :meth:`to_dict`: sets the keyed ``fields`` (caches to
        their reset values), then :meth:`_after_load` reads the rest."""
        if not cls.fields:
            raise NotImplementedError(f"{cls.__name__} declares no fields; override from_dict")
        if not isinstance(data, dict):
            raise TypeError(f"{game.info.name}: a position must be a dict, got {type(data).__name__}")
        state = cls.__new__(cls)
        state.game = game
        fields_from_dict(state, cls.fields, data, game.info.name)
        state._after_load(data)
        return state

    def check_position(self) -> None:  # noqa: B027 (optional hook)
        """Raise ValueError naming the rule a freshly loaded position breaks
        (every card, tile and piece exactly once, counts within the game's
        limits, a phase that fits the pending decision...). Called by the
        checked ``state_from_dict`` before the state is handed out."""

    def _after_load(self, data: dict) -> None:  # noqa: B027 (optional hook)
        """Read the position-dict entries that are not one field each and
        rebuild what is derived from the fields."""

    # --- words --------------------------------------------------------------
    @abc.abstractmethod
    def action_to_string(self, action: int) -> str:
        """Name of an action in words, in the acting player's frame."""

    def string_to_action(self, text: str) -> int:
        """Inverse of ``action_to_string`` for the current position."""
        wanted = text.strip().lower()
        for a in range(self.game.num_actions):
            if self.action_to_string(a).strip().lower() == wanted:
                return a
        raise ValueError(f"{self.game.info.name}: no action named {text!r}")

    # --- pictures -----------------------------------------------------------
    @abc.abstractmethod
    def render_ansi(self, viewer: int | None = None) -> str:
        """Text picture; ``viewer`` None shows everything (a spectator)."""

    @abc.abstractmethod
    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        """HxWx3 uint8 picture of the board."""

    def phase_name(self) -> str:
        """Short name of the current phase or sub-step, for infos."""
        return ""
