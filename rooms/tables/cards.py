"""How a card in the shared notation (DESIGN.md, "Notation") is drawn on the player's pages.

Only the notation is read here (ranks 2-9 T J Q K A, suits s h c d, the jokers
XJ and DJ); the order of a list of cards is its game's (``games.presentation``).
"""

from __future__ import annotations

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


def card_faces(cards: list[str]) -> list[dict]:
    """Return the faces of ``cards``, in the order given."""
    return [card_face(card) for card in cards]
