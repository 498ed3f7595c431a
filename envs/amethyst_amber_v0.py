"""
# Amethyst and Amber

| Import             | `from meeplezoo.envs import amethyst_amber_v0`                         |
|--------------------|----------------------------------------------------------|
| Actions            | Discrete                                                 |
| Parallel API       | No                                                       |
| Manual Control     | Yes (`meeplezoo play amethyst_amber`)                    |
| Agents             | `agents = ['player_0', 'player_1']` (Amethyst, Amber)    |
| Agents             | 2                                                        |
| Action Shape       | (1,)                                                     |
| Action Values      | Discrete(850)                                            |
| Observation Shape  | (7241,)                                                  |
| Observation Values | [0, 100] (int8)                                          |
| Chance / hidden    | none / none (deterministic, perfect information)         |

Two players fight over six neutral resource tokens on a trihexagonal board:
61 hexagons that touch each other only at their corners, with 120 triangles
between them. Each player owns 8 defenders, which live on the black triangles,
and 5 attackers, which walk from hexagon to hexagon. Two adjacent defenders of
one colour form a wall that closes the single corner-to-corner passage between
the two hexagons they sit on, for enemy attackers only. Attackers capture
whatever they step onto: a neutral resource, an enemy resource (freeing the
own attackers held under it), or an enemy attacker (which is then held under
the captor's nearest resource that has room). A captured resource must be put
back on a free green hexagon, showing its new owner, at the captor's next turn.
A player who **starts** a turn with 5 placed resources of their colour wins.

`player_0` is Amethyst (home edge at the bottom), `player_1` is Amber. First
both players place their defenders alternately, Amethyst first; then Amber
takes the first main turn (so Amber acts twice in a row at the boundary).
The full rules as implemented, with a board picture and every
interpretation, are in `seeds/amethyst_amber.md` in the repository (`meeplezoo rules amethyst_amber` when installed).

### Frames

Actions and observations are in the acting/observing player's frame: Amber
sees the board turned 180 degrees (hex h -> 60-h, triangle t -> 119-t,
direction d -> (d+3) % 6, brick (X, Y) -> (18-X, 18-Y)), so "my home" is always
at the bottom. `relative_frame=False` turns this off.

### Observation Space

A dict with `observation` (int8 vector of 7241) and `action_mask` (int8
vector of 850; all zeros for the agent not to move and after the end).
`observation` is 20 planes over the 19 x 19 brick grid (plane-major, then Y,
then X, 7220 values) followed by 21 scalars. Hexes sit at odd Y, triangles at
even Y; cells that are neither are always 0. Every value is a small
non-negative integer: planes are 0/1 except the prisoner counts, scalars
are raw counts and flags, and the largest possible value is the turn-limit
percentage (100), which is the Box's upper bound.

| Plane | Content |
|-------|---------|
| 0 | hexagon cells |
| 1 / 2 | black / yellow triangles |
| 3 / 4 | red / green hexagons |
| 5 / 6 | my / opponent's blue entry hexagons |
| 7 / 8 | my / opponent's defenders |
| 9 / 10 | my / opponent's attackers |
| 11 | neutral resources |
| 12 / 13 | my / opponent's placed resources |
| 14 / 15 | prisoners under my / opponent's resources (count, 0 .. resource_capacity) |
| 16 / 17 | my / opponent's defenders with an adjacent same-colour defender (wall pieces) |
| 18 | defenders the acting player already moved this turn |
| 19 | the selected defender |

| Scalar | Content |
|--------|---------|
| 0, 1 | my / opponent's attackers in reserve (count) |
| 2, 3 | my / opponent's unplaced defenders (count) |
| 4, 5 | my / opponent's resources in hand (count) |
| 6, 7 | my / opponent's placed resources (count) |
| 8, 9 | my / opponent's attackers held prisoner (count) |
| 10, 11 | phase one-hot (placement, main) |
| 12, 13, 14 | main-phase sub-step one-hot (turn start, choose destination, continue) |
| 15 | defenders moved this turn (count) |
| 16 | 1 if I am Amethyst |
| 17 | main turns completed as a whole percentage of max_main_turns (0 .. 100) |
| 18, 19 | my / opponent's resource with room for a prisoner exists |
| 20 | 1 if it is my turn |

### Action Space

All indices in the acting player's frame (T = triangle index 0..119, row by
row over the brick grid; h = hex index 0..60, row by row in axial r then q;
d = direction 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE).

| Actions | Meaning |
|---------|---------|
| 0 .. 119 | place a defender on triangle t (placement phase) |
| 120 .. 239 | select own defender on t to move it (main phase) |
| 240 .. 359 | move the selected defender to t (1 to 7 steps through empty black triangles) |
| 360 .. 420 | place an attacker from reserve on own blue hexagon h |
| 421 .. 481 | place a resource from hand on free green hexagon h (forced while possible) |
| 482 .. 847 | attacker on h steps in direction d: 482 + 6h + d (moves or captures) |
| 848 | end defender moves (after at least one; when no unmoved defender can move, the turn ends by itself and 848 is never offered, so do not play it by the rulebook's turn shape) |
| 849 | pass (only when nothing else is legal) |

Names: `place defender X,Y`, `select X,Y`, `move to X,Y`, `place attacker q,r`,
`place resource q,r`, `step q,r E`, `end defender moves`, `pass`
(coordinates in the acting player's frame).

### Rewards

+1 for the winner and -1 for the loser; 0 each when the main-turn limit ends
the game (or, with `truncation_result="resources"`, +1/-1 by placed resources,
0 if equal). An illegal action ends the game with -1 for the offender
(`illegal_action="raise"` raises instead).

### Arguments

| Key | Default | Meaning |
|-----|---------|---------|
| `max_main_turns` | 300 | main turns before truncation (placement turns not counted) |
| `win_resources` | 5 | placed resources needed at the start of one's turn |
| `defenders_per_player` | 8 | |
| `attackers_per_player` | 5 | |
| `defender_range` | 7 | most steps of one defender move |
| `max_defenders_per_turn` | 3 | |
| `group_limit` | 3 | largest allowed group of adjacent defenders |
| `group_limit_scope` | `"own"` | `"all"`: both colours count in one group |
| `resource_capacity` | 2 | prisoners one resource can hold |
| `green_scope` | `"any"` | `"own_half"`: resources only on the placer's six greens |
| `truncation_result` | `"draw"` | or `"resources"` |
| `main_first` | `"amber"` | who takes the first main turn |
| `relative_frame` | `True` | Amber's view and actions turned 180 degrees |
| `render_mode` | `None` | `"ansi"`, `"rgb_array"` or `"human"` |
| `illegal_action` | `"terminate"` | or `"raise"` |

### Version History

* v0: Initial release (int8 observation).
"""

from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame
from meeplezoo.envs.core.aec import MeepleEnv, env_metadata


class raw_env(MeepleEnv):
    game_cls = AmethystAmberGame
    metadata = env_metadata("amethyst_amber_v0")


def env(**config):
    return raw_env(**config)
