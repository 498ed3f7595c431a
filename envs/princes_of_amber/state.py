"""Princes of Amber's State: one position, its declared fields and the driver.

Resolution runs on an explicit stack of small *frames* (records of
:mod:`~meeplezoo.envs.princes_of_amber.frames`). Automatic frames (a Fight
in progress, damage, a capture, a war...) do their work and push or pop
frames; decision frames (windows and choices) stop the driver and name the
player who decides (``handlers.AUTOMATIC`` and ``handlers.DECISIONS``).
Everything is plain data, so clone, to_dict and determinize stay simple,
and a nested chain such as Fight -> death -> the King falls -> take Amber
-> appoint -> succession is just frames resolved top first. What each card
and non-card action does is its record in
:mod:`~meeplezoo.envs.princes_of_amber.acts`.

The state's methods are grouped by job: cards, dice and memories in
``hands.HandsAndMemories``, the princes' posts and the throne in
``throne.PrincesAndThrone`` (both base classes), the estimate in
``estimate``, the redeal in ``determinize``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, stack_ranks
from meeplezoo.envs.core.dice import roll_sum
from meeplezoo.envs.core.fields import Field, generated_clone, generator_field, saved
from meeplezoo.envs.core.positions import PositionError
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import State
from meeplezoo.envs.princes_of_amber import determinize as redeals
from meeplezoo.envs.princes_of_amber import estimate
from meeplezoo.envs.princes_of_amber.acts import RULES, Contest, Target, action_name
from meeplezoo.envs.princes_of_amber.cards import (
    EXILE,
    KING,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_PRINCES,
    REGENT_POSTS,
    WIT,
    Attribute,
    Kind,
)
from meeplezoo.envs.princes_of_amber.frames import Frame, TargetPlayer, TargetPrince, Turn, plain
from meeplezoo.envs.princes_of_amber.handlers import AUTOMATIC, DECISIONS
from meeplezoo.envs.princes_of_amber.hands import HandsAndMemories
from meeplezoo.envs.princes_of_amber.kernel import row_fields as row
from meeplezoo.envs.princes_of_amber.position import ENTRY_CHECKS, check_position
from meeplezoo.envs.princes_of_amber.throne import PrincesAndThrone

if TYPE_CHECKING:
    from meeplezoo.envs.princes_of_amber.game import AmberGame

NOBODY_HAS_A_PRINCE = 10**6  # hand limit while a player has no prince (never happens at a Fate phase)


# --------------------------------------------------------------------------- position dict
def _listed(name: str, copy: str = "list", **layout) -> Field:
    """An entry saved as plain data; ``layout``: its shape in the compiled row (``kernel.row_fields``)."""
    return saved(name, copy, to_json=plain, from_json=ENTRY_CHECKS[name], **layout)


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
class AmberState(HandsAndMemories, PrincesAndThrone, State):
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

    # the compiled layout's dimensions (capacities that fit every configuration)
    layout_dims: ClassVar[dict] = row.LAYOUT_DIMS

    fields = (
        *(_listed(name, shape=(NUM_PRINCES,)) for name in PRINCE_LISTS),
        _listed("psychic_hold", shape=(NUM_PRINCES,)),
        _listed("acted", shape=(NUM_PRINCES,)),
        *(_listed(name, shape=("players",)) for name in PLAYER_LISTS),
        _listed("contest_totals", shape=(2,)),
        _listed("known_top", shape=("players", "seen"), fill=row.EMPTY),
        _listed("legal", shape=("legal",), fill=row.EMPTY),
        _listed(
            "known_hand",
            "lists",
            shape=("players", "players", NUM_KINDS),
            fill=row.EMPTY,
            to_row=row.known_hand_to_row,
            from_row=row.known_hand_from_row,
        ),
        _listed(
            "hands",
            "lists",
            shape=(row.HAND_WORDS,),
            fill=row.EMPTY,
            to_row=row.hands_to_row,
            from_row=row.hands_from_row,
        ),
        # derived from the hands, rebuilt on load (in the row too: the kernel keeps it in step)
        Field("hand_kinds", "lists", shape=("players", NUM_KINDS)),
        *(saved(name, from_json=ENTRY_CHECKS[name], shape=()) for name in SCALARS),
        # never changes after setup: shared
        saved("attributes", to_json=plain, from_json=ENTRY_CHECKS["attributes"], shape=(NUM_PRINCES, 5)),
        # the scripted dice: shared, never edited
        saved("dice", to_json=plain, from_json=ENTRY_CHECKS["dice"], shape=("dice",), to_row=row.dice_to_row),
        saved(
            "deck",
            "copy",
            to_json=lambda deck, _state: deck.to_dict(),
            from_json=ENTRY_CHECKS["deck"],
            shape=(row.DECK_WORDS,),
            fill=row.EMPTY,
            to_row=row.deck_to_row,
            from_row=row.deck_from_row,
        ),
        saved(
            "stack",
            "copies",
            to_json=lambda stack, _state: [frame.to_dict() for frame in stack],
            from_json=ENTRY_CHECKS["stack"],
            shape=(row.STACK_CAPACITY, row.FRAME_WORDS),
            fill=row.EMPTY,
            to_row=row.stack_to_row,
            from_row=row.stack_from_row,
        ),
        saved(
            "war",
            "copy_or_none",
            to_json=lambda war, _state: None if war is None else war.to_dict(),
            from_json=ENTRY_CHECKS["war"],
            shape=(row.WAR_WORDS,),
            fill=row.EMPTY,
            to_row=row.war_to_row,
            from_row=row.war_from_row,
        ),
        generator_field(),
    )
    clone = generated_clone()  # compiled from ``fields`` when the class is made (envs.core.fields)

    # ---- construction -------------------------------------------------------
    @classmethod
    def setup(cls, game: AmberGame, rng: np.random.Generator) -> AmberState:
        state = cls.__new__(cls)
        state.game, state.rng = game, rng
        state.num_players = game.num_players
        config = game.config
        state.deck = Deck.shuffled(range(game.num_cards), rng)
        if config["deck_override"]:
            wanted = [Kind[name] for name in config["deck_override"]]
            stack_ranks(state.deck, wanted, game.card_kind.__getitem__)
        state._deal(config["starting_hand"])
        order = (
            list(config["prince_order_override"])
            if config["prince_order_override"]
            else [int(prince) for prince in rng.permutation(NUM_PRINCES)]
        )
        if config["attribute_mode"] == "rolled":
            state.attributes = [[roll_sum(rng, 2) for _ in Attribute] for _ in range(NUM_PRINCES)]
        else:
            state.attributes = game.table_attributes
        state._seat_princes(order)
        state._start_counters(config)
        state._run()
        return state

    def _deal(self, hand_size: int) -> None:
        """Each player in turn draws his starting hand; nobody knows anything yet."""
        seats = range(self.num_players)
        self.hands = [[] for _ in seats]
        self.known_top = [[] for _ in seats]
        self.known_hand = [[None] * self.num_players for _ in seats]
        for player in seats:
            for _ in range(hand_size):
                self.hands[player].append(self.deck.draw())
        self.refresh_counts()

    def _seat_princes(self, order: list[int]) -> None:
        """Each player's own prince, then the King and the three Regents, from the prince order."""
        seats = self.num_players
        self.hits = [self.attributes[i][0] for i in range(NUM_PRINCES)]
        self.alive = [1] * NUM_PRINCES
        self.controller = [-1] * NUM_PRINCES
        self.role = [EXILE] * NUM_PRINCES
        for name in ("captured", "armies", "amnesia", "psychic_hold", "acted"):
            setattr(self, name, [0] * NUM_PRINCES)
        self.jailer = [-1] * NUM_PRINCES
        self.player_prince = order[:seats]
        for player in range(seats):
            self.controller[order[player]] = player
        self.role[order[seats]] = KING
        for index, post in enumerate(REGENT_POSTS):
            self.role[order[seats + 1 + index]] = post

    def _start_counters(self, config: dict) -> None:
        seats = self.num_players
        self.amber = -1
        self.garrison = config["garrison_start"]
        self.hold_count = [0] * seats
        self.in_game = [1] * seats
        self.elimination_order = [-1] * seats
        self.eliminated_count = 0
        self.extra_turns = [0] * seats
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
        self.dice = list(config["dice_override"] or [])
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
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.deciding_player >= 0:
            mask[self.legal] = True
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.array(sorted(self.legal) if self.deciding_player >= 0 else [], dtype=np.int64)

    def _is_legal(self, action: int) -> bool:
        """The legal list answers without building the numpy mask (it may
        be stale once the game is over, hence the seat test)."""
        return self.deciding_player >= 0 and action in self.legal

    def _apply_action(self, action: int) -> None:
        frame = self.stack[-1]
        DECISIONS[type(frame)].apply(self, frame, action)
        self._run()

    def returns(self) -> np.ndarray:
        if self.winner < 0 and not self.turn_limit_reached:
            return np.zeros(self.num_players)
        amber_first = self.winner < 0 and self.game.config["truncation_ranking"] == "amber_first"
        scores = []
        for player in range(self.num_players):
            if not self.in_game[player]:
                scores.append((0, self.elimination_order[player]))
            elif self.winner == player or (amber_first and self.amber == player):
                scores.append((2, 0))
            else:
                scores.append((1, 0))
        return rank_rewards(scores)

    def strength(self, player: int) -> float:
        """Heuristic material of an in-game player (see ``estimate.strength``)."""
        return estimate.strength(self, player)

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        """Estimated returns: exact once over, else ``estimate.estimated_returns``.
        Strength reads only the table and the hand sizes, never a card in a
        hand or the deck, so every ``viewer`` gets the same estimate."""
        if self.winner >= 0 or self.turn_limit_reached:
            return self.returns()
        return estimate.estimated_returns(self)

    def phase_name(self) -> str:
        if self.deciding_player < 0:
            return "GAME_OVER"
        return self.stack[-1].name

    # ---- what the acts and handlers ask --------------------------------------
    def wit_limit(self, player: int) -> int:
        """The hand limit at the Fate phase: the Wit of his own prince."""
        own = self.player_prince[player]
        return self.attributes[own][WIT] if own >= 0 else NOBODY_HAS_A_PRINCE

    def prince_targets(self, player: int, code: int, losing: list[int] | None = None) -> list[int]:
        """Legal prince targets of act ``code`` by ``player``."""
        return RULES[code].targets(self, player, losing)

    def player_targets(self, player: int, code: int) -> list[int]:
        return RULES[code].targets(self, player, None)

    def advance_queue(self, frame: Frame) -> None:
        """The window passes to the next player of the frame's queue, or closes."""
        if frame.queue:
            frame.player = frame.queue[0]
            frame.queue = frame.queue[1:]
        else:
            self.stack.pop()

    def start_act(self, player: int, prince: int, code: int) -> None:
        """The act is chosen and paid for: ask for its target or resolve it
        (``prince`` -1: a free card, played by no prince)."""
        self.pending_act = code
        self.acting_prince = prince
        self.target_prince = -1
        self.war = None
        self.contest_type = Contest.NONE
        self.damaged_prince = self.damage_dealer = -1
        rule = RULES[code]
        if rule.captive and prince >= 0 and self.captured[prince]:
            self.resolve(player, prince, code, prince)
        elif rule.target == Target.PRINCE:
            self.stack.append(TargetPrince(player, prince, code))
        elif rule.target == Target.PLAYER:
            self.stack.append(TargetPlayer(player, prince, code))
        else:
            self.resolve(player, prince, code, -1)

    def resolve(self, player: int, prince: int, code: int, target: int) -> None:
        """The act takes effect on its target (a prince or a seat; -1: none)."""
        rule = RULES[code]
        self.target_prince = target if rule.target != Target.PLAYER else -1
        rule.effect(self, player, prince, target)

    # ---- the driver ------------------------------------------------------------
    def _run(self) -> None:
        """Run automatic frames until a decision is due (or the game is over)."""
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
            frame = stack[-1]
            automatic = AUTOMATIC.get(type(frame))
            if automatic is not None:
                automatic(self, frame)
                continue
            legal = DECISIONS[type(frame)].legal(self, frame)
            if legal is None:
                stack.pop()
                continue
            self.legal = legal
            self.deciding_player = frame.player
            return

    def _posed_legal(self) -> list[int] | None:
        """The legal list of the decision on top, or None if the rules would
        skip it (or pass it on to someone else) with the hands as they are."""
        probe = self.clone()
        frame = probe.stack[-1]
        before = frame.copy()
        decision = DECISIONS.get(type(frame))
        if decision is None:
            return None
        legal = decision.legal(probe, frame)
        if legal is None or frame != before or probe.stack[-1] is not frame:
            return None
        return legal

    def refresh(self) -> None:
        """Recompute derived data and re-run the driver after fields were edited (test set-ups)."""
        self.refresh_counts()
        if self.stack:
            self._run()

    # ---- views (the observation is written by observe.Observer) -----------------
    def determinize(self, player: int, rng: np.random.Generator) -> AmberState:
        """Redeal what ``player`` cannot see, reading only his information set
        (see :mod:`~meeplezoo.envs.princes_of_amber.determinize`)."""
        return redeals.determinize(self, player, rng)

    def action_to_string(self, action: int) -> str:
        return action_name(int(action))

    def string_to_action(self, text: str) -> int:
        wanted = text.strip().lower()
        return ACTION_BY_NAME[wanted] if wanted in ACTION_BY_NAME else State.string_to_action(self, text)

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.princes_of_amber.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.princes_of_amber.render import render_rgb

        return render_rgb(self, viewer)


ACTION_BY_NAME = {action_name(action): action for action in range(NUM_ACTIONS)}
