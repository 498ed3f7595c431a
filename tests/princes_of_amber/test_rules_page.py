"""The tables of the rules page (seeds/princes_of_amber.md) read back from
the page itself and checked against the game: the Fate deck (every card
name, its kind, copies and timing) and the princes (printed or rolled)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from meeplezoo.envs.princes_of_amber import acts
from meeplezoo.envs.princes_of_amber.cards import ATTRIBUTE_NAMES, PRINCE_NAMES, Kind, Phase
from meeplezoo.envs.princes_of_amber.observe import O_AMBER, O_PRINCES
from meeplezoo.envs.princes_of_amber.rules import AmberGame

RULES_PAGE = Path(__file__).resolve().parents[2] / "seeds" / "princes_of_amber.md"


def table_rows(heading: str) -> list[list[str]]:
    """The body rows of the first markdown table under ``heading``, as cells."""
    lines = RULES_PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return [row for row in rows[2:]]  # the header and its rule line first


def page_card_names(cell: str) -> list[tuple[str, int]]:
    """``"Capture 3, Imprison 2"`` or ``"Influence, Promises (1 each)"`` -> [(name, copies)]."""
    if cell.endswith("(1 each)"):
        return [(name.strip(), 1) for name in cell.removesuffix("(1 each)").split(",")]
    found = []
    for entry in cell.split(","):
        name, copies = entry.strip().rsplit(" ", 1)
        found.append((name, int(copies)))
    return found


# how the timing column names each response window
WINDOW_WORDS = {
    "damage follow-up": Phase.DAMAGE_FOLLOWUP,
    "war follow-up": Phase.WAR_FOLLOWUP,
    "after an F/W attack": Phase.CALL_GUARDS,
    "Fight negate": Phase.NEGATE,
    "as Get Away": Phase.NEGATE,
    "capture negate": Phase.CAPTURE_NEGATE,
    "conquer negate": Phase.NEGATE,
    "Will negate": Phase.NEGATE,
    "after a Block card": Phase.SHADOW_MASTERY,
    "Block (Amber holder)": Phase.BLOCK,
    "after support": Phase.SHADOW_ARMIES,
    "fury window": Phase.FURY,
    "death window": Phase.DEATH,
}
FATE_DECK = table_rows("## The Fate deck (100 cards, 36 kinds)")
PRINCES = table_rows("## The princes")


def test_the_page_lists_every_kind_once_and_fifty_seven_card_names_in_a_hundred_cards():
    assert [row[0] for row in FATE_DECK] == [kind.name for kind in Kind]
    names = [entry for row in FATE_DECK for entry in page_card_names(row[1])]
    assert len(names) == 57 and len({name for name, _ in names}) == 57
    assert sum(copies for _, copies in names) == 100


def test_every_card_name_of_the_deck_is_dealt_as_the_kind_the_page_gives_it():
    """Each of the 57 names, with its copies, belongs to the kind of its row
    (so a name moved to another kind's effect is caught)."""
    game = AmberGame()
    dealt = Counter(zip((Kind(k).name for k in game.card_kind), game.card_names))
    page = Counter({(row[0], name): copies for row in FATE_DECK for name, copies in page_card_names(row[1])})
    assert dealt == page


@pytest.mark.parametrize("row", FATE_DECK, ids=[row[0] for row in FATE_DECK])
def test_each_kind_is_played_at_the_timing_of_its_row(row):
    """Action: a prince's action; Free: no action; anything else: a response
    in a window. Will cards (and only they) are won in a Will contest; the
    one card a captive may play on himself says so."""
    kind_name, _, timing, _ = row
    rule = acts.RULES[Kind[kind_name]]
    if timing.startswith("Action"):
        assert rule.timing == acts.Timing.PRINCE_ACTION and rule.window is None
    elif timing.startswith("Free"):
        assert rule.timing == acts.Timing.FREE_PLAY and rule.window is None
    else:
        assert rule.timing == acts.Timing.RESPONSE and rule.window is not None
    assert (rule.wins is not None) == ("Will" in timing.split(", ")[1:])
    assert rule.captive == ("a captive may play it" in timing)
    if rule.timing == acts.Timing.RESPONSE:
        assert rule.window == next(phase for words, phase in WINDOW_WORDS.items() if words in timing)


def test_the_princes_have_the_printed_stats_of_the_page():
    """The princes table: names in id order, and each prince's five attributes
    as printed (table mode); every prince starts at full Hits."""
    assert PRINCES[0] and [row[1] for row in PRINCES] == list(PRINCE_NAMES)
    header = RULES_PAGE.read_text(encoding="utf-8").split("## The princes", 1)[1].splitlines()[1]
    assert [cell.strip() for cell in header.strip("|").split("|")][2:] == list(ATTRIBUTE_NAMES)
    printed = [[int(cell) for cell in row[2:]] for row in PRINCES]
    assert [int(row[0]) for row in PRINCES] == list(range(9))
    for seed in (0, 1):
        s = AmberGame(attribute_mode="table").new_initial_state(seed)
        assert [list(row) for row in s.attributes] == printed
        assert s.hits == [row[0] for row in printed]


def rolled_games(seeds):
    return [AmberGame(attribute_mode="rolled").new_initial_state(seed) for seed in seeds]


def test_rolled_attributes_are_two_dice_each_at_setup():
    """attribute_mode="rolled": each of the 45 attributes is 2d6 (2..12, the
    triangular 2d6 distribution over many seeds), Hits start full."""
    states = rolled_games(range(300))
    values = np.array([s.attributes for s in states])
    assert values.shape == (300, 9, 5) and values.min() == 2 and values.max() == 12
    frequency = np.bincount(values.ravel(), minlength=13)[2:] / values.size
    two_dice = np.array([6 - abs(total - 7) for total in range(2, 13)]) / 36
    assert np.abs(frequency - two_dice).max() < 0.012
    assert abs(values.mean() - 7.0) < 0.1
    for s in states[:20]:
        assert s.hits == [row[0] for row in s.attributes]


def test_rolled_attributes_differ_by_seed_repeat_by_seed_and_are_public():
    first, again, other = rolled_games([5, 5, 6])
    assert first.attributes == again.attributes and first.attributes != other.attributes
    assert first.attributes != [list(row) for row in first.game.table_attributes]
    for seat in range(2):
        block = first.observation(seat)[O_PRINCES:O_AMBER].reshape(9, -1)
        assert np.allclose(block[:, :5] * 12, first.attributes)
