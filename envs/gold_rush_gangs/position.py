"""Checks for Gold Rush Gangs positions loaded from a dict.

A position may come from a file, a user or a fuzzer, so each entry is
checked as it is read (the ``from_json`` converters below and the readers of
the ``units`` and ``sacks`` entries), then :func:`check_position` checks that
the entries fit together: every card once, every thief once, no more gold
than the game holds, a setup step that matches the phase and the seat to
act, a winner that has the deliveries. Every failure is a
:class:`~meeplezoo.envs.core.positions.PositionError` (a ValueError) naming
the entry and the rule; nothing is taken in before all checks pass.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeplezoo.envs.core.cards import Deck, standard_52
from meeplezoo.envs.core.positions import (
    PositionError,
    as_integer,
    as_list,
    check_conservation,
    require,
)
from meeplezoo.envs.core.turns import relative_seats
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    BANK,
    DEPLOY_SACKS,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NOWHERE,
    NUM_ORIGINS,
    NUM_SEATS,
    NUM_UNITS,
    ORIGIN_NAMES,
    PHASE_NAMES,
    SLOT_NAMES,
    STATUS_NAMES,
    STORE,
    UNDEPLOYED,
    empty_pile,
)

DECK_CARDS = tuple(standard_52())
MAX_TURNS_TO_MISS = 1  # a thief sent home misses its gang's next turn, no more


# --- single entries ---------------------------------------------------------------------
def as_cell(value: Any, game: Any, what: str) -> int:
    """A cell written as ``[q, r]`` on this game's board."""
    pair = as_list(value, 2, what)
    q = as_integer(pair[0], -game.geo.radius, game.geo.radius, f"{what} q")
    r = as_integer(pair[1], -game.geo.radius, game.geo.radius, f"{what} r")
    cell = game.geo.index.get((q, r))
    require(cell is not None, f"{what} {[q, r]} is not a cell of the board of radius {game.geo.radius}")
    return cell


def cells_from_json(value: Any, game: Any) -> list[int]:
    return [as_cell(entry, game, f"entry {i}") for i, entry in enumerate(as_list(value))]


def card_list(value: Any, what: str) -> list[int]:
    last = len(DECK_CARDS) - 1
    return [as_integer(card, 0, last, f"{what} card {i}") for i, card in enumerate(as_list(value, what=what))]


def deck_from_json(value: Any, _game: Any) -> Deck:
    """The draw and discard piles: together the 52 cards, each once (cards
    drawn in a fight or for the first player go to the discard at once)."""
    if not isinstance(value, dict):
        raise PositionError(f"must be a dict with 'draw_pile' and 'discard', got {type(value).__name__}")
    piles = {}
    for key in ("draw_pile", "discard"):
        require(key in value, f"has no {key!r}")
        piles[key] = card_list(value[key], key)
    check_conservation(piles, DECK_CARDS, "card")
    return Deck(piles["draw_pile"], piles["discard"])


def first_draw_from_json(value: Any, game: Any) -> list[list]:
    """The rounds of the first-player draw: ``[seat, card]`` per contender."""
    rounds = []
    for i, entry in enumerate(as_list(value)):
        drawn = []
        for j, pair in enumerate(as_list(entry, what=f"round {i}")):
            seat, card = as_list(pair, 2, f"round {i} draw {j}")
            drawn.append(
                [
                    as_integer(seat, 0, NUM_SEATS - 1, f"round {i} draw {j} seat"),
                    as_integer(card, 0, len(DECK_CARDS) - 1, f"round {i} draw {j} card"),
                ]
            )
        rounds.append(drawn)
    return rounds


def last_combat_from_json(value: Any, _game: Any) -> list[dict]:
    """The fights of the last action (shown by the render)."""
    fights = []
    for i, entry in enumerate(as_list(value)):
        what = f"fight {i}"
        if not isinstance(entry, dict):
            raise PositionError(f"{what} must be a dict, got {type(entry).__name__}")
        fight = {}
        for side in ("attacker", "defender"):
            require(side in entry, f"{what} has no {side!r}")
            seat, slot = as_list(entry[side], 2, f"{what} {side}")
            fight[side] = [
                as_integer(seat, 0, NUM_SEATS - 1, f"{what} {side} seat"),
                as_integer(slot, 0, GANG_SIZE - 1, f"{what} {side} slot"),
            ]
        for key in ("attacker_cards", "defender_cards"):
            require(key in entry, f"{what} has no {key!r}")
            fight[key] = card_list(entry[key], f"{what} {key}")
            require(bool(fight[key]), f"{what} {key} must not be empty")
        won = entry.get("attacker_won")
        require(isinstance(won, bool), f"{what} attacker_won must be true or false, got {won!r}")
        fight["attacker_won"] = won
        fights.append(fight)
    return fights


# --- the units and sacks entries ----------------------------------------------------------
def _named_index(value: Any, names: tuple, what: str) -> int:
    require(isinstance(value, str) and value in names, f"{what} must be one of {names}, got {value!r}")
    return names.index(value)


def read_units(state: Any, value: Any) -> None:
    """Set the unit lists from the ``units`` entry: the nine thieves, each
    once, each where its status says (nowhere before deployment, on its
    home cell when out)."""
    game = state.game
    geo = game.geo
    entries = as_list(value, NUM_UNITS, "position entry 'units'")
    cell, status = [NOWHERE] * NUM_UNITS, [UNDEPLOYED] * NUM_UNITS
    to_miss, carrying = [0] * NUM_UNITS, [NOWHERE] * NUM_UNITS
    seen: set[int] = set()
    for i, entry in enumerate(entries):
        what = f"position entry 'units' entry {i}"
        if not isinstance(entry, dict):
            raise PositionError(f"{what} must be a dict, got {type(entry).__name__}")
        for key in ("player", "slot", "state"):
            require(key in entry, f"{what} has no {key!r}")
        seat = as_integer(entry["player"], 0, NUM_SEATS - 1, f"{what} player")
        slot = as_integer(entry["slot"], 0, GANG_SIZE - 1, f"{what} slot")
        unit = GANG_SIZE * seat + slot
        name = f"{what} (player_{seat} {SLOT_NAMES[slot]})"
        require(unit not in seen, f"{name}: the thief is listed twice")
        seen.add(unit)
        status[unit] = _named_index(entry["state"], STATUS_NAMES, f"{name} state")
        to_miss[unit] = as_integer(entry.get("miss", 0), 0, MAX_TURNS_TO_MISS, f"{name} miss")
        carry = entry.get("carry")
        carrying[unit] = NOWHERE if carry is None else _named_index(carry, ORIGIN_NAMES, f"{name} carry")
        place = entry.get("cell")
        if status[unit] == UNDEPLOYED:
            require(place is None, f"{name}: a thief not deployed yet has no cell, got {place!r}")
            require(carrying[unit] == NOWHERE, f"{name}: a thief not deployed yet carries nothing")
        else:
            require(place is not None, f"{name}: a thief that is {STATUS_NAMES[status[unit]]} needs a cell")
            cell[unit] = as_cell(place, game, f"{name} cell")
        if status[unit] == INCAPACITATED:
            require(cell[unit] == geo.homes[seat], f"{name}: a thief that is out stands on its home cell")
            require(carrying[unit] == NOWHERE, f"{name}: a thief that is out has dropped its sack")
        else:
            require(
                to_miss[unit] == 0, f"{name}: only a thief that is out misses turns, got miss {to_miss[unit]}"
            )
        require(carrying[unit] != seat, f"{name}: a thief never carries its own gang's gold")
    state.unit_cell, state.unit_status = cell, status
    state.unit_turns_to_miss, state.unit_carrying = to_miss, carrying


def read_sacks(state: Any, value: Any) -> None:
    """Set the lying gold from the ``sacks`` entry: ``[q, r, origin, count]``,
    each cell and origin once, counts at least 1."""
    game = state.game
    sacks: dict[int, list[int]] = {}
    for i, entry in enumerate(as_list(value, what="position entry 'sacks'")):
        what = f"position entry 'sacks' entry {i}"
        q, r, origin_name, count = as_list(entry, 4, what)
        cell = as_cell([q, r], game, f"{what} cell")
        origin = _named_index(origin_name, ORIGIN_NAMES, f"{what} origin")
        count = as_integer(count, 1, 10**6, f"{what} count")
        pile = sacks.setdefault(cell, empty_pile())
        require(pile[origin] == 0, f"{what}: {origin_name} gold on {[q, r]} is listed twice")
        pile[origin] = count
    state.sacks = sacks


# --- how the entries fit together -------------------------------------------------------------
def _setup_step_of_unit(game: Any, first_player: int, unit: int) -> int:
    """The setup step (0-based, over all seats) that deploys ``unit``."""
    seat, slot = divmod(unit, GANG_SIZE)
    order = (seat - first_player) % NUM_SEATS
    return order * game.setup_steps_per_seat + slot + (1 if game.choose_stores else 0)


def check_position(state: Any) -> None:
    """The rules the entries must keep together (raises PositionError)."""
    game = state.game
    name = game.info.name
    try:
        _check_turn(state, game)
        _check_units(state, game)
        _check_gold(state, game)
    except PositionError as exc:
        raise PositionError(f"{name}: {exc}") from None


def _check_turn(state: Any, game: Any) -> None:
    """The setup step or the turn, the end of the game and the stores fit together."""
    _check_phase(state, game)
    _check_end(state, game)
    _check_stores(state, game)


def _check_phase(state: Any, game: Any) -> None:
    per_seat = game.setup_steps_per_seat
    total = NUM_SEATS * per_seat
    step = state.setup_step_index
    in_setup = state.phase != MOVEMENT
    require(
        in_setup == (step < total),
        f"phase {PHASE_NAMES[state.phase]!r} does not fit setup_pos {step} "
        f"(setup ends after step {total - 1}; movement starts at {total})",
    )
    if in_setup:
        phase = state.setup_step()[0]
        require(
            state.phase == phase,
            f"setup_pos {step} is a {PHASE_NAMES[phase]} step, but phase is {PHASE_NAMES[state.phase]!r}",
        )
        seat = relative_seats(state.first_player, NUM_SEATS)[step // per_seat]
        require(
            state.acting_seat == seat,
            f"setup_pos {step} is player_{seat}'s step (first player {state.first_player}), "
            f"but current is {state.acting_seat}",
        )
        require(state.turns == 0, f"turns must be 0 during setup, got {state.turns}")
        require(state.action_points == 0, f"ap must be 0 during setup, got {state.action_points}")
        require(
            state.winner < 0 and not state.is_truncated,
            "a game still in setup has no winner and is not cut short",
        )
        require(not state.last_combat, "no fight happens during setup (last_combat must be empty)")
    else:
        seat = state.acting_seat
        bonus = state.delivered[seat] if game.delivery_bonus_now else 0
        most = game.base_ap + state.delivered[seat] + bonus
        require(
            state.action_points <= most,
            f"ap {state.action_points} is more than player_{seat} can have this turn ({most})",
        )


def _check_end(state: Any, game: Any) -> None:
    delivered = state.delivered
    if state.winner >= 0:
        require(
            delivered[state.winner] == game.win_sacks,
            f"winner {state.winner} has delivered {delivered[state.winner]} sacks, not the {game.win_sacks} that win",
        )
        require(not state.is_truncated, "a game with a winner is not cut short (truncated must be false)")
        require(
            state.turns < game.max_turns,
            f"a won game ends before the turn limit {game.max_turns}, got turns {state.turns}",
        )
    for seat in range(NUM_SEATS):
        if seat != state.winner:
            require(
                delivered[seat] < game.win_sacks,
                f"player_{seat} has delivered {delivered[seat]} sacks, enough to win, but winner is {state.winner}",
            )
    if state.winner < 0:
        require(
            state.is_truncated == (state.turns >= game.max_turns),
            f"truncated is {str(state.is_truncated).lower()} after {state.turns} of {game.max_turns} turns",
        )


def _check_stores(state: Any, game: Any) -> None:
    per_seat = game.setup_steps_per_seat
    step = state.setup_step_index
    if game.choose_stores:
        store_steps = sum(1 for k in range(NUM_SEATS) if k * per_seat < step)
        require(
            len(state.stores) <= store_steps,
            f"{len(state.stores)} stores placed, but only {store_steps} store steps are done",
        )
        for i, cell in enumerate(state.stores):
            require(cell in game.geo.neutral_border, f"store {i} is not on a store-eligible rim cell")
        require(len(set(state.stores)) == len(state.stores), "two stores on one cell")
    else:
        require(
            state.stores == game.geo.fixed_stores,
            "stores must be the three fixed corners (store_placement='fixed')",
        )


def _check_units(state: Any, game: Any) -> None:
    """Each active thief where it may stand, one to a cell (its gang's home
    cell excepted); builds the state's ``occupant`` table on the way."""
    geo = game.geo
    occupant = [NOWHERE] * geo.num_cells
    in_setup = state.phase != MOVEMENT
    for unit in range(NUM_UNITS):
        seat, slot = divmod(unit, GANG_SIZE)
        name = f"units: player_{seat} {SLOT_NAMES[slot]}"
        status, cell = state.unit_status[unit], state.unit_cell[unit]
        if status != UNDEPLOYED:
            step = _setup_step_of_unit(game, state.first_player, unit)
            require(
                step < state.setup_step_index, f"{name} is deployed, but its setup step {step} is not done"
            )
        if status != ACTIVE:
            continue
        if in_setup:
            require(cell in geo.deployable[seat], f"{name} stands outside its territory's deployment cells")
        require(not geo.forbidden[seat][cell], f"{name} stands in another gang's base")
        require(
            cell != geo.bank or state.bank_broken(seat), f"{name} stands on the bank while it still stands"
        )
        require(
            not (state.unit_carrying[unit] >= 0 and geo.base_owner[cell] == seat),
            f"{name} carries a sack inside its own base (it delivers on entering)",
        )
        if cell != geo.homes[seat]:  # the home cell holds the whole gang
            other = occupant[cell]
            if other >= 0:
                raise PositionError(
                    f"{name} and player_{other // GANG_SIZE} {SLOT_NAMES[other % GANG_SIZE]} "
                    f"stand on one cell {list(geo.coords[cell])}"
                )
            occupant[cell] = unit
    state.occupant = occupant


def _check_gold(state: Any, game: Any) -> None:
    """No more gold of any origin than the game holds, counting lying,
    carried and delivered sacks (hand-made positions may hold less)."""
    supply: Counter = Counter()
    for unit in range(NUM_UNITS):
        if state.unit_status[unit] != UNDEPLOYED:
            supply[ORIGIN_NAMES[unit // GANG_SIZE]] += DEPLOY_SACKS[unit % GANG_SIZE]
    supply[ORIGIN_NAMES[STORE]] = len(state.stores)
    supply[ORIGIN_NAMES[BANK]] = game.config["bank_sacks"]
    coords = game.geo.coords
    zones: dict[str, list[str]] = {}
    for cell in sorted(state.sacks):
        pile = state.sacks[cell]
        zones[f"sacks on {list(coords[cell])}"] = [
            ORIGIN_NAMES[origin] for origin in range(NUM_ORIGINS) for _ in range(pile[origin])
        ]
    for unit, origin in enumerate(state.unit_carrying):
        if origin >= 0:
            zones[f"the hand of player_{unit // GANG_SIZE} {SLOT_NAMES[unit % GANG_SIZE]}"] = [
                ORIGIN_NAMES[origin]
            ]
    expected = [origin for origin, count in supply.items() for _ in range(count)]
    check_conservation(zones, expected, "sack of gold", complete=False)
    lying = sum(sum(pile) for pile in state.sacks.values())
    carried = sum(1 for origin in state.unit_carrying if origin >= 0)
    delivered = sum(state.delivered)
    require(
        lying + carried + delivered <= len(expected),
        f"{lying} lying, {carried} carried and {delivered} delivered sacks "
        f"are more than the {len(expected)} the game holds",
    )
