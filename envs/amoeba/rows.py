"""How an Amoeba position sits in the compiled row (``layout_of(AmoebaState)``).

The table's per-unit, per-placement and per-piece lists go in as they are;
the rest is put in words here: the pile as its draw pile, the selection as
``(slot, rotation)`` or ``(-1, -1)``, each amoeba record as ``[first member,
last member, size, open ports, owner]`` by id, and each piece's amoeba with
the next member of that amoeba (an amoeba's members in their order, which
decides the order of later merges and splits, as a linked list the kernel
joins in one step). Per anchor the row also keeps what the frontier knows
(a derived slot: the reference keeps it up to date as tiles go down, and so
does the kernel, rather than working it out again at every mask): -1 once the
block is not empty, else the ports that must be blue (low byte) and pink
(next byte). The frontier's groups, the claimed and complete indexes and the
pink port of each slot are not in the row: they follow from the rest.

A state read back from a row rebuilds its table by laying the placements
again (the same ids come out: the table's steps depend only on the tiles
laid), then puts back the owners.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.envs.amoeba import position
from meeplezoo.envs.amoeba.records import Phase
from meeplezoo.envs.amoeba.tiles import NUM_TILES
from meeplezoo.envs.core.cards import Deck
from meeplezoo.envs.core.fields import Dim

UNITS_CAPACITY = 64 * 64  # the largest board (board_units 64)
ANCHORS_CAPACITY = 63 * 63  # its anchors (blocks of 2 x 2 units)
PIECES_CAPACITY = NUM_TILES * 3  # a tile has at most 3 pieces
# ids handed out: 3 per ground tile, at most 5 amoebas rebuilt by a split
AMOEBA_IDS_CAPACITY = NUM_TILES * 5
HEAD, TAIL, SIZE, OPEN, OWNER = range(5)  # an amoeba's words
AMOEBA_WORDS = 5

LAYOUT_DIMS = {
    "seats": Dim(4, lambda game: game.num_players),
    "hand": Dim(3),
    "tiles": Dim(NUM_TILES),
    "tile_ids": Dim(NUM_TILES, lambda _game: NUM_TILES),
    "units": Dim(UNITS_CAPACITY, lambda game: game.units * game.units),
    "anchors": Dim(ANCHORS_CAPACITY, lambda game: (game.units - 1) * (game.units - 1)),
    "pieces": Dim(PIECES_CAPACITY),
    "amoeba_ids": Dim(AMOEBA_IDS_CAPACITY),
}


def pile_to_row(deck: Deck, _state: Any) -> list[int]:
    return deck.draw_pile


def pile_from_row(tiles: list[int], _game: Any) -> Deck:
    return Deck(tiles)


def selection_to_row(selection: tuple[int, int] | None, _state: Any) -> tuple[int, int]:
    return (-1, -1) if selection is None else selection


def selection_from_row(words: list[int], _game: Any) -> tuple[int, int] | None:
    return None if words[0] < 0 else (words[0], words[1])


def phase_from_row(value: int, _game: Any) -> Phase:
    return Phase(value)


def amoebas_to_row(amoebas: dict, state: Any) -> list[list[int]]:
    """Per id up to ``next_amoeba_id``: the record's words (-1 words: gone)."""
    rows = [[-1] * AMOEBA_WORDS for _ in range(state.next_amoeba_id)]
    for aid, (members, open_ports, owner) in amoebas.items():
        rows[aid] = [members[0], members[-1], len(members), open_ports, owner]
    return rows


def piece_links_to_row(piece_amoeba: list[int], state: Any) -> list[list[int]]:
    """Per piece: [its amoeba (-1 once covered), the next member of it (-1: last)]."""
    links = [-1] * len(piece_amoeba)
    for members, _open, _owner in state.amoebas.values():
        for here, after in zip(members, members[1:]):
            links[here] = after
    return [[aid, after] for aid, after in zip(piece_amoeba, links)]


def anchor_needs_to_row(_anchor_free: Any, state: Any) -> list[int]:
    """Per anchor: -1 once its block is not empty, else ``blue | pink << 8``."""
    return [
        blue | pink << 8 if free else -1
        for free, blue, pink in zip(state.anchor_free, state.blue_required, state.pink_required)
    ]


def placements_to_row(placements: list, _state: Any) -> list:
    return placements


def rebuild_from_row(state: Any) -> None:
    """The table of a state read from a row: the placements laid again, then
    the owners put back on the ids the row names (offers stay as read)."""
    width = state.game.geo.W
    laid = [
        [anchor // width, anchor % width, tile, rotation, level]
        for anchor, tile, rotation, level in state.placements
        if tile >= 0
    ]
    records = state.amoebas
    state._init_table()
    first_tile_pending = state.first_tile_pending
    state.first_tile_pending = True
    position.lay_placements(state, {"placements": laid})
    state.first_tile_pending = first_tile_pending
    for aid, words in enumerate(records):
        if words[SIZE] > 0 and words[OWNER] >= 0:
            state.set_owner(aid, words[OWNER])
    state.last_split = None
    state._cache = {}
