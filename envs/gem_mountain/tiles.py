"""Gem Mountain game data: gem and action types, tile designs, module pools.

A *content* is what a player can collect: gems 0..6, then actions as 7 + t.
A *design* lists the content of the four sections [NE, SE, SW, NW] at
rotation 0; the shards of a design are its distinct contents (every pool tile
has pairwise different shard contents, so a content names its shard).
"""

from __future__ import annotations

from enum import IntEnum

GEM_NAMES = ("Diamond", "Ruby", "Emerald", "Sapphire", "Topaz", "Onyx", "Opal")
GEM_VALUES = (5, 4, 3, 2, 1, 6, 3)
NUM_GEMS = 7

ACTION_NAMES = (
    "Gust",
    "Compass",
    "Pickaxe",
    "Tunnel",
    "Anchor",
    "Lantern",
    "Flare",
    "Turn Stone",
    "Prism",
    "Thief",
    "Gift",
    "Avalanche",
    "Earthquake",
    "Greed",
    "Twister",
    "Reserved",
)
NUM_ACTION_TYPES = len(ACTION_NAMES)


class ActionKind(IntEnum):
    """The action tiles, in the order of the USE block (content 7 + kind)."""

    GUST = 0
    COMPASS = 1
    PICKAXE = 2
    TUNNEL = 3
    ANCHOR = 4
    LANTERN = 5
    FLARE = 6
    TURN_STONE = 7
    PRISM = 8
    THIEF = 9
    GIFT = 10
    AVALANCHE = 11
    EARTHQUAKE = 12
    GREED = 13
    TWISTER = 14
    RESERVED = 15  # a slot kept free: no tile of it exists, so it is never usable


NUM_CONTENTS = NUM_GEMS + NUM_ACTION_TYPES  # 23
UNKNOWN = NUM_CONTENTS  # observation slot for "content not known to me"
CONTENT_NAMES = GEM_NAMES + ACTION_NAMES
SECTION_NAMES = ("NE", "SE", "SW", "NW")


def content_of(name: str) -> int:
    return CONTENT_NAMES.index(name)


def is_gem(content: int) -> bool:
    return content < NUM_GEMS


def action_content(kind: int) -> int:
    """The content id of an action tile kind (actions follow the gems)."""
    return NUM_GEMS + kind


# --- designs -------------------------------------------------------------------
def _halves(first: str, second: str) -> tuple[int, int, int, int]:
    a, b = content_of(first), content_of(second)
    return (a, a, b, b)


def _quarters(*names: str) -> tuple[int, ...]:
    return tuple(content_of(n) for n in names)


DESIGNS: list[tuple[int, int, int, int]] = []
DESIGN_NAMES: list[str] = []
for _c in range(NUM_CONTENTS - 1):  # every plain tile except the reserved action
    DESIGNS.append((_c,) * 4)
    DESIGN_NAMES.append(CONTENT_NAMES[_c])
for _x, _y in (
    ("Opal", "Topaz"),
    ("Opal", "Sapphire"),
    ("Diamond", "Topaz"),
    ("Ruby", "Emerald"),
    ("Opal", "Gust"),
):
    DESIGNS.append(_halves(_x, _y))
    DESIGN_NAMES.append(f"{_x}/{_y}")
for _q in (("Opal", "Ruby", "Sapphire", "Pickaxe"), ("Opal", "Diamond", "Emerald", "Topaz")):
    DESIGNS.append(_quarters(*_q))
    DESIGN_NAMES.append("/".join(_q))
NUM_DESIGNS = len(DESIGNS)


def design_of(name: str) -> int:
    try:
        return DESIGN_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown tile {name!r}; known tiles: {DESIGN_NAMES}") from None


def shards_of(design: int) -> tuple[int, ...]:
    """Distinct contents of a design, in section order."""
    out: list[int] = []
    for c in DESIGNS[design]:
        if c not in out:
            out.append(c)
    return tuple(out)


SHARDS = [shards_of(d) for d in range(NUM_DESIGNS)]
PLAIN = [len(s) == 1 for s in SHARDS]
HAS_GEM = [any(is_gem(c) for c in s) for s in SHARDS]
# SECTION_CONTENT[d][k][s]: content at section s of design d turned to rotation k.
SECTION_CONTENT = [
    [tuple(DESIGNS[d][(s - k) % 4] for s in range(4)) for k in range(4)] for d in range(NUM_DESIGNS)
]

# --- pools per module (design name, copies) -----------------------------------------
POOLS: dict[str, list[tuple[str, int]]] = {
    "base": [
        ("Diamond", 3),
        ("Ruby", 4),
        ("Emerald", 5),
        ("Sapphire", 6),
        ("Topaz", 7),
        ("Gust", 3),
        ("Compass", 2),
        ("Pickaxe", 2),
        ("Tunnel", 2),
        ("Anchor", 2),
    ],
    "dark_tunnels": [("Onyx", 4), ("Lantern", 3), ("Flare", 2)],
    "gemshards": [
        ("Opal/Topaz", 2),
        ("Opal/Sapphire", 2),
        ("Diamond/Topaz", 1),
        ("Ruby/Emerald", 1),
        ("Opal/Gust", 1),
        ("Opal/Ruby/Sapphire/Pickaxe", 1),
        ("Opal/Diamond/Emerald/Topaz", 1),
        ("Turn Stone", 2),
        ("Prism", 1),
    ],
    "golden_actions": [
        ("Thief", 2),
        ("Gift", 2),
        ("Avalanche", 1),
        ("Earthquake", 1),
        ("Greed", 1),
        ("Twister", 1),
    ],
}
MODULES = ("dark_tunnels", "second_arrow", "gemshards", "golden_actions")


def module_pool(modules: dict[str, bool]) -> list[int]:
    """Design ids of one copy of the pool for the enabled modules, in table order."""
    out: list[int] = []
    for key in ("base", "dark_tunnels", "gemshards", "golden_actions"):
        if key == "base" or modules.get(key):
            for name, copies in POOLS[key]:
                out.extend([design_of(name)] * copies)
    return out
