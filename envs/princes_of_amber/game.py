"""Princes of Amber's options and the Game (one configuration of them).

Each option is declared once in ``OPTIONS`` (``envs.core.options``), with
the checks of the free-form ones (the deck, the test hooks) beside it;
``AmberGame.validate`` turns the validated config into the tables a state
reads on every step.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.dice import check_die_script
from meeplezoo.envs.core.integers import integer_index
from meeplezoo.envs.core.options import choice, custom, flag, integer
from meeplezoo.envs.core.state import Game, GameInfo, make_rng
from meeplezoo.envs.princes_of_amber.cards import (
    DEFAULT_DECK,
    KIND_NAMES,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_PRINCES,
    PRINCE_TABLE,
    Kind,
    build_card_list,
)
from meeplezoo.envs.princes_of_amber.state import AmberState

MAX_DECK_CARDS = 1000  # bound on the cards of a configured deck (one apply stays quick)
MAX_COPIES = 100  # bound on the copies of one card in a configured deck


# --------------------------------------------------------------------------- option checks
def _check_deck_entry(entry: Any, where: str) -> int:
    """The copies of one ``[name, copies]`` entry of a configured deck."""
    copies = entry[1] if isinstance(entry, (list, tuple)) and len(entry) == 2 else None
    count = integer_index(copies)
    if count is None or not isinstance(entry[0], str) or not 0 <= count <= MAX_COPIES:
        raise ValueError(f"{where} entries must be [name, copies 0..{MAX_COPIES}], got {entry!r}")
    return count


def _check_deck_counts(value: Any, key: str, game_name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, dict) or any(name not in KIND_NAMES for name in value):
        raise ValueError(f"{game_name}: {key} must be a dict keyed by card kinds {list(KIND_NAMES)}")
    total = 0
    for kind_name, entries in value.items():
        where = f"{game_name}: {key}[{kind_name!r}]"
        if not isinstance(entries, (list, tuple)):
            raise ValueError(f"{where} must be a list of [name, copies 0..{MAX_COPIES}], got {entries!r}")
        total += sum(_check_deck_entry(entry, where) for entry in entries)
    if total > MAX_DECK_CARDS:
        raise ValueError(f"{game_name}: {key} must hold at most {MAX_DECK_CARDS} cards, got {total}")
    return value


def _check_dice(value: Any, key: str, game_name: str) -> list[int] | None:
    return check_die_script(value, key, 1, 6, game_name)


def _check_deck_override(value: Any, key: str, game_name: str) -> Any:
    if value is not None and (
        not isinstance(value, (list, tuple))
        or len(value) > MAX_DECK_CARDS
        or any(name not in KIND_NAMES for name in value)
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
        players=OPTIONS["num_players"],
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/princes_of_amber.md",
    )
    options: ClassVar[dict] = OPTIONS
    kernel = "meeplezoo.envs.princes_of_amber.kernel.spec:KERNEL"  # compiled by default (backend="python": these rules)
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
        config = self.config
        deck_counts = DEFAULT_DECK if config["deck_counts"] is None else config["deck_counts"]
        self.card_kind, self.card_names = build_card_list(deck_counts)
        self.num_cards = len(self.card_kind)
        self._check_deck_override(config["deck_override"])
        if self.num_cards < config["starting_hand"] * self.num_players:
            raise ValueError(
                f"{self.info.name}: deck_counts holds too few cards to deal starting_hand to every player"
            )
        self.num_actions = NUM_ACTIONS
        self.reward_range = (-1.0, 1.0)
        self.max_turns = config["max_turns"]
        self.hold_turns = config["hold_turns"]
        self.prompt_only_if_playable = config["prompt_only_if_playable"]
        self.all_lords_defend = config["amber_defenders"] == "all_lords"
        self.regent_offers = config["regent_offers_to_players"]
        self.allow_support = config["allow_support"]
        self.table_attributes = [list(row) for row in PRINCE_TABLE]
        self.card_kind_array = np.array(self.card_kind, dtype=np.int64)
        self.kind_copies = [self.card_kind.count(kind) for kind in range(NUM_KINDS)]

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

    def _state_from_dict(self, data: dict) -> AmberState:
        # the seat count first: every per-player entry is sized by it
        seats = data.get("num_players") if isinstance(data, dict) else None
        if seats is not None and seats != self.num_players:
            raise ValueError(
                f"{self.info.name}: the position has {seats!r} players, the game {self.num_players}"
            )
        return AmberState.from_dict(self, data)
