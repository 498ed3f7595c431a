"""A tiny hidden-information game used to test the shared core by itself.

High Card: each seat holds one private card from a shuffled 0..9 deck. On its
turn a seat either swaps its card for the top of the deck or stops; once all
seats have stopped, the highest card wins (rank rewards). It has chance,
hidden cards and a turn limit, which is all the core needs exercising.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from meeplezoo.envs.core import Game, GameInfo, State, make_rng, rank_rewards
from meeplezoo.envs.core.aec import MeepleEnv, env_metadata
from meeplezoo.envs.core.cards import canonical_shuffle
from meeplezoo.envs.core.draw import Canvas, seat_color
from meeplezoo.envs.core.fields import generated_clone, generator_field, saved
from meeplezoo.envs.core.options import integer
from meeplezoo.envs.core.positions import (
    check_conservation,
    flag_list,
    integer_entry,
    integer_list,
    seat_entry,
)
from meeplezoo.envs.core.turns import next_seat, relative_seats

SWAP, STOP = 0, 1


class HighCardGame(Game):
    info = GameInfo(
        name="high_card_v0",
        title="High Card",
        players=integer(2, 2, 4, "seats at the table"),
        hidden_information=True,
        chance=True,
    )
    options: ClassVar[dict] = {
        "num_players": info.players,
        "max_turns": integer(12, 1, 1000, "turns before the game is cut short"),
    }
    test_configs: ClassVar[list[dict]] = [{"num_players": 4}]

    def validate(self) -> None:
        self.num_actions = 2
        self.observation_shape = (10 + self.num_players + 2,)
        self.observation_dtype = np.float32
        self.max_turns = self.config["max_turns"]

    def new_initial_state(self, seed=None):
        s = HighCardState(self, make_rng(seed))
        s.deck = [int(c) for c in s.rng.permutation(10)]
        s.cards = [s.deck.pop() for _ in range(self.num_players)]
        return s

    def _state_from_dict(self, d):
        return HighCardState.from_dict(self, d)


class HighCardState(State):
    fields = (
        saved("deck", "list", from_json=integer_list(0, 9)),
        saved("cards", "list", from_json=integer_list(0, 9, lambda game: game.num_players)),
        saved("stopped", "list", from_json=flag_list(lambda game: game.num_players)),
        saved("player", from_json=seat_entry()),
        saved("turns", from_json=integer_entry(0, lambda game: game.max_turns)),
        generator_field(),
    )
    clone = generated_clone()  # compiled from ``fields`` when the class is made

    def check_position(self):
        # a swapped-out card leaves the game, so cards may be missing, never doubled
        check_conservation({"deck": self.deck, "cards": self.cards}, range(10), "card", complete=False)

    def __init__(self, game, rng):
        self.game, self.rng = game, rng
        self.deck: list[int] = []
        self.cards: list[int] = []
        self.stopped = [False] * game.num_players
        self.player = 0
        self.turns = 0

    @property
    def current_player(self):
        return -1 if self.done else self.player

    @property
    def terminal(self):
        return all(self.stopped)

    @property
    def truncated(self):
        return not self.terminal and self.turns >= self.game.max_turns

    def legal_action_mask(self):
        m = np.zeros(2, bool)
        if not self.done:
            m[STOP] = True
            m[SWAP] = bool(self.deck)
        return m

    def _apply_action(self, action):
        if action == SWAP:
            self.cards[self.player] = self.deck.pop()
        else:
            self.stopped[self.player] = True
        self.turns += 1
        active = [not s for s in self.stopped]
        if not self.terminal:
            self.player = next_seat(self.player, self.game.num_players, active)

    def returns(self):
        return rank_rewards(self.cards)

    def _evaluate(self, viewer):
        """The returns once over (or of the cards as they lie, for the whole
        state); a viewer knows only its own card c, so every other card is
        any of the nine other values alike: c beats each with chance c / 9,
        an expected rank reward of (2c - 9) / 9, the rest shared equally."""
        if self.done or viewer is None:
            return np.asarray(self.returns(), dtype=np.float64)
        n = self.game.num_players
        mine = (2 * self.cards[viewer] - 9) / 9
        values = np.full(n, -mine / (n - 1))
        values[viewer] = mine
        return values

    def observation(self, player):
        n = self.game.num_players
        obs = np.zeros(self.game.observation_shape, np.float32)
        obs[self.cards[player]] = 1
        for k, seat in enumerate(relative_seats(player, n)):
            obs[10 + k] = self.stopped[seat]
        obs[10 + n] = len(self.deck) / 10
        obs[11 + n] = self.turns / self.game.max_turns
        return obs

    def determinize(self, player, rng):
        s = self.clone()
        unseen = canonical_shuffle(s.deck + [c for i, c in enumerate(s.cards) if i != player], rng)
        for i in range(len(s.cards)):
            if i != player:
                s.cards[i] = unseen.pop()
        s.deck = unseen
        return s

    def action_to_string(self, action):
        return ("swap", "stop")[action]

    def render_ansi(self, viewer=None):
        shown = [str(c) if viewer in (None, i) else "?" for i, c in enumerate(self.cards)]
        return f"cards {' '.join(shown)}  deck {len(self.deck)}  turn {self.turns}"

    def render_rgb(self, viewer=None):
        c = Canvas(40 * self.game.num_players + 20, 60)
        for i, card in enumerate(self.cards):
            c.rect(10 + 40 * i, 10, 40 + 40 * i, 50, fill=seat_color(i))
            c.text(25 + 40 * i, 30, str(card) if viewer in (None, i) else "?", anchor="mm")
        return c.to_array()


class HighCardEnv(MeepleEnv):
    game_cls = HighCardGame
    metadata = env_metadata("high_card_v0")
