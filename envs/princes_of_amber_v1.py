"""
# Princes of Amber

| Import | `from meeplezoo.envs import princes_of_amber_v1` |
|---|---|
| Actions | Discrete(58) |
| Parallel API | No |
| Manual control | No |
| Agents | `agents = ['player_0', ..., 'player_{n-1}']` (2 to 5) |
| Action shape | (1,) |
| Action values | Discrete(58) |
| Observation shape | (916,) |
| Observation values | [0, 1] (float32) |

Two to five players each start with one Prince of Amber exiled in Shadow, while
a neutral King and three neutral Regents hold Amber. A 100-card Fate deck of
fights, psychic contests, intrigues, armies and tricks lets the players win
over neutral princes, wound, capture or kill rival princes, raise armies and
storm Amber. Contests are 2d6 plus an attribute (ties rerolled). Opponents
answer out of turn with Negate, Block, Capture and other cards: during such a
response window the responding player is the agent to act. A player wins by
holding Amber while every prince of the other players is dead or captured, by
holding Amber for five consecutive turns of their own, or by being the last
player left. The full rules as implemented are in `seeds/princes_of_amber.md` in the repository
(`meeplezoo rules princes_of_amber` when installed).

### Observation space

`observe(agent)` returns a dict with `observation` (float32, 916 entries, all
in [0, 1], from that agent's point of view; other players are numbered
relative to the viewer) and `action_mask` (int8, 58; all zero for agents not
to act).

| Slice | Size | Content |
|---|---|---|
| 0-314 | 9 x 35 | per prince: attributes, hits, alive, role, controller, player prince, captured, jailer, armies, amnesia, psychic hold, acted, context flags (acting, target, just damaged, losing side, attacking group) |
| 315-327 | 13 | Amber: controller, garrison, vacant throne, hold counters |
| 328-362 | 5 x 7 | players: in game, hand size, turn player, elimination order, extra turns, free princes, declined a regency |
| 363-398 | 36 | own hand, count per card kind |
| 399-542 | 4 x 36 | remembered cards in each opponent's hand (lower bounds) |
| 543-801 | 7 x 37 | remembered top 7 cards of the deck (kind or unknown) |
| 802-839 | 38 | deck size, discard size, discard count per kind |
| 840-860 | 21 | phase one-hot |
| 861-902 | 42 | pending card kind / non-card action |
| 903-912 | 10 | contest type, totals, war armies, garrison, bonuses, support |
| 913-915 | 3 | cards left to discard, I dealt the last damage, turn / max_turns |

### Action space

| Index | Meaning |
|---|---|
| 0-8 | `PRINCE(i)`: choose prince i (to act, as target, successor, appointee, or to accept a regency) |
| 9-12 | `PLAYER(j)`: the opponent j seats after me |
| 13-48 | `CARD(k)`: play or discard a card of kind k |
| 49-54 | non-card actions: bide, recuperate, fortune, intrigue, raise army, escape |
| 55 | end my action phase |
| 56 | pass (decline a window or an offer, stop appointing) |
| 57 | support an attack on Amber |

### Rewards

Zero until the game ends. Then rank-based and zero-sum: rank k of n is worth
1 - 2(k-1)/(n-1), tied players share. The winner ranks first, the other
players still in the game tie next, eliminated players follow (the later
eliminated ranking higher). At the turn limit every player still in the game
ties (or, with `truncation_ranking="amber_first"`, the Amber controller ranks
first) and the game is truncated.

### Eliminated players

A player whose last prince is gone is eliminated: he is never the agent to
act again, but he stays in `agents`, neither terminated nor truncated, until
the game ends; his termination and final reward (a rank below every player
still in) come with everybody's at the end. Clients that end an episode at
the first termination (Tianshou's PettingZoo wrapper) therefore see the whole
game; PettingZoo's own `agent_iter()` loop and this project's runners, which
skip nobody, cope as well.

### Hidden information and response windows

Hands and the deck order are secret. A response window (Negate, Block,
Capture, Not Really Dead...) is put to every eligible responder whenever his
hand could hold an answer, even if PASS is his only choice, and an action
phase no prince can act in is still asked while a playable free card could be
held: whose turn it is shows nothing about a hand. A window is skipped only
for public reasons (an empty hand, every copy of its cards in the discard
pile). `prompt_only_if_playable=True` skips a window whenever the responder
holds no card for it: shorter games, but the other players then see from the
phase and the seat to move whether he holds such a card.

### Config

| Key | Default | Meaning |
|---|---|---|
| `num_players` | 2 | 2 to 5 |
| `attribute_mode` | "table" | "table" (printed attributes) or "rolled" (2d6 each) |
| `garrison_start` | 12 | starting armies of Amber |
| `starting_hand` | 5 | cards dealt to each player |
| `hold_turns` | 5 | consecutive own turns holding Amber to win |
| `allow_support` | True | other players may support an attack on Amber |
| `regent_offers_to_players` | True | the King's controller may offer regencies to other players' princes |
| `prompt_only_if_playable` | False | True: skip card windows in which the responder holds no playable card (reveals that he holds none) |
| `amber_defenders` | "all_lords" | "all_lords" (every free Lord not on the attacker's side defends Amber, held or neutral) or "leader_only" (a neutral Amber's leader alone; a held one's King and player regents) |
| `max_turns` | 300 | player-turns before truncation |
| `truncation_ranking` | "tie" | "tie" or "amber_first" |
| `deck_counts` | None | dict card kind -> [[name, copies], ...]; None: the 100-card deck |
| `dice_override`, `deck_override`, `prince_order_override` | None | test hooks (scripted dice, deck top kinds, prince order) |

### Version history

* v0: initial release.
"""

from meeplezoo.envs.core.aec import MeepleEnv, env_metadata
from meeplezoo.envs.princes_of_amber.rules import AmberGame


class raw_env(MeepleEnv):
    game_cls = AmberGame
    metadata = env_metadata("princes_of_amber_v1")


def env(**config):
    return raw_env(**config)
