"""Configurations the kernel's differential tests share."""

from __future__ import annotations

ALL = {"dark_tunnels": True, "second_arrow": True, "gemshards": True, "golden_actions": True}
HEAVY = {**ALL, "start_tiles": "any", "action_limit": "unlimited"}
# a 4x4 map with every split tile and two empty cells (layout_override)
LAYOUT = [
    "Ruby", "Opal/Topaz", "Onyx", None,
    "Opal/Ruby/Sapphire/Pickaxe", "Diamond/Topaz", "Thief", "Opal/Diamond/Emerald/Topaz",
    "Topaz", "Lantern", "Ruby/Emerald", "Opal/Gust",
    None, "Prism", "Emerald", "Diamond",
]  # fmt: skip


def overrides(holdings: list[dict], **extra) -> dict:
    """Three seats on the 4x4 override map, fixed rotations and arrows, ``holdings``."""
    return {
        "num_players": 3,
        "map_rows": 4,
        "map_cols": 4,
        **ALL,
        "layout_override": LAYOUT,
        "rotation_override": [(3 * i) % 4 for i in range(16)],
        "arrow_override": [1, 5],
        "holdings_override": holdings,
        **extra,
    }
