"""Princes of Amber: rules state and transitions (no PettingZoo here).

Resolution runs on an explicit stack of small dict *frames*. Automatic
frames (a Fight in progress, damage, a capture, a war...) do their work and
push or pop frames; decision frames (windows and choices) stop the driver
and name the player who decides. Everything is plain data, so clone,
to_dict and determinize stay simple, and a nested chain such as
Fight -> death -> the King falls -> take Amber -> appoint -> succession is
just frames resolved top first.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core.cards import Deck
from meeplezoo.envs.core.dice import check_die_script, contest_with, roll, roll_sum, scripted_or_rolled
from meeplezoo.envs.core.ranking import rank_rewards
from meeplezoo.envs.core.state import (
    Game,
    GameInfo,
    State,
    clone_rng,
    derive_rng,
    make_rng,
    rng_from_dict,
    rng_to_dict,
)
from meeplezoo.envs.core.turns import next_seat
from meeplezoo.envs.princes_of_amber import cards as C
from meeplezoo.envs.princes_of_amber.cards import (
    A_CARD,
    A_END,
    A_NONCARD,
    A_PASS,
    A_PLAYER,
    A_SUPPORT,
    EXILE,
    KING,
    LEAD,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_PRINCES,
    PRINCE_TABLE,
    REGENT_POSTS,
    WIT,
)

K = {name: i for i, name in enumerate(C.KIND_NAMES)}
FIGHT, CAPTURE, CALL_THE_GUARDS, PRISONER_OF_WAR = (
    K["FIGHT"],
    K["CAPTURE"],
    K["CALL_THE_GUARDS"],
    K["PRISONER_OF_WAR"],
)
GET_AWAY, HIDE_IN_SHADOW, LORDS_IN_AMBER = K["GET_AWAY"], K["HIDE_IN_SHADOW"], K["LORDS_IN_AMBER"]
NEGATE_CAPTURE, BLOCK_THE_WAY, SHADOW_MASTERY = K["NEGATE_CAPTURE"], K["BLOCK_THE_WAY"], K["SHADOW_MASTERY"]
BREAK_CONTACT, CONQUER, WALLS_OF_AMBER, ARMY_LOSS = (
    K["BREAK_CONTACT"],
    K["CONQUER"],
    K["WALLS_OF_AMBER"],
    K["ARMY_LOSS"],
)
SHADOW_ARMIES, BATTLE_WOUNDS, EXILE_CARD, DISTRACTIONS = (
    K["SHADOW_ARMIES"],
    K["BATTLE_WOUNDS"],
    K["EXILE"],
    K["DISTRACTIONS"],
)
TRUMP_TRAVEL, EMOTIONAL_FURY, SHOW_MERCY, AMNESIA = (
    K["TRUMP_TRAVEL"],
    K["EMOTIONAL_FURY"],
    K["SHOW_MERCY"],
    K["AMNESIA"],
)
BLESSING, NOT_REALLY_DEAD, SHADOW_ASSASSINS = K["BLESSING"], K["NOT_REALLY_DEAD"], K["SHADOW_ASSASSINS"]
GAIN_NEUTRAL, BETRAYAL, WALK_THE_PATTERN, LOOK_AHEAD = (
    K["GAIN_NEUTRAL"],
    K["BETRAYAL"],
    K["WALK_THE_PATTERN"],
    K["LOOK_AHEAD"],
)
GOSSIP, ESCAPE_ACTION, PSYCHIC_HOLD, CONTEST_OF_WILLS = (
    K["GOSSIP"],
    K["ESCAPE_ACTION"],
    K["PSYCHIC_HOLD"],
    K["CONTEST_OF_WILLS"],
)
MENTAL_DOMINATION, PSYCHIC_ATTACK, MIND_PROBE = K["MENTAL_DOMINATION"], K["PSYCHIC_ATTACK"], K["MIND_PROBE"]
NC = C.NONCARD_BASE
BIDE, RECUPERATE, FORTUNE, INTRIGUE, RAISE_ARMY, ESCAPE = (NC + m for m in range(6))

ACTION_KINDS = C.ACTION_KINDS
FREE_KINDS = C.FREE_KINDS
WILL_KINDS = frozenset(C.WILL_KINDS)
PRINCE_TARGET = frozenset(
    {
        FIGHT,
        SHADOW_ASSASSINS,
        GAIN_NEUTRAL,
        BETRAYAL,
        ESCAPE_ACTION,
        TRUMP_TRAVEL,
        AMNESIA,
        INTRIGUE,
        BATTLE_WOUNDS,
        PRISONER_OF_WAR,
    }
    | set(C.WILL_KINDS)
)
PLAYER_TARGET = frozenset({EXILE_CARD, GOSSIP})
CONTEST_NONE, CONTEST_FIGHT, CONTEST_WILL, CONTEST_WAR = range(4)
DECISIONS = frozenset(C.PHASES[:-1])
NEVER = 10**6  # hand limit while a player has no prince (never happens at a Fate phase)


# --------------------------------------------------------------------------- game
class AmberGame(Game):
    """One configuration of Princes of Amber."""

    info = GameInfo(
        name="princes_of_amber_v0",
        title="Princes of Amber",
        min_players=2,
        max_players=5,
        default_players=2,
        hidden_information=True,
        chance=True,
        zero_sum=True,
        rules_page="seeds/princes_of_amber.md",
    )
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "attribute_mode": "table",
        "garrison_start": 12,
        "starting_hand": 5,
        "hold_turns": 5,
        "allow_support": True,
        "regent_offers_to_players": True,
        "prompt_only_if_playable": True,
        "max_turns": 300,
        "truncation_ranking": "tie",
        "deck_counts": C.DEFAULT_DECK,
        "dice_override": None,
        "deck_override": None,
        "prince_order_override": None,
    }
    test_configs: ClassVar[list[dict]] = [
        {"num_players": 3},
        {"num_players": 4, "prompt_only_if_playable": False},
        {"num_players": 5},
        {
            "num_players": 2,
            "attribute_mode": "rolled",
            "regent_offers_to_players": False,
            "allow_support": False,
            "truncation_ranking": "amber_first",
            "max_turns": 60,
        },
        {"num_players": 3, "hold_turns": 2, "garrison_start": 3},
    ]

    def validate(self) -> None:
        cfg = self.config
        if cfg["attribute_mode"] not in ("table", "rolled"):
            raise ValueError(f"attribute_mode must be 'table' or 'rolled', got {cfg['attribute_mode']!r}")
        for key, low in (("garrison_start", 0), ("starting_hand", 0), ("hold_turns", 1), ("max_turns", 1)):
            v = cfg[key]
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < low:
                raise ValueError(f"{key} must be an integer >= {low}, got {v!r}")
        for key in ("allow_support", "regent_offers_to_players", "prompt_only_if_playable"):
            if not isinstance(cfg[key], (bool, np.bool_)):
                raise ValueError(f"{key} must be True or False, got {cfg[key]!r}")
        if cfg["truncation_ranking"] not in ("tie", "amber_first"):
            raise ValueError(
                f"truncation_ranking must be 'tie' or 'amber_first', got {cfg['truncation_ranking']!r}"
            )
        dc = cfg["deck_counts"]
        if not isinstance(dc, dict) or any(k not in C.KIND_NAMES for k in dc):
            raise ValueError(f"deck_counts must be a dict keyed by card kinds {list(C.KIND_NAMES)}")
        for kname, entries in dc.items():
            for entry in entries:
                if len(entry) != 2 or not isinstance(entry[1], (int, np.integer)) or entry[1] < 0:
                    raise ValueError(
                        f"deck_counts[{kname!r}] entries must be [name, copies >= 0], got {entry!r}"
                    )
        self.card_kind, self.card_name = C.build_card_list(dc)
        self.num_cards = len(self.card_kind)
        if self.num_cards < cfg["starting_hand"] * self.num_players:
            raise ValueError("deck_counts holds too few cards to deal starting_hand to every player")
        check_die_script(cfg["dice_override"], "dice_override", 1, 6, self.info.name)
        po = cfg["prince_order_override"]
        if po is not None and sorted(po) != list(range(NUM_PRINCES)):
            raise ValueError("prince_order_override must be None or a permutation of the prince ids 0..8")
        do = cfg["deck_override"]
        if do is not None and (not isinstance(do, (list, tuple)) or any(k not in C.KIND_NAMES for k in do)):
            raise ValueError("deck_override must be None or a list of card kind names (top first)")
        self.num_actions = NUM_ACTIONS
        self.reward_range = (-1.0, 1.0)
        self.max_turns = int(cfg["max_turns"])
        self.hold_turns = int(cfg["hold_turns"])
        self.prompt_only = bool(cfg["prompt_only_if_playable"])
        self.offers = bool(cfg["regent_offers_to_players"])
        self.allow_support = bool(cfg["allow_support"])
        self.table_attrs = [list(row) for row in PRINCE_TABLE]
        self.attr_block = np.asarray(self.table_attrs, dtype=np.float32) / 12.0
        self.card_kind_arr = np.array(self.card_kind, dtype=np.int64)
        self.kind_cards = [
            [c for c in range(self.num_cards) if self.card_kind[c] == k] for k in range(NUM_KINDS)
        ]

    def new_initial_state(self, seed: int | None = None) -> AmberState:
        return AmberState.setup(self, make_rng(seed))

    def state_from_dict(self, data: dict) -> AmberState:
        return AmberState.from_dict(self, data)


# --------------------------------------------------------------------------- state
class AmberState(State):
    """One position of Princes of Amber."""

    FIELDS = (
        "hits",
        "alive",
        "ctrl",
        "role",
        "captured",
        "jailer",
        "armies",
        "amnesia",
        "hold",
        "acted",
        "pp",
        "amber",
        "G",
        "hold_count",
        "in_game",
        "elim_order",
        "n_elim",
        "extra",
        "hands",
        "known_top",
        "known_hand",
        "turn_player",
        "turns",
        "stack",
        "war",
        "act",
        "c_a",
        "c_t",
        "c_dmg",
        "c_dealer",
        "c_type",
        "c_tot",
        "winner",
        "trunc",
        "attrs",
        "dice",
        "dice_i",
        "cur",
        "legal",
    )

    # ---- construction -------------------------------------------------------
    @classmethod
    def setup(cls, game: AmberGame, rng: np.random.Generator) -> AmberState:
        s = cls.__new__(cls)
        s.game = game
        s.rng = rng
        n = game.num_players
        cfg = game.config
        s.n = n
        s.deck = Deck.shuffled(range(game.num_cards), rng)
        if cfg["deck_override"]:
            top = []
            for kname in cfg["deck_override"]:
                k = K[kname]
                idx = next(
                    i
                    for i in range(len(s.deck.draw_pile) - 1, -1, -1)
                    if game.card_kind[s.deck.draw_pile[i]] == k
                )
                top.append(s.deck.draw_pile.pop(idx))
            s.deck.draw_pile.extend(reversed(top))
        s.hands = [[] for _ in range(n)]
        s.hk = [[0] * NUM_KINDS for _ in range(n)]
        s.known_top = [[] for _ in range(n)]
        s.known_hand = [[None] * n for _ in range(n)]
        for p in range(n):
            for _ in range(cfg["starting_hand"]):
                c = s.deck.draw_pile.pop()
                s.hands[p].append(c)
                s.hk[p][game.card_kind[c]] += 1
        order = (
            list(cfg["prince_order_override"])
            if cfg["prince_order_override"]
            else [int(x) for x in rng.permutation(NUM_PRINCES)]
        )
        if cfg["attribute_mode"] == "rolled":
            s.attrs = [[roll_sum(rng, 2) for _ in range(5)] for _ in range(NUM_PRINCES)]
        else:
            s.attrs = game.table_attrs
        s.hits = [s.attrs[i][0] for i in range(NUM_PRINCES)]
        s.alive = [1] * NUM_PRINCES
        s.ctrl = [-1] * NUM_PRINCES
        s.role = [EXILE] * NUM_PRINCES
        s.captured = [0] * NUM_PRINCES
        s.jailer = [-1] * NUM_PRINCES
        s.armies = [0] * NUM_PRINCES
        s.amnesia = [0] * NUM_PRINCES
        s.hold = [0] * NUM_PRINCES
        s.acted = [0] * NUM_PRINCES
        s.pp = [-1] * n
        for p in range(n):
            s.pp[p] = order[p]
            s.ctrl[order[p]] = p
        s.role[order[n]] = KING
        for j, post in enumerate(REGENT_POSTS):
            s.role[order[n + 1 + j]] = post
        s.amber = -1
        s.G = int(cfg["garrison_start"])
        s.hold_count = [0] * n
        s.in_game = [1] * n
        s.elim_order = [-1] * n
        s.n_elim = 0
        s.extra = [0] * n
        s.turn_player = 0
        s.turns = 0
        s.stack = [{"t": "TURN", "p": 0}]
        s.war = None
        s.act = -1
        s.c_a = s.c_t = s.c_dmg = s.c_dealer = -1
        s.c_type = CONTEST_NONE
        s.c_tot = [0, 0]
        s.winner = -1
        s.trunc = 0
        s.dice = list(cfg["dice_override"] or [])
        s.dice_i = 0
        s.cur = -1
        s.legal = []
        s._run()
        return s

    # ---- contract -----------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.cur

    @property
    def terminal(self) -> bool:
        return self.winner >= 0

    @property
    def truncated(self) -> bool:
        return bool(self.trunc) and self.winner < 0

    def legal_action_mask(self) -> np.ndarray:
        m = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.cur >= 0:
            m[self.legal] = True
        return m

    def legal_actions(self) -> np.ndarray:
        return np.array(sorted(self.legal) if self.cur >= 0 else [], dtype=np.int64)

    def _is_legal(self, action: int) -> bool:
        """The legal list answers without building the numpy mask (it may
        be stale once the game is over, hence the seat test)."""
        return self.cur >= 0 and action in self.legal

    def _apply_action(self, a: int) -> None:
        f = self.stack[-1]
        APPLY[f["t"]](self, f, a)
        self._run()

    def returns(self) -> np.ndarray:
        n = self.n
        if self.winner < 0 and not self.trunc:
            return np.zeros(n)
        scores = []
        for p in range(n):
            if not self.in_game[p]:
                scores.append((0, self.elim_order[p]))
            elif self.winner == p:
                scores.append((2, 0))
            elif (
                self.winner < 0
                and self.game.config["truncation_ranking"] == "amber_first"
                and self.amber == p
            ):
                scores.append((2, 0))
            else:
                scores.append((1, 0))
        return rank_rewards(scores)

    def strength(self, p: int) -> float:
        """Heuristic material of an in-game player: holding Amber (more the
        longer it is held), his free princes (weighted by health), captured
        princes a little, armies and cards in hand a little."""
        x = 0.0
        if self.amber == p:
            x += 6.0 + 4.0 * self.hold_count[p] / self.game.hold_turns
        attrs, hits = self.attrs, self.hits
        for i in range(NUM_PRINCES):
            if self.ctrl[i] == p and self.alive[i]:
                health = max(hits[i], 0) / max(attrs[i][0], 1)
                x += (0.4 if self.captured[i] else 1.5 + health) + 0.2 * self.armies[i]
        return x + 0.15 * len(self.hands[p])

    def evaluate(self) -> np.ndarray:
        """Estimated returns: exact once over; otherwise eliminated players keep
        their certain rank value and the players still in share the rest,
        shifted by how their strength compares (linear, zero-sum, kept inside
        the values their final ranks could take)."""
        if self.winner >= 0 or self.trunc:
            return self.returns()
        n = self.n
        base = rank_rewards([(1, 0) if self.in_game[p] else (0, self.elim_order[p]) for p in range(n)])
        alive = [p for p in range(n) if self.in_game[p]]
        m = len(alive)
        if m < 2:
            return base
        b = float(base[alive[0]])
        low = 1.0 - 2.0 * (m - 1) / (n - 1)
        c = 0.8 * min(1.0 - b, b - low)
        xs = {p: self.strength(p) for p in alive}
        mean = sum(xs.values()) / m
        dev = {p: xs[p] - mean for p in alive}
        scale = max(abs(d) for d in dev.values()) + 4.0
        out = np.array(base, dtype=float)
        for p in alive:
            out[p] = b + c * dev[p] / scale
        return out

    def phase_name(self) -> str:
        if self.cur < 0:
            return "GAME_OVER"
        return self.stack[-1]["t"]

    # ---- helpers: dice, cards, memory ----------------------------------------
    def d6(self) -> int:
        result, self.dice_i = scripted_or_rolled(self.dice, self.dice_i, self._roll_d6)
        return result

    def _roll_d6(self) -> int:
        """One unscripted die from the state's generator."""
        return roll(self.rng)

    def free(self, i: int) -> bool:
        return self.alive[i] and not self.captured[i]

    def wit_limit(self, p: int) -> int:
        k = self.pp[p]
        return self.attrs[k][WIT] if k >= 0 else NEVER

    def _reshuffle(self) -> None:
        self.deck.reshuffle_discard(self.rng)
        self.known_top = [[] for _ in range(self.n)]

    def draw(self, p: int, count: int = 1) -> None:
        ck = self.game.card_kind
        for _ in range(count):
            dp = self.deck.draw_pile
            if not dp:
                if not self.deck.discard:
                    return
                self._reshuffle()
                dp = self.deck.draw_pile
            c = dp.pop()
            k = ck[c]
            self.hands[p].append(c)
            self.hk[p][k] += 1
            kt = self.known_top
            for o in range(self.n):
                if kt[o]:
                    kt[o] = kt[o][1:]
                    if o != p:
                        row = self.known_hand[o]
                        h = list(row[p]) if row[p] is not None else [0] * NUM_KINDS
                        h[k] += 1
                        row[p] = h

    def _take_card(self, p: int, k: int) -> None:
        """Move one card of kind k from p's hand to the discard pile (public)."""
        hand = self.hands[p]
        ck = self.game.card_kind
        for idx in range(len(hand) - 1, -1, -1):
            if ck[hand[idx]] == k:
                self.deck.discard.append(hand.pop(idx))
                break
        else:  # pragma: no cover - guarded by the masks
            raise RuntimeError("card not in hand")
        self.hk[p][k] -= 1
        for o in range(self.n):
            if o != p:
                h = self.known_hand[o][p]
                if h is not None and h[k] > 0:
                    h = list(h)
                    h[k] -= 1
                    self.known_hand[o][p] = h

    def peek(self, p: int, x: int) -> None:
        if not self.deck.draw_pile and self.deck.discard:
            self._reshuffle()
        dp = self.deck.draw_pile
        m = min(len(dp), max(x, len(self.known_top[p])))
        ck = self.game.card_kind
        self.known_top[p] = [ck[dp[-1 - i]] for i in range(m)]

    def reveal_hand(self, p: int, o: int) -> None:
        self.known_hand[p][o] = list(self.hk[o])

    # ---- helpers: princes ----------------------------------------------------
    def lead(self, i: int) -> int:
        return self.attrs[i][LEAD]

    def vacant_posts(self) -> list[int]:
        held = set(self.role)
        return [r for r in REGENT_POSTS if r not in held]

    def controls_regent(self, p: int) -> bool:
        return any(self.ctrl[i] == p and 0 < self.role[i] < EXILE for i in range(NUM_PRINCES))

    def opponents(self, p: int) -> list[int]:
        n = self.n
        return [(p + j) % n for j in range(1, n) if self.in_game[(p + j) % n]]

    def prince_targets(self, p: int, a: int, code: int, lose=None) -> list[int]:
        """Legal prince targets of act ``code`` by player p (acting prince a)."""
        alive, ctrl, cap, role, pp = self.alive, self.ctrl, self.captured, self.role, self.pp
        R = range(NUM_PRINCES)
        if code in (FIGHT, SHADOW_ASSASSINS, PSYCHIC_HOLD, PSYCHIC_ATTACK):
            return [i for i in R if alive[i] and not cap[i] and ctrl[i] != p]
        if code in (CONTEST_OF_WILLS, MIND_PROBE):
            return [i for i in R if alive[i] and not cap[i] and ctrl[i] >= 0 and ctrl[i] != p]
        if code == MENTAL_DOMINATION:
            return [
                i
                for i in R
                if alive[i]
                and not cap[i]
                and ctrl[i] != p
                and role[i] == EXILE
                and not (ctrl[i] >= 0 and pp[ctrl[i]] == i)
            ]
        if code == GAIN_NEUTRAL:
            return [i for i in R if alive[i] and ctrl[i] < 0 and role[i] == EXILE]
        if code == BETRAYAL:
            return [i for i in R if alive[i] and ctrl[i] >= 0 and ctrl[i] != p and pp[ctrl[i]] != i]
        if code == INTRIGUE:
            return [
                i
                for i in R
                if alive[i]
                and (
                    (ctrl[i] < 0 and role[i] == EXILE) or (ctrl[i] >= 0 and ctrl[i] != p and pp[ctrl[i]] != i)
                )
            ]
        if code in (ESCAPE_ACTION, TRUMP_TRAVEL):
            return [i for i in R if alive[i] and cap[i] and ctrl[i] == p]
        if code == AMNESIA:
            return [i for i in R if alive[i] and role[i] == EXILE and ctrl[i] >= 0 and ctrl[i] != p]
        if code in (BATTLE_WOUNDS, PRISONER_OF_WAR):
            return [i for i in lose if alive[i] and not cap[i] and ctrl[i] != p]
        raise AssertionError(code)  # pragma: no cover

    def player_targets(self, p: int, code: int) -> list[int]:
        if code == GOSSIP:
            return self.opponents(p)
        return [
            o
            for o in self.opponents(p)
            if self.pp[o] >= 0 and self.alive[self.pp[o]] and self.role[self.pp[o]] == EXILE
        ]

    def act_legal(self, p: int, a: int, code: int) -> bool:
        """Whether act ``code`` (card kind or NC+m) is playable now by p with acting prince a (-1: free card)."""
        if code == CONQUER:
            k = self.pp[p]
            return (
                self.free(a)
                and self.role[a] == EXILE
                and self.armies[a] >= 1
                and k >= 0
                and self.free(k)
                and self.amber != p
            )
        if code == ESCAPE_ACTION and a >= 0 and self.captured[a]:
            return True
        if code in PRINCE_TARGET:
            return bool(self.prince_targets(p, a, code))
        if code in PLAYER_TARGET:
            return bool(self.player_targets(p, code))
        if code == LOOK_AHEAD or code == FORTUNE:
            return bool(self.deck.draw_pile) or bool(self.deck.discard)
        if code == DISTRACTIONS:
            return self.amber >= 0 and self.amber != p and bool(self.in_game[self.amber])
        if code == RECUPERATE:
            return self.hits[a] < self.attrs[a][0]
        return True  # WALK_THE_PATTERN, BLESSING, BIDE, RAISE_ARMY

    # ---- the driver ------------------------------------------------------------
    def _run(self) -> None:
        stack = self.stack
        while True:
            if self.winner >= 0 or self.trunc:
                self.stack = []
                self.cur = -1
                self.legal = []
                return
            if self.amber >= 0:
                self._check_v1()
                if self.winner >= 0:
                    continue
            f = stack[-1]
            t = f["t"]
            auto = AUTO.get(t)
            if auto is not None:
                auto(self, f)
                continue
            legal = LEGAL[t](self, f)
            if legal is None:
                stack.pop()
                continue
            self.legal = legal
            self.cur = f["p"]
            return

    def _check_v1(self) -> None:
        k = self.amber
        for p in range(self.n):
            if self.in_game[p] and self.pp[p] < 0:
                return  # a succession is owed
        ctrl, alive, cap = self.ctrl, self.alive, self.captured
        for i in range(NUM_PRINCES):
            c = ctrl[i]
            if c >= 0 and c != k and alive[i] and not cap[i]:
                return
        self.winner = k

    def eliminate(self, p: int) -> None:
        self.in_game[p] = 0
        self.elim_order[p] = self.n_elim
        self.n_elim += 1
        ck = self.game.card_kind
        for c in self.hands[p]:
            self.deck.discard.append(c)
        self.hands[p] = []
        self.hk[p] = [0] * NUM_KINDS
        for o in range(self.n):
            self.known_hand[o][p] = None
        del ck
        self.extra[p] = 0
        self.hold_count[p] = 0
        for i in range(NUM_PRINCES):
            if self.ctrl[i] == p:
                self.ctrl[i] = -1
        left = [q for q in range(self.n) if self.in_game[q]]
        if len(left) == 1:
            self.winner = left[0]

    # ---- Amber ------------------------------------------------------------------
    def take_amber(self, q: int) -> None:
        role, ctrl = self.role, self.ctrl
        for i in range(NUM_PRINCES):
            if role[i] != EXILE:
                role[i] = EXILE
        k = self.pp[q]
        role[k] = KING
        self.G += self.armies[k]
        self.armies[k] = 0
        others = sorted(
            (i for i in range(NUM_PRINCES) if ctrl[i] == q and i != k and self.free(i)),
            key=lambda i: (-self.lead(i), i),
        )
        for post, i in zip(REGENT_POSTS, others):
            role[i] = post
            self.G += self.armies[i]
            self.armies[i] = 0
        self.amber = q
        self.hold_count = [0] * self.n
        if len(others) < 3:
            self.stack.append({"t": "APPOINT", "p": q, "dec": []})

    def fall_neutral(self) -> None:
        k = self.amber
        role, ctrl = self.role, self.ctrl
        for i in range(NUM_PRINCES):
            if 0 < role[i] < EXILE:
                if ctrl[i] == k:
                    ctrl[i] = -1
                elif ctrl[i] >= 0:
                    role[i] = EXILE
        if KING not in role:
            best = -1
            for i in range(NUM_PRINCES):
                if 0 < role[i] < EXILE and self.free(i) and (best < 0 or self.lead(i) > self.lead(best)):
                    best = i
            if best >= 0:
                role[best] = KING
        self.amber = -1
        self.hold_count = [0] * self.n

    def fill_post(self, j: int) -> None:
        self.role[j] = self.vacant_posts()[0]
        self.G += self.armies[j]
        self.armies[j] = 0

    def escape(self, i: int) -> None:
        self.captured[i] = 0
        self.jailer[i] = -1
        self.role[i] = EXILE

    # ---- starting an act ----------------------------------------------------
    def start_act(self, p: int, a: int, code: int) -> None:
        """The act is chosen and paid for: ask for its target or resolve it."""
        self.act = code
        self.c_a = a
        self.c_t = -1
        self.war = None
        self.c_type = CONTEST_NONE
        self.c_dmg = self.c_dealer = -1
        if code == ESCAPE_ACTION and a >= 0 and self.captured[a]:
            self.resolve(p, a, code, a)
        elif code in PRINCE_TARGET:
            self.stack.append({"t": "TARGET_PRINCE", "p": p, "a": a, "c": code})
        elif code in PLAYER_TARGET:
            self.stack.append({"t": "TARGET_PLAYER", "p": p, "a": a, "c": code})
        else:
            self.resolve(p, a, code, -1)

    def resolve(self, p: int, a: int, code: int, t: int) -> None:
        self.c_t = t if code not in PLAYER_TARGET else -1
        RESOLVE[code](self, p, a, t)

    # ---- copies ------------------------------------------------------------------
    def clone(self) -> AmberState:
        s = AmberState.__new__(AmberState)
        s.game = self.game
        s.rng = clone_rng(self.rng)
        s.n = self.n
        s.attrs = self.attrs  # never changes after setup
        for name in (
            "hits",
            "alive",
            "ctrl",
            "role",
            "captured",
            "jailer",
            "armies",
            "amnesia",
            "hold",
            "acted",
            "pp",
            "hold_count",
            "in_game",
            "elim_order",
            "extra",
            "c_tot",
            "known_top",
            "legal",
        ):
            setattr(s, name, getattr(self, name)[:])
        s.known_hand = [row[:] for row in self.known_hand]
        s.hands = [h[:] for h in self.hands]
        s.hk = [h[:] for h in self.hk]
        s.deck = Deck(self.deck.draw_pile, self.deck.discard)
        s.stack = [dict(f) for f in self.stack]
        s.war = dict(self.war) if self.war is not None else None
        for name in (
            "amber",
            "G",
            "n_elim",
            "turn_player",
            "turns",
            "act",
            "c_a",
            "c_t",
            "c_dmg",
            "c_dealer",
            "c_type",
            "winner",
            "trunc",
            "dice_i",
            "cur",
        ):
            setattr(s, name, getattr(self, name))
        s.dice = self.dice
        return s

    def to_dict(self) -> dict:
        d = {name: _jsonable(getattr(self, name)) for name in self.FIELDS}
        d["hk"] = [h[:] for h in self.hk]
        d["deck"] = self.deck.to_dict()
        d["rng"] = rng_to_dict(self.rng)
        d["num_players"] = self.n
        return d

    @classmethod
    def from_dict(cls, game: AmberGame, data: dict) -> AmberState:
        s = cls.__new__(cls)
        s.game = game
        s.n = int(data["num_players"])
        if s.n != game.num_players:
            raise ValueError("state dict has a different number of players than the game")
        for name in cls.FIELDS:
            setattr(s, name, _jsonable(data[name]))
        if s.attrs == game.table_attrs:
            s.attrs = game.table_attrs
        s.war = dict(data["war"]) if data["war"] is not None else None
        s.deck = Deck.from_dict(data["deck"])
        s.rng = rng_from_dict(data["rng"])
        ck = game.card_kind
        hk = [[0] * NUM_KINDS for _ in range(s.n)]
        for p in range(s.n):
            for c in s.hands[p]:
                hk[p][ck[c]] += 1
        s.hk = hk
        return s

    def refresh_counts(self) -> None:
        """Recompute the per-kind hand counts after hands were edited directly."""
        ck = self.game.card_kind
        self.hk = [[0] * NUM_KINDS for _ in range(self.n)]
        for p in range(self.n):
            for c in self.hands[p]:
                self.hk[p][ck[c]] += 1

    def refresh(self) -> None:
        """Recompute derived data and re-run the driver after fields were edited (test set-ups)."""
        self.refresh_counts()
        if self.stack:
            self._run()

    # ---- views (the observation is written by observe.Observer) -----------------
    def determinize(self, player: int, rng: np.random.Generator) -> AmberState:
        """Redeal what ``player`` cannot see, reading only his information set.

        The unseen cards (draw pile and the other hands) form one pool whose
        ids are sorted before sampling, so the result never depends on where
        the true state holds them. The player's memories (his known deck top,
        his lower bounds on other hands) are honoured; the other players'
        memories are rebuilt to fit the new deal: what they saw of the deck
        becomes the new top cards of the same count, what they saw of a third
        player's hand is forgotten, and what they know of this player's hand
        is kept (he can work it out from public events and his own cards).
        When another player is being asked a card window, the redeal is drawn
        again until that window would really be put to him.
        """
        ck = self.game.card_kind
        n = self.n
        pool = sorted(self.deck.draw_pile + [c for o in range(n) if o != player for c in self.hands[o]])
        pool_by_kind: list[list[int]] = [[] for _ in range(NUM_KINDS)]
        for c in pool:
            pool_by_kind[ck[c]].append(c)
        top = [pool_by_kind[k].pop() for k in self.known_top[player]]
        forced: dict[int, list[int]] = {}
        for o in range(n):
            if o != player:
                known = self.known_hand[player][o]
                forced[o] = (
                    [pool_by_kind[k].pop() for k in range(NUM_KINDS) for _ in range(known[k])]
                    if known is not None
                    else []
                )
        rest = sorted(c for lst in pool_by_kind for c in lst)
        sizes = [len(h) for h in self.hands]
        other_top = [len(kt) for kt in self.known_top]
        cur = self.cur
        check = cur >= 0 and cur != player and bool(self.stack)
        s = None
        for _ in range(30 if check else 1):
            perm = rng.permutation(len(rest))
            s = self._redeal(player, forced, top, [rest[i] for i in perm], sizes, other_top)
            if not check:
                break
            legal = s._posed_legal()
            if legal is not None:
                s.legal = legal
                break
        else:
            # no redeal of 30 fits the window: the player is still asked, with
            # only his card-free answers (PASS, END_PHASE, princes...)
            s.legal = [a for a in self.legal if not A_CARD <= a < A_NONCARD]
        s.rng = derive_rng(rng)
        s.dice = []
        s.dice_i = 0
        return s

    def _redeal(
        self,
        player: int,
        forced: dict,
        top: list[int],
        rest: list[int],
        sizes: list[int],
        other_top: list[int],
    ) -> AmberState:
        s = self.clone()
        ck = self.game.card_kind
        pos = 0
        for o in range(self.n):
            if o == player:
                continue
            need = sizes[o] - len(forced[o])
            s.hands[o] = forced[o] + rest[pos : pos + need]
            pos += need
            h = [0] * NUM_KINDS
            for c in s.hands[o]:
                h[ck[c]] += 1
            s.hk[o] = h
        s.deck = Deck(rest[pos:] + top[::-1], self.deck.discard)
        dp = s.deck.draw_pile
        for o in range(self.n):
            if o == player:
                continue
            s.known_top[o] = [ck[dp[-1 - i]] for i in range(other_top[o])]
            row = s.known_hand[o]
            for x in range(self.n):
                if x != player:
                    row[x] = None
        return s

    def _posed_legal(self) -> list[int] | None:
        """The legal list of the decision on top, or None if the rules would
        skip it (or pass it on to someone else) with the hands as they are."""
        probe = self.clone()
        f = probe.stack[-1]
        before = dict(f)
        fn = LEGAL.get(f["t"])
        if fn is None:
            return None
        legal = fn(probe, f)
        if legal is None or f != before or probe.stack[-1] is not f:
            return None
        return legal

    def action_to_string(self, action: int) -> str:
        return C.action_name(int(action))

    def string_to_action(self, text: str) -> int:
        return (
            _ACTION_BY_NAME[text.strip().lower()]
            if text.strip().lower() in _ACTION_BY_NAME
            else State.string_to_action(self, text)
        )

    def render_ansi(self, viewer: int | None = None) -> str:
        from meeplezoo.envs.princes_of_amber.render import render_ansi

        return render_ansi(self, viewer)

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        from meeplezoo.envs.princes_of_amber.render import render_rgb

        return render_rgb(self, viewer)


_ACTION_BY_NAME = {C.action_name(a): a for a in range(NUM_ACTIONS)}


def _jsonable(v):
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (np.integer,)):
        return int(v)
    return v


# =========================================================================== frames
# Each AUTO handler does its work and pushes/pops frames; each decision frame
# has LEGAL (list of legal actions, or None to skip the frame) and APPLY.


def _card_actions(s: AmberState, p: int, kinds) -> list[int]:
    hk = s.hk[p]
    return [A_CARD + k for k in kinds if hk[k] > 0]


def _window(s: AmberState, p: int, kinds) -> list[int] | None:
    """A card window for p: the allowed held cards and PASS, or None to skip."""
    if p < 0 or not s.in_game[p]:
        return None
    acts = _card_actions(s, p, kinds)
    if not acts and s.game.prompt_only:
        return None
    acts.append(A_PASS)
    return acts


# ---- turn ----------------------------------------------------------------------
def auto_turn(s: AmberState, f: dict) -> None:
    s.stack.pop()
    p = f["p"]
    s.turn_player = p
    if s.amber == p:
        s.hold_count[p] += 1
        if s.hold_count[p] >= s.game.hold_turns:
            s.winner = p
            return
    s.stack.append({"t": "TURN_END", "p": p})
    s.stack.append({"t": "ACTION_SELECT", "p": p})
    s.draw(p)
    s.stack.append({"t": "FATE_DISCARD", "p": p})


def auto_turn_end(s: AmberState, f: dict) -> None:
    s.stack.pop()
    p = f["p"]
    for i in range(NUM_PRINCES):
        if s.ctrl[i] == p and s.amnesia[i] > 0:
            s.amnesia[i] -= 1
    s.acted = [0] * NUM_PRINCES
    s.act = -1
    s.c_a = s.c_t = -1
    s.turns += 1
    if s.turns >= s.game.max_turns:
        s.trunc = 1
        return
    if s.in_game[p] and s.extra[p] > 0:
        s.extra[p] -= 1
        s.stack.append({"t": "TURN", "p": p})
    else:
        s.extra[p] = 0
        s.stack.append({"t": "TURN", "p": next_seat(p, s.n, s.in_game)})


def legal_fate_discard(s: AmberState, f: dict):
    p = f["p"]
    if not s.in_game[p] or len(s.hands[p]) <= s.wit_limit(p):
        return None
    return _card_actions(s, p, range(NUM_KINDS))


def apply_discard(s: AmberState, f: dict, a: int) -> None:
    s._take_card(f["p"], a - A_CARD)
    if f["t"] == "EFFECT_DISCARD":
        f["n"] -= 1


def legal_action_select(s: AmberState, f: dict):
    p = f["p"]
    if not s.in_game[p]:
        return None
    ctrl, alive, acted, amn = s.ctrl, s.alive, s.acted, s.amnesia
    acts = [i for i in range(NUM_PRINCES) if ctrl[i] == p and alive[i] and not acted[i] and not amn[i]]
    hk = s.hk[p]
    for k in FREE_KINDS:
        if hk[k] > 0 and s.act_legal(p, -1, k):
            acts.append(A_CARD + k)
    if not acts:
        return None  # only END_PHASE is left: the phase ends by itself
    acts.append(A_END)
    return acts


def apply_action_select(s: AmberState, f: dict, a: int) -> None:
    p = f["p"]
    if a == A_END:
        s.stack.pop()
    elif a < 9:
        s.stack.append({"t": "CHOOSE_ACTION", "p": p, "a": a})
        s.c_a = a
    else:
        k = a - A_CARD
        s._take_card(p, k)
        s.start_act(p, -1, k)


def legal_choose(s: AmberState, f: dict):
    p, a = f["p"], f["a"]
    hk = s.hk[p]
    if s.captured[a]:
        acts = [A_NONCARD + 5]
        if hk[ESCAPE_ACTION] > 0:
            acts.append(A_CARD + ESCAPE_ACTION)
        return acts
    acts = [A_CARD + k for k in ACTION_KINDS if hk[k] > 0 and s.act_legal(p, a, k)]
    for m in range(5):
        if s.act_legal(p, a, NC + m):
            acts.append(A_NONCARD + m)
    return acts


def apply_choose(s: AmberState, f: dict, a: int) -> None:
    p, i = f["p"], f["a"]
    s.stack.pop()
    s.acted[i] = 1
    if a >= A_NONCARD:
        s.start_act(p, i, NC + a - A_NONCARD)
    else:
        k = a - A_CARD
        s._take_card(p, k)
        s.start_act(p, i, k)


def legal_target_prince(s: AmberState, f: dict):
    return s.prince_targets(f["p"], f["a"], f["c"], f.get("lose"))


def apply_target_prince(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    s.resolve(f["p"], f["a"], f["c"], a)


def legal_target_player(s: AmberState, f: dict):
    p = f["p"]
    return [A_PLAYER + (o - p) % s.n for o in s.player_targets(p, f["c"])]


def apply_target_player(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    p = f["p"]
    s.resolve(p, f["a"], f["c"], (p + a - A_PLAYER) % s.n)


# ---- fights and Will contests ------------------------------------------------------
def _responder(s: AmberState, tc: int, p: int) -> int:
    return tc if tc >= 0 and tc != p and s.in_game[tc] else -1


def _contest(s: AmberState, a: int, t: int, attr: int, bonus_a: int = 0, bonus_t: int = 0) -> int:
    """2d6 + attribute contest between princes a and t; returns the winner id."""
    ba = s.attrs[a][attr] + bonus_a - (7 if s.hold[a] else 0)
    bt = s.attrs[t][attr] + bonus_t - (7 if s.hold[t] else 0)
    s.hold[a] = 0
    s.hold[t] = 0
    w, hist = contest_with(s.d6, ba, bt)
    s.c_tot = list(hist[-1])
    return a if w == 0 else t


def auto_fight(s: AmberState, f: dict) -> None:
    p, a, t, tc = f["p"], f["a"], f["tgt"], f["tc"]
    step = f["s"]
    s.c_type = CONTEST_FIGHT
    if step == 0:
        f["s"] = 1
        r = _responder(s, tc, p)
        if r >= 0:
            s.stack.append({"t": "NEGATE", "p": r, "x": "F", "v": t})
    elif step == 1:
        if f.get("neg"):
            s.stack.pop()
            return
        f["s"] = 2
        w = _contest(s, a, t, C.FIGHT_ATTR)
        loser = t if w == a else a
        s.stack.append({"t": "DAMAGE", "v": loser, "dealer": s.ctrl[w], "d": s.d6()})
    else:
        s.stack.pop()
        _call_guards(s, tc, p, a)


def _call_guards(s: AmberState, r: int, p: int, a: int) -> None:
    r = _responder(s, r, p)
    if r >= 0 and s.free(a) and s.role[a] == EXILE:
        s.stack.append({"t": "CALL_GUARDS", "p": r, "v": a})


def legal_negate(s: AmberState, f: dict):
    x = f["x"]
    if x == "F":
        v = f["v"]
        kinds = [GET_AWAY]
        if s.role[v] == EXILE:
            kinds.append(HIDE_IN_SHADOW)
        else:
            kinds.append(LORDS_IN_AMBER)
    elif x == "W":
        kinds = [BREAK_CONTACT]
    else:
        kinds = [BLOCK_THE_WAY]
    return _window(s, f["p"], kinds)


def apply_parent_card(s: AmberState, f: dict, a: int, key: str = "neg") -> None:
    """A single-answer window: a card sets a flag on the frame below; PASS does nothing."""
    s.stack.pop()
    if a != A_PASS:
        s._take_card(f["p"], a - A_CARD)
        s.stack[-1][key] = 1


def auto_will(s: AmberState, f: dict) -> None:
    p, a, t, tc, k = f["p"], f["a"], f["tgt"], f["tc"], f["k"]
    step = f["s"]
    s.c_type = CONTEST_WILL
    if step == 0:
        f["s"] = 1
        r = _responder(s, tc, p)
        if r >= 0:
            s.stack.append({"t": "NEGATE", "p": r, "x": "W", "v": t})
    elif step == 1:
        if f.get("neg"):
            s.stack.pop()
            return
        f["s"] = 2
        r = _responder(s, tc, p)
        s.stack.append({"t": "FURY", "p": p, "q": [r] if r >= 0 else []})
    elif step == 2:
        f["s"] = 3
        w = _contest(s, a, t, C.WILL, f.get("fa", 0), f.get("fd", 0))
        if w == a:
            if k == PSYCHIC_HOLD:
                s.hold[t] = 1
            elif k == CONTEST_OF_WILLS:
                if tc >= 0 and s.in_game[tc] and s.hands[tc]:
                    s.stack.append({"t": "EFFECT_DISCARD", "p": tc, "n": min(3, len(s.hands[tc]))})
            elif k == MENTAL_DOMINATION:
                s.ctrl[t] = p
            elif k == PSYCHIC_ATTACK:
                s.stack.append({"t": "DAMAGE", "v": t, "dealer": p, "d": s.d6()})
            elif k == MIND_PROBE:
                if tc >= 0 and s.in_game[tc]:
                    s.reveal_hand(p, tc)
    else:
        s.stack.pop()
        _call_guards(s, tc, p, a)


def _advance_queue(s: AmberState, f: dict) -> None:
    if f["q"]:
        f["p"] = f["q"][0]
        f["q"] = f["q"][1:]
    else:
        s.stack.pop()


def _queued_window(s: AmberState, f: dict, card: int):
    """The first player in the frame's queue who may play ``card`` gets the
    window; None once the queue is exhausted."""
    while True:
        acts = _window(s, f["p"], [card])
        if acts is not None:
            return acts
        if not f["q"]:
            return None
        _advance_queue(s, f)


def legal_fury(s: AmberState, f: dict):
    return _queued_window(s, f, EMOTIONAL_FURY)


def apply_fury(s: AmberState, f: dict, a: int) -> None:
    if a != A_PASS:
        s._take_card(f["p"], EMOTIONAL_FURY)
        parent = s.stack[-2]
        key = "fa" if f["p"] == parent["p"] else "fd"
        parent[key] = parent.get(key, 0) + 5
    _advance_queue(s, f)


# ---- damage, death, capture ----------------------------------------------------------
def auto_damage(s: AmberState, f: dict) -> None:
    s.stack.pop()
    v, dealer = f["v"], f["dealer"]
    s.hits[v] -= f["d"]
    s.c_dmg = v
    s.c_dealer = dealer
    if s.hits[v] <= 0:
        s.hits[v] = 0
        s.stack.append({"t": "DEATH_SEQ", "v": v, "causer": dealer, "s": 0})
    elif dealer >= 0 and s.in_game[dealer] and s.free(v) and s.ctrl[v] != dealer:
        s.stack.append({"t": "DAMAGE_FOLLOWUP", "p": dealer, "v": v})


def legal_damage_followup(s: AmberState, f: dict):
    p, v = f["p"], f["v"]
    if not s.free(v):
        return None
    kinds = [CAPTURE]
    c = s.ctrl[v]
    if c >= 0 and c != p and s.pp[c] != v:
        kinds.append(SHOW_MERCY)
    return _window(s, p, kinds)


def apply_damage_followup(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    if a == A_PASS:
        return
    k = a - A_CARD
    s._take_card(f["p"], k)
    if k == CAPTURE:
        s.stack.append({"t": "CAPTURE", "v": f["v"], "c": f["p"], "s": 0})
    else:
        s.ctrl[f["v"]] = -1


def auto_death_seq(s: AmberState, f: dict) -> None:
    v = f["v"]
    if f["s"] == 0:
        f["s"] = 1
        c = s.ctrl[v]
        q = [c] if c >= 0 and s.in_game[c] else []
        n = s.n
        q += [
            (s.turn_player + j) % n
            for j in range(n)
            if s.in_game[(s.turn_player + j) % n] and (s.turn_player + j) % n != c
        ]
        s.stack.append({"t": "DEATH", "p": q[0], "q": q[1:]})
        return
    s.stack.pop()
    old_c, old_role = s.ctrl[v], s.role[v]
    was_pp = old_c >= 0 and s.pp[old_c] == v
    if f.get("nrd"):
        s.hits[v] = s.attrs[v][0]
    else:
        s.alive[v] = 0
        s.hits[v] = 0
    s.ctrl[v] = -1
    s.role[v] = EXILE
    s.armies[v] = 0
    s.amnesia[v] = 0
    s.hold[v] = 0
    s.captured[v] = 0
    s.jailer[v] = -1
    if was_pp:
        s.pp[old_c] = -1
        s.stack.append({"t": "SUCCESSION", "p": old_c})
    if old_role == KING:
        s.stack.append({"t": "KING_REMOVAL", "causer": f["causer"]})


def legal_death(s: AmberState, f: dict):
    return _queued_window(s, f, NOT_REALLY_DEAD)


def apply_death(s: AmberState, f: dict, a: int) -> None:
    if a != A_PASS:
        s._take_card(f["p"], NOT_REALLY_DEAD)
        s.stack.pop()
        s.stack[-1]["nrd"] = 1
    else:
        _advance_queue(s, f)


def auto_capture(s: AmberState, f: dict) -> None:
    v, c = f["v"], f["c"]
    if f["s"] == 0:
        f["s"] = 1
        r = _responder(s, s.ctrl[v], c)
        if r >= 0:
            s.stack.append({"t": "CAPTURE_NEGATE", "p": r, "v": v})
        return
    s.stack.pop()
    if f.get("neg") or not s.free(v):
        return
    old_role = s.role[v]
    s.captured[v] = 1
    s.jailer[v] = c
    s.role[v] = EXILE
    if old_role == KING:
        s.stack.append({"t": "KING_REMOVAL", "causer": c})


def legal_capture_negate(s: AmberState, f: dict):
    return _window(s, f["p"], [NEGATE_CAPTURE])


def legal_call_guards(s: AmberState, f: dict):
    v = f["v"]
    if not (s.free(v) and s.role[v] == EXILE):
        return None
    return _window(s, f["p"], [CALL_THE_GUARDS])


def apply_call_guards(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    if a != A_PASS:
        s._take_card(f["p"], CALL_THE_GUARDS)
        s.stack.append({"t": "CAPTURE", "v": f["v"], "c": f["p"], "s": 0})


def auto_king_removal(s: AmberState, f: dict) -> None:
    s.stack.pop()
    c = f["causer"]
    if c >= 0 and s.in_game[c] and c != s.amber and s.pp[c] >= 0 and s.free(s.pp[c]):
        s.take_amber(c)
    else:
        s.fall_neutral()


# ---- succession, appointments ----------------------------------------------------------
def legal_succession(s: AmberState, f: dict):
    p = f["p"]
    if not s.in_game[p] or s.pp[p] >= 0:
        return None
    cands = [i for i in range(NUM_PRINCES) if s.alive[i] and s.ctrl[i] == p]
    if not cands:
        cands = [i for i in range(NUM_PRINCES) if s.alive[i] and s.ctrl[i] < 0 and s.role[i] == EXILE]
    if not cands:
        s.eliminate(p)
        return None
    return cands


def apply_succession(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    p = f["p"]
    s.pp[p] = a
    s.ctrl[a] = p


def legal_appoint(s: AmberState, f: dict):
    q = f["p"]
    if s.amber != q or not s.in_game[q] or not s.vacant_posts():
        return None
    dec = f["dec"]
    offers = s.game.offers
    cands = []
    for i in range(NUM_PRINCES):
        if s.alive[i] and not s.captured[i] and s.role[i] == EXILE:
            c = s.ctrl[i]
            if c < 0 or (offers and c != q and s.in_game[c] and c not in dec):
                cands.append(i)
    if not cands:
        return None
    cands.append(A_PASS)
    return cands


def apply_appoint(s: AmberState, f: dict, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
    elif s.ctrl[a] < 0:
        s.fill_post(a)
    else:
        s.stack.append({"t": "REGENT_OFFER", "p": s.ctrl[a], "v": a})


def legal_regent_offer(s: AmberState, f: dict):
    return [f["v"], A_PASS]


def apply_regent_offer(s: AmberState, f: dict, a: int) -> None:
    s.stack.pop()
    if a == A_PASS:
        parent = s.stack[-1]
        parent["dec"] = parent["dec"] + [f["p"]]
    else:
        s.fill_post(f["v"])


def legal_effect_discard(s: AmberState, f: dict):
    p = f["p"]
    if not s.in_game[p] or f["n"] <= 0 or not s.hands[p]:
        return None
    return _card_actions(s, p, range(NUM_KINDS))


# ---- war -------------------------------------------------------------------------------
def auto_war(s: AmberState, f: dict) -> None:
    p, a = f["p"], f["a"]
    step = f["s"]
    w = s.war
    k = w["k"]
    s.c_type = CONTEST_WAR
    if step == 0:
        f["s"] = 1
        if k >= 0 and s.in_game[k]:
            s.stack.append({"t": "NEGATE", "p": k, "x": "C", "v": a})
    elif step == 1:
        if f.get("neg"):
            s.stack.pop()
            return
        f["s"] = 2
        if k >= 0 and s.in_game[k]:
            s.stack.append({"t": "BLOCK", "p": k})
    elif step == 2:
        f["s"] = 3
        if s.armies[a] > 0:
            s.stack.append({"t": "SHADOW_ARMIES", "p": p})
            if s.game.allow_support:
                n = s.n
                q = []
                for j in range(1, n):
                    b = (p + j) % n
                    if (
                        s.in_game[b]
                        and b != k
                        and not s.controls_regent(b)
                        and any(
                            s.ctrl[i] == b and s.free(i) and s.role[i] == EXILE for i in range(NUM_PRINCES)
                        )
                    ):
                        q.append(b)
                if q:
                    s.stack.append({"t": "SUPPORT", "p": q[0], "q": q[1:]})
    else:
        s.stack.pop()
        _fight_war(s, p, a, w)


def _defending_leader(s: AmberState) -> int:
    role = s.role
    for i in range(NUM_PRINCES):
        if role[i] == KING:
            return i
    best = -1
    for i in range(NUM_PRINCES):
        if 0 < role[i] < EXILE and s.free(i) and (best < 0 or s.lead(i) > s.lead(best)):
            best = i
    return best


def _fight_war(s: AmberState, p: int, a: int, w: dict) -> None:
    k = w["k"]
    ctrl, role = s.ctrl, s.role
    att = s.lead(a) + w["sb"]
    for i in range(NUM_PRINCES):
        if i != a and ctrl[i] == p and s.free(i) and role[i] == EXILE:
            att += s.lead(i)
    for b in w["sup"]:
        if s.in_game[b]:
            att += sum(
                s.lead(i) for i in range(NUM_PRINCES) if ctrl[i] == b and s.free(i) and role[i] == EXILE
            )
    leader = _defending_leader(s)
    dfn = w["wb"]
    if k >= 0:
        for i in range(NUM_PRINCES):
            if role[i] == KING or (0 < role[i] < EXILE and s.free(i) and ctrl[i] >= 0 and ctrl[i] != p):
                dfn += s.lead(i)
    elif leader >= 0:
        dfn += s.lead(leader)
    w["att"], w["dfn"] = att, dfn
    s.c_tot = [att, dfn]
    first = True
    while s.G > 0 and s.armies[a] > 0:
        ba, bd = att, dfn
        if first:
            if s.hold[a]:
                ba -= 7
                s.hold[a] = 0
            if leader >= 0 and s.hold[leader]:
                bd -= 7
                s.hold[leader] = 0
            first = False
        win, hist = contest_with(s.d6, ba, bd)
        s.c_tot = list(hist[-1])
        loss = s.d6()
        if win == 0:
            s.G = max(0, s.G - loss)
        else:
            s.armies[a] = max(0, s.armies[a] - loss)
    if s.G == 0 and s.armies[a] > 0:
        lose = [i for i in w["lords"] if ctrl[i] != p]
        w["won"] = 1
        w["lose"] = lose
        s.stack.append({"t": "WAR_FOLLOWUP", "p": p, "lose": lose})
        s.G = s.armies[a]
        s.armies[a] = 0
        s.take_amber(p)
    else:
        lose = [a] + [
            i for i in range(NUM_PRINCES) if i != a and ctrl[i] == p and s.free(i) and role[i] == EXILE
        ]
        w["won"] = 0
        w["lose"] = lose
        _call_guards(s, k, p, a)
        if k >= 0 and s.in_game[k]:
            s.stack.append({"t": "WAR_FOLLOWUP", "p": k, "lose": lose})


def legal_block(s: AmberState, f: dict):
    if s.armies[s.war["a"]] <= 0:
        return None
    return _window(s, f["p"], [WALLS_OF_AMBER, ARMY_LOSS])


def apply_block(s: AmberState, f: dict, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
        return
    k = a - A_CARD
    s._take_card(f["p"], k)
    s.stack.append({"t": "BLOCK_EFFECT", "k": k})
    s.stack.append({"t": "SHADOW_MASTERY", "p": s.war["p"]})


def legal_shadow_mastery(s: AmberState, f: dict):
    return _window(s, f["p"], [SHADOW_MASTERY])


def auto_block_effect(s: AmberState, f: dict) -> None:
    s.stack.pop()
    if f.get("neg"):
        return
    w = s.war
    if f["k"] == WALLS_OF_AMBER:
        w["wb"] = w["wb"] + s.d6()
    else:
        a = w["a"]
        s.armies[a] = max(0, s.armies[a] - s.d6())


def legal_support(s: AmberState, f: dict):
    return [A_SUPPORT, A_PASS]


def apply_support(s: AmberState, f: dict, a: int) -> None:
    if a == A_SUPPORT:
        s.war["sup"] = s.war["sup"] + [f["p"]]
    _advance_queue(s, f)


def legal_shadow_armies(s: AmberState, f: dict):
    return _window(s, f["p"], [SHADOW_ARMIES])


def apply_shadow_armies(s: AmberState, f: dict, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
    else:
        s._take_card(f["p"], SHADOW_ARMIES)
        s.war["sb"] = s.war["sb"] + s.d6()


def legal_war_followup(s: AmberState, f: dict):
    p = f["p"]
    if not s.in_game[p] or not s.prince_targets(p, -1, BATTLE_WOUNDS, f["lose"]):
        return None
    return _window(s, p, [BATTLE_WOUNDS, PRISONER_OF_WAR])


def apply_war_followup(s: AmberState, f: dict, a: int) -> None:
    if a == A_PASS:
        s.stack.pop()
        return
    k = a - A_CARD
    s._take_card(f["p"], k)
    s.act = k
    s.stack.append({"t": "TARGET_PRINCE", "p": f["p"], "a": -1, "c": k, "lose": f["lose"]})


# ---- resolution of each act -----------------------------------------------------------------
def r_fight(s, p, a, t):
    s.stack.append({"t": "FIGHT", "p": p, "a": a, "tgt": t, "tc": s.ctrl[t], "s": 0})


def r_will(s, p, a, t):
    s.stack.append({"t": "WILL", "p": p, "a": a, "tgt": t, "tc": s.ctrl[t], "k": s.act, "s": 0})


def r_conquer(s, p, a, t):
    k = s.amber
    lords = [i for i in range(NUM_PRINCES) if s.role[i] != EXILE and s.free(i)]
    s.war = {
        "p": p,
        "a": a,
        "k": k,
        "wb": 0,
        "sb": 0,
        "sup": [],
        "lords": lords,
        "att": 0,
        "dfn": 0,
        "won": -1,
        "lose": [],
    }
    s.stack.append({"t": "WAR", "p": p, "a": a, "s": 0})


def r_damage(s, p, a, t):
    s.stack.append({"t": "DAMAGE", "v": t, "dealer": p, "d": s.d6()})


def r_gain(s, p, a, t):
    s.ctrl[t] = p


def r_betray(s, p, a, t):
    s.ctrl[t] = -1


def r_walk(s, p, a, t):
    s.draw(p, 3)
    if s.hands[p]:
        s.stack.append({"t": "EFFECT_DISCARD", "p": p, "n": min(2, len(s.hands[p]))})


def r_look(s, p, a, t):
    s.peek(p, 7)


def r_gossip(s, p, a, t):
    s.reveal_hand(p, t)


def r_escape_card(s, p, a, t):
    s.escape(t)


def r_discard3(s, p, a, t):
    victim = t if s.act == EXILE_CARD else s.amber
    if s.hands[victim]:
        s.stack.append({"t": "EFFECT_DISCARD", "p": victim, "n": min(3, len(s.hands[victim]))})


def r_amnesia(s, p, a, t):
    s.amnesia[t] = max(s.amnesia[t], s.d6())


def r_blessing(s, p, a, t):
    s.extra[p] += 1


def r_pow(s, p, a, t):
    s.stack.append({"t": "CAPTURE", "v": t, "c": p, "s": 0})


def r_bide(s, p, a, t):
    s.draw(p)


def r_recuperate(s, p, a, t):
    s.hits[a] = min(s.attrs[a][0], s.hits[a] + s.d6())


def r_fortune(s, p, a, t):
    if not s.deck.draw_pile and s.deck.discard:
        s._reshuffle()
    s.peek(p, s.d6())


def r_intrigue(s, p, a, t):
    if s.d6() >= 5:
        s.ctrl[t] = p if s.ctrl[t] < 0 else -1


def r_raise(s, p, a, t):
    x = s.d6()
    if s.role[a] == EXILE:
        s.armies[a] += x
    else:
        s.G += x


def r_escape_roll(s, p, a, t):
    if s.d6() >= 5:
        s.escape(a)


RESOLVE = {
    FIGHT: r_fight,
    CONQUER: r_conquer,
    SHADOW_ASSASSINS: r_damage,
    GAIN_NEUTRAL: r_gain,
    BETRAYAL: r_betray,
    WALK_THE_PATTERN: r_walk,
    LOOK_AHEAD: r_look,
    GOSSIP: r_gossip,
    ESCAPE_ACTION: r_escape_card,
    TRUMP_TRAVEL: r_escape_card,
    EXILE_CARD: r_discard3,
    DISTRACTIONS: r_discard3,
    AMNESIA: r_amnesia,
    BLESSING: r_blessing,
    BATTLE_WOUNDS: r_damage,
    PRISONER_OF_WAR: r_pow,
    BIDE: r_bide,
    RECUPERATE: r_recuperate,
    FORTUNE: r_fortune,
    INTRIGUE: r_intrigue,
    RAISE_ARMY: r_raise,
    ESCAPE: r_escape_roll,
}
for _k in C.WILL_KINDS:
    RESOLVE[_k] = r_will

AUTO = {
    "TURN": auto_turn,
    "TURN_END": auto_turn_end,
    "FIGHT": auto_fight,
    "WILL": auto_will,
    "WAR": auto_war,
    "DAMAGE": auto_damage,
    "DEATH_SEQ": auto_death_seq,
    "CAPTURE": auto_capture,
    "KING_REMOVAL": auto_king_removal,
    "BLOCK_EFFECT": auto_block_effect,
}
LEGAL = {
    "FATE_DISCARD": legal_fate_discard,
    "ACTION_SELECT": legal_action_select,
    "CHOOSE_ACTION": legal_choose,
    "TARGET_PRINCE": legal_target_prince,
    "TARGET_PLAYER": legal_target_player,
    "NEGATE": legal_negate,
    "FURY": legal_fury,
    "BLOCK": legal_block,
    "SHADOW_MASTERY": legal_shadow_mastery,
    "SUPPORT": legal_support,
    "SHADOW_ARMIES": legal_shadow_armies,
    "DAMAGE_FOLLOWUP": legal_damage_followup,
    "CALL_GUARDS": legal_call_guards,
    "WAR_FOLLOWUP": legal_war_followup,
    "CAPTURE_NEGATE": legal_capture_negate,
    "DEATH": legal_death,
    "SUCCESSION": legal_succession,
    "APPOINT": legal_appoint,
    "EFFECT_DISCARD": legal_effect_discard,
    "REGENT_OFFER": legal_regent_offer,
}
APPLY = {
    "FATE_DISCARD": apply_discard,
    "ACTION_SELECT": apply_action_select,
    "CHOOSE_ACTION": apply_choose,
    "TARGET_PRINCE": apply_target_prince,
    "TARGET_PLAYER": apply_target_player,
    "NEGATE": apply_parent_card,
    "FURY": apply_fury,
    "BLOCK": apply_block,
    "SHADOW_MASTERY": apply_parent_card,
    "SUPPORT": apply_support,
    "SHADOW_ARMIES": apply_shadow_armies,
    "DAMAGE_FOLLOWUP": apply_damage_followup,
    "CALL_GUARDS": apply_call_guards,
    "WAR_FOLLOWUP": apply_war_followup,
    "CAPTURE_NEGATE": apply_parent_card,
    "DEATH": apply_death,
    "SUCCESSION": apply_succession,
    "APPOINT": apply_appoint,
    "EFFECT_DISCARD": apply_discard,
    "REGENT_OFFER": apply_regent_offer,
}
assert set(LEGAL) == set(APPLY) == DECISIONS
