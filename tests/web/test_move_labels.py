"""Move names on another seat's page tell only what that seat may know.

Two checks on random games of every hidden-information game at every table
size: a move's label is the same in every resampled position the viewer
cannot tell from the true one (``determinize``), and moves that only the
actor can tell apart (the same observation for the viewer, a different one
for the actor) get the same label.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.agents.web.move_labels import move_label
from tests.web.helpers import config_for, hidden_seatings

# Games whose rules make every move public while their observation leaves out
# some public choices, so the second check would flag moves everyone sees.
PUBLIC_BY_RULES = {
    # princes_of_amber.md, Hidden information: cards are played face up and a
    # peek or probe is played openly; a Gossip target is not in the observation.
    "princes_of_amber_v1",
}
MOVES_PER_GAME = 150


def _check_position(state, action: int, legal, rng) -> None:
    actor = state.current_player
    afters = {}

    def after(a):
        if a not in afters:
            afters[a] = state.clone()
            afters[a].apply(a)
        return afters[a]

    for viewer in range(state.game.num_players):
        if viewer == actor:
            continue
        label = move_label(state, action, viewer)
        for _ in range(2):
            twin = state.determinize(viewer, rng)
            if twin.legal_action_mask()[action]:
                assert move_label(twin, action, viewer) == label, (state.action_to_string(action), viewer)
        if state.game.info.name in PUBLIC_BY_RULES:
            continue
        seen, own = after(action).observation(viewer), after(action).observation(actor)
        for other in (int(a) for a in legal):
            if other == action:
                continue
            if np.array_equal(after(other).observation(viewer), seen) and not np.array_equal(
                after(other).observation(actor), own
            ):
                assert move_label(state, other, viewer) == label, (
                    f"player_{viewer} cannot tell {state.action_to_string(action)!r} "
                    f"from {state.action_to_string(other)!r} but their labels differ"
                )


@pytest.mark.parametrize(("name", "players"), hidden_seatings())
def test_labels_for_other_seats_hold_no_hidden_information(name, players):
    game = envs.make_game(name, **config_for(name, players))
    rng = np.random.default_rng(players)
    state = game.new_initial_state(7 + players)
    for _ in range(MOVES_PER_GAME):
        if state.done:
            break
        legal = state.legal_actions()
        action = int(legal[rng.integers(legal.size)])
        _check_position(state, action, legal, rng)
        state.apply(action)


@pytest.mark.parametrize("name", envs.names())
def test_the_actor_and_a_spectator_see_the_full_name(name):
    state = envs.make_game(name).new_initial_state(3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.done:
            break
        legal = state.legal_actions()
        action = int(legal[rng.integers(legal.size)])
        full = state.action_to_string(action)
        assert move_label(state, action, None) == full
        assert move_label(state, action, state.current_player) == full
        state.apply(action)


def test_an_amoeba_selection_is_neutral_for_the_other_seats():
    state = envs.make_game("amoeba_v0", num_players=3).new_initial_state(1)
    assert state.phase_name() == "select"
    actor = state.current_player
    for action in (int(a) for a in state.legal_actions()):
        assert "tile" in state.action_to_string(action)
        for viewer in range(3):
            if viewer != actor:
                assert move_label(state, action, viewer) == "select a tile (not shown)"
