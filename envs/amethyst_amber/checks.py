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


def check_position(s) -> None:
    _check_pieces(s)
    _check_groups(s)
    if s.phase == Phase.PLACEMENT:
        _check_placement(s)
    else:
        _check_main(s)
    _check_end(s)


def _check_pieces(s) -> None:
    """No more defenders, attackers or resources than the game has."""
    game = s.game
    held = [0, 0]
    for h in s.resource_hexes:
        if s.resource_at[h] != NEUTRAL:
            held[1 - s.resource_at[h]] += s.prisoners_under[h]
    for seat in (0, 1):
        on_board = s.defender_bits[seat].bit_count()
        _fail_unless(
            on_board + s.unplaced[seat] <= game.defenders_per_player,
            f"position entries 'defenders' and 'unplaced_defenders': seat {seat} has {on_board} defenders "
            f"on the board and {s.unplaced[seat]} unplaced, more than the {game.defenders_per_player} it owns",
        )
        walking = len(s.attacker_hexes[seat])
        _fail_unless(
            walking + s.reserve[seat] + held[seat] <= game.attackers_per_player,
            f"position entries 'attackers', 'reserve_attackers' and 'resources': seat {seat} has "
            f"{walking} attackers on the board, {s.reserve[seat]} in reserve and {held[seat]} held prisoner, "
            f"more than the {game.attackers_per_player} it owns",
        )
    total = len(game.board.red)
    found = len(s.resource_hexes) + s.hand[0] + s.hand[1]
    _fail_unless(
        found <= total,
        f"position entries 'resources' and 'hand': {len(s.resource_hexes)} resources on the board and "
        f"{s.hand[0] + s.hand[1]} in hand, more than the game's {total}",
    )


def _check_groups(s) -> None:
    """No group of touching defenders larger than the group limit."""
    game = s.game
    geo = game.board.geo
    for seat in (0, 1):
        pieces = s._group_pieces(seat)
        for t in geo.bits_to_tris(s.defender_bits[seat]):
            if not defenders.group_ok(game, geo.bit_tri[t], pieces):
                raise PositionError(
                    f"{GAME_NAME}: position entry 'defenders': the defender on {geo.tri_xy[t]} is in a "
                    f"group of more than group_limit {game.group_limit}"
                )


def _check_placement(s) -> None:
    """Placement turns: only defenders on the board, the seat to act has one to place."""
    seat = s.acting_seat
    _fail_unless(
        s.substep == Substep.TURN_START and s.selected < 0 and not s.moved_defenders,
        "position entries 'substep', 'selected' and 'moved': placement turns have no defender moves",
    )
    _fail_unless(
        not s.attacker_hexes[0] and not s.attacker_hexes[1] and s.hand == [0, 0] and s.placed == [0, 0],
        "position entry 'phase': in the placement phase no attacker is out and every resource is neutral",
    )
    _fail_unless(
        s.main_turns == 0, f"position entry 'main_turns': {s.main_turns} main turns in the placement phase"
    )
    _fail_unless(
        s.unplaced[seat] > 0,
        f"position entries 'current' and 'unplaced_defenders': seat {seat} is to place a defender but has none left",
    )


def _check_main(s) -> None:
    """Main turns: every defender placed; the sub-step fits the selection and the moves."""
    seat = s.acting_seat
    game = s.game
    _fail_unless(
        s.unplaced == [0, 0],
        f"position entries 'phase' and 'unplaced_defenders': {s.unplaced} defenders unplaced in the main phase",
    )
    moved = s.moved_defenders
    _fail_unless(
        moved & s.defender_bits[seat] == moved,
        f"position entry 'moved': every moved defender is one of seat {seat}'s defenders",
    )
    if s.substep == Substep.TURN_START:
        _fail_unless(
            s.selected < 0 and not moved,
            "position entries 'substep', 'selected' and 'moved': nothing is selected or moved at turn_start",
        )
        return
    _fail_unless(
        s.moves_this_turn < game.max_defenders_per_turn,
        f"position entry 'moved': {s.moves_this_turn} defenders moved, but the turn ends after "
        f"max_defenders_per_turn {game.max_defenders_per_turn}",
    )
    _fail_unless(
        s.main_turns < game.max_main_turns,
        f"position entry 'main_turns': the turn limit {game.max_main_turns} is reached, no turn is under way",
    )
    if s.substep == Substep.CHOOSE_DESTINATION:
        geo = game.board.geo
        selected = geo.bit_tri[s.selected] if s.selected >= 0 else 0
        _fail_unless(
            bool(selected & s.defender_bits[seat]) and not selected & moved,
            f"position entries 'substep' and 'selected': choose_dest needs a selected, unmoved defender of seat {seat}",
        )
        _fail_unless(
            s._destinations != 0,
            f"position entry 'selected': the defender on {geo.tri_xy[s.selected]} has no destination",
        )
    else:
        _fail_unless(
            s.selected < 0 and moved,
            "position entries 'substep', 'selected' and 'moved': continue follows a move, with nothing selected",
        )
        _fail_unless(
            bool(s._movable(seat) & ~moved),
            "position entry 'substep': continue is offered only while an unmoved defender can move",
        )


def _check_end(s) -> None:
    """A won game ended at the start of the winner's main turn; a cut-short one at the turn limit."""
    game = s.game
    if not (s._terminal or s._truncated):
        return
    _fail_unless(
        s.phase == Phase.MAIN and s.substep == Substep.TURN_START,
        "position entries 'phase' and 'substep': a game ends at the start of a main turn",
    )
    if s._terminal:
        _fail_unless(
            s.winner == s.acting_seat and s.placed[s.winner] >= game.win_resources,
            f"position entries 'winner', 'current' and 'resources': the winner is the seat to act, with at "
            f"least win_resources {game.win_resources} placed",
        )
    else:
        _fail_unless(
            s.main_turns == game.max_main_turns and s.placed[s.acting_seat] < game.win_resources,
            f"position entries 'truncated' and 'main_turns': a game is cut short at max_main_turns "
            f"{game.max_main_turns}, unless the seat to act has won",
        )
