"""
# Gem Mountain


This environment is part of the meeplezoo tabletop games.

| Import               | `from meeplezoo.envs import gem_mountain_v0`                      |
|----------------------|---------------------------------------------------------|
| Actions              | Discrete                                                |
| Parallel API         | No                                                      |
| Manual Control       | No (use `meeplezoo play gem_mountain`)                  |
| Agents               | `agents= ['player_0', 'player_1']` (2 to 5 players)     |
| Action Shape         | (1,)                                                    |
| Action Values        | Discrete(M + 45): 81 for the 6x6 map, 109 for 8x8       |
| Observation Shape    | (113 M + 239,): 4,307 for 6x6, 7,471 for 8x8            |
| Observation Values   | int8 in [-127, 127] (almost all 0 or 1)                 |

Square tiles lie in a diamond-shaped "mountain" with an arrow pointing at one
corner. On each turn a player takes one tile from the layer of tiles nearest to
the arrow (the top of the mountain), then the arrow turns a quarter turn
clockwise. Gem tiles score at the end: the player holding the most of a gem
type adds its value per gem, the player holding the least subtracts it. Action
tiles are spent before or after the grab to bend the rules (move the arrow,
dig a layer deeper, take extra tiles). Four modules add face-down tiles (Dark
Tunnels), a second arrow, tiles split into sections (Gemshards) and chaotic
actions (Golden Actions). The full rules as implemented, with every
interpretation, are in `seeds/gem_mountain.md` in the repository (`meeplezoo rules gem_mountain` when installed).

### Arguments

``` python
gem_mountain_v0.env(num_players=2, map_rows=6, map_cols=6, dark_tunnels=False,
                    second_arrow=False, gemshards=False, golden_actions=False,
                    start_tiles="none", start_player_chooses_arrow=False,
                    action_limit="per_window", max_turns=None, reward_mode="rank",
                    render_mode=None, illegal_action="terminate")
```

| key | default | values |
|---|---|---|
| `num_players` | 2 | 2..5 |
| `map_rows`, `map_cols` | 6, 6 | 2..12 |
| `dark_tunnels`, `second_arrow`, `gemshards`, `golden_actions` | False | modules on/off |
| `start_tiles` | `"none"` | `none`, `action`, `action_secret`, `any`, `any_secret` |
| `start_player_chooses_arrow` | False | seat 0 first picks the starting corner and gets no start tile |
| `action_limit` | `"per_window"` | `per_window` (1 before + 1 after the grab), `per_turn` (1 a turn), `unlimited` |
| `max_turns` | None (= 4 R C) | turn limit (truncation), 1..100000 |
| `reward_mode` | `"rank"` | `rank` (rank k of n worth 1 - 2(k-1)/(n-1), ties averaged) or `score_diff` ((own - mean of others)/20) |
| `layout_override`, `rotation_override`, `arrow_override`, `holdings_override` | None | test hooks: tile names per cell (None = empty), rotations, arrow positions, each seat's starting gems/actions (`{"Ruby": 2, "Gust": 1, "secret": "Anchor"}`) |
| `render_mode` | None | `ansi`, `rgb_array`, `human` |
| `illegal_action` | `"terminate"` | `terminate` (offender -1, game ends) or `raise` (ValueError) |

### Observation Space

A dict of `observation` (int8 vector, the acting seat's own view, seats
relative to it) and `action_mask` (int8, all zeros for agents not to move).
The vector starts with 113 planes of M = R C values each: plane k of cell
i = r C + c is at index k M + i, so `obs[:113 * M].reshape(113, R, C)` gives
the planes as images. An empty cell is 0 in every plane.

| plane | count | meaning |
|---|---|---|
| 0 | 1 | a tile is here |
| 1 | 1 | it lies face up |
| 2 | 1 | its content is known to me (face up, or I peeked at it) |
| 3 | 4 x 24 | per section NE, SE, SW, NW: one-hot over 7 gems + 16 actions, or slot 23 = unknown |
| 99 | 5 | peeked at by relative seat 0..4 (public) |
| 104 | 2 x 3 | per arrow: distance from the arrow (layer index, 0..R+C-2), in its top layer, in its second layer |
| 110 | 1 | grabbable now (in some arrow's top layer) |
| 111 | 1 | Tunnel candidate (in some arrow's second layer) |
| 112 | 1 | distinct shards a grab here would give now, 0..4 (0 if unknown to me) |

Then 239 global values (counts are plain integers, capped at 127):

| offset | size | meaning |
|---|---|---|
| 0 | 2 x 9 | per arrow: present, position one-hot (N, NE, E, SE, S, SW, W, NW) |
| 18 | 5 x 26 | per relative seat: in use, gems held (7), action tiles held (16), holds a secret tile, score in [-127, 127] (public holdings; my own score counts my secret tile) |
| 148 | 24 | my secret tile: one-hot content, slot 23 = none |
| 172 | 7 | phase: PRE, GRAB, SECTION, POST, INFO, SUB-STEP, START |
| 179 | 16 | action tile being resolved |
| 195 | 4 | its sub-step |
| 199 | 2 | chosen arrow |
| 201 | 1 | extra grabs still owed (0..2) |
| 202 | 1 | Lantern peeks left (0..2) |
| 203 | 4 | turn flags: used PRE, used POST, Anchor, Prism active |
| 207 | 23 | contents not yet seen by me (pool as built, per shard) |
| 230 | 4 | modules on |
| 234 | 3 | action limit one-hot |
| 237 | 2 | turns played, turns left before `max_turns` (each capped at 127) |

### Action Space

One flat Discrete(M + 45) space; which block is legal depends on the phase.

| offset | size | meaning |
|---|---|---|
| 0 | M | CELL(r C + c): grab, Tunnel grab, peek, flip, Lantern peek, Turn Stone target |
| M | 4 | SECTION: NE, SE, SW, NW (which shard of a split tile to keep) |
| M + 4 | 16 | USE an action tile: Gust, Compass, Pickaxe, Tunnel, Anchor, Lantern, Flare, Turn Stone, Prism, Thief, Gift, Avalanche, Earthquake, Greed, Twister, (reserved) |
| M + 20 | 2 | ARROW 1 or 2 (only with two arrows) |
| M + 22 | 8 | POS: Compass target; starting corner (variant) |
| M + 30 | 2 | DIR: clockwise, counter-clockwise |
| M + 32 | 4 | OPP: the opponent j + 1 seats after me |
| M + 36 | 7 | GEM type (Thief, Gift) |
| M + 43 | 1 | DONE (close the window / stop Lantern) |
| M + 44 | 1 | PASS (never needed with these rules) |

### Rewards

Zero until the game ends. Then, by default, rank rewards: rank k of n is worth
1 - 2(k - 1)/(n - 1) and tied players share the average (2 players: +1 / -1,
0 each on a tie). With `reward_mode="score_diff"`: (own score - mean of the
other scores) / 20. A game that reaches `max_turns` is truncated and scored
from the current holdings (it cannot happen with these rules: every turn
removes a tile).

### Version History

* v0: Initial release (base game, four modules, all variants). The
  observation is the compact int8 layout above (the specification's float32
  vector of 113 M + 238 values, same information: plane-major, counts as
  integers instead of scaled floats, and the turn as two capped counters).
"""

from meeplezoo.envs.core.aec import MeepleEnv, env_metadata
from meeplezoo.envs.gem_mountain.rules import GemMountainGame


class raw_env(MeepleEnv):
    game_cls = GemMountainGame
    metadata = env_metadata("gem_mountain_v0")


def env(**config):
    return raw_env(**config)
