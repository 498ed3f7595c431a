"""
# Amoeba

| Import             | `from meeplezoo.envs import amoeba_v0`                         |
|--------------------|--------------------------------------------------|
| Actions            | Discrete                                         |
| Parallel API       | No                                               |
| Manual control     | No                                               |
| Agents             | `agents = ['player_0', 'player_1']` (2 to 4)     |
| Agents             | 2-4                                              |
| Action shape       | (1,)                                             |
| Action values      | Discrete(543) at the default board (U = 24)      |
| Observation shape  | (9367,) int8 at the default board                |
| Observation values | [0, 127]                                         |
| Hidden information | yes (hands, pile order)                          |
| Chance             | yes (die, pile)                                  |

Amoeba is a tile-laying game for 2 to 4 players. Square tiles show pink and
blue fields along their sides; each side is split into two half-edges
("ports"), and every port is pink or blue. Tiles are laid next to the tiles
on the table, flush or shifted by half a tile, so that pink always meets pink
and blue meets blue. Joined pink pieces form amoebas; an amoeba with no pink
port left open is complete and may be claimed with a nucleus. Laying a tile on
top of an opponent's complete amoeba of four or more segments can split it:
the splitter takes the largest part(s). When the tiles run out, or nobody has
a nucleus left, every owned amoeba scores one point per segment.

Full rules as implemented, with every interpretation: `seeds/amoeba.md` in the repository (`meeplezoo rules amoeba` when installed).

## Turn and actions

A turn rolls a die (1-3 placements, automatic). Each placement is two
decisions: choose a hand tile and rotation, then an anchor (its top-left unit
on a half-tile grid of U x U units). At the end of the turn the player is
offered each claimable amoeba in turn (claim or decline). Forced passes are
resolved by the rules and never asked.

| Action                       | Meaning                                       |
|------------------------------|-----------------------------------------------|
| 0 .. 11                      | select hand slot s = a // 4, rotation a % 4   |
| 12 .. 12 + (U-1)^2 - 1       | anchor (r, c) = divmod(a - 12, U - 1)         |
| 12 + (U-1)^2                 | claim the amoeba on offer                     |
| 13 + (U-1)^2                 | decline it                                    |

## Observation

A flat int8 vector: 16 planes of U x U (per unit: occupied, second storey,
the unit's quarter of its tile, then for its vertical and its horizontal outer
port the piece number, open, amoeba size, complete, owner as relative seat,
on offer) followed by 151 global values (own hand, selection, die,
placements left, phase, first tile pending, per relative seat nuclei / score /
largest amoeba / hand size, pile size, 84 flags for tiles this player has not
seen, turn progress). Size 16 U^2 + 151 (9,367 at U = 24). `action_mask`
marks the legal actions of the player to move.

## Rewards

Zero until the end. Then rank-based and zero-sum: rank k of n is worth
1 - 2(k-1)/(n-1), ties (score, then largest amoeba) share the average. A game
that reaches `max_turns` is truncated and ranked on the current scores.
`reward_mode="score_diff"` gives (own score - mean of the others) / 50.

## Config

| key | default | meaning |
|---|---|---|
| num_players | 2 | 2 to 4 |
| board_units | 24 | U, even; the board is U x U half-tile units |
| nuclei_per_player | 10 | nuclei in each supply |
| hand_size | 3 | tiles held |
| die_faces | (1,1,2,2,3,3) | placements per turn |
| min_claim_size / min_split_size / min_part_size | 2 / 4 / 2 | |
| allow_rotation | True | False: only rotation 0 |
| remove_stuck_hand | True | a hand that cannot place a tile leaves the game |
| max_turns | 400 | truncation |
| reward_mode | "rank" | or "score_diff" |
| dice_override / pile_override | None | test hooks: die results / pile order |

`render_mode` ("ansi", "rgb_array", "human") and `illegal_action`
("terminate" or "raise") are env options.

## Version history

* v0: first release.
"""

from meeplezoo.envs.amoeba.rules import AmoebaGame
from meeplezoo.envs.core.aec import MeepleEnv, env_metadata


class raw_env(MeepleEnv):
    game_cls = AmoebaGame
    metadata = env_metadata("amoeba_v0")


def env(**config):
    return raw_env(**config)
