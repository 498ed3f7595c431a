"""
# Gold Rush Gangs

```{figure} gold_rush_gangs.png
:width: 400px
:name: gold_rush_gangs
```

| Import             | `from meeplezoo.envs import gold_rush_gangs_v0`                  |
|--------------------|--------------------------------------------------------|
| Actions            | Discrete                                               |
| Parallel API       | No                                                     |
| Manual Control     | No                                                     |
| Agents             | `agents= ['player_0', 'player_1', 'player_2']`         |
| Agents             | 3                                                      |
| Action Shape       | (1,)                                                   |
| Action Values      | Discrete(567)                                          |
| Observation Shape  | (10877,)                                               |
| Observation Values | [0, 1]                                                 |

Three rival gangs of thieves share a hexagonal board of radius 9 (271
cells). Each gang owns a home corner (a 4-cell base inside a 36-cell
territory), two amateur thieves and one professional, and 7 sacks of its own
gold lying under its thieves. Three neutral stores on the rim hold one sack
each and a bank in the centre holds three, behind a defence that must first
be worn down with 7 action points. Every turn a gang spends a pool of action
points (5, plus 1 per sack it has already delivered) moving its thieves one
cell at a time; a professional or any thief carrying gold pays 2 a step, an
amateur 1. A thief carries at most one sack, may not step onto lying gold
while carrying, and delivers by stepping into its own base. Stepping next
to an enemy thief starts a fight decided by the highest of the cards drawn
(one per amateur, two per professional, plus cards for adjacent friends;
Ace low, King high, ties to the attacker). The loser goes home for a turn and
drops its sack. The first gang to deliver 8 sacks wins.

The full rules as implemented, with every interpretation, are in
`seeds/gold_rush_gangs.md` in the repository (`meeplezoo rules gold_rush_gangs` when installed).

### Arguments

``` python
gold_rush_gangs_v0.env(render_mode=None, illegal_action="terminate", max_rounds=150, ...)
```

| key | default | meaning |
|---|---|---|
| `num_players` | 3 | only 3 |
| `radius` | 9 | board radius (4..15) |
| `territory_radius` / `base_radius` | 5 / 1 | territory and base around each home corner |
| `min_unit_spacing` | 4 | least distance between a gang's thieves at deployment |
| `base_ap` | 5 | action points per turn before delivery bonuses |
| `win_sacks` | 8 | deliveries needed to win |
| `bank_sacks` | 3 | sacks in the bank |
| `bank_threshold` | 7 | AP of breaking that open the bank |
| `bank_progress` | `"shared"` | `"per_player"`: each gang breaks the bank for itself |
| `store_placement` | `"choice"` | `"fixed"`: stores on the three non-home corners, no store step |
| `deck_mode` | `"deck"` | `"iid"`: every card drawn is a fresh uniform card |
| `ap_bonus_immediate` | `True` | a delivery also adds 1 AP to the current turn |
| `max_rounds` | 150 | movement rounds (3 turns each) before truncation |
| `reward_scheme` | `"zero_sum"` | `"win_only"`: winner +1, others 0 |
| `truncation_scoring` | `"draw"` | `"rank"`: truncated games scored by deliveries, rank-based |
| `relative_frame` | `True` | `False`: absolute cells and directions for every seat |
| `render_mode` | `None` | `"ansi"`, `"rgb_array"` or `"human"` |
| `illegal_action` | `"terminate"` | `"raise"`: an illegal action raises ValueError |

### Observation Space

A dict: `observation` is float32[10877] in [0, 1], the acting seat's view;
`action_mask` is int8[567] (all zeros when it is not that seat's turn).
Everything is seen from the observer's frame: its home is the bottom-left
corner (-9, 9) and the other gangs come as "next" (the seat after it) and
"prev". The first 10830 values are 30 planes of 19 x 19 (index
`[plane, r+9, q+9]`, off-board entries 0); then 47 scalars.

| planes | content |
|---|---|
| 0 | on-board cells |
| 1-3 | bases of me / next / prev |
| 4-6 | territories of me / next / prev |
| 7 | store-eligible rim cells |
| 8 | bank cell |
| 9 | placed stores |
| 10-12 | my active pro / amateur A / amateur B |
| 13-16 | next's active pro, next's amateurs (count / 2), prev's pro, prev's amateurs (count / 2) |
| 17-21 | carried sack at the carrier's cell, by origin me / next / prev / store / bank |
| 22-26 | lying sacks by origin me / next / prev / store / bank (count / 3) |
| 27-29 | incapacitated units of me / next / prev at their home (count / 3) |

| scalars | content |
|---|---|
| 0 | it is my turn |
| 1, 2 | remaining AP / 12, AP allowance / 12 |
| 3-5 | delivered me / next / prev, / 8 |
| 6-14 | turns still out / 2 for the 9 units (me pro, A, B; next...; prev...) |
| 15-23 | deployed flags for the same 9 units |
| 24-26 | phase: store, deploy, movement |
| 27, 28 | bank damage / 7, bank broken |
| 29-41 | cards of each rank left in the draw pile / 4 (public by counting) |
| 42 | draw pile size / 52 |
| 43 | movement turns played / turn limit |
| 44-46 | first player is me / next / prev |

### Action Space

Cells and directions are in the acting seat's frame (cell index: rows r
ascending, then q ascending; directions E, NE, NW, W, SW, SE).

| actions | meaning |
|---|---|
| 0-270 | place your store on cell c (setup) |
| 271-541 | deploy the next thief (pro, then A, then B) with its gold on cell c |
| 542-559 | move thief `slot` one cell in direction d: 542 + 6 slot + d |
| 560-562 | pick up a sack where the thief stands (0 AP) |
| 563-565 | break the bank from an adjacent cell (1 AP) |
| 566 | end the turn |

### Rewards

When a gang delivers its 8th sack the game terminates at once: the winner
gets +1 and the other two -0.5 (zero-sum). A game still running after
`max_rounds` rounds is truncated with 0 for everyone (or, with
`truncation_scoring="rank"`, rank-based on deliveries: +1 / 0 / -1, ties
averaged). An illegal action ends the game with -1 for the offender.

### Version History

* v0: first release.
"""

from meeplezoo.envs.core.aec import MeepleEnv, env_metadata
from meeplezoo.envs.gold_rush_gangs.rules import GoldRushGangsGame


class raw_env(MeepleEnv):
    game_cls = GoldRushGangsGame
    metadata = env_metadata("gold_rush_gangs_v0")


def env(**config):
    return raw_env(**config)
