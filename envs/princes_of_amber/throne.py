"""The princes' standing and the throne: who is free, who holds which post,
who takes Amber and when it falls, and a player's elimination.

``PrincesAndThrone`` is one part of ``AmberState`` (a base class of it); the
acts of :mod:`~meeplezoo.envs.princes_of_amber.acts` and the frame handlers
call these methods, and the driver asks ``_check_amber_secured`` after
every step while someone holds Amber.
"""

from __future__ import annotations

from meeplezoo.envs.core.turns import relative_seats
from meeplezoo.envs.princes_of_amber.cards import (
    EXILE,
    KING,
    LEADERSHIP,
    NUM_KINDS,
    NUM_PRINCES,
    REGENT_POSTS,
)
from meeplezoo.envs.princes_of_amber.frames import Appoint


class PrincesAndThrone:
    """The princes' posts and Amber's holder (see the module docstring)."""

    __slots__ = ()

    # ---- the princes ---------------------------------------------------------
    def free(self, prince: int) -> bool:
        return self.alive[prince] and not self.captured[prince]

    def leadership(self, prince: int) -> int:
        return self.attributes[prince][LEADERSHIP]

    def vacant_posts(self) -> list[int]:
        held = set(self.role)
        return [post for post in REGENT_POSTS if post not in held]

    def controls_regent(self, player: int) -> bool:
        return any(self.controller[i] == player and 0 < self.role[i] < EXILE for i in range(NUM_PRINCES))

    def free_exiles_of(self, player: int) -> list[int]:
        """The free exiled princes ``player`` controls."""
        controller, role = self.controller, self.role
        return [
            i for i in range(NUM_PRINCES) if controller[i] == player and self.free(i) and role[i] == EXILE
        ]

    def opponents(self, player: int) -> list[int]:
        """The players still in, in seat order after ``player``."""
        return [other for other in relative_seats(player, self.num_players)[1:] if self.in_game[other]]

    def escape(self, prince: int) -> None:
        """A captured prince is free again, in exile."""
        self.captured[prince] = 0
        self.jailer[prince] = -1
        self.role[prince] = EXILE

    # ---- Amber ---------------------------------------------------------------
    def take_amber(self, player: int) -> None:
        """The player's own prince is crowned; his strongest other free princes fill the regencies."""
        role, controller = self.role, self.controller
        for i in range(NUM_PRINCES):
            if role[i] != EXILE:
                role[i] = EXILE
        king = self.player_prince[player]
        role[king] = KING
        self.garrison += self.armies[king]
        self.armies[king] = 0
        others = sorted(
            (i for i in range(NUM_PRINCES) if controller[i] == player and i != king and self.free(i)),
            key=lambda prince: (-self.leadership(prince), prince),
        )
        for post, i in zip(REGENT_POSTS, others):
            role[i] = post
            self.garrison += self.armies[i]
            self.armies[i] = 0
        self.amber = player
        self.hold_count = [0] * self.num_players
        if len(others) < len(REGENT_POSTS):
            self.stack.append(Appoint(player))

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
        """Amber's holder loses it: his lords go free of him, other players' lords
        go into exile, and the strongest Regent is King if the King is gone."""
        holder = self.amber
        role, controller = self.role, self.controller
        for i in range(NUM_PRINCES):
            if 0 < role[i] < EXILE:
                if controller[i] == holder:
                    controller[i] = -1
                elif controller[i] >= 0:
                    role[i] = EXILE
        if KING not in role:
            best = self.strongest_regent()
            if best >= 0:
                role[best] = KING
        self.amber = -1
        self.hold_count = [0] * self.num_players

    def fill_post(self, prince: int) -> None:
        """``prince`` takes the first vacant regency; his armies join the garrison."""
        self.role[prince] = self.vacant_posts()[0]
        self.garrison += self.armies[prince]
        self.armies[prince] = 0

    def _check_amber_secured(self) -> None:
        """Amber's holder wins once no other player has a free prince
        (unless a succession is still owed)."""
        holder = self.amber
        for player in range(self.num_players):
            if self.in_game[player] and self.player_prince[player] < 0:
                return
        controller, alive, captured = self.controller, self.alive, self.captured
        for i in range(NUM_PRINCES):
            owner = controller[i]
            if owner >= 0 and owner != holder and alive[i] and not captured[i]:
                return
        self.winner = holder

    # ---- leaving the game -----------------------------------------------------
    def eliminate(self, player: int) -> None:
        """``player`` is out: his hand is discarded and his princes go neutral."""
        self.in_game[player] = 0
        self.elimination_order[player] = self.eliminated_count
        self.eliminated_count += 1
        self.deck.discard.extend(self.hands[player])
        self.hands[player] = []
        self.hand_kinds[player] = [0] * NUM_KINDS
        for other in range(self.num_players):
            self.known_hand[other][player] = None
        self.extra_turns[player] = 0
        self.hold_count[player] = 0
        for i in range(NUM_PRINCES):
            if self.controller[i] == player:
                self.controller[i] = -1
        left = [other for other in range(self.num_players) if self.in_game[other]]
        if len(left) == 1:
            self.winner = left[0]
