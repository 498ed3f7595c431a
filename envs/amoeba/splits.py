"""Where a selected tile may go: ground anchors from the frontier, and top
placements that split an opponent's complete amoeba (with their plans)."""

from __future__ import annotations

from meeplezoo.envs.amoeba.records import SplitPlan
from meeplezoo.envs.amoeba.tiles import ORIENTED, PINK8_LIST


class Splits:
    """The placement-options part of AmoebaState (caches in ``_cache``)."""

    # ------------------------------------------------------ legal placements
    def _hand_fit(self) -> int:
        """Bit mask of the mover's oriented hand tiles (bit o) that fit at some
        ground anchor (scans the frontier's groups until every one is found)."""
        fit = self._cache.get("handfit")
        if fit is None:
            bits = self.game.tile_orientation_bits
            hand_mask = 0
            for t in self.hands[self.mover]:
                hand_mask |= bits[t]
            if self.first_tile_pending:
                fit = hand_mask
            else:
                fit = 0
                for mask in self.frontier:
                    fit |= mask & hand_mask
                    if fit == hand_mask:
                        break
            self._cache["handfit"] = fit
        return fit

    def _ground_anchors(self, oriented_tile: int) -> list[int]:
        """Legal ground anchors of ``oriented_tile``."""
        if self.first_tile_pending:
            return [self.game.geo.center_anchor]
        out: list[int] = []
        for mask, group in self.frontier.items():
            if (mask >> oriented_tile) & 1:
                out.extend(group)
        return out

    def _top_candidates(self) -> list[int]:
        """Uncovered ground tiles of opponents' complete amoebas big enough to split."""
        found = self._cache.get("topcand")
        if found is None:
            least = self.game.config["min_split_size"]
            mover = self.mover
            candidates = set()
            for aid in self.claimed:
                members, open_ports, owner = self.amoebas[aid]
                if owner != mover and open_ports == 0 and len(members) >= least:
                    for p in members:
                        k = self.piece_placement[p]
                        if self.placements[k].level == 1 and not self.covered[k]:
                            candidates.add(k)
            found = sorted(candidates)
            self._cache["topcand"] = found
        return found

    def _top_plans(self, oriented_tile: int) -> dict[int, SplitPlan]:
        """{anchor: split plan} of the legal top placements of ``oriented_tile``."""
        key = ("top", oriented_tile)
        plans = self._cache.get(key)
        if plans is None:
            plans = {}
            candidates = self._top_candidates()
            if candidates:
                pink8 = PINK8_LIST[oriented_tile]
                for k in candidates:
                    placement = self.placements[k]
                    below = placement.tile * 4 + placement.rotation
                    if PINK8_LIST[below] != pink8 or ORIENTED[below] == ORIENTED[oriented_tile]:
                        continue
                    plan = self._plan_top(oriented_tile, k, self.mover)
                    if plan is not None:
                        plans[placement.anchor] = plan
            self._cache[key] = plans
        return plans

    def _placements_of(self, oriented_tile: int):
        """(legal ground anchors, {anchor: split plan}) for ``oriented_tile``."""
        return self._ground_anchors(oriented_tile), self._top_plans(oriented_tile)

    def _hand_oriented(self) -> list[int]:
        orientations = self.game.tile_orientations
        return [o for t in self.hands[self.mover] for o in orientations[t]]

    def _any_select(self) -> bool:
        if self._hand_fit():
            return True
        return any(self._top_plans(o) for o in self._hand_oriented())

    # ---------------------------------------------------------------- splits
    def _split_target(self, placement_index: int, mover: int) -> int | None:
        """The one opponent's complete amoeba, big enough, that covering
        ground tile ``placement_index`` would split (None: the cover is not a legal split)."""
        amoebas = self.amoebas
        touched = {self.piece_amoeba[p] for p in self.placement_pieces[placement_index]}
        if any(amoebas[aid].open_ports != 0 for aid in touched):
            return None
        least = self.game.config["min_split_size"]
        targets = [
            aid
            for aid in touched
            if amoebas[aid].owner >= 0 and amoebas[aid].owner != mover and len(amoebas[aid].members) >= least
        ]
        return targets[0] if len(targets) == 1 else None

    def _plan_top(self, oriented_tile: int, placement_index: int, mover: int) -> SplitPlan | None:
        """Check a split of ground tile ``placement_index`` by ``oriented_tile`` (rules of the
        top placement); return the resolution plan, or None if illegal."""
        target = self._split_target(placement_index, mover)
        if target is None:
            return None
        new_slots, old, groups, opens = self._top_components(oriented_tile, placement_index)
        if any(opens):
            return None
        base = len(self.piece_slots)
        # which old amoebas each new amoeba holds (new pieces hold none)
        holds = [{self.piece_amoeba[p] for p in members if p < base} for members in groups]
        parts = [i for i, held in enumerate(holds) if target in held]
        least = self.game.config["min_part_size"]
        if not 2 <= len(parts) <= 3 or any(len(groups[i]) < least for i in parts):
            return None
        for bystander in old:
            if bystander != target and sum(1 for held in holds if bystander in held) != 1:
                return None  # a bystander would be split
        merge = self._merge_in_split(holds, parts, target)
        if merge is None:
            return None
        merged, merged_by = merge
        merged_owner = self.amoebas[merged_by].owner if merged_by >= 0 else -1
        supply = self.supply[mover] + (1 if merged_owner == mover else 0)
        if supply < len(parts) - 1:
            return None
        keeper = next(
            i
            for i in sorted(parts, key=lambda part: self._part_key(groups[part], new_slots, base))
            if i != merged
        )
        owners = self._part_owners(holds, parts, keeper, target, mover)
        return SplitPlan(
            placement_index,
            oriented_tile,
            new_slots,
            old,
            groups,
            opens,
            owners,
            keeper,
            parts,
            merged,
            merged_owner,
            self.amoebas[target].owner,
        )

    def _merge_in_split(self, holds, parts, target) -> tuple[int, int] | None:
        """(the part that also joins another amoeba, that amoeba) or (-1, -1);
        None when the new groups join amoebas in a way the rules forbid."""
        merged = merged_by = -1
        for i, held in enumerate(holds):
            others = held - {target}
            if i in parts:
                if len(others) > 1:
                    return None
                if others:
                    if merged >= 0:
                        return None
                    merged, merged_by = i, next(iter(others))
            elif len(others) != 1:
                return None  # a stray piece, or two amoebas joined outside the split
        return merged, merged_by

    def _part_key(self, members, new_slots, base) -> tuple[int, int]:
        """Parts are ranked by size, then by their smallest unit."""
        piece_slots = self.piece_slots
        lowest = min(
            min(s // 4 for s in (new_slots[p - base] if p >= base else piece_slots[p])) for p in members
        )
        return (len(members), lowest)

    def _part_owners(self, holds, parts, keeper, target, mover) -> list[int]:
        """The owner of each new amoeba: the smallest part stays with the
        target's owner, the other parts go to the mover, the rest keep theirs."""
        owners = []
        for i, held in enumerate(holds):
            if i == keeper:
                owners.append(self.amoebas[target].owner)
            elif i in parts:
                owners.append(mover)
            else:
                owners.append(self.amoebas[next(iter(held))].owner)
        return owners

    def _resolve_split(self, tile: int, rot: int, plan: SplitPlan) -> None:
        mover = self.mover
        if plan.merged_owner >= 0:
            self.supply[plan.merged_owner] += 1
        self.supply[mover] -= len(plan.parts) - 1
        self._commit_top(
            tile, rot, plan.ground_index, plan.new_slots, plan.old, plan.groups, plan.opens, plan.owners
        )
        self.last_split = {
            "mover": mover,
            "target_owner": plan.target_owner,
            "parts": len(plan.parts),
            "merged": plan.merged >= 0,
        }
