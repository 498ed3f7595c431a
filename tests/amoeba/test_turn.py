"""Scenario tests for the turn on seeds/amoeba.md ("Play"): the die, the
placements it gives, drawing back up to the hand size, and the end of a turn."""

from collections import Counter

import numpy as np

from tests.amoeba.helpers import anchor_action, game, legal_anchors, place, select_action, start_turn


def _finish_turn(st):
    """Play the mover's turn to its end: the first legal tile and anchor at
    each placement, every offer declined. Returns the tiles laid."""
    mover, turn = st.mover, st.turn
    laid = []
    while st.turn == turn and not st.done:
        legal = np.flatnonzero(st.legal_action_mask())
        if st.offered() is not None:
            st.apply(st.game.decline_action)
            continue
        if st.phase == 0:
            slot = int(legal[0]) // 4
            laid.append(st.hands[mover][slot])
        st.apply(int(legal[0]))
    return laid


def test_the_die_gives_one_two_or_three_placements():
    """Interpretation 2: faces 1,1,2,2,3,3, so each of 1, 2 and 3 comes up
    about a third of the time, on the first turn and on later ones."""
    g = game()
    first, second = Counter(), Counter()
    for seed in range(240):
        st = g.new_initial_state(seed)
        first[st.die] += 1
        assert st.placements_left == st.die
        _finish_turn(st)
        second[st.die] += 1
    for counts in (first, second):
        assert set(counts) == {1, 2, 3}
        assert all(50 <= n <= 110 for n in counts.values()), counts


def test_the_die_follows_its_configured_faces():
    """Config ``die_faces``: a die with faces 2 and 3 never gives 1."""
    g = game(die_faces=[2, 3, 3])
    counts = Counter(g.new_initial_state(seed).die for seed in range(60))
    assert set(counts) == {2, 3} and counts[3] > counts[2]


def test_scripted_dice_come_first_then_the_die_rolls():
    """Config ``dice_override``: the scripted results in order, then rolls."""
    g = game(dice_override=[2, 1], die_faces=[3])
    st = g.new_initial_state(0)
    assert st.die == 2
    assert len(_finish_turn(st)) == 2
    assert st.die == 1
    assert len(_finish_turn(st)) == 1
    assert st.die == 3


def test_each_placement_is_compulsory_and_the_die_counts_them():
    """Play: a die of 3 is three placements before the turn passes."""
    g = game(dice_override=[3, 1])
    st = g.new_initial_state(4)
    assert len(_finish_turn(st)) == 3
    assert len(st.placements) == 3 and st.mover == 1


def test_players_draw_back_up_to_three_tiles():
    """Interpretation 20: after the turn the mover draws from the pile's end
    until the hand holds 3 again."""
    g = game(dice_override=[3, 2], pile_override=list(range(84)))
    st = g.new_initial_state(0)
    assert st.hands == [[83, 82, 81], [80, 79, 78]]
    assert len(_finish_turn(st)) == 3
    assert st.hands[0] == [77, 76, 75]
    assert st.pile.draw_pile == list(range(75))
    laid = _finish_turn(st)
    assert len(laid) == 2
    assert sorted(st.hands[1]) == sorted([t for t in (80, 79, 78) if t not in laid] + [74, 73])
    assert len(st.pile.draw_pile) == 73


def test_the_draw_stops_when_the_pile_runs_out():
    """Interpretation 20: fewer than 3 when the pile is short; no reshuffle."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73, 30, 66], die=3, pile=[5])
    st.hands[1] = [40, 41, 43]
    laid = _finish_turn(st)
    assert len(laid) == 3
    assert st.hands[0] == [5] and not st.pile


def test_a_hand_size_of_two_draws_up_to_two():
    """Config ``hand_size``: hands are dealt and drawn up to that size."""
    g = game(hand_size=2, dice_override=[1], pile_override=list(range(84)))
    st = g.new_initial_state(0)
    assert st.hands == [[83, 82], [81, 80]]
    _finish_turn(st)
    assert len(st.hands[0]) == 2 and st.hands[0][-1] == 79


def test_the_turn_passes_in_seat_order_and_wraps_round():
    """Play: seat 0 starts, then seats go up in order."""
    g = game(num_players=3, dice_override=[1, 1, 1, 1])
    st = g.new_initial_state(2)
    seen = []
    for _ in range(4):
        seen.append(st.mover)
        _finish_turn(st)
    assert seen == [0, 1, 2, 0]


def test_the_placements_end_early_when_the_hand_runs_out():
    """Play: placements the hand cannot make lapse; the claims come next."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=3, pile=[])
    st.hands[1] = [40]
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    assert (st.mover, st.placed, st.placements_left) == (0, 1, 2)
    assert st.offered() is not None
    st.apply(g.decline_action)
    assert st.mover == 1 and st.turn == 1 and st.removed[0] == []


def test_the_first_tile_of_a_new_game_has_one_anchor():
    """Interpretation 6 through the turn: the centre, for every hand tile."""
    g = game(dice_override=[1])
    st = g.new_initial_state(9)
    selects = np.flatnonzero(st.legal_action_mask()[:12])
    assert len(selects) >= 3
    st.apply(int(selects[-1]))
    assert legal_anchors(st) == [(11, 11)]


def test_the_game_goes_on_while_a_hand_holds_tiles():
    """Play: the end needs the pile and every hand empty; an empty pile alone is not enough."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=1, pile=[])
    st.hands[1] = [40]
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    st.apply(g.decline_action)
    assert not st.done and st.mover == 1 and st.phase == 0


def test_the_game_ends_when_the_last_tile_is_placed():
    """Interpretation 22: the last placement's turn still has its claims, then the game ends."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=1, pile=[])
    st.apply(select_action(0, 0))
    st.apply(anchor_action(g, 11, 13))
    assert st.phase == 2 and not st.done
    st.apply(g.claim_action)
    assert st.terminal and not st.truncated and st.current_player == -1
    assert st.phase_name() == "over"
    assert list(st.returns()) == [1.0, -1.0]


def test_the_turn_limit_truncates_and_ranks_the_scores():
    """Rewards: at ``max_turns`` the game is cut short and ranked as it stands."""
    g = game(max_turns=3, dice_override=[1, 1, 1])
    st = g.new_initial_state(1)
    for _ in range(3):
        assert not st.done
        _finish_turn(st)
    assert st.truncated and not st.terminal and st.current_player == -1
    assert st.turn == 3 and st.phase_name() == "over"
    assert list(st.returns()) == [0.0, 0.0]
    assert not st.legal_action_mask().any()


def _tiles_that_fit_nowhere(st):
    laid = {placement.tile for placement in st.placements}
    return [
        t for t in range(84) if t not in laid and not any(any(st._placements_of(t * 4 + r)) for r in range(4))
    ]


def test_a_stuck_hand_is_kept_without_remove_stuck_hand():
    """Interpretation 21 (config ``remove_stuck_hand=False``): a hand that
    fits nowhere stays in the hand; the turn passes."""
    g = game(board_units=12, remove_stuck_hand=False)
    st = g.new_initial_state(0)
    rng = np.random.default_rng(0)
    while len(st.placements) < 25:
        st.apply(int(rng.choice(st.legal_actions())))
    stuck = _tiles_that_fit_nowhere(st)[:3]
    assert len(stuck) == 3
    mover = st.mover
    start_turn(st, mover, stuck, die=2, pile=[t for t in st.pile.draw_pile if t not in stuck])
    for seat in range(2):
        if seat != mover:
            st.hands[seat] = [t for t in st.hands[seat] if t not in stuck]
    st._advance_from_placements()
    while st.mover == mover and st.offered() is not None:
        st.apply(g.decline_action)
    assert st.mover != mover
    assert st.hands[mover] == stuck and st.removed[mover] == []


def test_the_phase_is_named_after_the_decision_to_make():
    """Play: select a tile, then its anchor, then claim or decline; over at the end."""
    g = game()
    st = g.empty_state()
    place(st, 30, 0, (11, 11))
    start_turn(st, 0, [73], die=1, pile=[])
    assert st.phase_name() == "select"
    st.apply(select_action(0, 0))
    assert st.phase_name() == "anchor"
    st.apply(anchor_action(g, 11, 13))
    assert st.phase_name() == "claim"
    st.apply(g.claim_action)
    assert st.phase_name() == "over"
