"""Observation encoder: one float32 vector of 916 entries in [0, 1], from one
player's point of view (players are numbered relative to the viewer).

Only public facts, the viewer's own hand and the viewer's own memories (deck
tops it has seen, hands it has looked at) enter the vector.

Two encoders give the same vector: ``encode_reference`` builds it from
scratch, entry by entry (the definition); ``encode`` (the one the state uses)
keeps per-state numpy copies of the prince table, the hands and the discard
counts, refreshes only the columns whose source lists changed since the last
call, and turns them to the viewer's frame with precomputed index tables.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.princes_of_amber.cards import EXILE, KING, LEADERSHIP, NUM_KINDS, NUM_PRINCES, Phase
from meeplezoo.envs.princes_of_amber.frames import Appoint, EffectDiscard, FateDiscard, RegentOffer

PRINCE_W = 35
O_PRINCES = 0
O_AMBER = O_PRINCES + NUM_PRINCES * PRINCE_W  # 315
O_PLAYERS = O_AMBER + 13  # 328
PLAYER_W = 7
O_HAND = O_PLAYERS + 5 * PLAYER_W  # 363
O_KNOWN = O_HAND + NUM_KINDS  # 399
O_TOP = O_KNOWN + 4 * NUM_KINDS  # 543
TOP_W = NUM_KINDS + 1
O_DECK = O_TOP + 7 * TOP_W  # 802
O_PHASE = O_DECK + 2 + NUM_KINDS  # 840
O_PENDING = O_PHASE + len(Phase)  # 861
O_CONTEST = O_PENDING + NUM_KINDS + 6  # 903
O_MISC = O_CONTEST + 10  # 913
OBS_SIZE = O_MISC + 3  # 916


_AR9 = np.arange(NUM_PRINCES)


def _prince_block(s, player: int) -> np.ndarray:
    """Columns 0..28 of the prince block, from scratch."""
    lists = (
        s.hits,
        s.alive,
        s.role,
        s.controller,
        s.captured,
        s.jailer,
        s.armies,
        s.amnesia,
        s.psychic_hold,
        s.player_prince,
    )
    n = s.num_players
    hits, alive, role, ctrl, cap, jailer, armies, amnesia, hold, pp = lists
    attrs = s.attributes
    flat: list[float] = []
    for i in range(NUM_PRINCES):
        row = [0.0] * 29
        a = attrs[i]
        row[0], row[1], row[2], row[3], row[4] = (
            a[0] / 12.0,
            a[1] / 12.0,
            a[2] / 12.0,
            a[3] / 12.0,
            a[4] / 12.0,
        )
        row[5] = hits[i] / 12.0
        row[6] = alive[i]
        row[7 + role[i]] = 1.0
        c = ctrl[i]
        row[12 + ((c - player) % n if c >= 0 else 5)] = 1.0
        if c >= 0 and pp[c] == i:
            row[18] = 1.0
        row[19] = cap[i]
        j = jailer[i]
        row[20 + ((j - player) % n if j >= 0 else 5)] = 1.0
        row[26] = min(1.0, armies[i] / 20.0)
        row[27] = min(1.0, amnesia[i] / 6.0)
        row[28] = hold[i]
        flat += row
    return np.array(flat, dtype=np.float32).reshape(NUM_PRINCES, 29)


def encode_reference(s, player: int) -> np.ndarray:
    """The observation of ``player``, built from scratch (the definition the
    fast encoder is tested against)."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    top = s.stack[-1] if s.stack and s.deciding_player >= 0 else None
    pr = obs[O_PRINCES:O_AMBER].reshape(NUM_PRINCES, PRINCE_W)
    pr[:, :29] = _prince_block(s, player)
    pr[:, 29] = s.acted
    flagged = [
        (s.acting_prince, 30),
        (_shown_target(s, top), 31),
        (s.damaged_prince, 32),
    ]
    if s.war is not None:
        flagged += [(i, 33) for i in s.war.losing] + [(i, 34) for i in _attacking_group(s, s.war)]
    for prince, column in flagged:
        if prince >= 0:
            pr[prince, column] = 1.0
    _reference_amber_and_players(obs, s, player, top)
    _reference_memories(obs, s, player)
    obs[O_DECK] = len(s.deck.draw_pile) / 100.0
    obs[O_DECK + 1] = len(s.deck.discard) / 100.0
    if s.deck.discard:
        obs[O_DECK + 2 : O_DECK + 2 + NUM_KINDS] = np.minimum(
            np.bincount(s.game.card_kind_array[s.deck.discard], minlength=NUM_KINDS) / 8.0, 1.0
        )
    _reference_decision(obs, s, player, top)
    np.clip(obs, 0.0, 1.0, out=obs)
    return obs


def _reference_amber_and_players(obs: np.ndarray, s, player: int, top) -> None:
    n = s.num_players
    am = s.amber
    obs[O_AMBER + ((am - player) % n if am >= 0 else 5)] = 1.0
    obs[O_AMBER + 6] = min(1.0, s.garrison / 30.0)
    if KING not in s.role:  # the throne is vacant
        obs[O_AMBER + 7] = 1.0
    declined = _declined(s, top)
    free_count = [0] * n
    for i in range(NUM_PRINCES):
        c = s.controller[i]
        if c >= 0 and s.alive[i] and not s.captured[i]:
            free_count[c] += 1
    for r in range(n):
        q = (player + r) % n
        b = O_PLAYERS + PLAYER_W * r
        obs[O_AMBER + 8 + r] = min(1.0, s.hold_count[q] / s.game.hold_turns)
        obs[b : b + PLAYER_W] = (
            s.in_game[q],
            min(1.0, len(s.hands[q]) / 10.0),
            1.0 if s.turn_player == q else 0.0,
            (s.elimination_order[q] + 1) / 5.0,
            min(1, s.extra_turns[q]),
            free_count[q] / 9.0,
            1.0 if q in declined else 0.0,
        )


def _reference_memories(obs: np.ndarray, s, player: int) -> None:
    n = s.num_players
    kt = s.known_top[player]
    for pos in range(7):
        obs[O_TOP + pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS)] = 1.0
    obs[O_HAND : O_HAND + NUM_KINDS] = s.hand_kinds[player]
    row = s.known_hand[player]
    for r in range(1, n):
        h = row[(player + r) % n]
        if h is not None:
            b = O_KNOWN + (r - 1) * NUM_KINDS
            obs[b : b + NUM_KINDS] = h
    obs[O_HAND:O_TOP] *= 0.25
    np.minimum(obs[O_HAND:O_TOP], 1.0, out=obs[O_HAND:O_TOP])


def _reference_decision(obs: np.ndarray, s, player: int, top) -> None:
    obs[O_PHASE + (top.phase if top is not None else Phase.GAME_OVER)] = 1.0
    if s.pending_act >= 0:
        obs[O_PENDING + s.pending_act] = 1.0
    if s.contest_type:
        obs[O_CONTEST + s.contest_type - 1] = 1.0
        obs[O_CONTEST + 3] = s.contest_totals[0] / 40.0
        obs[O_CONTEST + 4] = s.contest_totals[1] / 40.0
    war = s.war
    if war is not None:
        obs[O_CONTEST + 5] = s.armies[war.prince] / 20.0
        obs[O_CONTEST + 6] = s.garrison / 30.0
        obs[O_CONTEST + 7] = war.shadow_bonus / 12.0
        obs[O_CONTEST + 8] = war.walls_bonus / 12.0
        obs[O_CONTEST + 9] = _support_leadership(s, war) / 30.0
    if type(top) is EffectDiscard:
        obs[O_MISC] = top.count / 3.0
    elif type(top) is FateDiscard:
        obs[O_MISC] = (len(s.hands[top.player]) - s.wit_limit(top.player)) / 3.0
    if s.damage_dealer == player:
        obs[O_MISC + 1] = 1.0
    obs[O_MISC + 2] = s.turns / s.game.max_turns


# ------------------------------------------------------------------ fast encoder
# The encoder keeps, in the state's ``_observer_cache`` attribute (its own: the
# rules never read it, and clones start without it), an absolute prince table
# A of 9 x 31 floats:
# columns 0..28 as in the observation, except that the controller (12..16)
# and jailer (20..24) one-hots are by absolute seat; column 29 is ``acted``
# and column 30 stays zero, so a viewer's columns are one gather away.
_EYE5 = np.eye(5, dtype=np.float32)
_EYE6 = np.eye(6, dtype=np.float32)  # index -1 is the "neutral" / "nobody" column
_ZERO_COL = 30
_PERMS: dict[int, list[np.ndarray]] = {}
_PRINCE_LISTS = (
    "hits",
    "alive",
    "role",
    "controller",
    "player_prince",
    "captured",
    "jailer",
    "armies",
    "amnesia",
    "psychic_hold",
    "acted",
)


def _perms(n: int) -> list[np.ndarray]:
    """Per viewer: the column of A feeding each of the observation's 35 prince
    columns (the per-step flags 30..34 read the zero column, set afterwards)."""
    perms = _PERMS.get(n)
    if perms is None:
        perms = []
        for p in range(n):
            rel = [(p + r) % n if r < n else -1 for r in range(5)]
            cols = list(range(12)) + [12 + q if q >= 0 else _ZERO_COL for q in rel] + [17, 18, 19]
            cols += [20 + q if q >= 0 else _ZERO_COL for q in rel] + [25, 26, 27, 28, 29] + [_ZERO_COL] * 5
            perms.append(np.array(cols, dtype=np.intp))
        _PERMS[n] = perms
    return perms


_SEATS: dict[int, list[tuple]] = {}


def _seats(n: int) -> list[tuple]:
    """Per viewer: (relative seat r, absolute seat, offset of r's player block
    within the Amber + players list)."""
    seats = _SEATS.get(n)
    if seats is None:
        seats = _SEATS[n] = [tuple((r, (p + r) % n, 13 + PLAYER_W * r) for r in range(n)) for p in range(n)]
    return seats


class _ObsCache:
    """Numpy copies of the state's lists, refreshed when their source changes.
    ``ver`` counts changes of A; ``views`` holds each viewer's prince block
    (flat, 315) for the version it was made from; ``tops`` each viewer's
    remembered-deck-top block for the list it was made from."""

    __slots__ = (
        "A",
        "snap",
        "free",
        "kinds",
        "disc",
        "disc_counts",
        "disc_vec",
        "ver",
        "views",
        "tops",
        "quarter",
        "eighth",
    )

    def __init__(self, s) -> None:
        tables = s.game.observer.tables
        self.A = (
            tables["prince_base"].copy()
            if s.attributes is s.game.table_attributes
            else _prince_base(s.attributes)
        )
        self.snap: list = [None] * len(_PRINCE_LISTS)
        self.free = [0] * 5
        self.kinds: dict = {}
        self.disc = None
        self.disc_counts: list[int] = []
        self.disc_vec = None
        self.ver = 0
        self.views: dict = {}
        self.tops: dict = {}
        self.quarter, self.eighth = tables["quarter"], tables["eighth"]


def _prince_base(attrs) -> np.ndarray:
    A = np.zeros((NUM_PRINCES, 31), dtype=np.float32)
    A[:, :5] = np.array(attrs, dtype=np.float64) / 12.0  # attributes never change
    return A


def _refresh_princes(s, c: _ObsCache) -> None:
    """Rewrite the columns of A whose source list changed since the last call
    (``c.ver`` counts the changes), and the free-prince counts if needed."""
    if _refresh_standing(s, c):
        free = [0] * 5
        controller, alive, captured = s.controller, s.alive, s.captured
        for i in range(NUM_PRINCES):
            x = controller[i]
            if x >= 0 and alive[i] and not captured[i]:
                free[x] += 1
        c.free = free
    _refresh_condition(s, c)


def _refresh_standing(s, c: _ObsCache) -> bool:
    """Hits, alive, role, controller and captured columns; True when the
    free-prince counts must be redone."""
    A, snap = c.A, c.snap
    hits, alive, role, ctrl, pp, cap = s.hits, s.alive, s.role, s.controller, s.player_prince, s.captured
    if hits != snap[0]:
        A[:, 5] = np.array(hits, dtype=np.float64) / 12.0
        snap[0] = hits[:]
        c.ver += 1
    free_dirty = False
    if alive != snap[1]:
        A[:, 6] = alive
        c.ver += 1
        snap[1] = alive[:]
        free_dirty = True
    if role != snap[2]:
        A[:, 7:12] = _EYE5[role]
        c.ver += 1
        snap[2] = role[:]
    if ctrl != snap[3] or pp != snap[4]:
        A[:, 12:18] = _EYE6[ctrl]
        A[:, 18] = [1.0 if x >= 0 and pp[x] == i else 0.0 for i, x in enumerate(ctrl)]
        c.ver += 1
        snap[3] = ctrl[:]
        snap[4] = pp[:]
        free_dirty = True
    if cap != snap[5]:
        A[:, 19] = cap
        c.ver += 1
        snap[5] = cap[:]
        free_dirty = True
    return free_dirty


def _refresh_condition(s, c: _ObsCache) -> None:
    """Jailer, armies, amnesia, psychic hold and acted columns."""
    A, snap = c.A, c.snap
    jailer, armies, amnesia, hold, acted = s.jailer, s.armies, s.amnesia, s.psychic_hold, s.acted
    if jailer != snap[6]:
        A[:, 20:26] = _EYE6[jailer]
        c.ver += 1
        snap[6] = jailer[:]
    if armies != snap[7]:
        A[:, 26] = np.minimum(np.array(armies, dtype=np.float64) / 20.0, 1.0)
        c.ver += 1
        snap[7] = armies[:]
    if amnesia != snap[8]:
        A[:, 27] = np.minimum(np.array(amnesia, dtype=np.float64) / 6.0, 1.0)
        c.ver += 1
        snap[8] = amnesia[:]
    if hold != snap[9]:
        A[:, 28] = hold
        c.ver += 1
        snap[9] = hold[:]
    if acted != snap[10]:
        A[:, 29] = acted
        c.ver += 1
        snap[10] = acted[:]


class Observer:
    """The game's observation encoder: declares the observation Box on the
    game and holds the tables the fast encoder needs once per Game."""

    def __init__(self, game) -> None:
        game.observation_shape = (OBS_SIZE,)
        game.observation_dtype = np.float32
        game.observation_low, game.observation_high = 0.0, 1.0
        self.tables = game_tables(game)

    def encode(self, s, player: int) -> np.ndarray:
        return encode(s, player)


def game_tables(game) -> dict:
    """What the fast encoder needs once per Game: the prince table base with the
    printed attributes, and count lookup tables (count / 4 and count / 8,
    capped at 1, float32, one entry per possible count of cards)."""
    top = np.arange(game.num_cards + 1)
    return {
        "prince_base": _prince_base(game.table_attributes),
        "quarter": np.minimum(top.astype(np.float32) * np.float32(0.25), np.float32(1.0)),
        "eighth": np.minimum(top / 8.0, 1.0).astype(np.float32),
    }


def _kind_vec(c: _ObsCache, key, counts) -> np.ndarray:
    """Per-kind counts / 4, capped at 1, as float32 (cached while ``counts`` is unchanged)."""
    hit = c.kinds.get(key)
    if hit is not None and hit[0] == counts:
        return hit[1]
    vec = c.quarter[counts]
    c.kinds[key] = (counts[:], vec)
    return vec


def _discard_vec(s, c: _ObsCache) -> np.ndarray:
    """Discard count per kind / 8, capped at 1: kept up to date as cards are
    appended, rebuilt when the pile changed otherwise (reshuffle, set-ups)."""
    disc = s.deck.discard
    old = c.disc
    if old is not None:
        m = len(old)
        if len(disc) == m and disc == old:
            return c.disc_vec
        if len(disc) > m and disc[:m] == old:
            ck = s.game.card_kind
            counts, vec = c.disc_counts, c.disc_vec.copy()
            for card in disc[m:]:
                k = ck[card]
                counts[k] += 1
                vec[k] = c.eighth[counts[k]]
            c.disc = disc[:]
            c.disc_vec = vec
            return vec
    counts = [0] * NUM_KINDS
    ck = s.game.card_kind
    for card in disc:
        counts[ck[card]] += 1
    c.disc = disc[:]
    c.disc_counts = counts
    c.disc_vec = c.eighth[counts]
    return c.disc_vec


def _clip(v: float) -> float:
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def _shown_target(s, top) -> int:
    """The prince flagged as the target: the last act's, or the prince of a regency offer."""
    return top.prince if type(top) is RegentOffer else s.target_prince


def _declined(s, top) -> list | tuple:
    """The players who turned down a regency in the appointment under way."""
    if type(top) is Appoint:
        return top.declined
    if type(top) is RegentOffer and len(s.stack) > 1:
        return s.stack[-2].declined
    return ()


def _attacking_group(s, war) -> list[int]:
    """The attacking prince of a war and his player's free exiles."""
    controller, alive, captured, role = s.controller, s.alive, s.captured, s.role
    return [
        i
        for i in range(NUM_PRINCES)
        if i == war.prince
        or (controller[i] == war.player and alive[i] and not captured[i] and role[i] == EXILE)
    ]


def _support_leadership(s, war) -> int:
    """The Leadership the supporters of a war add (their free exiles')."""
    controller, alive, captured, role, attributes = s.controller, s.alive, s.captured, s.role, s.attributes
    total = 0
    for supporter in war.supporters:
        total += sum(
            attributes[i][LEADERSHIP]
            for i in range(NUM_PRINCES)
            if controller[i] == supporter and alive[i] and not captured[i] and role[i] == EXILE
        )
    return total


def encode(s, player: int) -> np.ndarray:
    """The observation of ``player`` (same values as ``encode_reference``), from
    the state's cached numpy tables. Returns a fresh array."""
    c = s.__dict__.get("_observer_cache")
    if c is None:
        c = s._observer_cache = _ObsCache(s)
    _refresh_princes(s, c)
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    view = c.views.get(player)
    if view is None or view[0] != c.ver:
        view = c.views[player] = (c.ver, c.A.take(_perms(s.num_players)[player], axis=1).ravel())
    obs[:O_AMBER] = view[1]
    top = s.stack[-1] if s.stack and s.deciding_player >= 0 else None
    _write_context_flags(obs, s, top)
    obs[O_AMBER:O_HAND] = _amber_and_players(s, c, player, top)
    _write_memories(obs, s, c, player)
    deck = s.deck
    obs[O_DECK] = min(1.0, len(deck.draw_pile) / 100.0)
    if deck.discard:
        obs[O_DECK + 1] = min(1.0, len(deck.discard) / 100.0)
        obs[O_DECK + 2 : O_DECK + 2 + NUM_KINDS] = _discard_vec(s, c)
    _write_decision(obs, s, player, top)
    return obs


def _write_context_flags(obs: np.ndarray, s, top) -> None:
    """Per prince: acting, target, just damaged, losing side, attacking group."""
    if s.acting_prince >= 0:
        obs[PRINCE_W * s.acting_prince + 30] = 1.0
    target = _shown_target(s, top)
    if target >= 0:
        obs[PRINCE_W * target + 31] = 1.0
    if s.damaged_prince >= 0:
        obs[PRINCE_W * s.damaged_prince + 32] = 1.0
    war = s.war
    if war is not None:
        for i in war.losing:
            obs[PRINCE_W * i + 33] = 1.0
        for i in _attacking_group(s, war):
            obs[PRINCE_W * i + 34] = 1.0


def _amber_and_players(s, c: _ObsCache, player: int, top) -> list[float]:
    """Amber and the players, relative to the viewer: one list of 13 + 35 entries."""
    n = s.num_players
    blk = [0.0] * (O_HAND - O_AMBER)
    am = s.amber
    blk[(am - player) % n if am >= 0 else 5] = 1.0
    blk[6] = min(1.0, s.garrison / 30.0)
    if KING not in s.role:  # the throne is vacant
        blk[7] = 1.0
    declined = _declined(s, top)
    ht = s.game.hold_turns
    free = c.free
    hold_count, in_game, hands = s.hold_count, s.in_game, s.hands
    elimination, extra, turn_player = s.elimination_order, s.extra_turns, s.turn_player
    for r, q, b in _seats(n)[player]:
        if hold_count[q]:
            blk[8 + r] = min(1.0, hold_count[q] / ht)
        if in_game[q]:
            blk[b] = 1.0
        cards = len(hands[q])
        if cards:
            blk[b + 1] = 1.0 if cards >= 10 else cards / 10.0
        if turn_player == q:
            blk[b + 2] = 1.0
        if elimination[q] >= 0:
            blk[b + 3] = (elimination[q] + 1) / 5.0
        if extra[q]:
            blk[b + 4] = 1.0
        if free[q]:
            blk[b + 5] = free[q] / 9.0
        if declined and q in declined:
            blk[b + 6] = 1.0
    return blk


def _write_memories(obs: np.ndarray, s, c: _ObsCache, player: int) -> None:
    """My hand, what I remember of the others' hands and of the deck top."""
    n = s.num_players
    obs[O_HAND:O_KNOWN] = _kind_vec(c, player, s.hand_kinds[player])
    row = s.known_hand[player]
    for r in range(1, n):
        o = (player + r) % n
        h = row[o]
        if h is not None:
            b = O_KNOWN + (r - 1) * NUM_KINDS
            obs[b : b + NUM_KINDS] = _kind_vec(c, (player, o), h)
    kt = s.known_top[player]
    top_view = c.tops.get(player)
    if top_view is None or top_view[0] != kt:
        vec = np.zeros(7 * TOP_W, dtype=np.float32)
        for pos in range(7):
            vec[pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS)] = 1.0
        top_view = c.tops[player] = (kt[:], vec)
    obs[O_TOP:O_DECK] = top_view[1]


def _write_decision(obs: np.ndarray, s, player: int, top) -> None:
    """Phase, pending act, contest and war figures, cards left to discard, turn."""
    obs[O_PHASE + (top.phase if top is not None else Phase.GAME_OVER)] = 1.0
    if s.pending_act >= 0:
        obs[O_PENDING + s.pending_act] = 1.0
    if s.contest_type:
        obs[O_CONTEST + s.contest_type - 1] = 1.0
        obs[O_CONTEST + 3] = _clip(s.contest_totals[0] / 40.0)
        obs[O_CONTEST + 4] = _clip(s.contest_totals[1] / 40.0)
    war = s.war
    if war is not None:
        obs[O_CONTEST + 5] = min(1.0, s.armies[war.prince] / 20.0)
        obs[O_CONTEST + 6] = min(1.0, s.garrison / 30.0)
        obs[O_CONTEST + 7] = min(1.0, war.shadow_bonus / 12.0)
        obs[O_CONTEST + 8] = min(1.0, war.walls_bonus / 12.0)
        if war.supporters:
            obs[O_CONTEST + 9] = min(1.0, _support_leadership(s, war) / 30.0)
    if type(top) is EffectDiscard:
        obs[O_MISC] = _clip(top.count / 3.0)
    elif type(top) is FateDiscard:
        obs[O_MISC] = _clip((len(s.hands[top.player]) - s.wit_limit(top.player)) / 3.0)
    if s.damage_dealer == player:
        obs[O_MISC + 1] = 1.0
    obs[O_MISC + 2] = min(1.0, s.turns / s.game.max_turns)
