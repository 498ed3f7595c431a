"""Princes of Amber: rules state and transitions (no PettingZoo here).

Resolution runs on an explicit stack of small *frames* (records of
:mod:`~meeplezoo.envs.princes_of_amber.frames`). Automatic frames (a Fight
in progress, damage, a capture, a war...) do their work and push or pop
frames; decision frames (windows and choices) stop the driver and name the
player who decides. Everything is plain data, so clone, to_dict and
determinize stay simple, and a nested chain such as Fight -> death -> the
King falls -> take Amber -> appoint -> succession is just frames resolved
top first. What each card and non-card action does is its record in
:mod:`~meeplezoo.envs.princes_of_amber.acts`; this module holds the state,
its helpers and the handlers of the frame kinds (``AUTOMATIC`` and
``DECISIONS`` at the end).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, canonical_shuffle, deal_out, stack_ranks
from meeplezoo.envs.core.dice import check_die_script, contest_with, roll, roll_sum, scripted_or_rolled
from meeplezoo.envs.core.fields import Field, generator_field, saved
from meeplezoo.envs.core.options import choice, custom, flag, integer
from meeplezoo.envs.core.positions import PositionError
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import Game, GameInfo, State, derive_rng, make_rng
from meeplezoo.envs.core.turns import next_seat, relative_seats
from meeplezoo.envs.princes_of_amber import acts
from meeplezoo.envs.princes_of_amber.acts import RULES, Contest, Target, action_name
from meeplezoo.envs.princes_of_amber.cards import (
    A_CARD,
    A_END,
    A_NONCARD,
    A_PASS,
    A_PLAYER,
    A_PRINCE,
    A_SUPPORT,
    DEFAULT_DECK,
    EXILE,
    FIGHT_ATTRIBUTE,
    KIND_NAMES,
    KING,
    LEADERSHIP,
    NONCARD_BASE,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_PRINCES,
    PRINCE_TABLE,
    REGENT_POSTS,
    WILL,
    WIT,
    Kind,
    Phase,
    build_card_list,
)
from meeplezoo.envs.princes_of_amber.frames import (
    ActionSelect,
    Appoint,
    Block,
    BlockEffect,
    CallGuards,
    Capture,
    CaptureNegate,
    ChooseAction,
    Damage,
    DamageFollowup,
    Death,
    DeathSequence,
    EffectDiscard,
    FateDiscard,
    Fight,
    Frame,
    Fury,
    KingRemoval,
    Negate,
    RegentOffer,
    ShadowArmies,
    ShadowMastery,
    Succession,
    Support,
    TargetPlayer,
    TargetPrince,
    Turn,
    TurnEnd,
    War,
    WarFollowup,
    WarStep,
    Will,
)
from meeplezoo.envs.princes_of_amber.position import ENTRY_CHECKS, check_position

NOBODY_HAS_A_PRINCE = 10**6  # hand limit while a player has no prince (never happens at a Fate phase)
PSYCHIC_HOLD_MALUS = 7  # a held prince's next contest total is 7 lower
MAX_DECK_CARDS = 1000  # bound on the cards of a configured deck (one apply stays quick)


# --------------------------------------------------------------------------- options
def _check_deck_counts(value: Any, key: str, game_name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, dict) or any(k not in KIND_NAMES for k in value):
        raise ValueError(f"{game_name}: {key} must be a dict keyed by card kinds {list(KIND_NAMES)}")
    total = 0
    for kind_name, entries in value.items():
        if not isinstance(entries, (list, tuple)):
            raise ValueError(
                f"{game_name}: {key}[{kind_name!r}] must be a list of [name, copies 0..100], got {entries!r}"
            )
        for entry in entries:
            copies = entry[1] if isinstance(entry, (list, tuple)) and len(entry) == 2 else None
            if (
                copies is None
                or not isinstance(entry[0], str)
                or not isinstance(copies, (int, np.integer))
                or isinstance(copies, bool)
                or not 0 <= copies <= 100
            ):
                raise ValueError(
                    f"{game_name}: {key}[{kind_name!r}] entries must be [name, copies 0..100], got {entry!r}"
                )
            total += int(copies)
    if total > MAX_DECK_CARDS:
        raise ValueError(f"{game_name}: {key} must hold at most {MAX_DECK_CARDS} cards, got {total}")
    return value


def _check_dice(value: Any, key: str, game_name: str) -> list[int] | None:
    return check_die_script(value, key, 1, 6, game_name)


def _check_deck_override(value: Any, key: str, game_name: str) -> Any:
    if value is not None and (
        not isinstance(value, (list, tuple))
        or len(value) > MAX_DECK_CARDS
        or any(k not in KIND_NAMES for k in value)
    ):
        raise ValueError(
            f"{game_name}: {key} must be None or a list of card kind names (top first), got {value!r}"
        )
    return value


def _check_prince_order(value: Any, key: str, game_name: str) -> Any:
    if value is not None and (
        not isinstance(value, (list, tuple))
        or sorted(map(repr, value)) != sorted(map(repr, range(NUM_PRINCES)))
    ):
        raise ValueError(
            f"{game_name}: {key} must be None or a permutation of the prince ids 0..8, got {value!r}"
        )
    return value


OPTIONS = {
    "num_players": integer(2, 2, 5, "seats at the table"),
    "attribute_mode": choice(
        "table", ("table", "rolled"), "`table`: the printed attributes; `rolled`: each attribute is 2d6"
    ),
    "garrison_start": integer(12, 0, 100, "armies defending Amber at the start"),
    "starting_hand": integer(5, 0, 100, "cards dealt to each player"),
    "hold_turns": integer(5, 1, 1000, "consecutive own turns holding Amber that win the game"),
    "allow_support": flag(True, "other players may support an attack on Amber"),
    "regent_offers_to_players": flag(
        True, "the King's controller may offer regencies to other players' princes"
    ),
    "prompt_only_if_playable": flag(
        False,
        "`true`: a card window (or an action phase no prince can act in) is skipped when the player "
        "holds no card for it, which shows the others what he holds; `false`: skipped only when "
        "public facts rule every card out",
    ),
    "amber_defenders": choice(
        "all_lords",
        ("all_lords", "leader_only"),
        "`all_lords`: every free Lord not on the attacker's side defends Amber, held or neutral; "
        "`leader_only`: a neutral Amber only by its leader, a held one by the King and the regents "
        "of players other than the attacker",
    ),
    "max_turns": integer(300, 1, 100_000, "player-turns before the game is truncated"),
    "truncation_ranking": choice(
        "tie", ("tie", "amber_first"), "at the turn limit: `tie` all players still in, or `amber_first`"
    ),
    "deck_counts": custom(
        None,
        "the Fate deck: card kind -> [[card name, copies], ...]; none: the 100-card deck above",
        f"none or a dict of card kinds to [[name, copies 0..100], ...], at most {MAX_DECK_CARDS} cards",
        _check_deck_counts,
    ),
    "dice_override": custom(
        None, "test hook: die results used first, in order", "none or a list of 1..6", _check_dice
    ),
    "deck_override": custom(
        None,
        "test hook: card kinds put on top of the deck (top first)",
        "none or a list of card kinds",
        _check_deck_override,
    ),
    "prince_order_override": custom(
        None, "test hook: the order of the prince deck", "none or a permutation of 0..8", _check_prince_order
    ),
}


# --------------------------------------------------------------------------- game
class AmberGame(Game):
    """One configuration of Princes of Amber."""

    info = GameInfo(
        name="princes_of_amber_v1",
        version=1,
        title="Princes of Amber",
        min_players=2,
        max_players=5,
        default_players=2,
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/princes_of_amber.md",
    )
    options: ClassVar[dict] = OPTIONS
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3},
        {"num_players": 4, "prompt_only_if_playable": True, "amber_defenders": "leader_only"},
        {"num_players": 5},
        {
            "num_players": 2,
            "attribute_mode": "rolled",
            "regent_offers_to_players": False,
            "allow_support": False,
            "truncation_ranking": "amber_first",
            "max_turns": 60,
        },
        {"num_players": 3, "hold_turns": 2, "garrison_start": 3},
    ]

    def validate(self) -> None:
        cfg = self.config
        deck_counts = DEFAULT_DECK if cfg["deck_counts"] is None else cfg["deck_counts"]
        self.card_kind, self.card_names = build_card_list(deck_counts)
        self.num_cards = len(self.card_kind)
        self._check_deck_override(cfg["deck_override"])
        if self.num_cards < cfg["starting_hand"] * self.num_players:
            raise ValueError(
                f"{self.info.name}: deck_counts holds too few cards to deal starting_hand to every player"
            )
        self.num_actions = NUM_ACTIONS
        self.reward_range = (-1.0, 1.0)
        self.max_turns = cfg["max_turns"]
        self.hold_turns = cfg["hold_turns"]
        self.prompt_only_if_playable = cfg["prompt_only_if_playable"]
        self.all_lords_defend = cfg["amber_defenders"] == "all_lords"
        self.regent_offers = cfg["regent_offers_to_players"]
        self.allow_support = cfg["allow_support"]
        self.table_attributes = [list(row) for row in PRINCE_TABLE]
        self.card_kind_array = np.array(self.card_kind, dtype=np.int64)
        self.kind_copies = [self.card_kind.count(k) for k in range(NUM_KINDS)]

    def _check_deck_override(self, override: Any) -> None:
        """Each kind put on top must have a card of its own in the deck (the override cannot deal otherwise)."""
        wanted = Counter(override or ())
        for name, count in wanted.items():
            held = self.card_kind.count(Kind[name])
            if count > held:
                raise ValueError(
                    f"{self.info.name}: deck_override asks for {count} {name} card(s); the deck holds {held}"
                )

    def new_initial_state(self, seed: int | None = None) -> AmberState:
        return AmberState.setup(self, make_rng(seed))

    def state_from_dict(self, data: dict) -> AmberState:
        # the seat count first: every per-player entry is sized by it
        seats = data.get("num_players") if isinstance(data, dict) else None
        if seats is not None and seats != self.num_players:
            raise ValueError(
                f"{self.info.name}: the position has {seats!r} players, the game {self.num_players}"
            )
        return AmberState.from_dict(self, data)


# --------------------------------------------------------------------------- position dict
def _plain(value: Any, _context: Any = None) -> Any:
    """Lists (and numpy ints) as plain, independent JSON data."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.integer):
        return int(value)
    return value


def _listed(name: str, copy: str = "list") -> Field:
    return saved(name, copy, to_json=_plain, from_json=ENTRY_CHECKS[name])


PRINCE_LISTS = ("hits", "alive", "controller", "role", "captured", "jailer", "armies", "amnesia")
PLAYER_LISTS = ("player_prince", "hold_count", "in_game", "elimination_order", "extra_turns")
SCALARS = (
    "num_players",
    "amber",
    "garrison",
    "eliminated_count",
    "turn_player",
    "turns",
    "pending_act",
    "acting_prince",
    "target_prince",
    "damaged_prince",
    "damage_dealer",
    "contest_type",
    "winner",
    "turn_limit_reached",
    "dice_used",
    "deciding_player",
)


# --------------------------------------------------------------------------- state
class AmberState(State):
    """One position of Princes of Amber.

    Per prince (lists of 9): ``hits``, ``alive``, ``controller`` (seat or
    -1), ``role``, ``captured``, ``jailer``, ``armies``, ``amnesia`` (turns
    left), ``psychic_hold``, ``acted`` (this action phase); per player:
    ``player_prince`` (his own prince, -1 while he must pick a successor),
    ``hold_count`` (turns held Amber), ``in_game``, ``elimination_order``,
    ``extra_turns``, ``hands`` and ``hand_kinds`` (count per kind, derived),
    ``known_top``/``known_hand`` (each player's memories). The last act's
    context (``pending_act``, ``acting_prince``, ``target_prince``,
    ``damaged_prince``, ``damage_dealer``, ``contest_type``,
    ``contest_totals``) is public and observed.
    """

    fields = (
        *(_listed(name) for name in PRINCE_LISTS),
        _listed("psychic_hold"),
        _listed("acted"),
        *(_listed(name) for name in PLAYER_LISTS),
        _listed("contest_totals"),
        _listed("known_top"),
        _listed("legal"),
        _listed("known_hand", "lists"),
        _listed("hands", "lists"),
        Field("hand_kinds", "lists"),  # derived from the hands, rebuilt on load
        *(saved(name, from_json=ENTRY_CHECKS[name]) for name in SCALARS),
        # never changes after setup: shared
        saved("attributes", to_json=_plain, from_json=ENTRY_CHECKS["attributes"]),
        # the scripted dice: shared, never edited
        saved("dice", to_json=_plain, from_json=ENTRY_CHECKS["dice"]),
        saved("deck", "copy", to_json=lambda deck, _s: deck.to_dict(), from_json=ENTRY_CHECKS["deck"]),
        saved(
            "stack",
            "copies",
            to_json=lambda stack, _s: [f.to_dict() for f in stack],
            from_json=ENTRY_CHECKS["stack"],
        ),
        saved(
            "war",
            "copy_or_none",
            to_json=lambda war, _s: None if war is None else war.to_dict(),
            from_json=ENTRY_CHECKS["war"],
        ),
        generator_field(),
    )

    # ---- construction -------------------------------------------------------
    @classmethod
    def setup(cls, game: AmberGame, rng: np.random.Generator) -> AmberState:
        s = cls.__new__(cls)
        s.game, s.rng = game, rng
        s.num_players = game.num_players
        cfg = game.config
        s.deck = Deck.shuffled(range(game.num_cards), rng)
        if cfg["deck_override"]:
            stack_ranks(s.deck, [Kind[name] for name in cfg["deck_override"]], game.card_kind.__getitem__)
        s._deal(cfg["starting_hand"])
        order = (
            list(cfg["prince_order_override"])
            if cfg["prince_order_override"]
            else [int(x) for x in rng.permutation(NUM_PRINCES)]
        )
        if cfg["attribute_mode"] == "rolled":
            s.attributes = [[roll_sum(rng, 2) for _ in range(5)] for _ in range(NUM_PRINCES)]
        else:
            s.attributes = game.table_attributes
        s._seat_princes(order)
        s._start_counters(cfg)
        s._run()
        return s

    def _deal(self, hand_size: int) -> None:
        n, card_kind = self.num_players, self.game.card_kind
        self.hands = [[] for _ in range(n)]
        self.hand_kinds = [[0] * NUM_KINDS for _ in range(n)]
        self.known_top = [[] for _ in range(n)]
        self.known_hand = [[None] * n for _ in range(n)]
        for p in range(n):
            for _ in range(hand_size):
                c = self.deck.draw()
                self.hands[p].append(c)
                self.hand_kinds[p][card_kind[c]] += 1

    def _seat_princes(self, order: list[int]) -> None:
        """Each player's own prince, then the King and the three Regents, from the prince order."""
        n = self.num_players
        self.hits = [self.attributes[i][0] for i in range(NUM_PRINCES)]
        self.alive = [1] * NUM_PRINCES
        self.controller = [-1] * NUM_PRINCES
        self.role = [EXILE] * NUM_PRINCES
        for name in ("captured", "armies", "amnesia", "psychic_hold", "acted"):
            setattr(self, name, [0] * NUM_PRINCES)
        self.jailer = [-1] * NUM_PRINCES
        self.player_prince = order[:n]
        for p in range(n):
            self.controller[order[p]] = p
        self.role[order[n]] = KING
        for j, post in enumerate(REGENT_POSTS):
            self.role[order[n + 1 + j]] = post

    def _start_counters(self, cfg: dict) -> None:
        n = self.num_players
        self.amber = -1
        self.garrison = cfg["garrison_start"]
        self.hold_count = [0] * n
        self.in_game = [1] * n
        self.elimination_order = [-1] * n
        self.eliminated_count = 0
        self.extra_turns = [0] * n
        self.turn_player = 0
        self.turns = 0
        self.stack = [Turn(0)]
        self.war = None
        self.pending_act = -1
        self.acting_prince = self.target_prince = self.damaged_prince = self.damage_dealer = -1
        self.contest_type = Contest.NONE
        self.contest_totals = [0, 0]
        self.winner = -1
        self.turn_limit_reached = 0
        self.dice = list(cfg["dice_override"] or [])
        self.dice_used = 0
        self.deciding_player = -1
        self.legal = []

    def _after_load(self, data: dict) -> None:
        if self.attributes == self.game.table_attributes:
            self.attributes = self.game.table_attributes
        self.refresh_counts()

    def check_position(self) -> None:
        """The rules that tie the entries of a loaded position together (see ``position.py``)."""
        try:
            check_position(self)
        except PositionError as exc:
            raise PositionError(f"{self.game.info.name}: {exc}") from None

    # ---- contract -----------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.deciding_player

    @property
    def terminal(self) -> bool:
        return self.winner >= 0

    @property
    def truncated(self) -> bool:
        return bool(self.turn_limit_reached) and self.winner < 0

    def legal_action_mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.deciding_player >= 0:
            m[self.legal] = True
        return m

    def legal_actions(self) -> np.ndarray:
        return np.array(sorted(self.legal) if self.deciding_player >= 0 else [], dtype=np.int64)

    def _is_legal(self, action: int) -> bool:
        """The legal list answers without building the numpy mask (it may
        be stale once the game is over, hence the seat test)."""
        return self.deciding_player >= 0 and action in self.legal

    def _apply_action(self, a: int) -> None:
        f = self.stack[-1]
        DECISIONS[type(f)].apply(self, f, a)
        self._run()

    def returns(self) -> np.ndarray:
        n = self.num_players
        if self.winner < 0 and not self.turn_limit_reached:
            return np.zeros(n)
        amber_first = self.winner < 0 and self.game.config["truncation_ranking"] == "amber_first"
        scores = []
        for p in range(n):
            if not self.in_game[p]:
                scores.append((0, self.elimination_order[p]))
            elif self.winner == p or (amber_first and self.amber == p):
                scores.append((2, 0))
            else:
                scores.append((1, 0))
        return rank_rewards(scores)

    def strength(self, p: int) -> float:
        """Heuristic material of an in-game player: holding Amber (more the
        longer it is held), his free princes (weighted by health), captured
        princes a little, armies and cards in hand a little."""
        x = 0.0
        if self.amber == p:
            x += 6.0 + 4.0 * self.hold_count[p] / self.game.hold_turns
        attributes, hits = self.attributes, self.hits
        for i in range(NUM_PRINCES):
            if self.controller[i] == p and self.alive[i]:
                health = max(hits[i], 0) / max(attributes[i][0], 1)
                x += (0.4 if self.captured[i] else 1.5 + health) + 0.2 * self.armies[i]
        return x + 0.15 * len(self.hands[p])

    def evaluate(self, viewer: int | None = None) -> np.ndarray:
        """Estimated returns: exact once over; otherwise eliminated players keep
        their certain rank value and the players still in share the rest,
        shifted by how their strength compares (linear, zero-sum, kept inside
        the values their final ranks could take). Strength reads only the
        table and the hand sizes, never a card in a hand or the deck, so every
        ``viewer`` gets the same estimate."""
        if self.winner >= 0 or self.turn_limit_reached:
            return self.returns()
        n = self.num_players
        base = rank_rewards([(1, 0) if self.in_game[p] else (0, self.elimination_order[p]) for p in range(n)])
        alive = [p for p in range(n) if self.in_game[p]]
        m = len(alive)
        if m < 2:
            return base
        b = float(base[alive[0]])
        low = 1.0 - 2.0 * (m - 1) / (n - 1)
        c = 0.8 * min(1.0 - b, b - low)
        xs = {p: self.strength(p) for p in alive}
        mean = sum(xs.values()) / m
        dev = {p: xs[p] - mean for p in alive}
        scale = max(abs(d) for d in dev.values()) + 4.0
        out = np.array(base, dtype=float)
        for p in alive:
            out[p] = b + c * dev[p] / scale
        return out

    def phase_name(self) -> str:
        if self.deciding_player < 0:
            return "GAME_OVER"
        return self.stack[-1].name

    # ---- helpers: dice, cards, memory ----------------------------------------
    def d6(self) -> int:
        result, self.dice_used = scripted_or_rolled(self.dice, self.dice_used, self._roll_d6)
        return result

    def _roll_d6(self) -> int:
        """One unscripted die from the state's generator."""
        return roll(self.rng)

    def free(self, i: int) -> bool:
        return self.alive[i] and not self.captured[i]

    def wit_limit(self, p: int) -> int:
        k = self.player_prince[p]
        return self.attributes[k][WIT] if k >= 0 else NOBODY_HAS_A_PRINCE

    def reshuffle(self) -> None:
        """The discard becomes the draw pile: every memory of the deck top is void."""
        self.deck.reshuffle_discard(self.rng)
        self.known_top = [[] for _ in range(self.num_players)]

    def draw(self, p: int, count: int = 1) -> None:
        card_kind = self.game.card_kind
        deck = self.deck
        for _ in range(count):
            if not deck.draw_pile:
                if not deck.discard:
                    return
                self.reshuffle()
            c = deck.draw()
            k = card_kind[c]
            self.hands[p].append(c)
            self.hand_kinds[p][k] += 1
            self._remember_draw(p, k)

    def _remember_draw(self, p: int, k: int) -> None:
        """Whoever knew the deck top knows what p just drew."""
        known_top = self.known_top
        for o in range(self.num_players):
            if known_top[o]:
                known_top[o] = known_top[o][1:]
                if o != p:
                    row = self.known_hand[o]
                    h = list(row[p]) if row[p] is not None else [0] * NUM_KINDS
                    h[k] += 1
                    row[p] = h

    def _take_card(self, p: int, k: int) -> None:
        """Move one card of kind k from p's hand to the discard pile (public)."""
        hand = self.hands[p]
        card_kind = self.game.card_kind
        for idx in range(len(hand) - 1, -1, -1):
            if card_kind[hand[idx]] == k:
                self.deck.discard.append(hand.pop(idx))
                break
        else:  # pragma: no cover - guarded by the masks
            raise RuntimeError("card not in hand")
        self.hand_kinds[p][k] -= 1
        for o in range(self.num_players):
            if o != p:
                h = self.known_hand[o][p]
                if h is not None and h[k] > 0:
                    h = list(h)
                    h[k] -= 1
                    self.known_hand[o][p] = h

    def peek(self, p: int, x: int) -> None:
        if not self.deck.draw_pile and self.deck.discard:
            self.reshuffle()
        pile = self.deck.draw_pile
        m = min(len(pile), max(x, len(self.known_top[p])))
        card_kind = self.game.card_kind
        self.known_top[p] = [card_kind[pile[-1 - i]] for i in range(m)]

    def reveal_hand(self, p: int, o: int) -> None:
        self.known_hand[p][o] = list(self.hand_kinds[o])

    def might_hold(self, p: int, kinds) -> bool:
        """Whether public facts alone leave p possibly holding a card of one of
        ``kinds``: his hand is not empty and not every copy lies in the discard."""
        if not self.hands[p]:
            return False
        copies, card_kind = self.game.kind_copies, self.game.card_kind
        discarded = Counter(card_kind[c] for c in self.deck.discard)
        return any(copies[k] > discarded[k] for k in kinds)

    # ---- helpers: princes ----------------------------------------------------
    def leadership(self, i: int) -> int:
        return self.attributes[i][LEADERSHIP]

    def vacant_posts(self) -> list[int]:
        held = set(self.role)
        return [r for r in REGENT_POSTS if r not in held]

    def controls_regent(self, p: int) -> bool:
        return any(self.controller[i] == p and 0 < self.role[i] < EXILE for i in range(NUM_PRINCES))

    def free_exiles_of(self, p: int) -> list[int]:
        """The free exiled princes player p controls."""
        controller, role = self.controller, self.role
        return [i for i in range(NUM_PRINCES) if controller[i] == p and self.free(i) and role[i] == EXILE]

    def opponents(self, p: int) -> list[int]:
        """The players still in, in seat order after p."""
        return [o for o in relative_seats(p, self.num_players)[1:] if self.in_game[o]]

    def prince_targets(self, p: int, code: int, losing=None) -> list[int]:
        """Legal prince targets of act ``code`` by player p."""
        return RULES[code].targets(self, p, losing)

    def player_targets(self, p: int, code: int) -> list[int]:
        return RULES[code].targets(self, p, None)

    def advance_queue(self, f: Frame) -> None:
        """The window passes to the next player of the frame's queue, or closes."""
        if f.queue:
            f.player = f.queue[0]
            f.queue = f.queue[1:]
        else:
            self.stack.pop()

    # ---- the driver ------------------------------------------------------------
    def _run(self) -> None:
        stack = self.stack
        while True:
            if self.winner >= 0 or self.turn_limit_reached:
                self.stack = []
                self.deciding_player = -1
                self.legal = []
                return
            if self.amber >= 0:
                self._check_amber_secured()
                if self.winner >= 0:
                    continue
            f = stack[-1]
            auto = AUTOMATIC.get(type(f))
            if auto is not None:
                auto(self, f)
                continue
            legal = DECISIONS[type(f)].legal(self, f)
            if legal is None:
                stack.pop()
                continue
            self.legal = legal
            self.deciding_player = f.player
            return

    def _check_amber_secured(self) -> None:
        """The Amber controller wins once no other player has a free prince
        (unless a succession is still owed)."""
        k = self.amber
        for p in range(self.num_players):
            if self.in_game[p] and self.player_prince[p] < 0:
                return
        controller, alive, captured = self.controller, self.alive, self.captured
        for i in range(NUM_PRINCES):
            c = controller[i]
            if c >= 0 and c != k and alive[i] and not captured[i]:
                return
        self.winner = k

    def eliminate(self, p: int) -> None:
        self.in_game[p] = 0
        self.elimination_order[p] = self.eliminated_count
        self.eliminated_count += 1
        self.deck.discard.extend(self.hands[p])
        self.hands[p] = []
        self.hand_kinds[p] = [0] * NUM_KINDS
        for o in range(self.num_players):
            self.known_hand[o][p] = None
        self.extra_turns[p] = 0
        self.hold_count[p] = 0
        for i in range(NUM_PRINCES):
            if self.controller[i] == p:
                self.controller[i] = -1
        left = [q for q in range(self.num_players) if self.in_game[q]]
        if len(left) == 1:
            self.winner = left[0]

    # ---- Amber ------------------------------------------------------------------
    def take_amber(self, q: int) -> None:
        """q's own prince is crowned; his strongest other free princes fill the regencies."""
        role, controller = self.role, self.controller
        for i in range(NUM_PRINCES):
            if role[i] != EXILE:
                role[i] = EXILE
        k = self.player_prince[q]
        role[k] = KING
        self.garrison += self.armies[k]
        self.armies[k] = 0
        others = sorted(
            (i for i in range(NUM_PRINCES) if controller[i] == q and i != k and self.free(i)),
            key=lambda i: (-self.leadership(i), i),
        )
        for post, i in zip(REGENT_POSTS, others):
            role[i] = post
            self.garrison += self.armies[i]
            self.armies[i] = 0
        self.amber = q
        self.hold_count = [0] * self.num_players
        if len(others) < 3:
            self.stack.append(Appoint(q))

    def strongest_regent(self) -> int:
        """The free Regent with the highest Leadership (the first such), or -1."""
        best = -1
        for i in range(NUM_PRINCES):
            if (
                0 < self.role[i] < EXILE
                and self.free(i)
                and (best < 0 or self.leadership(i) > self.leadership(best))
            ):
                best = i
        return best

    def fall_neutral(self) -> None:
        k = self.amber
        role, controller = self.role, self.controller
        for i in range(NUM_PRINCES):
            if 0 < role[i] < EXILE:
                if controller[i] == k:
                    controller[i] = -1
                elif controller[i] >= 0:
                    role[i] = EXILE
        if KING not in role:
            best = self.strongest_regent()
            if best >= 0:
                role[best] = KING
        self.amber = -1
        self.hold_count = [0] * self.num_players

    def fill_post(self, j: int) -> None:
        self.role[j] = self.vacant_posts()[0]
        self.garrison += self.armies[j]
        self.armies[j] = 0

    def escape(self, i: int) -> None:
        self.captured[i] = 0
        self.jailer[i] = -1
        self.role[i] = EXILE

    # ---- starting an act ----------------------------------------------------
    def start_act(self, p: int, a: int, code: int) -> None:
        """The act is chosen and paid for: ask for its target or resolve it."""
        self.pending_act = code
        self.acting_prince = a
        self.target_prince = -1
        self.war = None
        self.contest_type = Contest.NONE
        self.damaged_prince = self.damage_dealer = -1
        rule = RULES[code]
        if rule.captive and a >= 0 and self.captured[a]:
            self.resolve(p, a, code, a)
        elif rule.target == Target.PRINCE:
            self.stack.append(TargetPrince(p, a, code))
        elif rule.target == Target.PLAYER:
            self.stack.append(TargetPlayer(p, a, code))
        else:
            self.resolve(p, a, code, -1)

    def resolve(self, p: int, a: int, code: int, t: int) -> None:
        rule = RULES[code]
        self.target_prince = t if rule.target != Target.PLAYER else -1
        rule.effect(self, p, a, t)

    # ---- edits by tests and tools -----------------------------------------------
    def refresh_counts(self) -> None:
        """Recompute the per-kind hand counts after hands were edited directly."""
        card_kind = self.game.card_kind
        self.hand_kinds = [[0] * NUM_KINDS for _ in range(self.num_players)]
        for p in range(self.num_players):
            for c in self.hands[p]:
                self.hand_kinds[p][card_kind[c]] += 1

    def refresh(self) -> None:
        """Recompute derived data and re-run the driver after fields were edited (test set-ups)."""
        self.refresh_counts()
        if self.stack:
            self._run()

    # ---- views (the observation is written by observe.Observer) -----------------
    def determinize(self, player: int, rng: np.random.Generator) -> AmberState:
        """Redeal what ``player`` cannot see, reading only his information set.

        The unseen cards (draw pile and the other hands) form one pool whose
        ids are sorted before sampling, so the result never depends on where
        the true state holds them. The player's memories (his known deck top,
        his lower bounds on other hands) are honoured; the other players'
        memories are rebuilt to fit the new deal: what they saw of the deck
        becomes the new top cards of the same count, what they saw of a third
        player's hand is forgotten, and what they know of this player's hand
        is kept (he can work it out from public events and his own cards).
        When another player is being asked a card window, the redeal is drawn
        again until that window would really be put to him.
        """
        top, forced, rest = self._unseen_cards(player)
        check = self.deciding_player >= 0 and self.deciding_player != player and bool(self.stack)
        s = None
        for _ in range(30 if check else 1):
            s = self._redeal(player, forced, top, canonical_shuffle(rest, rng))
            if not check:
                break
            legal = s._posed_legal()
            if legal is not None:
                s.legal = legal
                break
        else:
            # no redeal of 30 fits the window: the player is still asked, with
            # only his card-free answers (PASS, END_PHASE, princes...)
            s.legal = [a for a in self.legal if not A_CARD <= a < A_NONCARD]
        s.rng = derive_rng(rng)
        s.dice = []
        s.dice_used = 0
        return s

    def _unseen_cards(self, player: int) -> tuple[list[int], dict[int, list[int]], list[int]]:
        """What ``player`` cannot see, split by what he knows of it: the deck
        top he saw (top first), the cards he knows in each other hand, the rest."""
        card_kind = self.game.card_kind
        others = [o for o in range(self.num_players) if o != player]
        pool = sorted(self.deck.draw_pile + [c for o in others for c in self.hands[o]])
        pool_by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for c in pool:
            pool_by_kind[card_kind[c]].append(c)
        top = [pool_by_kind[k].pop() for k in self.known_top[player]]
        forced: dict[int, list[int]] = {}
        for o in others:
            known = self.known_hand[player][o]
            forced[o] = (
                [pool_by_kind[k].pop() for k in range(NUM_KINDS) for _ in range(known[k])]
                if known is not None
                else []
            )
        rest = sorted(c for cards in pool_by_kind for c in cards)
        return top, forced, rest

    def _redeal(self, player: int, forced: dict, top: list[int], shuffled: list[int]) -> AmberState:
        s = self.clone()
        card_kind = self.game.card_kind
        others = [o for o in range(self.num_players) if o != player]
        dealt, left = deal_out(shuffled, [len(self.hands[o]) - len(forced[o]) for o in others])
        for o, cards in zip(others, dealt):
            s.hands[o] = forced[o] + cards
            counts = [0] * NUM_KINDS
            for c in s.hands[o]:
                counts[card_kind[c]] += 1
            s.hand_kinds[o] = counts
        s.deck = Deck(left + top[::-1], self.deck.discard)
        pile = s.deck.draw_pile
        for o in others:
            s.known_top[o] = [card_kind[pile[-1 - i]] for i in range(len(self.known_top[o]))]
            row = s.known_hand[o]
            for x in others:
                row[x] = None
        return s

    def _posed_legal(self) -> list[int] | None:
        """The legal list of the decision on top, or None if the rules would
        skip it (or pass it on to someone else) with the hands as they are."""
        probe = self.clone()
        f = probe.stack[-1]
        before = f.copy()
        decision = DECISIONS.get(type(f))
        if decision is None:
            return None
        legal = decision.legal(probe, f)
        if legal is None or f != before or probe.stack[-1] is not f:
            return None
        return legal

    def action_to_string(self, action: int) -> str:
        return action_name(int(action))

    def string_to_action(self, text: str) -> int:
        wanted = text.strip().lower()
        return _ACTION_BY_NAME[wanted] if wanted in _ACTION_BY_NAME else State.string_to_action(self, text)

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.princes_of_amber.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.princes_of_amber.render import render_rgb

        return render_rgb(self, viewer)


_ACTION_BY_NAME = {action_name(a): a for a in range(NUM_ACTIONS)}


# =========================================================================== frames
# Each automatic frame kind has a handler in AUTOMATIC that does its work and
# pushes or pops frames; each decision frame kind has a Decision: ``legal``
# (the legal actions, or None to skip the frame) and ``apply``.


@dataclass(frozen=True, slots=True)
class Decision:
    """How a decision frame kind is asked and answered."""

    legal: Callable[[AmberState, Any], list[int] | None]
    apply: Callable[[AmberState, Any, int], None]


def _card_actions(s: AmberState, p: int, kinds) -> list[int]:
    counts = s.hand_kinds[p]
    return [A_CARD + k for k in kinds if counts[k] > 0]


def _window(s: AmberState, p: int, kinds) -> list[int] | None:
    """A card window for p: the allowed held cards and PASS, or None to skip.
    Skipping only when public facts rule every card out keeps his hand
    hidden; ``prompt_only_if_playable`` skips whenever he holds none."""
    if p < 0 or not s.in_game[p]:
        return None
    moves = _card_actions(s, p, kinds)
    if not moves and (s.game.prompt_only_if_playable or not s.might_hold(p, kinds)):
        return None
    moves.append(A_PASS)
    return moves


def legal_window(s: AmberState, f: Frame) -> list[int] | None:
    """The window of the frame's phase: the response cards that fit it (see acts.RULES)."""
    return _window(s, f.player, acts.answers(s, f))


def _queued_window(s: AmberState, f: Frame) -> list[int] | None:
    """The first player in the frame's queue who may answer gets the
    window; None once the queue is exhausted."""
    while True:
        moves = legal_window(s, f)
        if moves is not None:
            return moves
        if not f.queue:
            return None
        s.advance_queue(f)


def _answer(s: AmberState, f: Frame, a: int) -> None:
    """A response card is played: it leaves the hand, then does what its record says."""
    k = a - A_CARD
    s._take_card(f.player, k)
    RULES[k].respond(s, f, k)


def apply_window(s: AmberState, f: Frame, a: int) -> None:
    """A window that closes on PASS."""
    if a == A_PASS:
        s.stack.pop()
    else:
        _answer(s, f, a)


def apply_queued_window(s: AmberState, f: Frame, a: int) -> None:
    """A window that passes to the next player of its queue on PASS."""
    if a == A_PASS:
        s.advance_queue(f)
    else:
        _answer(s, f, a)


# ---- turn ----------------------------------------------------------------------
def auto_turn(s: AmberState, f: Turn) -> None:
    s.stack.pop()
    p = f.player
    s.turn_player = p
    if s.amber == p:
        s.hold_count[p] += 1
        if s.hold_count[p] >= s.game.hold_turns:
            s.winner = p
            return
    s.stack.append(TurnEnd(p))
    s.stack.append(ActionSelect(p))
    s.draw(p)
    s.stack.append(FateDiscard(p))


def auto_turn_end(s: AmberState, f: TurnEnd) -> None:
    s.stack.pop()
    p = f.player
    for i in range(NUM_PRINCES):
        if s.controller[i] == p and s.amnesia[i] > 0:
            s.amnesia[i] -= 1
    s.acted = [0] * NUM_PRINCES
    s.pending_act = -1
    s.acting_prince = s.target_prince = -1
    s.turns += 1
    if s.turns >= s.game.max_turns:
        s.turn_limit_reached = 1
        return
    if s.in_game[p] and s.extra_turns[p] > 0:
        s.extra_turns[p] -= 1
        s.stack.append(Turn(p))
    else:
        s.extra_turns[p] = 0
        s.stack.append(Turn(next_seat(p, s.num_players, s.in_game)))


def legal_fate_discard(s: AmberState, f: FateDiscard):
    p = f.player
    if not s.in_game[p] or len(s.hands[p]) <= s.wit_limit(p):
        return None
    return _card_actions(s, p, range(NUM_KINDS))


def apply_fate_discard(s: AmberState, f: FateDiscard, a: int) -> None:
    s._take_card(f.player, a - A_CARD)


def legal_action_select(s: AmberState, f: ActionSelect):
    p = f.player
    if not s.in_game[p]:
        return None
    controller, alive, acted, amnesia = s.controller, s.alive, s.acted, s.amnesia
    moves = [
        i for i in range(NUM_PRINCES) if controller[i] == p and alive[i] and not acted[i] and not amnesia[i]
    ]
    counts = s.hand_kinds[p]
    for k in acts.FREE_CARDS:
        if counts[k] > 0 and acts.playable(s, p, -1, k):
            moves.append(A_CARD + k)
    if not moves and (s.game.prompt_only_if_playable or not _might_play_free_card(s, p)):
        return None  # only END_PHASE is left, and saying so shows nothing: the phase ends by itself
    moves.append(A_END)
    return moves


def _might_play_free_card(s: AmberState, p: int) -> bool:
    """Whether, for all the others know, p may hold a free card he could play now."""
    playable = [k for k in acts.FREE_CARDS if acts.playable(s, p, -1, k)]
    return bool(playable) and s.might_hold(p, playable)


def apply_action_select(s: AmberState, f: ActionSelect, a: int) -> None:
    p = f.player
    if a == A_END:
        s.stack.pop()
    elif a < A_PRINCE + NUM_PRINCES:
        s.stack.append(ChooseAction(p, a))
        s.acting_prince = a
    else:
        k = a - A_CARD
        s._take_card(p, k)
        s.start_act(p, -1, k)


def legal_choose(s: AmberState, f: ChooseAction):
    p, a = f.player, f.prince
    counts = s.hand_kinds[p]
    if s.captured[a]:
        moves = [A_NONCARD + code - NONCARD_BASE for code in acts.CAPTIVE_NONCARDS]
        return moves + [A_CARD + k for k in acts.CAPTIVE_CARDS if counts[k] > 0]
    moves = [A_CARD + k for k in acts.PRINCE_ACTION_CARDS if counts[k] > 0 and acts.playable(s, p, a, k)]
    for code in acts.PRINCE_ACTION_NONCARDS:
        if acts.playable(s, p, a, code):
            moves.append(A_NONCARD + code - NONCARD_BASE)
    return moves


def apply_choose(s: AmberState, f: ChooseAction, a: int) -> None:
    p, i = f.player, f.prince
    s.stack.pop()
    s.acted[i] = 1
    if a >= A_NONCARD:
        s.start_act(p, i, NONCARD_BASE + a - A_NONCARD)
    else:
        k = a - A_CARD
        s._take_card(p, k)
        s.start_act(p, i, k)


def legal_target_prince(s: AmberState, f: TargetPrince):
    return s.prince_targets(f.player, f.act, f.losing)


def apply_target_prince(s: AmberState, f: TargetPrince, a: int) -> None:
    s.stack.pop()
    s.resolve(f.player, f.prince, f.act, a)


def legal_target_player(s: AmberState, f: TargetPlayer):
    p = f.player
    return [A_PLAYER + (o - p) % s.num_players for o in s.player_targets(p, f.act)]


def apply_target_player(s: AmberState, f: TargetPlayer, a: int) -> None:
    s.stack.pop()
    p = f.player
    s.resolve(p, f.prince, f.act, (p + a - A_PLAYER) % s.num_players)


# ---- fights and Will contests ------------------------------------------------------
def _responder(s: AmberState, target_controller: int, p: int) -> int:
    return (
        target_controller
        if target_controller >= 0 and target_controller != p and s.in_game[target_controller]
        else -1
    )


def _contest(s: AmberState, a: int, t: int, attribute: int, bonus_a: int = 0, bonus_t: int = 0) -> int:
    """2d6 + attribute contest between princes a and t; returns the winner id."""
    hold = s.psychic_hold
    total_a = s.attributes[a][attribute] + bonus_a - (PSYCHIC_HOLD_MALUS if hold[a] else 0)
    total_t = s.attributes[t][attribute] + bonus_t - (PSYCHIC_HOLD_MALUS if hold[t] else 0)
    hold[a] = 0
    hold[t] = 0
    w, history = contest_with(s.d6, total_a, total_t)
    s.contest_totals = list(history[-1])
    return a if w == 0 else t


def auto_fight(s: AmberState, f: Fight) -> None:
    p, a, t = f.player, f.prince, f.target
    s.contest_type = Contest.FIGHT
    if f.step == 0:
        f.step = 1
        r = _responder(s, f.target_controller, p)
        if r >= 0:
            s.stack.append(Negate(r, Contest.FIGHT, t))
    elif f.step == 1:
        if f.negated:
            s.stack.pop()
            return
        f.step = 2
        w = _contest(s, a, t, FIGHT_ATTRIBUTE)
        loser = t if w == a else a
        s.stack.append(Damage(loser, s.controller[w], s.d6()))
    else:
        s.stack.pop()
        _call_guards(s, f.target_controller, p, a)


def _call_guards(s: AmberState, attacked: int, p: int, a: int) -> None:
    r = _responder(s, attacked, p)
    if r >= 0 and s.free(a) and s.role[a] == EXILE:
        s.stack.append(CallGuards(r, a))


def auto_will(s: AmberState, f: Will) -> None:
    p, a, t, tc = f.player, f.prince, f.target, f.target_controller
    s.contest_type = Contest.WILL
    if f.step == 0:
        f.step = 1
        r = _responder(s, tc, p)
        if r >= 0:
            s.stack.append(Negate(r, Contest.WILL, t))
    elif f.step == 1:
        if f.negated:
            s.stack.pop()
            return
        f.step = 2
        r = _responder(s, tc, p)
        s.stack.append(Fury(p, [r] if r >= 0 else []))
    elif f.step == 2:
        f.step = 3
        if _contest(s, a, t, WILL, f.attacker_fury, f.defender_fury) == a:
            RULES[f.card].wins(s, f)
    else:
        s.stack.pop()
        _call_guards(s, tc, p, a)


# ---- damage, death, capture ----------------------------------------------------------
def auto_damage(s: AmberState, f: Damage) -> None:
    s.stack.pop()
    v, dealer = f.victim, f.dealer
    s.hits[v] -= f.amount
    s.damaged_prince = v
    s.damage_dealer = dealer
    if s.hits[v] <= 0:
        s.hits[v] = 0
        s.stack.append(DeathSequence(v, dealer))
    elif dealer >= 0 and s.in_game[dealer] and s.free(v) and s.controller[v] != dealer:
        s.stack.append(DamageFollowup(dealer, v))


def legal_damage_followup(s: AmberState, f: DamageFollowup):
    if not s.free(f.victim):
        return None
    return legal_window(s, f)


def apply_damage_followup(s: AmberState, f: DamageFollowup, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
    else:
        _answer(s, f, a)


def _death_queue(s: AmberState, v: int) -> list[int]:
    """Who may save a dying prince, in order: his controller, then the
    players in turn order from the turn player."""
    c = s.controller[v]
    queue = [c] if c >= 0 and s.in_game[c] else []
    return queue + [q for q in relative_seats(s.turn_player, s.num_players) if s.in_game[q] and q != c]


def auto_death_sequence(s: AmberState, f: DeathSequence) -> None:
    v = f.victim
    if f.step == 0:
        f.step = 1
        queue = _death_queue(s, v)
        s.stack.append(Death(queue[0], queue[1:]))
        return
    s.stack.pop()
    old_controller, old_role = s.controller[v], s.role[v]
    was_own_prince = old_controller >= 0 and s.player_prince[old_controller] == v
    if f.not_really_dead:
        s.hits[v] = s.attributes[v][0]
    else:
        s.alive[v] = 0
        s.hits[v] = 0
    s.controller[v] = -1
    s.role[v] = EXILE
    for name in ("armies", "amnesia", "psychic_hold", "captured"):
        getattr(s, name)[v] = 0
    s.jailer[v] = -1
    if was_own_prince:
        s.player_prince[old_controller] = -1
        s.stack.append(Succession(old_controller))
    if old_role == KING:
        s.stack.append(KingRemoval(f.causer))


def auto_capture(s: AmberState, f: Capture) -> None:
    v, captor = f.victim, f.captor
    if f.step == 0:
        f.step = 1
        r = _responder(s, s.controller[v], captor)
        if r >= 0:
            s.stack.append(CaptureNegate(r, v))
        return
    s.stack.pop()
    if f.negated or not s.free(v):
        return
    old_role = s.role[v]
    s.captured[v] = 1
    s.jailer[v] = captor
    s.role[v] = EXILE
    if old_role == KING:
        s.stack.append(KingRemoval(captor))


def legal_call_guards(s: AmberState, f: CallGuards):
    v = f.prince
    if not (s.free(v) and s.role[v] == EXILE):
        return None
    return legal_window(s, f)


def auto_king_removal(s: AmberState, f: KingRemoval) -> None:
    s.stack.pop()
    c = f.causer
    own = s.player_prince[c] if c >= 0 else -1
    if c >= 0 and s.in_game[c] and c != s.amber and own >= 0 and s.free(own):
        s.take_amber(c)
    else:
        s.fall_neutral()


# ---- succession, appointments ----------------------------------------------------------
def legal_succession(s: AmberState, f: Succession):
    p = f.player
    if not s.in_game[p] or s.player_prince[p] >= 0:
        return None
    candidates = [i for i in range(NUM_PRINCES) if s.alive[i] and s.controller[i] == p]
    if not candidates:
        candidates = [
            i for i in range(NUM_PRINCES) if s.alive[i] and s.controller[i] < 0 and s.role[i] == EXILE
        ]
    if not candidates:
        s.eliminate(p)
        return None
    return candidates


def apply_succession(s: AmberState, f: Succession, a: int) -> None:
    s.stack.pop()
    s.player_prince[f.player] = a
    s.controller[a] = f.player


def legal_appoint(s: AmberState, f: Appoint):
    q = f.player
    if s.amber != q or not s.in_game[q] or not s.vacant_posts():
        return None
    offers = s.game.regent_offers
    candidates = []
    for i in range(NUM_PRINCES):
        if s.alive[i] and not s.captured[i] and s.role[i] == EXILE:
            c = s.controller[i]
            if c < 0 or (offers and c != q and s.in_game[c] and c not in f.declined):
                candidates.append(i)
    if not candidates:
        return None
    candidates.append(A_PASS)
    return candidates


def apply_appoint(s: AmberState, f: Appoint, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
    elif s.controller[a] < 0:
        s.fill_post(a)
    else:
        s.stack.append(RegentOffer(s.controller[a], a))


def legal_regent_offer(s: AmberState, f: RegentOffer):
    return [f.prince, A_PASS]


def apply_regent_offer(s: AmberState, f: RegentOffer, a: int) -> None:
    s.stack.pop()
    if a == A_PASS:
        parent = s.stack[-1]
        parent.declined = parent.declined + [f.player]
    else:
        s.fill_post(f.prince)


def legal_effect_discard(s: AmberState, f: EffectDiscard):
    p = f.player
    if not s.in_game[p] or f.count <= 0 or not s.hands[p]:
        return None
    return _card_actions(s, p, range(NUM_KINDS))


def apply_effect_discard(s: AmberState, f: EffectDiscard, a: int) -> None:
    s._take_card(f.player, a - A_CARD)
    f.count -= 1


# ---- war -------------------------------------------------------------------------------
def _supporters(s: AmberState, p: int, defender: int) -> list[int]:
    """The players asked to support p's attack, in seat order after p: those
    in the game, not defending, with no regent and a free exile of their own."""
    return [
        b
        for b in relative_seats(p, s.num_players)[1:]
        if s.in_game[b] and b != defender and not s.controls_regent(b) and s.free_exiles_of(b)
    ]


def auto_war(s: AmberState, f: WarStep) -> None:
    p, a = f.player, f.prince
    defender = s.war.defender
    defending = defender >= 0 and s.in_game[defender]
    s.contest_type = Contest.WAR
    if f.step == 0:
        f.step = 1
        if defending:
            s.stack.append(Negate(defender, Contest.WAR, a))
    elif f.step == 1:
        if f.negated:
            s.stack.pop()
            return
        f.step = 2
        if defending:
            s.stack.append(Block(defender))
    elif f.step == 2:
        f.step = 3
        if s.armies[a] > 0:
            s.stack.append(ShadowArmies(p))
            queue = _supporters(s, p, defender) if s.game.allow_support else []
            if queue:
                s.stack.append(Support(queue[0], queue[1:]))
    else:
        s.stack.pop()
        _fight_war(s, p, a, s.war)


def _defending_leader(s: AmberState) -> int:
    role = s.role
    for i in range(NUM_PRINCES):
        if role[i] == KING:
            return i
    return s.strongest_regent()


def _war_totals(s: AmberState, p: int, a: int, war: War, leader: int) -> tuple[int, int]:
    """Attack: the attacker's and his free exiles' Leadership, the supporters'
    exiles and the Shadow Armies; defence: the defending lords' Leadership
    and the Walls of Amber."""
    attack = s.leadership(a) + war.shadow_bonus
    attack += sum(s.leadership(i) for i in s.free_exiles_of(p) if i != a)
    for b in war.supporters:
        if s.in_game[b]:
            attack += sum(s.leadership(i) for i in s.free_exiles_of(b))
    defence = war.walls_bonus + sum(s.leadership(i) for i in _amber_defenders(s, p, war, leader))
    return attack, defence


def _amber_defenders(s: AmberState, p: int, war: War, leader: int) -> list[int]:
    """The lords who defend Amber against player p. ``all_lords``: every free
    Lord he does not control. ``leader_only``: a held Amber's King and the
    regents of players other than p (neutral regents stand aside), a neutral
    Amber's leader alone."""
    controller, role = s.controller, s.role
    if s.game.all_lords_defend:
        return [i for i in range(NUM_PRINCES) if role[i] != EXILE and s.free(i) and controller[i] != p]
    if war.defender >= 0:
        return [
            i
            for i in range(NUM_PRINCES)
            if role[i] == KING
            or (0 < role[i] < EXILE and s.free(i) and controller[i] >= 0 and controller[i] != p)
        ]
    return [leader] if leader >= 0 else []


def _battle(s: AmberState, a: int, attack: int, defence: int, leader: int) -> None:
    """Rounds of 2d6 contests until the garrison or the attacking armies are
    gone; each lost round costs the loser a die of armies. A psychic hold
    weighs on the first round only."""
    first = True
    while s.garrison > 0 and s.armies[a] > 0:
        round_attack, round_defence = attack, defence
        if first:
            if s.psychic_hold[a]:
                round_attack -= PSYCHIC_HOLD_MALUS
                s.psychic_hold[a] = 0
            if leader >= 0 and s.psychic_hold[leader]:
                round_defence -= PSYCHIC_HOLD_MALUS
                s.psychic_hold[leader] = 0
            first = False
        win, history = contest_with(s.d6, round_attack, round_defence)
        s.contest_totals = list(history[-1])
        loss = s.d6()
        if win == 0:
            s.garrison = max(0, s.garrison - loss)
        else:
            s.armies[a] = max(0, s.armies[a] - loss)


def _fight_war(s: AmberState, p: int, a: int, war: War) -> None:
    leader = _defending_leader(s)
    war.attack, war.defence = _war_totals(s, p, a, war, leader)
    s.contest_totals = [war.attack, war.defence]
    _battle(s, a, war.attack, war.defence, leader)
    if s.garrison == 0 and s.armies[a] > 0:
        war.won = 1
        war.losing = [i for i in war.lords if s.controller[i] != p]
        s.stack.append(WarFollowup(p, war.losing))
        s.garrison = s.armies[a]
        s.armies[a] = 0
        s.take_amber(p)
    else:
        war.won = 0
        war.losing = [a] + [i for i in s.free_exiles_of(p) if i != a]
        _call_guards(s, war.defender, p, a)
        if war.defender >= 0 and s.in_game[war.defender]:
            s.stack.append(WarFollowup(war.defender, war.losing))


def legal_block(s: AmberState, f: Block):
    if s.armies[s.war.prince] <= 0:
        return None
    return legal_window(s, f)


def auto_block_effect(s: AmberState, f: BlockEffect) -> None:
    s.stack.pop()
    if not f.negated:
        RULES[f.card].effect(s, -1, -1, -1)


def legal_support(s: AmberState, f: Support):
    return [A_SUPPORT, A_PASS]


def apply_support(s: AmberState, f: Support, a: int) -> None:
    if a == A_SUPPORT:
        s.war.supporters = s.war.supporters + [f.player]
    s.advance_queue(f)


def legal_war_followup(s: AmberState, f: WarFollowup):
    p = f.player
    if not s.in_game[p] or not s.prince_targets(p, Kind.BATTLE_WOUNDS, f.losing):
        return None
    return legal_window(s, f)


AUTOMATIC: dict[type, Callable[[AmberState, Any], None]] = {
    Turn: auto_turn,
    TurnEnd: auto_turn_end,
    Fight: auto_fight,
    Will: auto_will,
    WarStep: auto_war,
    Damage: auto_damage,
    DeathSequence: auto_death_sequence,
    Capture: auto_capture,
    KingRemoval: auto_king_removal,
    BlockEffect: auto_block_effect,
}
DECISIONS: dict[type, Decision] = {
    FateDiscard: Decision(legal_fate_discard, apply_fate_discard),
    ActionSelect: Decision(legal_action_select, apply_action_select),
    ChooseAction: Decision(legal_choose, apply_choose),
    TargetPrince: Decision(legal_target_prince, apply_target_prince),
    TargetPlayer: Decision(legal_target_player, apply_target_player),
    Negate: Decision(legal_window, apply_window),
    Fury: Decision(_queued_window, apply_queued_window),
    Block: Decision(legal_block, apply_window),
    ShadowMastery: Decision(legal_window, apply_window),
    Support: Decision(legal_support, apply_support),
    ShadowArmies: Decision(legal_window, apply_window),
    DamageFollowup: Decision(legal_damage_followup, apply_damage_followup),
    CallGuards: Decision(legal_call_guards, apply_window),
    WarFollowup: Decision(legal_war_followup, apply_window),
    CaptureNegate: Decision(legal_window, apply_window),
    Death: Decision(_queued_window, apply_queued_window),
    Succession: Decision(legal_succession, apply_succession),
    Appoint: Decision(legal_appoint, apply_appoint),
    EffectDiscard: Decision(legal_effect_discard, apply_effect_discard),
    RegentOffer: Decision(legal_regent_offer, apply_regent_offer),
}
assert {kind.phase for kind in DECISIONS} == set(Phase) - {Phase.GAME_OVER}
