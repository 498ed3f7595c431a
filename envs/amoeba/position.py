"""Checks for Amoeba positions handed in from outside (``state_from_dict``).

The keyed entries are checked by their ``from_json`` converters as they are
read; the table entries (placements, owners, offers) are checked here while
the table is laid again, and :func:`check_position` then enforces the rules
that tie the entries together: every tile exactly once, nuclei conserved,
the turn's counters and the phase consistent with the decision pending.
Every failure is a ValueError naming the entry and the rule it breaks.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.amoeba.records import ANCHOR, CLAIM, HAND_SLOTS, OVER, ROTATIONS, SELECT, Phase
from meeplezoo.envs.amoeba.tiles import NUM_TILES
from meeplezoo.envs.core.cards import Deck
from meeplezoo.envs.core.positions import (
    PositionError,
    as_integer,
    as_list,
    check_conservation,
    integer_list,
    require,
)

NAME = "amoeba_v0"
LAST_TILE = NUM_TILES - 1
PLACEMENT_WORDS = "[row, column, tile, rotation, level]"


def _fail(entry: str, reason: str) -> PositionError:
    return PositionError(f"{NAME}: position entry {entry!r}: {reason}")


def _check(condition: bool, entry: str, reason: str) -> None:
    if not condition:
        raise _fail(entry, reason)


# ------------------------------------------------------------ converters
_tile_list = integer_list(0, LAST_TILE)


def pile_from_json(value: Any, game: Any) -> Deck:
    return Deck(_tile_list(value, game))


def selection_from_json(value: Any, _game: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    slot, rotation = as_list(value, 2)
    return (
        as_integer(slot, 0, HAND_SLOTS - 1, "the hand slot"),
        as_integer(rotation, 0, ROTATIONS - 1, "the rotation"),
    )


def phase_from_json(value: Any, _game: Any) -> Phase:
    return Phase(as_integer(value, min(Phase), max(Phase)))


# ------------------------------------------------- the table, laid again
def lay_placements(state: Any, data: dict) -> None:
    """Lay the saved placements in order, each where it was legal when laid:
    the first ground tile on the centre, later ones on the frontier where
    they fit, top tiles exactly on an uncovered ground tile."""
    game = state.game
    geo = game.geo
    entry = "placements"
    _check(entry in data, entry, "missing (the table is saved as its placements)")
    rows = as_list_named(data[entry], entry)
    for index, row in enumerate(rows):
        where = f"placement {index}"
        try:
            r, c, tile, rotation, level = as_list(row, 5, f"{where} {PLACEMENT_WORDS}")
            r = as_integer(r, 0, geo.W - 1, f"{where}: the row")
            c = as_integer(c, 0, geo.W - 1, f"{where}: the column")
            tile = as_integer(tile, 0, LAST_TILE, f"{where}: the tile")
            rotation = as_integer(rotation, 0, ROTATIONS - 1, f"{where}: the rotation")
            level = as_integer(level, 1, 2, f"{where}: the level")
        except PositionError as exc:
            raise _fail(entry, str(exc)) from None
        _check(not state.on_board[tile], entry, f"{where}: tile {tile} is already on the table")
        oriented = tile * 4 + rotation
        _check(
            oriented in game.tile_orientations[tile],
            entry,
            f"{where}: rotation {rotation} of tile {tile} is not one a player may choose in this config",
        )
        anchor = r * geo.W + c
        try:
            if level == 1:
                _check_ground_anchor(state, anchor, oriented, entry, where)
                state.put_ground(tile, rotation, anchor)
            else:
                state.put_top(tile, rotation, anchor)
        except PositionError:
            raise
        except ValueError as exc:
            raise _fail(entry, f"{where} at ({r}, {c}): {str(exc).removeprefix(NAME + ': ')}") from None


def as_list_named(value: Any, entry: str) -> list:
    try:
        return as_list(value)
    except PositionError as exc:
        raise _fail(entry, str(exc)) from None


def _check_ground_anchor(state: Any, anchor: int, oriented: int, entry: str, where: str) -> None:
    if not state.placements:
        _check(
            anchor == state.game.geo.center_anchor,
            entry,
            f"{where}: the first tile must be laid on the centre",
        )
        return
    bit = 1 << oriented
    fits = any(fit & bit and anchor in group for fit, group in state.frontier.items())
    _check(fits, entry, f"{where}: the tile does not fit there (next to the table, pink meeting pink)")


def amoeba_by_key(state: Any, key: Any, entry: str, where: str) -> int:
    """The amoeba whose canonical key (its smallest pink port slot) is ``key``."""
    last_slot = len(state.slot_piece) - 2  # the last entry is a dummy slot
    try:
        key = as_integer(key, 0, last_slot, f"{where}: the amoeba key")
    except PositionError as exc:
        raise _fail(entry, str(exc)) from None
    piece = state.slot_piece[key]
    aid = state.piece_amoeba[piece] if piece >= 0 else -1
    _check(
        aid >= 0 and state.amoeba_key(aid) == key,
        entry,
        f"{where}: no amoeba on the table has key {key}",
    )
    return aid


def read_owners(state: Any, data: dict) -> None:
    entry = "owners"
    _check(entry in data, entry, "missing")
    seen: set[int] = set()
    for index, row in enumerate(as_list_named(data[entry], entry)):
        where = f"owner {index}"
        try:
            key, seat = as_list(row, 2, f"{where} [amoeba key, seat]")
            seat = as_integer(seat, 0, state.game.num_players - 1, f"{where}: the seat")
        except PositionError as exc:
            raise _fail(entry, str(exc)) from None
        aid = amoeba_by_key(state, key, entry, where)
        _check(aid not in seen, entry, f"{where}: amoeba {key} has an owner already")
        seen.add(aid)
        state.set_owner(aid, seat)


def read_offers(state: Any, data: dict) -> list[int]:
    entry = "offers"
    _check(entry in data, entry, "missing")
    offers = []
    for index, key in enumerate(as_list_named(data[entry], entry)):
        aid = amoeba_by_key(state, key, entry, f"offer {index}")
        _check(aid not in offers, entry, f"offer {index}: amoeba {key} is offered twice")
        offers.append(aid)
    return offers


# ----------------------------------------------------- consistency rules
def check_position(state: Any) -> None:
    """The rules that tie a loaded position's entries together."""
    _check_tiles(state)
    _check_nuclei(state)
    _check_turn(state)
    _check_phase(state)


def _check_tiles(state: Any) -> None:
    config = state.game.config
    tiles = config["pile_override"] if config["pile_override"] is not None else range(NUM_TILES)
    zones = {"the pile": state.pile.draw_pile}
    for seat, hand in enumerate(state.hands):
        zones[f"hand {seat}"] = hand
    for seat, gone in enumerate(state.removed):
        zones[f"removed {seat}"] = gone
    zones["the placements"] = [p.tile for p in state.placements]
    try:
        check_conservation(zones, tiles, "tile")
    except PositionError as exc:
        raise PositionError(f"{NAME}: {exc}") from None
    size = config["hand_size"]
    for seat, hand in enumerate(state.hands):
        _check(len(hand) <= size, "hands", f"seat {seat} holds {len(hand)} tiles; a hand holds {size}")
        _check(
            seat == state.mover or not state.pile or len(hand) == size,
            "hands",
            f"seat {seat} holds {len(hand)} tiles while the pile has tiles; it draws up to {size}",
        )
    if not config["remove_stuck_hand"]:
        _check(not any(state.removed), "removed", "no tile leaves the game when remove_stuck_hand is off")


def _check_nuclei(state: Any) -> None:
    total = state.game.config["nuclei_per_player"]
    owned = [0] * state.game.num_players
    for amoeba in state.amoebas.values():
        if amoeba.owner >= 0:
            owned[amoeba.owner] += 1
    for seat, (left, placed) in enumerate(zip(state.supply, owned, strict=True)):
        _check(
            left + placed == total,
            "supply",
            f"seat {seat} has {left} nuclei in supply and {placed} on amoebas; each seat has {total}",
        )


def _check_turn(state: Any) -> None:
    game = state.game
    _check(
        state.first_tile_pending == (not state.placements),
        "first_tile_pending",
        "must be true exactly when the table is empty",
    )
    _check(
        state.placed + state.placements_left == state.die,
        "die",
        f"{state.die} placements this turn, but {state.placed} made and {state.placements_left} left",
    )
    script = game.config["dice_override"] or ()
    _check(
        state.dice_used <= len(script),
        "dice_used",
        f"{state.dice_used} scripted results used; the config scripts {len(script)}",
    )
    _check(not (state._terminal and state._truncated), "truncated", "a finished game is not also truncated")
    if state._terminal:
        _check(
            (not state.pile and not any(state.hands)) or not any(state.supply),
            "terminal",
            "the game ends only when the tiles or the nuclei have run out",
        )
    _check(
        state.turn >= game.max_turns or not state._truncated,
        "truncated",
        f"the game is cut short only after {game.max_turns} turns, at turn {state.turn}",
    )
    _check(
        state.turn < game.max_turns or state._terminal or state._truncated,
        "turn",
        f"turn {state.turn} reaches max_turns {game.max_turns} but the game goes on",
    )


def _check_phase(state: Any) -> None:
    over = state._terminal or state._truncated
    phase = state.phase
    _check((phase == OVER) == over, "phase", "must be -1 exactly when the game is over")
    if phase == CLAIM:
        _check(
            0 <= state.offer_index < len(state.offers),
            "offer_index",
            f"{state.offer_index} is not an offer of the {len(state.offers)} on the table",
        )
        least = state.game.config["min_claim_size"]
        for aid in state.offers[state.offer_index :]:
            _check(
                aid in state.complete_unclaimed and len(state.amoebas[aid].members) >= least,
                "offers",
                f"amoeba {state.amoeba_key(aid)} is not a complete unclaimed amoeba of {least}+ segments",
            )
        _check(state.supply[state.mover] > 0, "supply", "the mover claims with a nucleus from its supply")
    else:
        _check(
            not state.offers and state.offer_index == 0, "offers", "offers are made only at the claim step"
        )
    if phase == ANCHOR:
        _check(state.selection is not None, "selection", "the anchor step needs a selected tile")
        slot, rotation = state.selection
        hand = state.hands[state.mover]
        _check(slot < len(hand), "selection", f"hand slot {slot} of the mover is empty")
        tile = hand[slot]
        _check(
            tile * 4 + rotation in state.game.tile_orientations[tile],
            "selection",
            f"rotation {rotation} of tile {tile} is not one a player may choose in this config",
        )
    else:
        _check(state.selection is None, "selection", "a tile is selected only at the anchor step")
    if phase in (SELECT, ANCHOR):
        _check(state.placements_left > 0, "placements_left", "a tile is laid only while placements are left")
    if not over:
        require(
            any(state._mask_bytes()),
            f"{NAME}: position entry 'phase': the mover has no legal action at this step",
        )
