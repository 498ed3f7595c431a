"""The Princes of Amber pictures: whole hands (wrapped, never silently cut),
princes and cards named as the moves name them, and a legend."""

from __future__ import annotations

from PIL import ImageDraw

from meeplezoo.envs.core import draw
from meeplezoo.envs.princes_of_amber.acts import action_name
from meeplezoo.envs.princes_of_amber.render import ATTRIBUTE_LEGEND
from tests.princes_of_amber.helpers import position

BIG_HAND = [
    "FIGHT",
    "CAPTURE",
    "CALL_THE_GUARDS",
    "PRISONER_OF_WAR",
    "GET_AWAY",
    "HIDE_IN_SHADOW",
    "LORDS_IN_AMBER",
    "NEGATE_CAPTURE",
    "CONQUER",
    "ARMY_LOSS",
    "SHADOW_MASTERY",
    "BREAK_CONTACT",
    "WALLS_OF_AMBER",
]


def _words_drawn(monkeypatch, render) -> list[str]:
    """Every word the picture font drew while ``render()`` ran."""
    words: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self, xy, text, *args, **kwargs):
        words.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    render()
    return words


def test_a_long_hand_wraps_in_the_picture_instead_of_being_cut(monkeypatch):
    s = position(n=5, hands={0: BIG_HAND, 1: ["FIGHT"]})
    monkeypatch.setattr(draw, "STRICT_BOUNDS", True)
    words = _words_drawn(monkeypatch, lambda: s.render_rgb(0))
    for kind in BIG_HAND:
        assert kind.lower() in words, f"card {kind.lower()} missing from the picture"
    assert not any(w.endswith(draw.ELLIPSIS) for w in words if "_" in w)
    assert "fight" in words and "(hidden)" in words  # player_1's one card is only counted


def test_hands_are_spelt_like_the_card_moves_and_only_the_viewer_sees_its_own():
    s = position(n=3, hands={0: ["FIGHT", "CAPTURE", "CAPTURE"], 1: ["GET_AWAY"]})
    text = s.render_ansi(0)
    for a in s.legal_actions():
        name = action_name(a)
        if name.startswith("card "):
            assert name[len("card ") :] + " x" in text
        if name.startswith("prince "):
            assert name[len("prince ") :].capitalize() in text
    assert "fight x1, capture x2" in text
    assert "get_away" not in text and "player_1 [in game] hand: 1 cards (hidden)" in text
    assert "get_away x1" in s.render_ansi(None)


def test_the_legend_explains_the_abbreviations():
    text = position(n=2).render_ansi(None)
    for symbol, meaning in ATTRIBUTE_LEGEND:
        assert f"{symbol} {meaning}" in text
