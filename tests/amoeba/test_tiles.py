"""The tile set: generation rule, count, reference list, rotations."""

from meeplezoo.envs.amoeba.tiles import (
    DISTINCT_ROTS,
    NUM_TILES,
    ORIENTED,
    TILES,
    canonical,
    notation,
    rotate_pieces,
)

REFERENCE = """
 0:0|1|2    1:0|12     2:01|2     3:012      4:02|1     5:0|1|3    6:0|13
 7:01|3     8:013      9:03|1    10:0|1|4   11:0|14    12:01|4    13:014
14:04|1    15:0|1|5   16:0|15    17:01|5    18:015     19:05|1    20:0|1|6
21:0|16    22:01|6    23:016     24:06|1    25:0|1|7   26:0|17    27:01|7
28:017     29:07|1    30:0|2     31:02      32:0|2|4   33:0|24    34:02|4
35:024     36:04|2    37:0|2|5   38:0|25    39:02|5    40:025     41:05|2
42:0|2|7   43:0|27    44:02|7    45:027     46:07|2    47:0|3     48:03
49:0|3|4   50:0|34    51:03|4    52:034     53:04|3    54:0|3|5   55:0|35
56:03|5    57:035     58:05|3    59:0|3|7   60:0|37    61:03|7    62:037
63:07|3    64:0|4     65:04      66:0|5     67:05      68:0|5|7   69:0|57
70:05|7    71:057     72:07|5    73:0|7     74:07      75:1|3     76:13
77:1|3|5   78:1|35    79:13|5    80:135     81:15|3    82:1|5     83:15
"""


def test_reference_list_reproduced_exactly():
    ref = dict(tok.split(":") for tok in REFERENCE.split())
    assert NUM_TILES == 84 == len(ref)
    for i, t in enumerate(TILES):
        assert notation(t) == ref[str(i)], i


def test_counts_by_pink_ports_and_pieces():
    two = [t for t in TILES if sum(len(p) for p in t) == 2]
    three = [t for t in TILES if sum(len(p) for p in t) == 3]
    assert len(two) == 14 and len(three) == 70
    assert sum(1 for t in three if len(t) == 1) == 14
    assert sum(1 for t in three if len(t) == 2) == 42
    assert sum(1 for t in three if len(t) == 3) == 14


def test_unique_under_rotation_and_canonical():
    forms = {canonical(t) for t in TILES}
    assert len(forms) == 84
    for t in TILES:
        assert canonical(t) == t


def test_pink_ports_on_at_least_two_sides():
    for t in TILES:
        assert len({p // 2 for piece in t for p in piece}) >= 2


def test_named_tiles_and_rotation():
    assert notation(TILES[66]) == "0|5"
    assert notation(TILES[40]) == "025"
    assert rotate_pieces(TILES[66], 1) == ((2,), (7,))
    assert ORIENTED[66 * 4 + 1] == ((2,), (7,))


def test_symmetric_tiles_offer_fewer_rotations():
    # 0|4 and 04 look the same after a half turn
    assert DISTINCT_ROTS[64] == (0, 1)
    assert DISTINCT_ROTS[65] == (0, 1)
    assert DISTINCT_ROTS[30] == (0, 1, 2, 3)
