"""Wars on Amber in random Princes of Amber games: who wins them, and what they decide.

Seeded random legal play on the rules layer. Per configuration: the attacker's
win rate in wars on a neutral and on a held Amber, how often the first player to
take Amber goes on to win, the median game length in player-turns, the share
of games cut by the turn limit, and the share of games in which each Block and
Negate card is played at least once.

    python -m meeplezoo.benchmarks.princes_wars --players 2 --games 1000 --seed 0
    python -m meeplezoo.benchmarks.princes_wars --players 2 3 5 --games 1000 --seed 0 \\
        --config amber_defenders=leader_only prompt_only_if_playable=true
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

import numpy as np

from meeplezoo.cli import CommandParser, add_config_option, parse_config
from meeplezoo.envs.princes_of_amber.cards import A_CARD, NUM_KINDS, Kind, Phase
from meeplezoo.envs.princes_of_amber.rules import AmberGame

CARDS = (
    Kind.BLOCK_THE_WAY,
    Kind.WALLS_OF_AMBER,
    Kind.ARMY_LOSS,
    Kind.SHADOW_MASTERY,
    Kind.GET_AWAY,
    Kind.HIDE_IN_SHADOW,
    Kind.LORDS_IN_AMBER,
    Kind.BREAK_CONTACT,
    Kind.NEGATE_CAPTURE,
)
DISCARDS = (Phase.FATE_DISCARD, Phase.EFFECT_DISCARD)  # a card chosen here is thrown away, not played


@dataclass
class GameRecord:
    """What one game did."""

    wars: dict = field(default_factory=lambda: {"neutral": [0, 0], "held": [0, 0]})  # [fought, attacker won]
    first_taker: int = -1
    winner: int = -1
    turns: int = 0
    truncated: bool = False
    played: set = field(default_factory=set)


def play_game(game: AmberGame, seed: int) -> GameRecord:
    """One random game, seeded; every war, the first taking of Amber and the cards played."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    record = GameRecord()
    counted = None
    while not state.done:
        legal = state.legal_actions()
        action = int(legal[rng.integers(legal.size)])
        phase = state.stack[-1].phase
        if A_CARD <= action < A_CARD + NUM_KINDS and phase not in DISCARDS:
            record.played.add(action - A_CARD)
        state.apply(action)
        war = state.war
        if war is not None and war.won >= 0 and war is not counted:
            counted = war
            tally = record.wars["held" if war.defender >= 0 else "neutral"]
            tally[0] += 1
            tally[1] += war.won
        if record.first_taker < 0 and state.amber >= 0:
            record.first_taker = state.amber
    record.winner, record.turns, record.truncated = state.winner, state.turns, bool(state.truncated)
    return record


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else part / whole


def measure(players: int, games: int, seed: int, config: dict) -> dict:
    """The figures of ``games`` random games at ``players`` seats (seeds seed, seed + 1, ...)."""
    game = AmberGame(num_players=players, **config)
    records = [play_game(game, seed + k) for k in range(games)]
    row = {"players": players, "games": games, "config": config}
    for kind in ("neutral", "held"):
        fought = sum(r.wars[kind][0] for r in records)
        row[f"{kind}_wars"] = fought
        row[f"{kind}_attacker_wins"] = _share(sum(r.wars[kind][1] for r in records), fought)
    taken = [r for r in records if r.first_taker >= 0]
    row["games_with_a_taking"] = _share(len(taken), games)
    row["first_taker_wins"] = _share(sum(r.first_taker == r.winner for r in taken), len(taken))
    row["median_turns"] = float(np.median([r.turns for r in records]))
    row["turn_limit_ends"] = _share(sum(r.truncated for r in records), games)
    row["cards_played"] = {Kind(k).name: _share(sum(k in r.played for r in records), games) for k in CARDS}
    return row


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def markdown(rows: list[dict]) -> str:
    """Two tables: the wars and games, then the Block and Negate cards (share of games)."""
    lines = [
        "| players | wars on neutral Amber | attacker wins | wars on held Amber | attacker wins "
        "| games with a taking | first taker wins | median player-turns | turn-limit ends |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['neutral_wars']} | {_percent(r['neutral_attacker_wins'])} "
            f"| {r['held_wars']} | {_percent(r['held_attacker_wins'])} | {_percent(r['games_with_a_taking'])} "
            f"| {_percent(r['first_taker_wins'])} | {r['median_turns']:g} | {_percent(r['turn_limit_ends'])} |"
        )
    names = [Kind(k).name for k in CARDS]
    lines += ["", "| players | " + " | ".join(names) + " |", "|---:|" + "---:|" * len(names)]
    for r in rows:
        lines.append(
            f"| {r['players']} | " + " | ".join(_percent(r["cards_played"][n]) for n in names) + " |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = CommandParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2], help="seat counts (2 to 5)")
    parser.add_argument("--games", type=int, default=1000, help="games per seat count")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    add_config_option(parser, "Princes of Amber settings")
    args = parser.parse_args(argv)
    config = parse_config(args.config)
    rows = [measure(n, args.games, args.seed, config) for n in args.players]
    print(markdown(rows), end="")
    if args.json:
        words = sys.argv[1:] if argv is None else list(argv)
        with open(args.json, "w") as fh:
            rows_json = [
                {**r, "command": "python -m meeplezoo.benchmarks.princes_wars " + " ".join(words)}
                for r in rows
            ]
            json.dump(rows_json, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
