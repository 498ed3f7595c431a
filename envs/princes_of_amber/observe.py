"""Observation encoder: one float32 vector of 916 entries in [0, 1], from one
player's point of view (players are numbered relative to the viewer).

Only public facts, the viewer's own hand and the viewer's own memories (deck
tops it has seen, hands it has looked at) enter the vector.

Two encoders give the same vector: ``observe_reference.encode_reference``
builds it from scratch, entry by entry (the definition); ``encode`` here (the
one the state uses) keeps per-state numpy copies of the prince table, the
hands and the discard counts, refreshes only the columns whose source lists
changed since the last call, and turns them to the viewer's frame with
precomputed index tables.
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


def _perms(num_players: int) -> list[np.ndarray]:
    """Per viewer: the column of A feeding each of the observation's 35 prince
    columns (the per-step flags 30..34 read the zero column, set afterwards)."""
    perms = _PERMS.get(num_players)
    if perms is None:
        perms = []
        for p in range(num_players):
            rel = [(p + r) % num_players if r < num_players else -1 for r in range(5)]
            cols = list(range(12)) + [12 + q if q >= 0 else _ZERO_COL for q in rel] + [17, 18, 19]
            cols += [20 + q if q >= 0 else _ZERO_COL for q in rel] + [25, 26, 27, 28, 29] + [_ZERO_COL] * 5
            perms.append(np.array(cols, dtype=np.intp))
        _PERMS[num_players] = perms
    return perms


_SEATS: dict[int, list[tuple]] = {}


def _seats(num_players: int) -> list[tuple]:
    """Per viewer: (relative seat r, absolute seat, offset of r's player block
    within the Amber + players list)."""
    seats = _SEATS.get(num_players)
    if seats is None:
        seats = _SEATS[num_players] = [
            tuple((r, (p + r) % num_players, 13 + PLAYER_W * r) for r in range(num_players))
            for p in range(num_players)
        ]
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

    def __init__(self, state) -> None:
        tables = state.game.observer.tables
        self.A = (
            tables["prince_base"].copy()
            if state.attributes is state.game.table_attributes
            else _prince_base(state.attributes)
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


def _refresh_princes(state, cache: _ObsCache) -> None:
    """Rewrite the columns of A whose source list changed since the last call
    (``c.ver`` counts the changes), and the free-prince counts if needed."""
    if _refresh_standing(state, cache):
        free = [0] * 5
        controller, alive, captured = state.controller, state.alive, state.captured
        for i in range(NUM_PRINCES):
            x = controller[i]
            if x >= 0 and alive[i] and not captured[i]:
                free[x] += 1
        cache.free = free
    _refresh_condition(state, cache)


def _refresh_standing(state, cache: _ObsCache) -> bool:
    """Hits, alive, role, controller and captured columns; True when the
    free-prince counts must be redone."""
    A, snap = cache.A, cache.snap
    hits, alive, role, ctrl, pp, cap = (
        state.hits,
        state.alive,
        state.role,
        state.controller,
        state.player_prince,
        state.captured,
    )
    if hits != snap[0]:
        A[:, 5] = np.array(hits, dtype=np.float64) / 12.0
        snap[0] = hits[:]
        cache.ver += 1
    free_dirty = False
    if alive != snap[1]:
        A[:, 6] = alive
        cache.ver += 1
        snap[1] = alive[:]
        free_dirty = True
    if role != snap[2]:
        A[:, 7:12] = _EYE5[role]
        cache.ver += 1
        snap[2] = role[:]
    if ctrl != snap[3] or pp != snap[4]:
        A[:, 12:18] = _EYE6[ctrl]
        A[:, 18] = [1.0 if x >= 0 and pp[x] == i else 0.0 for i, x in enumerate(ctrl)]
        cache.ver += 1
        snap[3] = ctrl[:]
        snap[4] = pp[:]
        free_dirty = True
    if cap != snap[5]:
        A[:, 19] = cap
        cache.ver += 1
        snap[5] = cap[:]
        free_dirty = True
    return free_dirty


def _refresh_condition(state, cache: _ObsCache) -> None:
    """Jailer, armies, amnesia, psychic hold and acted columns."""
    A, snap = cache.A, cache.snap
    jailer, armies, amnesia, hold, acted = (
        state.jailer,
        state.armies,
        state.amnesia,
        state.psychic_hold,
        state.acted,
    )
    if jailer != snap[6]:
        A[:, 20:26] = _EYE6[jailer]
        cache.ver += 1
        snap[6] = jailer[:]
    if armies != snap[7]:
        A[:, 26] = np.minimum(np.array(armies, dtype=np.float64) / 20.0, 1.0)
        cache.ver += 1
        snap[7] = armies[:]
    if amnesia != snap[8]:
        A[:, 27] = np.minimum(np.array(amnesia, dtype=np.float64) / 6.0, 1.0)
        cache.ver += 1
        snap[8] = amnesia[:]
    if hold != snap[9]:
        A[:, 28] = hold
        cache.ver += 1
        snap[9] = hold[:]
    if acted != snap[10]:
        A[:, 29] = acted
        cache.ver += 1
        snap[10] = acted[:]


class Observer:
    """The game's observation encoder: declares the observation Box on the
    game and holds the tables the fast encoder needs once per Game."""

    def __init__(self, game) -> None:
        game.observation_shape = (OBS_SIZE,)
        game.observation_dtype = np.float32
        game.observation_low, game.observation_high = 0.0, 1.0
        self.tables = game_tables(game)

    def encode(self, state, player: int) -> np.ndarray:
        return encode(state, player)


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


def _kind_vec(cache: _ObsCache, key, counts) -> np.ndarray:
    """Per-kind counts / 4, capped at 1, as float32 (cached while ``counts`` is unchanged)."""
    hit = cache.kinds.get(key)
    if hit is not None and hit[0] == counts:
        return hit[1]
    vec = cache.quarter[counts]
    cache.kinds[key] = (counts[:], vec)
    return vec


def _discard_vec(state, cache: _ObsCache) -> np.ndarray:
    """Discard count per kind / 8, capped at 1: kept up to date as cards are
    appended, rebuilt when the pile changed otherwise (reshuffle, set-ups)."""
    disc = state.deck.discard
    old = cache.disc
    if old is not None:
        m = len(old)
        if len(disc) == m and disc == old:
            return cache.disc_vec
        if len(disc) > m and disc[:m] == old:
            ck = state.game.card_kind
            counts, vec = cache.disc_counts, cache.disc_vec.copy()
            for card in disc[m:]:
                k = ck[card]
                counts[k] += 1
                vec[k] = cache.eighth[counts[k]]
            cache.disc = disc[:]
            cache.disc_vec = vec
            return vec
    counts = [0] * NUM_KINDS
    ck = state.game.card_kind
    for card in disc:
        counts[ck[card]] += 1
    cache.disc = disc[:]
    cache.disc_counts = counts
    cache.disc_vec = cache.eighth[counts]
    return cache.disc_vec


def _clip(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def shown_target(state, top) -> int:
    """The prince flagged as the target: the last act's, or the prince of a regency offer."""
    return top.prince if type(top) is RegentOffer else state.target_prince


def declined_players(state, top) -> list | tuple:
    """The players who turned down a regency in the appointment under way."""
    if type(top) is Appoint:
        return top.declined
    if type(top) is RegentOffer and len(state.stack) > 1:
        return state.stack[-2].declined
    return ()


def attacking_group(state, war) -> list[int]:
    """The attacking prince of a war and his player's free exiles."""
    controller, alive, captured, role = state.controller, state.alive, state.captured, state.role
    return [
        i
        for i in range(NUM_PRINCES)
        if i == war.prince
        or (controller[i] == war.player and alive[i] and not captured[i] and role[i] == EXILE)
    ]


def support_leadership(state, war) -> int:
    """The Leadership the supporters of a war add (their free exiles')."""
    controller, alive, captured, role, attributes = (
        state.controller,
        state.alive,
        state.captured,
        state.role,
        state.attributes,
    )
    total = 0
    for supporter in war.supporters:
        total += sum(
            attributes[i][LEADERSHIP]
            for i in range(NUM_PRINCES)
            if controller[i] == supporter and alive[i] and not captured[i] and role[i] == EXILE
        )
    return total


def encode(state, player: int) -> np.ndarray:
    """The observation of ``player`` (same values as ``encode_reference``), from
    the state's cached numpy tables. Returns a fresh array."""
    cache = state.__dict__.get("_observer_cache")
    if cache is None:
        cache = state._observer_cache = _ObsCache(state)
    _refresh_princes(state, cache)
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    view = cache.views.get(player)
    if view is None or view[0] != cache.ver:
        view = cache.views[player] = (
            cache.ver,
            cache.A.take(_perms(state.num_players)[player], axis=1).ravel(),
        )
    obs[:O_AMBER] = view[1]
    top = state.stack[-1] if state.stack and state.deciding_player >= 0 else None
    _write_context_flags(obs, state, top)
    obs[O_AMBER:O_HAND] = _amber_and_players(state, cache, player, top)
    _write_memories(obs, state, cache, player)
    deck = state.deck
    obs[O_DECK] = min(1.0, len(deck.draw_pile) / 100.0)
    if deck.discard:
        obs[O_DECK + 1] = min(1.0, len(deck.discard) / 100.0)
        obs[O_DECK + 2 : O_DECK + 2 + NUM_KINDS] = _discard_vec(state, cache)
    _write_decision(obs, state, player, top)
    return obs


def _write_context_flags(obs: np.ndarray, state, top) -> None:
    """Per prince: acting, target, just damaged, losing side, attacking group."""
    if state.acting_prince >= 0:
        obs[PRINCE_W * state.acting_prince + 30] = 1.0
    target = shown_target(state, top)
    if target >= 0:
        obs[PRINCE_W * target + 31] = 1.0
    if state.damaged_prince >= 0:
        obs[PRINCE_W * state.damaged_prince + 32] = 1.0
    war = state.war
    if war is not None:
        for i in war.losing:
            obs[PRINCE_W * i + 33] = 1.0
        for i in attacking_group(state, war):
            obs[PRINCE_W * i + 34] = 1.0


def _amber_and_players(state, cache: _ObsCache, player: int, top) -> list[float]:
    """Amber and the players, relative to the viewer: one list of 13 + 35 entries."""
    n = state.num_players
    blk = [0.0] * (O_HAND - O_AMBER)
    am = state.amber
    blk[(am - player) % n if am >= 0 else 5] = 1.0
    blk[6] = min(1.0, state.garrison / 30.0)
    if KING not in state.role:  # the throne is vacant
        blk[7] = 1.0
    declined = declined_players(state, top)
    ht = state.game.hold_turns
    free = cache.free
    hold_count, in_game, hands = state.hold_count, state.in_game, state.hands
    elimination, extra, turn_player = state.elimination_order, state.extra_turns, state.turn_player
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


def _write_memories(obs: np.ndarray, state, cache: _ObsCache, player: int) -> None:
    """My hand, what I remember of the others' hands and of the deck top."""
    n = state.num_players
    obs[O_HAND:O_KNOWN] = _kind_vec(cache, player, state.hand_kinds[player])
    row = state.known_hand[player]
    for r in range(1, n):
        o = (player + r) % n
        h = row[o]
        if h is not None:
            b = O_KNOWN + (r - 1) * NUM_KINDS
            obs[b : b + NUM_KINDS] = _kind_vec(cache, (player, o), h)
    kt = state.known_top[player]
    top_view = cache.tops.get(player)
    if top_view is None or top_view[0] != kt:
        vec = np.zeros(7 * TOP_W, dtype=np.float32)
        for pos in range(7):
            vec[pos * TOP_W + (kt[pos] if pos < len(kt) else NUM_KINDS)] = 1.0
        top_view = cache.tops[player] = (kt[:], vec)
    obs[O_TOP:O_DECK] = top_view[1]


def _write_decision(obs: np.ndarray, state, player: int, top) -> None:
    """Phase, pending act, contest and war figures, cards left to discard, turn."""
    obs[O_PHASE + (top.phase if top is not None else Phase.GAME_OVER)] = 1.0
    if state.pending_act >= 0:
        obs[O_PENDING + state.pending_act] = 1.0
    if state.contest_type:
        obs[O_CONTEST + state.contest_type - 1] = 1.0
        obs[O_CONTEST + 3] = _clip(state.contest_totals[0] / 40.0)
        obs[O_CONTEST + 4] = _clip(state.contest_totals[1] / 40.0)
    war = state.war
    if war is not None:
        obs[O_CONTEST + 5] = min(1.0, state.armies[war.prince] / 20.0)
        obs[O_CONTEST + 6] = min(1.0, state.garrison / 30.0)
        obs[O_CONTEST + 7] = min(1.0, war.shadow_bonus / 12.0)
        obs[O_CONTEST + 8] = min(1.0, war.walls_bonus / 12.0)
        if war.supporters:
            obs[O_CONTEST + 9] = min(1.0, support_leadership(state, war) / 30.0)
    if type(top) is EffectDiscard:
        obs[O_MISC] = _clip(top.count / 3.0)
    elif type(top) is FateDiscard:
        obs[O_MISC] = _clip((len(state.hands[top.player]) - state.wit_limit(top.player)) / 3.0)
    if state.damage_dealer == player:
        obs[O_MISC + 1] = 1.0
    obs[O_MISC + 2] = min(1.0, state.turns / state.game.max_turns)
