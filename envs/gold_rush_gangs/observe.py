"""Observation encoder: 30 planes over the (2R+1)^2 grid plus 47 scalars.

The static planes (board, bases, territories, rim, bank) are baked into one
template per viewer at Game build time; a call copies the template and
writes only the pieces that move. Gangs appear as me / next / prev.

The encoder reads the state and keeps its own cache: the rank counts of the
draw pile (public by counting), recounted only when the pile differs from
the one last counted.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.cards import rank_counts
from meeplezoo.envs.gold_rush_gangs.pieces import (
    ACTIVE,
    GANG_SIZE,
    INCAPACITATED,
    MOVEMENT,
    NUM_ORIGINS,
    NUM_SEATS,
    SEATS,
    SLOTS,
)

NUM_PLANES = 30
NUM_SCALARS = 47
# planes (each a (2R+1)^2 image in the viewer's frame)
ON_BOARD, BASES, TERRITORIES, RIM, BANK_CELL, STORES = 0, 1, 4, 7, 8, 9
MY_UNITS = 10  # my pro, A, B
NEXT_PRO, NEXT_AMATEURS = 13, 14  # prev's are two planes further on
CARRIED, LYING = 17, 22  # by origin me / next / prev / store / bank
OUT_AT_HOME = 27  # incapacitated units of me / next / prev
# scalars
MY_TURN, AP_LEFT, AP_ALLOWANCE, DELIVERED = 0, 1, 2, 3
TURNS_OUT, DEPLOYED, PHASE = 6, 15, 24
BANK_DAMAGE, BANK_OPEN, RANKS_LEFT, PILE_SIZE = 27, 28, 29, 42
TURNS_PLAYED, FIRST_PLAYER = 43, 44


class Encoder:
    """Builds the float32 observation of one seat from a state."""

    def __init__(self, game) -> None:
        geo = game.geo
        radius = geo.radius
        side = 2 * radius + 1
        self.plane_size = side * side
        self.game = game
        self.first_scalar = NUM_PLANES * self.plane_size
        self.size = self.first_scalar + NUM_SCALARS
        # the observation of 1.0 AP is 1 / ap_scale (12 by default)
        self.ap_scale = float(max(12, game.base_ap + game.win_sacks - 1))
        game.observation_shape = (self.size,)
        game.observation_planes = (NUM_PLANES, side, side)
        game.observation_dtype = np.float32
        game.observation_low, game.observation_high = 0.0, 1.0
        # offset[v][abs cell] = offset of that cell in viewer v's plane
        self.offset = []
        for viewer in SEATS:
            row = []
            for cell in range(geo.num_cells):
                q, r = geo.coords[geo.to_relative[viewer][cell]]
                row.append((r + radius) * side + (q + radius))
            self.offset.append(row)
        self.templates = [self._template(viewer) for viewer in SEATS]
        # origin o seen by viewer v: me/next/prev/store/bank
        self.relative_origin = [
            [(o - v) % NUM_SEATS if o < NUM_SEATS else o for o in range(NUM_ORIGINS)] for v in SEATS
        ]
        self._counted_pile: list[int] | None = None
        self._rank_counts: list[int] = []

    def _template(self, viewer: int) -> np.ndarray:
        """The planes that never change, for ``viewer``."""
        geo = self.game.geo
        area = self.plane_size
        out = np.zeros(self.size, dtype=np.float32)
        offset = self.offset[viewer]
        for cell in range(geo.num_cells):
            out[ON_BOARD * area + offset[cell]] = 1.0
        for rel in SEATS:
            seat = (viewer + rel) % NUM_SEATS
            for cell in geo.base[seat]:
                out[(BASES + rel) * area + offset[cell]] = 1.0
            for cell in geo.territory[seat]:
                out[(TERRITORIES + rel) * area + offset[cell]] = 1.0
        for cell in geo.neutral_border:
            out[RIM * area + offset[cell]] = 1.0
        out[BANK_CELL * area + offset[geo.bank]] = 1.0
        out.setflags(write=False)
        return out

    def draw_counts(self, pile: list[int]) -> list[int]:
        """Cards of each rank (index 1..13) in ``pile``; recounted only when
        the pile is not the one counted last (a list compare is far cheaper)."""
        if pile != self._counted_pile:
            self._rank_counts = rank_counts(pile)
            self._counted_pile = pile[:]
        return self._rank_counts

    def encode(self, state, viewer: int) -> np.ndarray:
        out = self.templates[viewer].copy()
        view = memoryview(out)  # item writes through a memoryview are cheaper
        area = self.plane_size
        offset = self.offset[viewer]
        for cell in state.stores:
            view[STORES * area + offset[cell]] = 1.0
        self._write_units(state, viewer, view)
        relative_origin = self.relative_origin[viewer]
        for cell, pile in state.sacks.items():
            at = offset[cell]
            for origin in range(NUM_ORIGINS):
                count = pile[origin]
                if count:  # a pile of more than 3 (a large bank) shows as full
                    view[(LYING + relative_origin[origin]) * area + at] = count / 3.0 if count < 3 else 1.0
        self._write_scalars(state, viewer, view)
        return out

    def _write_units(self, state, viewer: int, view: memoryview) -> None:
        area = self.plane_size
        offset = self.offset[viewer]
        relative_origin = self.relative_origin[viewer]
        homes = self.game.geo.homes
        scalars = self.first_scalar
        status, cells = state.unit_status, state.unit_cell
        carrying, to_miss = state.unit_carrying, state.unit_turns_to_miss
        for rel in SEATS:
            seat = (viewer + rel) % NUM_SEATS
            for slot in SLOTS:
                unit = GANG_SIZE * seat + slot
                kind = GANG_SIZE * rel + slot
                if status[unit] == ACTIVE:
                    at = offset[cells[unit]]
                    if rel == 0:
                        view[(MY_UNITS + slot) * area + at] = 1.0
                    elif slot == 0:
                        view[(NEXT_PRO - 2 + 2 * rel) * area + at] = 1.0
                    else:  # two amateurs may share their home cell
                        view[(NEXT_AMATEURS - 2 + 2 * rel) * area + at] += 0.5
                    if carrying[unit] >= 0:
                        view[(CARRIED + relative_origin[carrying[unit]]) * area + at] = 1.0
                    view[scalars + DEPLOYED + kind] = 1.0
                elif status[unit] == INCAPACITATED:
                    view[(OUT_AT_HOME + rel) * area + offset[homes[seat]]] += 1.0 / 3.0
                    view[scalars + TURNS_OUT + kind] = (to_miss[unit] + 1) / 2.0
                    view[scalars + DEPLOYED + kind] = 1.0

    def _write_scalars(self, state, viewer: int, view: memoryview) -> None:
        game = self.game
        first = self.first_scalar
        over = state.winner >= 0 or state.is_truncated
        if state.acting_seat == viewer and not over:
            view[first + MY_TURN] = 1.0
            if state.phase == MOVEMENT:
                view[first + AP_LEFT] = min(state.action_points / self.ap_scale, 1.0)
        delivered = state.delivered
        view[first + AP_ALLOWANCE] = min((game.base_ap + delivered[viewer]) / self.ap_scale, 1.0)
        for rel in SEATS:
            view[first + DELIVERED + rel] = min(delivered[(viewer + rel) % NUM_SEATS] / game.win_sacks, 1.0)
        view[first + PHASE + state.phase] = 1.0
        threshold = game.bank_threshold
        damage = state.bank_damage[viewer if game.per_player_bank else 0]
        view[first + BANK_DAMAGE] = min(damage / threshold, 1.0) if threshold else 1.0
        view[first + BANK_OPEN] = 1.0 if damage >= threshold else 0.0
        if game.independent_draws:
            for i in range(first + RANKS_LEFT, first + PILE_SIZE + 1):
                view[i] = 1.0
        else:
            counts = self.draw_counts(state.deck.draw_pile)
            for rank in range(1, 14):
                view[first + RANKS_LEFT - 1 + rank] = counts[rank] * 0.25
            view[first + PILE_SIZE] = len(state.deck.draw_pile) / 52.0
        view[first + TURNS_PLAYED] = min(state.turns / game.max_turns, 1.0)
        view[first + FIRST_PLAYER + (state.first_player - viewer) % NUM_SEATS] = 1.0
