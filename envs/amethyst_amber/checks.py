"""How the entries of a loaded position fit together.

``serial.state_from_dict`` checks each entry as it reads it; these rules
tie them together, so that a position handed in from outside is one that
play could reach: no piece in two places and never more defenders,
attackers (on the board, in reserve or held under an enemy resource) or
resources (on the board or in hand) than the game has (a position may
leave pieces out: they are out of the game), groups within the limit, and a phase, sub-step and end of game
that fit the decision pending. Each failure is a ValueError naming the
entry and the rule.
"""

from __future__ import annotations

from meeplezoo.envs.amethyst_amber import defenders
from meeplezoo.envs.amethyst_amber.actions import Phase, Substep
from meeplezoo.envs.amethyst_amber.board import NEUTRAL
from meeplezoo.envs.core.positions import PositionError, require

GAME_NAME = "amethyst_amber_v0"


def _fail_unless(condition: bool, message: str) -> None:
    require(condition, f"{GAME_NAME}: {message}")


def check_position(state) -> None:
    _check_pieces(state)
    _check_groups(state)
    if state.phase == Phase.PLACEMENT:
        _check_placement(state)
    else:
        _check_main(state)
    _check_end(state)


def _check_pieces(state) -> None:
    """No more defenders, attackers or resources than the game has."""
    game = state.game
    held = [0, 0]
    for h in state.resource_hexes:
        if state.resource_at[h] != NEUTRAL:
            held[1 - state.resource_at[h]] += state.prisoners_under[h]
    for seat in (0, 1):
        on_board = state.defender_bits[seat].bit_count()
        _fail_unless(
            on_board + state.unplaced[seat] <= game.defenders_per_player,
            f"position entries 'defenders' and 'unplaced_defenders': seat {seat} has {on_board} defenders "
            f"on the board and {state.unplaced[seat]} unplaced, more than the {game.defenders_per_player} it owns",
        )
        walking = len(state.attacker_hexes[seat])
        _fail_unless(
            walking + state.reserve[seat] + held[seat] <= game.attackers_per_player,
            f"position entries 'attackers', 'reserve_attackers' and 'resources': seat {seat} has "
            f"{walking} attackers on the board, {state.reserve[seat]} in reserve and {held[seat]} held prisoner, "
            f"more than the {game.attackers_per_player} it owns",
        )
    total = len(game.board.red)
    found = len(state.resource_hexes) + state.hand[0] + state.hand[1]
    _fail_unless(
        found <= total,
        f"position entries 'resources' and 'hand': {len(state.resource_hexes)} resources on the board and "
        f"{state.hand[0] + state.hand[1]} in hand, more than the game's {total}",
    )


def _check_groups(state) -> None:
    """No group of touching defenders larger than the group limit."""
    game = state.game
    geo = game.board.geo
    for seat in (0, 1):
        pieces = state._group_pieces(seat)
        for t in geo.bits_to_tris(state.defender_bits[seat]):
            if not defenders.group_ok(game, geo.bit_tri[t], pieces):
                raise PositionError(
                    f"{GAME_NAME}: position entry 'defenders': the defender on {geo.tri_xy[t]} is in a "
                    f"group of more than group_limit {game.group_limit}"
                )


def _check_placement(state) -> None:
    """Placement turns: only defenders on the board, the seat to act has one to place."""
    seat = state.acting_seat
    _fail_unless(
        state.substep == Substep.TURN_START and state.selected < 0 and not state.moved_defenders,
        "position entries 'substep', 'selected' and 'moved': placement turns have no defender moves",
    )
    _fail_unless(
        not state.attacker_hexes[0]
        and not state.attacker_hexes[1]
        and state.hand == [0, 0]
        and state.placed == [0, 0],
        "position entry 'phase': in the placement phase no attacker is out and every resource is neutral",
    )
    _fail_unless(
        state.main_turns == 0,
        f"position entry 'main_turns': {state.main_turns} main turns in the placement phase",
    )
    _fail_unless(
        state.unplaced[seat] > 0,
        f"position entries 'current' and 'unplaced_defenders': seat {seat} is to place a defender but has none left",
    )


def _check_main(state) -> None:
    """Main turns: every defender placed; the sub-step fits the selection and the moves."""
    seat = state.acting_seat
    game = state.game
    _fail_unless(
        state.unplaced == [0, 0],
        f"position entries 'phase' and 'unplaced_defenders': {state.unplaced} defenders unplaced in the main phase",
    )
    moved = state.moved_defenders
    _fail_unless(
        moved & state.defender_bits[seat] == moved,
        f"position entry 'moved': every moved defender is one of seat {seat}'s defenders",
    )
    if state.substep == Substep.TURN_START:
        _fail_unless(
            state.selected < 0 and not moved,
            "position entries 'substep', 'selected' and 'moved': nothing is selected or moved at turn_start",
        )
        return
    _fail_unless(
        state.moves_this_turn < game.max_defenders_per_turn,
        f"position entry 'moved': {state.moves_this_turn} defenders moved, but the turn ends after "
        f"max_defenders_per_turn {game.max_defenders_per_turn}",
    )
    _fail_unless(
        state.main_turns < game.max_main_turns,
        f"position entry 'main_turns': the turn limit {game.max_main_turns} is reached, no turn is under way",
    )
    if state.substep == Substep.CHOOSE_DESTINATION:
        geo = game.board.geo
        selected = geo.bit_tri[state.selected] if state.selected >= 0 else 0
        _fail_unless(
            bool(selected & state.defender_bits[seat]) and not selected & moved,
            f"position entries 'substep' and 'selected': choose_dest needs a selected, unmoved defender of seat {seat}",
        )
        _fail_unless(
            state._destinations != 0,
            f"position entry 'selected': the defender on {geo.tri_xy[state.selected]} has no destination",
        )
    else:
        _fail_unless(
            state.selected < 0 and moved,
            "position entries 'substep', 'selected' and 'moved': continue follows a move, with nothing selected",
        )
        _fail_unless(
            bool(state._movable(seat) & ~moved),
            "position entry 'substep': continue is offered only while an unmoved defender can move",
        )


def _check_end(state) -> None:
    """A won game ended at the start of the winner's main turn; a cut-short one at the turn limit."""
    game = state.game
    if not (state._terminal or state._truncated):
        return
    _fail_unless(
        state.phase == Phase.MAIN and state.substep == Substep.TURN_START,
        "position entries 'phase' and 'substep': a game ends at the start of a main turn",
    )
    if state._terminal:
        _fail_unless(
            state.winner == state.acting_seat and state.placed[state.winner] >= game.win_resources,
            f"position entries 'winner', 'current' and 'resources': the winner is the seat to act, with at "
            f"least win_resources {game.win_resources} placed",
        )
    else:
        _fail_unless(
            state.main_turns == game.max_main_turns and state.placed[state.acting_seat] < game.win_resources,
            f"position entries 'truncated' and 'main_turns': a game is cut short at max_main_turns "
            f"{game.max_main_turns}, unless the seat to act has won",
        )
