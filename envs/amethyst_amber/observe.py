"""Observation encoder: 20 brick-grid planes (19 x 19) plus 21 scalars, flat
int8, in the observer's frame (the board turned 180 degrees for Amber unless
``relative_frame`` is off).

Every plane is a bitboard written as 46 bytes (368 bits); the seven static
planes (tile shapes and colours) are precomputed as bytes per observer, the
thirteen piece planes are written per call, and numpy unpacks all twenty in
one call, keeping 361 bits per plane. Amber's half turn costs nothing: the brick grid turned 180
degrees is the bit order reversed, so her planes are written most
significant byte first and unpacked most significant bit first.

``encode_reference`` builds the same vector cell by cell; tests compare the
two on random positions.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

from meeplezoo.envs.amethyst_amber.actions import NUM_HEXES, Phase, Substep
from meeplezoo.envs.amethyst_amber.board import NEUTRAL, HexColour

N_PLANES = 20
N_SCALARS = 21
PLANE_BYTES = 46  # 361 bits rounded up to whole bytes
SCALAR_HIGH = 100  # largest value anywhere: the turn-limit percentage
MY_PRISONERS, THEIR_PRISONERS = 14, 15  # the planes of prisoner counts
TURN_START, CHOOSE_DESTINATION, CONTINUE = Substep.TURN_START, Substep.CHOOSE_DESTINATION, Substep.CONTINUE
MAIN = Phase.MAIN
# endless arguments for map(int.to_bytes, ...): each plane's length and byte order
PLANE_LENGTHS, LITTLE_ENDIAN = repeat(PLANE_BYTES), repeat("little")
# dtype objects passed positionally: numpy's quicker call, once per observation
UINT8, INT8 = np.dtype(np.uint8), np.dtype(np.int8)


class ObservationTables:
    def __init__(self, game) -> None:
        self.game = game
        bd = game.board
        geo = bd.geo
        self.cells = geo.width * geo.width  # 361
        self.last = self.cells - 1
        self.shift = PLANE_BYTES * 8 - self.cells  # 7: pads a plane to whole bytes
        self.scalar_at = N_PLANES * self.cells
        self.size = self.scalar_at + N_SCALARS
        game.observation_shape = (self.size,)
        game.observation_planes = (N_PLANES, geo.width, geo.width)
        game.observation_dtype = np.int8
        game.observation_low = 0
        game.observation_high = SCALAR_HIGH
        self.frames = [0, 1 if game.relative_frame else 0]
        self.static_bytes = []
        for observer in (0, 1):
            planes = [
                sum(geo.bit_hex[h] for h in range(NUM_HEXES)),
                geo.tri_bits(bd.black),
                geo.tri_bits(bd.yellow),
                sum(geo.bit_hex[h] for h in range(NUM_HEXES) if bd.hex_colour[h] == HexColour.RED),
                sum(geo.bit_hex[h] for h in range(NUM_HEXES) if bd.hex_colour[h] == HexColour.GREEN),
                sum(geo.bit_hex[h] for h in bd.blue[observer]),
                sum(geo.bit_hex[h] for h in bd.blue[1 - observer]),
            ]
            self.static_bytes.append(b"".join(self._plane_bytes(x, self.frames[observer]) for x in planes))
        # index of hex h's cell in plane 0, in frame f
        self.hex_at = [bd.hex_brick, [self.last - b for b in bd.hex_brick]]
        self.bit_hex = geo.bit_hex
        self.zero_plane = bytes(PLANE_BYTES)

    def _plane_bytes(self, bits: int, frame: int) -> bytes:
        """One plane as the bytes :meth:`encode` unpacks (turned in frame 1)."""
        if frame:
            return (bits << self.shift).to_bytes(PLANE_BYTES, "big")
        return bits.to_bytes(PLANE_BYTES, "little")

    def _paint_prisoners(self, obs: np.ndarray, state, me: int, frame: int) -> tuple[int, int]:
        """Write the prisoner counts under each resource into ``obs``; return
        whether my resources, and theirs, have room for one more."""
        resource_at, under = state.resource_at, state.prisoners_under
        capacity = self.game.resource_capacity
        cells, hex_at = self.cells, self.hex_at[frame]
        room_mine = room_theirs = 0
        for h in state.resource_hexes:
            owner = resource_at[h]
            if owner == NEUTRAL:
                continue
            count = under[h]
            if count:
                obs[(MY_PRISONERS if owner == me else THEIR_PRISONERS) * cells + hex_at[h]] = count
            if count < capacity:
                if owner == me:
                    room_mine = 1
                else:
                    room_theirs = 1
        return room_mine, room_theirs

    def _piece_words(self, state, me: int, opp: int) -> tuple[int, ...]:
        """The thirteen piece planes (7 to 19) as brick-grid bitboards."""
        geo = self.game.board.geo
        mine, theirs = state.defender_bits[me], state.defender_bits[opp]
        right, down, two_rows = geo.edge_right, geo.edge_down, 2 * geo.width
        wall_mine = mine & (
            ((mine & right) << 1)
            | ((mine >> 1) & right)
            | ((mine & down) << two_rows)
            | ((mine >> two_rows) & down)
        )
        wall_theirs = theirs & (
            ((theirs & right) << 1)
            | ((theirs >> 1) & right)
            | ((theirs & down) << two_rows)
            | ((theirs >> two_rows) & down)
        )
        selected = geo.bit_tri[state.selected] if state.selected >= 0 else 0
        attackers, resources = state.attacker_bits, state.resource_bits
        return (
            mine, theirs, attackers[me], attackers[opp], resources[NEUTRAL], resources[me], resources[opp],
            0, 0, wall_mine, wall_theirs, state.moved_defenders, selected,
        )  # fmt: skip

    def encode(self, state, player: int) -> np.ndarray:
        me, opp = player, 1 - player
        frame = self.frames[player]
        words = self._piece_words(state, me, opp)
        nb = PLANE_BYTES
        if frame:
            # the turned board is the bit order reversed: most significant byte and bit first
            k = self.shift
            raw = self.static_bytes[player] + b"".join([(w << k).to_bytes(nb, "big") for w in words])
            order = "big"
        else:
            raw = self.static_bytes[player] + b"".join(map(int.to_bytes, words, PLANE_LENGTHS, LITTLE_ENDIAN))
            order = "little"
        planes = np.unpackbits(
            np.frombuffer(raw, UINT8).reshape(N_PLANES, nb), axis=1, count=self.cells, bitorder=order
        )
        obs = np.empty(self.size, INT8)
        obs[: self.scalar_at] = planes.reshape(-1)
        # every attacker not on the board nor in reserve is held
        attackers = self.game.attackers_per_player
        held_mine = attackers - state.reserve[me] - len(state.attacker_hexes[me])
        held_theirs = attackers - state.reserve[opp] - len(state.attacker_hexes[opp])
        if held_mine or held_theirs:
            room_mine, room_theirs = self._paint_prisoners(obs, state, me, frame)
        else:
            # nobody holds prisoners: every placed resource has room
            room_mine, room_theirs = (1 if state.placed[me] else 0), (1 if state.placed[opp] else 0)
        main = state.phase == MAIN
        substep = state.substep
        obs[self.scalar_at :] = (
            state.reserve[me], state.reserve[opp], state.unplaced[me], state.unplaced[opp],
            state.hand[me], state.hand[opp], state.placed[me], state.placed[opp], held_mine, held_theirs,
            0 if main else 1, 1 if main else 0,
            1 if main and substep == TURN_START else 0,
            1 if substep == CHOOSE_DESTINATION else 0,
            1 if substep == CONTINUE else 0,
            state.moves_this_turn, 1 if me == 0 else 0, state.main_turns * 100 // self.game.max_main_turns,
            room_mine, room_theirs, 1 if state.current_player == me else 0,
        )  # fmt: skip
        return obs


def encode_reference(state, player: int) -> np.ndarray:
    """The observation built cell by cell from the state's lists (slow; the
    specification of :meth:`ObservationTables.encode`)."""
    planes, held, room = _reference_planes(state, player)
    if state.frame_of(player):
        planes = planes[:, ::-1, ::-1]
    me, opp = player, 1 - player
    main = state.phase == Phase.MAIN
    scalars = [
        state.reserve[me], state.reserve[opp], state.unplaced[me], state.unplaced[opp],
        state.hand[me], state.hand[opp], state.placed[me], state.placed[opp], held[me], held[opp],
        int(not main), int(main), int(main and state.substep == TURN_START),
        int(state.substep == CHOOSE_DESTINATION), int(state.substep == CONTINUE), state.moves_this_turn,
        int(me == 0), state.main_turns * 100 // state.game.max_main_turns,
        room[0], room[1], int(state.current_player == me),
    ]  # fmt: skip
    return np.concatenate([planes.reshape(-1), np.array(scalars, dtype=np.int8)])


def _reference_planes(state, player: int) -> tuple[np.ndarray, list[int], list[int]]:
    """The planes in the absolute frame, held attackers per seat, and
    whether my / the opponent's resources have room for a prisoner."""
    geo = state.game.board.geo
    planes = _Planes(np.zeros((N_PLANES, geo.width, geo.width), dtype=np.int8), geo)
    _board_planes(planes, state.game.board, player)
    _defender_planes(planes, state, player)
    held, room = _hex_piece_planes(planes, state, player)
    for t in geo.bits_to_tris(state.moved_defenders):
        planes.tri(18, t)
    if state.selected >= 0:
        planes.tri(19, state.selected)
    return planes.values, held, room


class _Planes:
    """The plane stack and how a hex or a triangle finds its pixel in it."""

    def __init__(self, values: np.ndarray, geo) -> None:
        self.values, self.geo = values, geo

    def hex(self, plane: int, hex_index: int, value: int = 1) -> None:
        x, y = self.geo.hex_xy[hex_index]
        self.values[plane, y, x] = value

    def tri(self, plane: int, tri_index: int) -> None:
        x, y = self.geo.tri_xy[tri_index]
        self.values[plane, y, x] = 1


def _board_planes(planes: _Planes, board, player: int) -> None:
    """Planes 0-6: every hex, black / white triangles, red / green hexes,
    my and the opponent's blue hexes."""
    for h in range(NUM_HEXES):
        planes.hex(0, h)
        if board.hex_colour[h] in (HexColour.RED, HexColour.GREEN):
            planes.hex(3 if board.hex_colour[h] == HexColour.RED else 4, h)
    for t in range(len(board.geo.tri_xy)):
        planes.tri(1 if board.is_black[t] else 2, t)
    for seat, plane in ((player, 5), (1 - player, 6)):
        for h in board.blue[seat]:
            planes.hex(plane, h)


def _defender_planes(planes: _Planes, state, player: int) -> None:
    """Planes 7, 8 (defenders) and 16, 17 (defenders in a wall): mine, the opponent's."""
    geo = planes.geo
    for seat, plane, wall in ((player, 7, 16), (1 - player, 8, 17)):
        mine = set(geo.bits_to_tris(state.defender_bits[seat]))
        for t in mine:
            planes.tri(plane, t)
            if any(u in mine for u in geo.tri_neighbors[t]):
                planes.tri(wall, t)


def _hex_piece_planes(planes: _Planes, state, player: int) -> tuple[list[int], list[int]]:
    """Attackers, resources and prisoners on the hexes; returns the attackers
    each seat holds prisoner and whose resources have room for one more."""
    held, room = [0, 0], [0, 0]
    for h in range(NUM_HEXES):
        if state.attacker_at[h] >= 0:
            planes.hex(9 if state.attacker_at[h] == player else 10, h)
        owner, count = state.resource_at[h], state.prisoners_under[h]
        if owner == NEUTRAL:
            planes.hex(11, h)
        elif owner in (0, 1):
            planes.hex(12 if owner == player else 13, h)
            if count:
                planes.hex(MY_PRISONERS if owner == player else THEIR_PRISONERS, h, count)
            held[1 - owner] += count
            if count < state.game.resource_capacity:
                room[0 if owner == player else 1] = 1
    return held, room
