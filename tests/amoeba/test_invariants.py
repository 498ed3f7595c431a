"""Random-play invariants: tiles, nuclei, matching, claims, bookkeeping."""

import numpy as np
import pytest

from meeplezoo.envs.amoeba.observe import OWNER_CODE, encode_reference
from meeplezoo.envs.amoeba.rules import ANCHOR, CLAIM, SELECT
from tests.amoeba.helpers import game


def recompute(st):
    """Amoebas from scratch: components of the visible pieces over pink contacts."""
    g = st.game.geo
    live = [p for p, c in enumerate(st.piece_amoeba) if c >= 0]
    label = {}
    groups = []
    for start in live:
        if start in label:
            continue
        label[start] = len(groups)
        stack, members, nopen = [start], [], 0
        while stack:
            p = stack.pop()
            members.append(p)
            for s in st.piece_slots[p]:
                f = g.face[s]
                if f < 0 or st.unit_placement[f >> 2] < 0:
                    nopen += 1
                    continue
                q = int(st.slot_piece[f])
                assert q >= 0, "pink faces blue"
                if q not in label:
                    label[q] = label[start]
                    stack.append(q)
        groups.append((frozenset(members), nopen))
    return set(groups)


def check(st):
    game_ = st.game
    n = game_.num_players
    U = game_.units
    cfg = game_.config
    # every tile accounted for exactly once
    on_board = [pl[1] for pl in st.placements]
    everything = (
        on_board + st.pile.draw_pile + [t for h in st.hands for t in h] + [t for h in st.removed for t in h]
    )
    assert sorted(everything) == list(range(84))
    # nuclei conserved
    owned = [0] * n
    for members, nopen, owner in st.amoebas.values():
        if owner >= 0:
            owned[owner] += 1
            assert nopen == 0, "a claimed amoeba is complete"
            assert len(members) >= cfg["min_claim_size"]
    for p in range(n):
        assert st.supply[p] + owned[p] == cfg["nuclei_per_player"]
        assert st.supply[p] >= 0
    # matching at every contact: pink faces pink
    vis = st.unit_placement
    for u in range(U * U):
        if vis[u] < 0:
            continue
        for d in range(4):
            s = u * 4 + d
            f = game_.geo.face[s]
            if f < 0 or vis[f >> 2] < 0 or vis[f >> 2] == vis[u]:
                continue
            assert (st.slot_piece[s] >= 0) == (st.slot_piece[f] >= 0)
    # heights and storeys
    assert st.height.max() <= 2
    # incremental bookkeeping equals a recomputation
    assert st.claimed == {cid for cid, v in st.amoebas.items() if v[2] >= 0}
    assert set(st.complete_unclaimed) == {cid for cid, v in st.amoebas.items() if v[2] < 0 and v[1] == 0}
    assert all(key == st.amoeba_key(cid) for cid, key in st.complete_unclaimed.items())
    mine = {(frozenset(v[0]), v[1]) for v in st.amoebas.values()}
    assert mine == recompute(st)
    if not st.done:
        assert st.legal_action_mask().any()


def play(g, seed, check_every=1):
    st = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not st.done:
        st.apply(int(rng.choice(st.legal_actions())))
        steps += 1
        if steps % check_every == 0:
            check(st)
    check(st)
    return st


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_random_games(n):
    g = game(num_players=n)
    for seed in range(12):
        st = play(g, seed, check_every=7)
        assert st.done
        assert abs(st.returns().sum()) < 1e-9


@pytest.mark.parametrize("n", [2, 3, 4])
def test_many_random_games_end(n):
    g = game(num_players=n)
    rng = np.random.default_rng(n)
    for seed in range(60):
        st = g.new_initial_state(1000 + seed)
        while not st.done:
            st.apply(int(rng.choice(st.legal_actions())))
        check(st)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_thousands(n):
    g = game(num_players=n)
    for seed in range(1000):
        play(g, 5000 + seed, check_every=5)


def painted(st):
    """The observer's board planes of ``st``, as it keeps them between calls."""
    return np.frombuffer(st.game.observer.planes(st), dtype=np.uint8)


def planes_from_scratch(st):
    """The board planes computed directly from the table (owners as
    OWNER_CODE + seat; the observation maps them to relative seats)."""
    g = st.game
    U = g.units
    UU = U * U
    geo = g.geo
    out = np.zeros((16, UU), dtype=np.uint8)
    offer = st.offered()
    for u in range(UU):
        k = st.unit_placement[u]
        if k < 0:
            continue
        a = st.placements[k][0]
        ar, ac = geo.anchor_rc(a)
        r, c = divmod(u, U)
        out[0, u] = 1
        out[1, u] = st.height[u] == 2
        out[2, u] = r == ar
        out[3, u] = c == ac
        for d in range(4):
            s = u * 4 + d
            f = geo.face[s]
            if f >= 0 and st.unit_placement[f >> 2] == k:
                continue
            p = int(st.slot_piece[s])
            if p < 0:
                continue
            port = d & 1
            members, nopen, owner = st.amoebas[st.piece_amoeba[p]]
            out[4 + port, u] = st.piece_number[p]
            out[6 + port, u] = f < 0 or st.unit_placement[f >> 2] < 0
            out[8 + port, u] = min(len(members), 127)
            out[10 + port, u] = nopen == 0
            out[12 + port, u] = 0 if owner < 0 else OWNER_CODE + owner
            out[14 + port, u] = offer is not None and st.piece_amoeba[p] == offer
    return out.reshape(-1)


@pytest.mark.parametrize("n", [2, 4])
def test_incremental_planes_match_recomputation(n):
    g = game(num_players=n)
    for seed in range(4):
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.done:
            st.apply(int(rng.choice(st.legal_actions())))
            assert np.array_equal(painted(st), planes_from_scratch(st))
            viewer = int(rng.integers(n))
            assert np.array_equal(st.observation(viewer), encode_reference(st, viewer))
            back = g.state_from_dict(st.to_dict())
            if rng.random() < 0.05:
                assert np.array_equal(painted(back), painted(st))
                for p in range(n):
                    assert np.array_equal(back.observation(p), st.observation(p))


def test_painted_planes_follow_clones_and_branches():
    """The observer repaints only what changed since a position it painted;
    clones, sibling branches and positions seen out of order must all get the
    planes of their own table."""
    g = game(num_players=3)
    st = g.new_initial_state(11)
    rng = np.random.default_rng(11)
    seen = []
    while not st.done:
        if rng.random() < 0.2:
            seen.append(st.clone())
        st.apply(int(rng.choice(st.legal_actions())))
        if rng.random() < 0.3:
            branch = st.clone()
            for _ in range(3):
                if not branch.done:
                    branch.apply(int(rng.choice(branch.legal_actions())))
            assert np.array_equal(painted(branch), planes_from_scratch(branch))
        assert np.array_equal(painted(st), planes_from_scratch(st))
    for old in reversed(seen):
        assert np.array_equal(painted(old), planes_from_scratch(old))
        assert np.array_equal(old.observation(0), encode_reference(old, 0))


def test_search_branches_start_from_the_deepest_painted_position(monkeypatch):
    """A search replays its tree from fresh samples of one root, and self-play
    searches several games at once: each new position must start from the
    deepest position painted lately whose placements it continues, so it
    paints only the tiles laid below that point, and still gets the planes
    of its own table."""
    g = game(num_players=2)
    roots = []
    for seed in (21, 22):  # two games searched side by side
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while len(st.placements) < 12:
            st.apply(int(rng.choice(st.legal_actions())))
        roots.append(st)
    observer = g.observer
    painted_placements = []
    paint = observer._paint_placement
    monkeypatch.setattr(
        observer,
        "_paint_placement",
        lambda planes, state, k: (painted_placements.append(k), paint(planes, state, k))[1],
    )
    for root in roots:
        painted(root.determinize(root.current_player, np.random.default_rng(0)))
    rng = np.random.default_rng(5)
    for _ in range(40):
        root = roots[int(rng.integers(2))]
        sample = root.determinize(root.current_player, rng)
        for _ in range(int(rng.integers(1, 7))):
            if not sample.done:
                sample.apply(int(rng.choice(sample.legal_actions())))
        painted_placements.clear()
        planes = painted(sample)
        assert np.array_equal(planes, planes_from_scratch(sample))
        assert all(k >= len(root.placements) for k in painted_placements)
        assert np.array_equal(sample.observation(0), encode_reference(sample, 0))
        deeper = sample.clone()  # a simulation that goes further down the same branch
        while not deeper.done and len(deeper.placements) < len(sample.placements) + 2:
            deeper.apply(int(rng.choice(deeper.legal_actions())))
        painted_placements.clear()
        assert np.array_equal(painted(deeper), planes_from_scratch(deeper))
        assert all(k >= len(sample.placements) for k in painted_placements)


def compact_greedy_action(st, rng):
    """A test player that makes splits happen: it claims every offer, picks a
    tile that can split when it has one, splits whenever it can, and otherwise
    lays the tile where it meets the most ports (a compact table closes many
    amoebas, and claimed ones become split targets)."""
    g = st.game
    legal = np.flatnonzero(st.legal_action_mask())
    if st.phase == CLAIM:
        return g.claim_action
    hand = st.hands[st.mover]
    if st.phase == SELECT:
        for a in legal:
            s, r = divmod(int(a), 4)
            if st._top_plans(hand[s] * 4 + r):
                return int(a)
        return int(legal[rng.integers(len(legal))])
    tops = st._top_plans(hand[st.selection[0]] * 4 + st.selection[1])
    if tops:
        return 12 + min(tops)
    contacts = [bin(st.blue_required[a - 12] | st.pink_required[a - 12]).count("1") for a in legal]
    best = max(contacts)
    cands = [int(a) for a, c in zip(legal, contacts) if c == best]
    return cands[rng.integers(len(cands))]


def test_greedy_play_splits_and_keeps_invariants():
    """Random play almost never splits; this player does, often, so the split
    rules (parts, keeper, nuclei, merges) run under the invariant checks."""
    splits = merges = three_way = 0
    for n, seed in [(n, seed) for n in (2, 3, 4) for seed in range(10)]:
        g = game(num_players=n)
        st = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.done:
            anchor_step = st.phase == ANCHOR
            mover = st.mover
            supply_before = list(st.supply)
            st.apply(compact_greedy_action(st, rng))
            if not (anchor_step and st.last_split):
                continue
            info = st.last_split
            splits += 1
            merges += info["merged"]
            three_way += info["parts"] == 3
            assert info["mover"] == mover and info["target_owner"] not in (mover, -1)
            # the mover pays one nucleus per part taken (parts - 1); a merged
            # bystander's nucleus, if it had one, goes back to its owner
            delta = [a - b for a, b in zip(st.supply, supply_before)]
            paid = info["parts"] - 1
            returned = sum(delta) + paid
            assert returned in ((0, 1) if info["merged"] else (0,))
            assert delta[mover] in (-paid, -paid + returned)
            assert all(d in (0, returned) for p, d in enumerate(delta) if p != mover)
            assert any(v[2] == info["target_owner"] for v in st.amoebas.values())
            check(st)
            assert np.array_equal(painted(st), planes_from_scratch(st))
            for p in range(n):
                assert np.array_equal(st.observation(p), encode_reference(st, p))
        check(st)
    assert splits >= 10
    assert merges >= 1
    assert three_way >= 1
