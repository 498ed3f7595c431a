"""Checks for a Princes of Amber position dict handed in from outside.

``state.AmberState.fields`` reads each entry through a converter here (type,
length, range); :func:`check_position` then enforces the rules that tie the
entries together: every Fate card exactly once across the draw pile, the
discard and the hands, seats and princes in range, one holder per post, a
winner or turn limit only with an empty stack, and a pending decision that
is the one the rules would put to its player now. A failed check is a
:class:`~meeplezoo.envs.core.positions.PositionError` (a ValueError) naming
the entry and the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any

from meeplezoo.envs.core.cards import Deck
from meeplezoo.envs.core.positions import (
    PositionError,
    as_integer,
    as_list,
    check_conservation,
    flag_entry,
    integer_list,
    require,
)
from meeplezoo.envs.princes_of_amber.acts import RULES, Contest
from meeplezoo.envs.princes_of_amber.cards import EXILE, NUM_ACTIONS, NUM_KINDS, NUM_PRINCES, PRINCE_TABLE
from meeplezoo.envs.princes_of_amber.frames import FRAME_TYPES, LAST_STEP, Frame, War

LARGE = 10**6  # bound on counters the rules never cap (armies, garrison, extra turns, contest totals)
NUM_ACTS = len(RULES)
NAME = "princes_of_amber_v1"


def _seats(game: Any) -> int:
    return game.num_players - 1


def _entry(convert: Callable[[Any, Any], Any], value: Any, game: Any, what: str) -> Any:
    try:
        return convert(value, game)
    except PositionError as exc:
        raise PositionError(f"{what} {exc}") from None


# ---- one entry each ------------------------------------------------------------------
def seat_list(allow_none: bool) -> Callable[[Any, Any], list[int]]:
    """A list of one seat (or -1) per player."""
    return integer_list(-1 if allow_none else 0, _seats, lambda game: game.num_players)


def prince_list(low: int, high: int) -> Callable[[Any, Any], list[int]]:
    """A list of one integer in ``low..high`` per prince."""
    return integer_list(low, high, NUM_PRINCES)


def player_counts(high: Callable[[Any], int] | int) -> Callable[[Any, Any], list[int]]:
    """A list of one count in ``0..high`` per player."""
    return integer_list(0, high, lambda game: game.num_players)


def card_list(value: Any, game: Any) -> list[int]:
    return integer_list(0, game.num_cards - 1)(value, game)


def hands_entry(value: Any, game: Any) -> list[list[int]]:
    return [
        _entry(card_list, row, game, f"hand {p}") for p, row in enumerate(as_list(value, game.num_players))
    ]


def known_top_entry(value: Any, game: Any) -> list[list[int]]:
    kinds = integer_list(0, NUM_KINDS - 1)
    return [_entry(kinds, row, game, f"row {p}") for p, row in enumerate(as_list(value, game.num_players))]


def known_hand_entry(value: Any, game: Any) -> list[list]:
    """Per viewer, per other player: None (nothing known) or a count per card kind."""
    counts = integer_list(0, LARGE, NUM_KINDS)
    rows = []
    for viewer, row in enumerate(as_list(value, game.num_players)):
        rows.append(
            [
                None if known is None else _entry(counts, known, game, f"row {viewer} seat {seat}")
                for seat, known in enumerate(as_list(row, game.num_players, f"row {viewer}"))
            ]
        )
    return rows


def attributes_entry(value: Any, game: Any) -> list[list[int]]:
    """The nine attribute rows: the printed table, or 2d6 each when rolled."""
    rows = [
        _entry(integer_list(2, 12, 5), row, game, f"row {i}")
        for i, row in enumerate(as_list(value, NUM_PRINCES))
    ]
    if game.config["attribute_mode"] == "table":
        require(rows == game.table_attributes, "must be the printed prince table in attribute_mode 'table'")
    return rows


def dice_entry(value: Any, game: Any) -> list[int]:
    return integer_list(1, 6)(value, game)


def deck_entry(value: Any, game: Any) -> Deck:
    if not isinstance(value, dict) or set(value) != {"draw_pile", "discard"}:
        raise PositionError("must be a dict with the entries 'draw_pile' and 'discard'")
    return Deck(
        _entry(card_list, value["draw_pile"], game, "draw_pile"),
        _entry(card_list, value["discard"], game, "discard"),
    )


# ---- records: stack frames and the war ------------------------------------------------
def _prince(value: Any, game: Any) -> int:
    return as_integer(value, 0, NUM_PRINCES - 1)


def _prince_or_none(value: Any, game: Any) -> int:
    return as_integer(value, -1, NUM_PRINCES - 1)


def _seat(value: Any, game: Any) -> int:
    return as_integer(value, 0, _seats(game))


def _seat_or_none(value: Any, game: Any) -> int:
    return as_integer(value, -1, _seats(game))


def _seats_list(value: Any, game: Any) -> list[int]:
    return integer_list(0, _seats)(value, game)


def _princes_list(value: Any, game: Any) -> list[int]:
    return integer_list(0, NUM_PRINCES - 1)(value, game)


def _princes_or_none(value: Any, game: Any) -> list[int] | None:
    return None if value is None else _princes_list(value, game)


def _counter(high: int) -> Callable[[Any, Any], int]:
    return lambda value, game: as_integer(value, 0, high)


# What each record field may hold, by its name (the same name means the same thing in every record).
RECORD_FIELDS: dict[str, Callable[[Any, Any], Any]] = {
    "player": _seat,
    "prince": _prince,
    "target": _prince,
    "victim": _prince,
    "target_controller": _seat_or_none,
    "dealer": _seat_or_none,
    "causer": _seat_or_none,
    "captor": _seat,
    "defender": _seat_or_none,
    "act": _counter(NUM_ACTS - 1),
    "card": _counter(NUM_KINDS - 1),
    "against": lambda value, game: as_integer(value, Contest.FIGHT, Contest.WAR),
    "step": _counter(LAST_STEP),
    "negated": flag_entry(),
    "not_really_dead": flag_entry(),
    "attacker_fury": _counter(LARGE),
    "defender_fury": _counter(LARGE),
    "amount": lambda value, game: as_integer(value, 1, 6),
    "count": _counter(LARGE),
    "queue": _seats_list,
    "declined": _seats_list,
    "supporters": _seats_list,
    "lords": _princes_list,
    "losing": _princes_or_none,
    "walls_bonus": _counter(LARGE),
    "shadow_bonus": _counter(LARGE),
    "attack": _counter(LARGE),
    "defence": _counter(LARGE),
    "won": lambda value, game: as_integer(value, -1, 1),
}

# Where a field means something else: a free card has no acting prince (-1).
RECORD_FIELD_EXCEPTIONS: dict[tuple[str, str], Callable[[Any, Any], Any]] = {
    ("TARGET_PRINCE", "prince"): _prince_or_none,
    ("TARGET_PLAYER", "prince"): _prince_or_none,
}


def _record(cls: type, data: dict, game: Any, what: str, skip: str = "") -> Any:
    """A ``cls`` record from ``data`` with every field checked (defaults for absent optional ones)."""
    known = {item.name: item for item in fields(cls)}
    unknown = sorted(set(data) - set(known) - {skip})
    require(not unknown, f"{what} has unknown entries {unknown}")
    values = {}
    for name, item in known.items():
        if name not in data:
            required = item.default is MISSING and item.default_factory is MISSING
            require(not required, f"{what} lacks its {name!r} entry")
            continue
        convert = RECORD_FIELD_EXCEPTIONS.get((getattr(cls, "name", ""), name), RECORD_FIELDS[name])
        values[name] = _entry(convert, data[name], game, f"{what} {name}")
    return cls(**values)


def stack_entry(value: Any, game: Any) -> list[Frame]:
    stack = []
    for index, data in enumerate(as_list(value)):
        what = f"frame {index}"
        require(isinstance(data, dict), f"{what} must be a dict, got {type(data).__name__}")
        kind = FRAME_TYPES.get(data.get("frame")) if isinstance(data.get("frame"), str) else None
        require(kind is not None, f"{what} has an unknown kind {data.get('frame')!r}")
        stack.append(_record(kind, data, game, f"{what} ({kind.name})", skip="frame"))
    return stack


def war_entry(value: Any, game: Any) -> War | None:
    if value is None:
        return None
    require(isinstance(value, dict), f"must be None or a dict, got {type(value).__name__}")
    return _record(War, value, game, "the war")


# ---- the rules between entries ---------------------------------------------------------
def check_position(state: Any) -> None:
    """Raise PositionError naming the first rule the loaded state ``s`` breaks."""
    game, num_players = state.game, state.num_players
    _check_cards(state, game, num_players)
    _check_princes(state, num_players)
    _check_players(state, game, num_players)
    _check_decision(state)


def _check_cards(state: Any, game: Any, num_players: int) -> None:
    zones = {"draw_pile": state.deck.draw_pile, "discard": state.deck.discard}
    zones.update({f"hand {p}": state.hands[p] for p in range(num_players)})
    check_conservation(zones, range(game.num_cards), "card")
    pile, card_kind = state.deck.draw_pile, game.card_kind
    for p in range(num_players):
        top = [card_kind[pile[-1 - i]] for i in range(min(len(state.known_top[p]), len(pile)))]
        require(
            state.known_top[p] == top,
            f"known_top row {p} must be the kinds of the top {len(state.known_top[p])} cards of the draw pile",
        )
        for o in range(num_players):
            known = state.known_hand[p][o]
            if known is not None:
                require(
                    all(known[k] <= state.hand_kinds[o][k] for k in range(NUM_KINDS)),
                    f"known_hand row {p} seat {o} counts more cards of a kind than hand {o} holds",
                )
    require(
        state.dice_used <= len(state.dice),
        f"dice_used {state.dice_used} is more than the {len(state.dice)} scripted dice",
    )


def _check_princes(state: Any, num_players: int) -> None:
    for i in range(NUM_PRINCES):
        require(
            state.hits[i] <= state.attributes[i][0],
            f"hits of prince {i} ({state.hits[i]}) exceed its Hits attribute {state.attributes[i][0]}",
        )
        require(
            bool(state.captured[i]) == (state.jailer[i] >= 0),
            f"prince {i} must have a jailer exactly when captured "
            f"(captured {state.captured[i]}, jailer {state.jailer[i]})",
        )
    for post in range(EXILE):
        holders = [i for i in range(NUM_PRINCES) if state.role[i] == post]
        require(len(holders) <= 1, f"role {post} is held by princes {holders}; a post has one holder")
    for p in range(num_players):
        own = state.player_prince[p]
        if own >= 0 and state.in_game[p]:
            require(
                state.controller[own] == p,
                f"player_prince {p} is prince {own}, whom player {p} does not control",
            )
    owned = [k for p, k in enumerate(state.player_prince) if k >= 0 and state.in_game[p]]
    require(len(owned) == len(set(owned)), f"player_prince {state.player_prince} names a prince twice")


def _check_players(state: Any, game: Any, num_players: int) -> None:
    out = [p for p in range(num_players) if not state.in_game[p]]
    require(
        state.eliminated_count == len(out),
        f"eliminated_count {state.eliminated_count} must be the {len(out)} players out of the game",
    )
    order = sorted(state.elimination_order[p] for p in out)
    require(
        order == list(range(len(out)))
        and all(state.elimination_order[p] == -1 for p in range(num_players) if state.in_game[p]),
        f"elimination_order {state.elimination_order} must number the players out 0.. and be -1 for the others",
    )
    for name in ("amber", "winner"):
        seat = getattr(state, name)
        require(seat < 0 or state.in_game[seat], f"{name} {seat} is a player out of the game")
    # a finished game may end on the turn of a player just knocked out (another player won)
    over = state.winner >= 0 or bool(state.turn_limit_reached)
    require(
        over or state.in_game[state.turn_player],
        f"turn_player {state.turn_player} is a player out of a running game",
    )
    require(len(out) < num_players, "every player is out of the game")


def _check_decision(state: Any) -> None:
    over = state.winner >= 0 or bool(state.turn_limit_reached)
    if over:
        require(
            not state.stack and state.deciding_player == -1 and not state.legal,
            "a finished game has an empty stack, deciding_player -1 and no legal actions",
        )
        return
    require(bool(state.stack), "a running game has a decision on its stack")
    bottom = state.stack[0]
    require(
        bottom.name == "TURN_END" and bottom.player == state.turn_player,
        f"the stack must start with the TURN_END of turn_player {state.turn_player}, got {bottom.name}",
    )
    require(
        all(f.name not in ("TURN", "TURN_END") for f in state.stack[1:]),
        "the stack holds one turn: no TURN or TURN_END frame above its first",
    )
    top = state.stack[-1]
    require(top.phase is not None, f"the top frame {top.name} is not a decision")
    require(
        state.deciding_player == top.player,
        f"deciding_player {state.deciding_player} is not the player of the top frame {top.name} ({top.player})",
    )
    require(state.war is not None or not _needs_war(state.stack), "a war frame is on the stack without a war")
    if state.amber >= 0:
        probe = state.clone()
        probe._check_amber_secured()
        require(probe.winner < 0, f"amber {state.amber} has already won: nobody else has a free prince")
    posed = state._posed_legal()
    require(
        posed is not None and posed == state.legal,
        f"legal {state.legal} is not what the rules offer at {top.name} ({posed})",
    )
    require(len(state.legal) == len(set(state.legal)), f"legal {state.legal} names an action twice")
    require(all(0 <= a < NUM_ACTIONS for a in state.legal), "legal names an action out of range")


def _needs_war(stack: list[Frame]) -> bool:
    return any(f.name in ("WAR", "BLOCK", "SHADOW_ARMIES", "SUPPORT", "SHADOW_MASTERY") for f in stack)


def _scalar(low: Any, high: Any) -> Callable[[Any, Any], int]:
    def convert(value: Any, game: Any) -> int:
        return as_integer(value, low(game) if callable(low) else low, high(game) if callable(high) else high)

    return convert


# The converter of each keyed entry of the position dict (``state.AmberState.fields``).
ENTRY_CHECKS: dict[str, Callable[[Any, Any], Any]] = {
    "hits": prince_list(0, max(max(row) for row in PRINCE_TABLE)),
    "alive": prince_list(0, 1),
    "controller": prince_list(-1, _seats),
    "role": prince_list(0, EXILE),
    "captured": prince_list(0, 1),
    "jailer": prince_list(-1, _seats),
    "armies": prince_list(0, LARGE),
    "amnesia": prince_list(0, LARGE),
    "psychic_hold": prince_list(0, 1),
    "acted": prince_list(0, 1),
    "player_prince": integer_list(-1, NUM_PRINCES - 1, lambda game: game.num_players),
    "hold_count": player_counts(lambda game: game.hold_turns),
    "in_game": player_counts(1),
    "elimination_order": seat_list(allow_none=True),
    "extra_turns": player_counts(LARGE),
    "contest_totals": integer_list(-LARGE, LARGE, 2),
    "known_top": known_top_entry,
    "legal": integer_list(0, NUM_ACTIONS - 1),
    "known_hand": known_hand_entry,
    "hands": hands_entry,
    "num_players": _scalar(lambda game: game.num_players, lambda game: game.num_players),
    "amber": _scalar(-1, _seats),
    "garrison": _scalar(0, LARGE),
    "eliminated_count": _scalar(0, lambda game: game.num_players),
    "turn_player": _scalar(0, _seats),
    "turns": _scalar(0, lambda game: game.max_turns),
    "pending_act": _scalar(-1, NUM_ACTS - 1),
    "acting_prince": _scalar(-1, NUM_PRINCES - 1),
    "target_prince": _scalar(-1, NUM_PRINCES - 1),
    "damaged_prince": _scalar(-1, NUM_PRINCES - 1),
    "damage_dealer": _scalar(-1, _seats),
    "contest_type": _scalar(Contest.NONE, Contest.WAR),
    "winner": _scalar(-1, _seats),
    "turn_limit_reached": _scalar(0, 1),
    "dice_used": _scalar(0, LARGE),
    "deciding_player": _scalar(-1, _seats),
    "attributes": attributes_entry,
    "dice": dice_entry,
    "deck": deck_entry,
    "stack": stack_entry,
    "war": war_entry,
}
