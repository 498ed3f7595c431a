"""Gold Rush Gangs rules: the Game (one configuration) and its States.

Three gangs race to carry 8 sacks of gold into their own base. The state
keeps units, sacks and the deck in plain lists so a step is a handful of
list operations; geometry comes from :mod:`.geometry`, built once per Game,
and what each kind of action may do and does is one record of
:mod:`.actions`. Actions and observations are in the acting seat's frame
(its home drawn at the bottom-left corner) unless ``relative_frame`` is off.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck, canonical_shuffle, card_rank, stack_ranks, standard_52
from meeplezoo.envs.core.fields import Dim, Field, generated_clone, generator_field, saved
from meeplezoo.envs.core.options import choice, flag, integer
from meeplezoo.envs.core.positions import (
    PositionError,
    flag_entry,
    integer_entry,
    integer_list,
    name_entry,
    seat_entry,
)
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.rng import derive_rng, make_rng
from meeplezoo.envs.core.state import Game, GameInfo, State, integer_index
from meeplezoo.envs.core.turns import next_seat, relative_seats
from meeplezoo.envs.gold_rush_gangs.actions import ActionKind, ActionLayout
from meeplezoo.envs.gold_rush_gangs.geometry import Geometry
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    BANK,
    DEPLOY_PHASE,
    ENEMY_UNITS,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NOWHERE,
    NUM_SEATS,
    NUM_UNITS,
    ORIGIN_NAMES,
    PHASE_NAMES,
    SEATS,
    SLOT_CARDS,
    STATUS_NAMES,
    STORE,
    STORE_PHASE,
    UNDEPLOYED,
    Phase,
    empty_pile,
    gang_units,
)
from meeplezoo.envs.gold_rush_gangs.position import (
    cells_from_json,
    check_position,
    deck_from_json,
    first_draw_from_json,
    last_combat_from_json,
    read_sacks,
    read_units,
)

DECK_SIZE = len(standard_52())  # an independent draw is one of these card ids
# ``_freeze(array, False)`` makes an array read-only; the unbound method with a
# positional flag costs a fraction of ``array.flags.writeable = False``.
_freeze = np.ndarray.setflags

__all__ = ["ActionKind", "GoldRushGangsGame", "GoldRushGangsState", "Phase"]


class GoldRushGangsGame(Game):
    kernel = "meeplezoo.envs.gold_rush_gangs.kernel.spec:KERNEL"  # compiled by default (backend="python": these rules)
    info = GameInfo(
        name="gold_rush_gangs_v0",
        title="Gold Rush Gangs",
        players=integer(3, 3, 3, "seats at the table (the game is for three)"),
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/gold_rush_gangs.md",
    )
    options: ClassVar[dict] = {
        "num_players": info.players,
        "radius": integer(9, 4, 15, "board radius (the board has 3 r (r + 1) + 1 cells)"),
        "territory_radius": integer(5, 2, 14, "radius of each gang's territory around its home corner"),
        "base_radius": integer(1, 1, 3, "radius of each gang's base (where it delivers) around its home"),
        "min_unit_spacing": integer(4, 1, 10, "least distance between a gang's thieves at deployment"),
        "base_ap": integer(5, 1, 30, "AP per turn before the delivery bonus"),
        "win_sacks": integer(8, 1, 21, "deliveries needed to win"),
        "bank_sacks": integer(3, 0, 9, "sacks lying in the bank"),
        "bank_threshold": integer(7, 0, 100, "AP of breaking that open the bank (0: open from the start)"),
        "bank_progress": choice(
            "shared", ("shared", "per_player"), "`per_player`: each gang must break the bank for itself"
        ),
        "store_placement": choice(
            "choice",
            ("choice", "fixed"),
            "`fixed`: stores on the three corners that are not homes, no store step",
        ),
        "deck_mode": choice(
            "deck", ("deck", "iid"), "`iid`: every card drawn is an independent uniform card"
        ),
        "ap_bonus_immediate": flag(
            True, "a delivery also adds 1 AP to the turn it is made in (false: only to later turns)"
        ),
        "max_rounds": integer(150, 1, 100000, "movement rounds (three turns each) before truncation"),
        "reward_scheme": choice(
            "zero_sum", ("zero_sum", "win_only"), "`win_only`: winner +1, others 0 (`zero_sum`: others -0.5)"
        ),
        "truncation_scoring": choice(
            "draw",
            ("draw", "rank"),
            "`rank`: a truncated game is scored by deliveries (+1 / 0 / -1, ties averaged)",
        ),
        "relative_frame": flag(True, "false: absolute cells and directions for every seat"),
    }
    test_configs: ClassVar[list[dict]] = [
        {"store_placement": "fixed", "max_rounds": 40},
        {
            "deck_mode": "iid",
            "bank_progress": "per_player",
            "reward_scheme": "win_only",
            "truncation_scoring": "rank",
            "max_rounds": 40,
        },
        {
            "relative_frame": False,
            "ap_bonus_immediate": False,
            "win_sacks": 3,
            "base_ap": 8,
            "max_rounds": 60,
        },
        {"radius": 7, "territory_radius": 4, "min_unit_spacing": 3, "bank_threshold": 3, "max_rounds": 40},
    ]

    def validate(self) -> None:
        """The checks that tie several keys together, then the geometry, the
        action layout and the numbers the rules read on every step."""
        config = self.config
        self.choose_stores = config["store_placement"] == "choice"
        self.geo = self._checked_geometry()
        self.num_cells = self.geo.num_cells
        self.layout = ActionLayout(self.geo, len(Phase))
        self.num_actions = self.layout.size
        self.action_names = self.layout.names
        self.zero_mask = np.zeros(self.num_actions, dtype=bool)
        self.reward_range = (-1.0, 1.0)
        self.max_turns = NUM_SEATS * config["max_rounds"]
        self.base_ap = config["base_ap"]
        self.win_sacks = config["win_sacks"]
        self.bank_threshold = config["bank_threshold"]
        self.per_player_bank = config["bank_progress"] == "per_player"
        self.independent_draws = config["deck_mode"] == "iid"
        self.delivery_bonus_now = config["ap_bonus_immediate"]
        self.zero_sum_rewards = config["reward_scheme"] == "zero_sum"
        self.rank_at_truncation = config["truncation_scoring"] == "rank"
        # setup steps per seat: its store (when chosen), then its three thieves
        self.setup_steps_per_seat = GANG_SIZE + (1 if self.choose_stores else 0)

    def _checked_geometry(self) -> Geometry:
        config, name = self.config, self.info.name
        radius, territory, base = config["radius"], config["territory_radius"], config["base_radius"]
        if not base < territory < radius:
            raise ValueError(
                f"{name}: need base_radius < territory_radius < radius, "
                f"got base_radius={base}, territory_radius={territory}, radius={radius}"
            )
        spacing = config["min_unit_spacing"]
        geo = Geometry(radius, territory, base, spacing, config["relative_frame"])
        if not geo.triples[0]:
            raise ValueError(
                f"{name}: min_unit_spacing={spacing} leaves no legal deployment in a territory of radius {territory}"
            )
        if self.choose_stores and len(geo.neutral_border) < NUM_SEATS:
            raise ValueError(
                f"{name}: radius={radius} with territory_radius={territory} leaves fewer than 3 neutral rim "
                "cells for stores (store_placement='choice')"
            )
        return geo

    # --- absolute-frame action helpers (the specification's test hooks) ------
    def encode(self, player: int, kind: str, *args) -> int:
        """Action index for ``player`` from absolute coordinates/directions:
        ``store (q,r)``, ``deploy (q,r)``, ``move slot d``, ``pickup slot``,
        ``break slot``, ``end``."""
        return self.layout.encode(self.geo, player, kind, args)

    def decode(self, player: int, action: int) -> tuple:
        """Inverse of :meth:`encode`."""
        return self.layout.decode(self.geo, player, int(action))

    # --- states -----------------------------------------------------------------
    def new_initial_state(
        self, seed: int | None = None, first_player: int | None = None, deck: list[int] | None = None
    ) -> GoldRushGangsState:
        """A fresh game. ``deck`` (ranks, first drawn first) stacks the top of
        the shuffled deck; ``first_player`` skips the first-player draw."""
        ranks = self._checked_deck_override(deck)
        seat = None if first_player is None else integer_index(first_player)
        if first_player is not None and seat not in SEATS:
            raise ValueError(f"{self.info.name}: first_player must be 0, 1 or 2, got {first_player!r}")
        state = GoldRushGangsState(self, make_rng(seed))
        if ranks:
            stack_ranks(state.deck, ranks)
        state.first_player = state.draw_first_player() if seat is None else seat
        state.acting_seat = state.first_player
        return state

    def _checked_deck_override(self, deck) -> list[int]:
        """The ranks of a ``deck`` override, checked before anything is
        dealt: ranks 1..13 (Ace low), at most the 4 cards of each rank the
        deck holds, and a deck to draw from (not ``deck_mode='iid'``)."""
        name = self.info.name
        if deck is None:
            return []
        if isinstance(deck, (str, bytes, dict)) or not hasattr(deck, "__iter__"):
            raise TypeError(f"{name}: deck must be a list of card ranks, got {type(deck).__name__}")
        ranks = []
        for i, value in enumerate(deck):
            rank = integer_index(value)
            if rank is None or not 1 <= rank <= 13:
                raise ValueError(
                    f"{name}: deck entry {i} must be a rank from 1 (Ace) to 13 (King), got {value!r}"
                )
            ranks.append(rank)
        for rank, count in sorted(Counter(ranks).items()):
            if count > 4:
                raise ValueError(f"{name}: deck asks for {count} cards of rank {rank}; the deck has 4")
        if ranks and self.independent_draws:
            raise ValueError(
                f"{name}: deck cannot be stacked with deck_mode='iid' (every draw is a fresh card)"
            )
        return ranks

    def _state_from_dict(self, data: dict) -> GoldRushGangsState:
        return GoldRushGangsState.from_dict(self, data)


# --- position-dict conversions of single fields -----------------------------------------
def _cells_to_json(cells, state) -> list[list[int]]:
    coords = state.game.geo.coords
    return [list(coords[cell]) for cell in cells]


def _setup_pos_from_json(value, game) -> int | None:
    """None (left out): derived from the phase once it is read."""
    if value is None:
        return None
    return integer_entry(0, lambda game: NUM_SEATS * game.setup_steps_per_seat)(value, game)


def _win_bound(game) -> int:
    return game.win_sacks


def _turn_bound(game) -> int:
    return game.max_turns


def _ap_bound(game) -> int:
    return game.base_ap + 2 * game.win_sacks  # base, the delivery bonus and its immediate AP


def _damage_bound(game) -> int:
    return game.bank_threshold


# --- the compiled layout's words for the fields that are not lists of ints ----------------
MOST_FIGHTS = GANG_SIZE * (NUM_SEATS - 1)  # a mover fights each enemy thief at most once
MOST_CARDS = sum(SLOT_CARDS)  # a thief and both friends next to it
FIGHT_WORDS = 3 + 2 * MOST_CARDS  # attacker, defender, attacker_won, then both sides' cards
# first-player draw rounds the row keeps: a tie at the top recurs with odds near 1/13, so
# twenty rounds are never all used (the kernel keeps drawing past them without recording)
MOST_DRAW_ROUNDS = 20
PILE_WORDS = 1 + DECK_SIZE  # a pile's length, then its cards


def _deck_to_row(deck: Deck, _state) -> list[list[int]]:
    return [[len(deck.draw_pile), *deck.draw_pile], [len(deck.discard), *deck.discard]]


def _deck_from_row(piles, _game) -> Deck:
    return Deck(piles[0][1 : 1 + piles[0][0]], piles[1][1 : 1 + piles[1][0]])


def _sacks_to_row(sacks, state) -> list[list[int]]:
    return [sacks.get(cell, empty_pile()) for cell in range(state.game.num_cells)]


def _sacks_from_row(piles, _game) -> dict[int, list[int]]:
    return {cell: pile for cell, pile in enumerate(piles) if any(pile)}


def _combat_to_row(fights, _state) -> list[list[int]]:
    rows = []
    for fight in fights:
        cards = [fight["attacker_cards"], fight["defender_cards"]]
        words = [GANG_SIZE * fight["attacker"][0] + fight["attacker"][1]]
        words += [GANG_SIZE * fight["defender"][0] + fight["defender"][1], int(fight["attacker_won"])]
        for side in cards:
            words += side + [NOWHERE] * (MOST_CARDS - len(side))
        rows.append(words)
    return rows


def _combat_from_row(rows, _game) -> list[dict]:
    fights = []
    for words in rows:
        if words[0] < 0:
            break
        attack, defence = words[3 : 3 + MOST_CARDS], words[3 + MOST_CARDS :]
        fights.append(
            {
                "attacker": list(divmod(words[0], GANG_SIZE)),
                "defender": list(divmod(words[1], GANG_SIZE)),
                "attacker_cards": [card for card in attack if card >= 0],
                "defender_cards": [card for card in defence if card >= 0],
                "attacker_won": bool(words[2]),
            }
        )
    return fights


def _first_draw_to_row(rounds, _state) -> list[list[int]]:
    return [[word for pair in drawn for word in pair] for drawn in rounds[:MOST_DRAW_ROUNDS]]


def _first_draw_from_row(rows, _game) -> list[list]:
    rounds = []
    for words in rows:
        if words[0] < 0:
            break
        rounds.append([[words[k], words[k + 1]] for k in range(0, len(words), 2) if words[k] >= 0])
    return rounds


_MOST_RADIUS = GoldRushGangsGame.options["radius"].high


class GoldRushGangsState(State):
    """One position. Units are numbered ``GANG_SIZE * seat + slot`` (slot 0
    the pro); per unit the state keeps its cell, status, turns still to miss
    and the origin of the sack it carries (NOWHERE when none)."""

    # the compiled layout's dimensions: capacities that fit every configuration
    layout_dims: ClassVar[dict] = {
        "cells": Dim(3 * _MOST_RADIUS * (_MOST_RADIUS + 1) + 1, lambda game: game.num_cells),
        "stores": Dim(NUM_SEATS),
    }

    fields = (
        generator_field(),
        saved(
            "deck",
            "copy",
            to_json=lambda deck, _state: deck.to_dict(),
            from_json=deck_from_json,
            default=Deck(standard_52()),
            shape=(2, PILE_WORDS),
            fill=NOWHERE,
            to_row=_deck_to_row,
            from_row=_deck_from_row,
        ),
        # the units are one "units" entry of the position dict
        Field("unit_cell", "list", shape=(NUM_UNITS,)),
        Field("unit_status", "list", shape=(NUM_UNITS,)),
        Field("unit_turns_to_miss", "list", shape=(NUM_UNITS,)),
        Field("unit_carrying", "list", shape=(NUM_UNITS,)),
        # unit standing on each cell (NOWHERE): rebuilt from the units
        Field("occupant", "list", shape=("cells",), fill=NOWHERE),
        # cell -> sacks lying there by origin: a "sacks" entry
        Field(
            "sacks",
            "dict_of_lists",
            shape=("cells", len(ORIGIN_NAMES)),
            to_row=_sacks_to_row,
            from_row=_sacks_from_row,
        ),
        saved(
            "delivered",
            "list",
            from_json=integer_list(0, _win_bound, NUM_SEATS),
            default=[0, 0, 0],
            shape=(NUM_SEATS,),
        ),
        saved(
            "bank_damage",
            "list",
            from_json=integer_list(0, _damage_bound, NUM_SEATS),
            default=[0, 0, 0],
            shape=(NUM_SEATS,),
        ),
        saved(
            "stores",
            "list",
            to_json=_cells_to_json,
            from_json=cells_from_json,
            default=[],
            shape=("stores",),
            fill=NOWHERE,
        ),
        saved("turns", from_json=integer_entry(0, _turn_bound), default=0, shape=()),
        saved("action_points", key="ap", from_json=integer_entry(0, _ap_bound), default=0, shape=()),
        saved("winner", from_json=seat_entry(allow_none=True), default=-1, shape=()),
        saved("is_truncated", key="truncated", from_json=flag_entry(), default=False, shape=(), kind="bool"),
        saved(
            "last_combat",
            "list",
            from_json=last_combat_from_json,
            default=[],
            shape=(MOST_FIGHTS, FIGHT_WORDS),
            fill=NOWHERE,
            to_row=_combat_to_row,
            from_row=_combat_from_row,
        ),
        saved(
            "first_draw",
            "list",
            from_json=first_draw_from_json,
            default=[],
            shape=(MOST_DRAW_ROUNDS, 2 * NUM_SEATS),
            fill=NOWHERE,
            to_row=_first_draw_to_row,
            from_row=_first_draw_from_row,
        ),
        saved("first_player", from_json=seat_entry(), default=0, shape=()),
        saved(
            "phase",
            to_json=lambda phase, _state: PHASE_NAMES[phase],
            from_json=name_entry(PHASE_NAMES),
            default=MOVEMENT,
            shape=(),
        ),
        saved("setup_step_index", key="setup_pos", from_json=_setup_pos_from_json, default=None, shape=()),
        saved("acting_seat", key="current", from_json=seat_entry(), default=0, shape=()),
        Field("_mask_cache", "reset"),
    )
    clone = generated_clone()  # compiled from ``fields`` when the class is made (envs.core.fields)

    def __init__(self, game: GoldRushGangsGame, rng: np.random.Generator) -> None:
        """The position before any setup step: a shuffled deck, stores on the
        fixed corners unless they are chosen, and the bank's gold."""
        self.game, self.rng = game, rng
        self.deck = Deck.shuffled(standard_52(), rng)
        self.unit_cell = [NOWHERE] * NUM_UNITS
        self.unit_status = [UNDEPLOYED] * NUM_UNITS
        self.unit_turns_to_miss = [0] * NUM_UNITS
        self.unit_carrying = [NOWHERE] * NUM_UNITS
        self.occupant = [NOWHERE] * game.num_cells
        self.sacks: dict[int, list[int]] = {}
        if game.config["bank_sacks"]:
            self.sacks[game.geo.bank] = empty_pile()
            self.sacks[game.geo.bank][BANK] = game.config["bank_sacks"]
        self.delivered = [0] * NUM_SEATS
        self.bank_damage = [0] * NUM_SEATS
        self.stores: list[int] = []
        if not game.choose_stores:
            for cell in game.geo.fixed_stores:
                self.stores.append(cell)
                self.sacks[cell] = empty_pile()
                self.sacks[cell][STORE] = 1
        self.turns = 0
        self.action_points = 0
        self.winner = -1
        self.is_truncated = False
        self.last_combat: list[dict] = []
        self.first_draw: list[list] = []
        self.first_player = 0
        self.phase = STORE_PHASE if game.choose_stores else DEPLOY_PHASE
        self.setup_step_index = 0
        self.acting_seat = 0
        self._mask_cache: np.ndarray | None = None

    # --- chance -------------------------------------------------------------
    def _draw(self) -> int:
        if self.game.independent_draws:
            return int(self.rng.integers(DECK_SIZE))
        return self.deck.draw(self.rng)

    def draw_first_player(self) -> int:
        """Each contender draws a card; the highest rank starts, ties draw again."""
        contenders = list(SEATS)
        while True:
            drawn = [(seat, self._draw()) for seat in contenders]
            self.first_draw.append([[seat, card] for seat, card in drawn])
            if not self.game.independent_draws:
                self.deck.discard.extend(card for _, card in drawn)
            best = max(card_rank(card) for _, card in drawn)
            contenders = [seat for seat, card in drawn if card_rank(card) == best]
            if len(contenders) == 1:
                return contenders[0]

    def stack_deck(self, ranks) -> None:
        """Make the next cards drawn have these ranks, in order (test hook)."""
        stack_ranks(self.deck, list(ranks))
        self._mask_cache = None

    # --- whose move -----------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.winner >= 0 or self.is_truncated:
            return -1
        return self.acting_seat

    @property
    def terminal(self) -> bool:
        return self.winner >= 0

    @property
    def truncated(self) -> bool:
        return self.is_truncated and self.winner < 0

    def bank_broken(self, player: int) -> bool:
        return self.bank_damage[player if self.game.per_player_bank else 0] >= self.game.bank_threshold

    def setup_step(self) -> tuple[int, int]:
        """(phase, slot) of the setup step now: a store (slot -1) or a thief."""
        step = self.setup_step_index % self.game.setup_steps_per_seat
        if self.game.choose_stores:
            return (STORE_PHASE, -1) if step == 0 else (DEPLOY_PHASE, step - 1)
        return (DEPLOY_PHASE, step)

    def phase_name(self) -> str:
        if self.winner >= 0 or self.is_truncated:
            return "over"
        return PHASE_NAMES[self.phase]

    # --- legal moves ------------------------------------------------------------
    def legal_action_mask(self) -> np.ndarray:
        """Bool mask in the acting seat's frame: each kind of action the phase
        offers marks its own. Cached until the next apply and handed out
        read-only, so no caller can change what ``apply`` accepts."""
        mask = self._mask_cache
        if mask is not None:
            return mask
        if self.winner >= 0 or self.is_truncated:
            mask = self._mask_cache = self.game.zero_mask.copy()
            _freeze(mask, False)
            return mask
        start_mask, marks = self.game.layout.by_phase[self.phase]
        mask = start_mask.copy()
        for mark_legal, start in marks:
            mark_legal(self, mask, start)
        if self.phase != MOVEMENT and not mask.any():  # only from hand-made positions
            mask[self.game.layout.end_turn] = True
        _freeze(mask, False)
        self._mask_cache = mask
        return mask

    # --- transitions --------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        self._mask_cache = None
        self.last_combat = []
        play, index = self.game.layout.effects[action]
        play(self, index)

    def advance_setup(self) -> None:
        """Next setup step: each seat from the first player on does its steps
        in turn; after the last, the first movement turn starts."""
        game = self.game
        self.setup_step_index += 1
        per_seat = game.setup_steps_per_seat
        if self.setup_step_index >= NUM_SEATS * per_seat:
            self.phase = MOVEMENT
            self.acting_seat = self.first_player
            self._start_turn()
            return
        self.acting_seat = relative_seats(self.first_player, NUM_SEATS)[self.setup_step_index // per_seat]
        self.phase = self.setup_step()[0]

    def end_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.game.max_turns:
            self.is_truncated = True
            return
        self.acting_seat = next_seat(self.acting_seat, NUM_SEATS)
        self._start_turn()

    def _start_turn(self) -> None:
        """Thieves sent home come back after missing their turn; the gang gets
        its AP (base plus one per sack delivered)."""
        seat = self.acting_seat
        status, to_miss = self.unit_status, self.unit_turns_to_miss
        for unit in gang_units(seat):
            if status[unit] == INCAPACITATED:
                if to_miss[unit] == 0:
                    status[unit] = ACTIVE
                else:
                    to_miss[unit] -= 1
        self.action_points = self.game.base_ap + self.delivered[seat]

    # --- fights -----------------------------------------------------------------
    def _support(self, unit: int) -> int:
        """Cards ``unit`` draws: its own plus those of active friends next to it
        (support does not chain)."""
        status, cells = self.unit_status, self.unit_cell
        around = self.game.geo.adjacent[cells[unit]]
        seat, slot = divmod(unit, GANG_SIZE)
        cards = SLOT_CARDS[slot]
        for friend in gang_units(seat):
            if friend != unit and status[friend] == ACTIVE and cells[friend] in around:
                cards += SLOT_CARDS[friend - GANG_SIZE * seat]
        return cards

    def fight_neighbours(self, unit: int, cell: int) -> None:
        """The mover fights each adjacent enemy in turn (next gang first) and
        stops at its first loss."""
        status, cells = self.unit_status, self.unit_cell
        around = self.game.geo.adjacent[cell]
        foes = [
            foe for foe in ENEMY_UNITS[unit // GANG_SIZE] if status[foe] == ACTIVE and cells[foe] in around
        ]
        for foe in foes:
            if status[foe] == ACTIVE and not self._fight(unit, foe):
                return

    def _fight(self, attacker: int, defender: int) -> bool:
        """Both draw their cards (attacker first); the higher top rank wins,
        ties to the attacker; the loser is sent home. True if the attacker won."""
        attack = [self._draw() for _ in range(self._support(attacker))]
        defence = [self._draw() for _ in range(self._support(defender))]
        if not self.game.independent_draws:
            self.deck.discard.extend(attack)
            self.deck.discard.extend(defence)
        won = max(map(card_rank, attack)) >= max(map(card_rank, defence))
        self.last_combat.append(
            {
                "attacker": list(divmod(attacker, GANG_SIZE)),
                "defender": list(divmod(defender, GANG_SIZE)),
                "attacker_cards": attack,
                "defender_cards": defence,
                "attacker_won": won,
            }
        )
        self._send_home(defender if won else attacker)
        return won

    def _send_home(self, unit: int) -> None:
        """The loser drops its sack (bank gold goes back to the bank) and
        misses its gang's next turn at home."""
        geo = self.game.geo
        cell = self.unit_cell[unit]
        carrying = self.unit_carrying[unit]
        if carrying >= 0:
            spot = geo.bank if carrying == BANK else cell
            self.sacks.setdefault(spot, empty_pile())[carrying] += 1
            self.unit_carrying[unit] = NOWHERE
        if self.occupant[cell] == unit:
            self.occupant[cell] = NOWHERE
        self.unit_cell[unit] = geo.homes[unit // GANG_SIZE]
        self.unit_status[unit] = INCAPACITATED
        self.unit_turns_to_miss[unit] = 1

    # --- end of game --------------------------------------------------------------
    def returns(self) -> np.ndarray:
        game = self.game
        if self.winner >= 0:
            rewards = np.full(NUM_SEATS, -0.5) if game.zero_sum_rewards else np.zeros(NUM_SEATS)
            rewards[self.winner] = 1.0
            return rewards
        if self.is_truncated and game.rank_at_truncation:
            return rank_rewards(self.delivered)
        return np.zeros(NUM_SEATS)

    def _progress(self) -> list[float]:
        """Per gang: delivered sacks, plus part of a sack for each it carries
        (more the nearer home) and a little for each empty-handed thief near
        gold it may steal."""
        geo = self.game.geo
        dist = geo.dist
        span = 2.0 * geo.radius
        progress = [float(x) for x in self.delivered]
        for unit in range(NUM_UNITS):
            if self.unit_status[unit] != ACTIVE:
                continue
            seat = unit // GANG_SIZE
            row = dist[self.unit_cell[unit]]
            if self.unit_carrying[unit] >= 0:
                progress[seat] += 0.25 + 0.65 * (1.0 - row[geo.homes[seat]] / span)
            else:
                near = span
                for cell, pile in self.sacks.items():
                    if sum(pile) > pile[seat] and row[cell] < near:
                        near = row[cell]
                progress[seat] += 0.15 * (1.0 - near / span)
        return progress

    def _evaluate(self, viewer: int | None) -> np.ndarray:
        """Heuristic return of an unfinished position (``returns()`` once over).

        Each gang's progress (:meth:`_progress`) becomes win chances by a
        softmax (one sack ahead roughly doubles the odds), win chances become
        the expected win reward, and that is blended toward the truncation
        result as the round limit nears. It reads only the table (the one
        hidden thing, the draw pile's order, plays no part), so every
        ``viewer`` gets the same estimate."""
        if self.winner >= 0 or self.is_truncated:
            return np.asarray(self.returns(), dtype=np.float64)
        game = self.game
        progress = self._progress()
        steepness = 6.0 / game.win_sacks
        top = max(progress)
        weights = np.exp([steepness * (x - top) for x in progress])
        win = weights / weights.sum()
        value = 1.5 * win - 0.5 if game.zero_sum_rewards else win
        if game.rank_at_truncation:
            at_limit = np.asarray(rank_rewards(self.delivered), dtype=np.float64)
        else:
            at_limit = np.zeros(NUM_SEATS)
        late = min(1.0, self.turns / game.max_turns)
        return (1.0 - late) * value + late * at_limit

    # --- hidden information ---------------------------------------------------------------
    def determinize(self, player: int, rng: np.random.Generator) -> GoldRushGangsState:
        """Everything on the table is public; only the draw-pile order is
        unknown (to everyone). The pile is redealt in a canonical order, so
        the result depends only on its (public) contents and ``rng``; the
        copy gets a fresh generator."""
        copy = self.clone()
        copy.deck.draw_pile = canonical_shuffle(copy.deck.draw_pile, rng)
        copy.rng = derive_rng(rng)
        return copy

    # --- position dict: the entries that are not one field each ----------------------------
    def _to_dict(self) -> dict:
        data = super()._to_dict()
        coords = self.game.geo.coords
        data["units"] = [
            {
                "player": unit // GANG_SIZE,
                "slot": unit % GANG_SIZE,
                "cell": None if self.unit_cell[unit] < 0 else list(coords[self.unit_cell[unit]]),
                "state": STATUS_NAMES[self.unit_status[unit]],
                "miss": self.unit_turns_to_miss[unit],
                "carry": None if self.unit_carrying[unit] < 0 else ORIGIN_NAMES[self.unit_carrying[unit]],
            }
            for unit in range(NUM_UNITS)
        ]
        data["sacks"] = [
            [*coords[cell], ORIGIN_NAMES[origin], count]
            for cell in sorted(self.sacks)
            for origin, count in enumerate(self.sacks[cell])
            if count
        ]
        return data

    def _after_load(self, data: dict) -> None:
        """Read the units and sacks entries, each checked as it is read."""
        if not data and isinstance(getattr(self, "unit_cell", None), list):
            return  # read from a compiled row: every field is already set
        if self.setup_step_index is None:
            self.setup_step_index = (
                NUM_SEATS * self.game.setup_steps_per_seat if self.phase == MOVEMENT else 0
            )
        name = self.game.info.name
        try:
            if "units" not in data:
                raise PositionError("the position has no 'units' entry")
            read_units(self, data["units"])
            read_sacks(self, data.get("sacks", []))
        except PositionError as exc:
            raise PositionError(f"{name}: {exc}") from None

    def check_position(self) -> None:
        """Every card and thief once, no more gold than the game holds, and a
        phase, seat and winner that fit the rest (see :mod:`.position`)."""
        check_position(self)

    # --- words -----------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return self.game.action_names[int(action)]

    def string_to_action(self, text: str) -> int:
        key = " ".join(text.strip().lower().replace(", ", ",").split())
        action = self.game.layout.index_of_name.get(key)
        if action is None:
            raise ValueError(f"{self.game.info.name}: no action named {text!r}")
        return action

    # --- pictures --------------------------------------------------------------------
    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.gold_rush_gangs.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.gold_rush_gangs.render import render_rgb

        return render_rgb(self, viewer)
