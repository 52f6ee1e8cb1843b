"""How a card or a tile in the shared notation (DESIGN.md, "Notation") is drawn on the player's pages.

Only the notation is read here (cards: ranks 2-9 T J Q K A, suits s h c d, the
jokers XJ and DJ; mahjong tiles: 1-9 m/p/s, 1-7 z); the order of a list is its
game's (``games.presentation``). A game's presentation says which of the two its
hands are in (``pieces``), since "2s" is both the 2♠ and the 2 of 条. Tiles are
drawn as static/js/tiles.js draws them on the table pages: the 筒 suit as its
dots, 白板 (5z) blank, the others by number and character.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

_SUITS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
_JOKERS = {"DJ": ("大", True), "XJ": ("小", False)}  # big and small joker: label, drawn red


def card_face(card: str) -> dict:
    """Return how one card in notation is drawn: its label, suit symbol and colour."""
    if card in _JOKERS:
        label, red = _JOKERS[card]
        return {"code": card, "label": label, "symbol": "王", "red": red, "joker": True}
    rank, suit = card[:-1], card[-1:]
    return {
        "code": card,
        "label": "10" if rank == "T" else rank,
        "symbol": _SUITS.get(suit, "?"),
        "red": suit in ("h", "d"),
        "joker": False,
    }


_BLUE, _GREEN, _RED = "#1f5fa8", "#1d7a46", "#c62828"
# The dots of 1筒 … 9筒 on a 40 × 56 face: their radius and (x, y, colour), as in static/js/tiles.js.
_DOTS = {
    1: (13, [(20, 28, _RED)]),
    2: (8, [(20, 15, _GREEN), (20, 41, _BLUE)]),
    3: (7, [(10, 12, _BLUE), (20, 28, _RED), (30, 44, _GREEN)]),
    4: (7, [(11, 15, _BLUE), (29, 15, _GREEN), (11, 41, _GREEN), (29, 41, _BLUE)]),
    5: (6.5, [(10, 12, _BLUE), (30, 12, _GREEN), (20, 28, _RED), (10, 44, _GREEN), (30, 44, _BLUE)]),
    6: (
        6,
        [(12, 11, _GREEN), (28, 11, _GREEN), (12, 28, _RED), (28, 28, _RED), (12, 45, _RED), (28, 45, _RED)],
    ),
    7: (
        5,
        [
            (9, 8, _GREEN),
            (20, 14, _GREEN),
            (31, 20, _GREEN),
            (13, 33, _RED),
            (27, 33, _RED),
            (13, 46, _RED),
            (27, 46, _RED),
        ],
    ),
    8: (5, [(x, y, _BLUE) for y in (8, 21, 35, 48) for x in (13, 27)]),
    9: (5, [(x, y, c) for y, c in ((11, _BLUE), (28, _RED), (45, _GREEN)) for x in (9, 20, 31)]),
}
_HONOURS = "东南西北白发中"


def tile_face(tile: str) -> dict:
    """Return how one mahjong tile in notation is drawn: its name, its dots (筒), blank (白板) or its text."""
    number, suit = int(tile[:-1]), tile[-1:]
    face = {"code": tile, "tile": True, "dots": [], "ring": False, "blank": tile == "5z", "text": ""}
    if suit == "p":
        radius, spots = _DOTS[number]
        face["dots"] = [
            {"x": x, "y": y, "r": radius, "core": round(radius * 0.45, 2), "colour": c} for x, y, c in spots
        ]
        face["ring"] = number == 1
        face["name"] = _("{n} of Dots").format(n=number)
    elif tile == "5z":
        face["name"] = _("White dragon")
    else:
        face["text"] = _HONOURS[number - 1] if suit == "z" else f"{number}{'万' if suit == 'm' else '条'}"
        face["name"] = face["text"]
    return face


def card_faces(cards: list[str], *, tiles: bool = False) -> list[dict]:
    """Return the faces of ``cards`` (mahjong tiles when ``tiles``), in the order given."""
    return [tile_face(card) if tiles else card_face(card) for card in cards]
