"""Which cards a viewer may see in a frame: the hidden-card rule shared by test_hidden_cards.py and bench/chaos.py.

Pure functions of an engine's state (no Django): every card anywhere in a
JSON value, each seat's own cards in a state, and what a game's rules show
one seat beyond its own cards and the public view (``PRIVATE_REVEALS``).
``leaked`` puts them together for one frame.
"""

from __future__ import annotations

import re

CARD = re.compile(r"^(?:[2-9TJQKA][shcd]|XJ|DJ|[1-9][mps]|[1-7]z)$")  # cards, and mahjong tiles


def cards_in(value) -> set[str]:
    """Every card (in card notation) anywhere in a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def seat_holdings(state: dict) -> list[set[str]]:
    """Each seat's own cards in the engine's state: every per-seat list of card lists it keeps."""
    seats = len(state["players"])
    held: list[set[str]] = [set() for _ in range(seats)]
    for value in state.values():
        if not (isinstance(value, list) and len(value) == seats):
            continue
        if all(
            v is None or (isinstance(v, list) and all(isinstance(c, str) and CARD.match(c) for c in v))
            for v in value
        ):
            for index, cards in enumerate(value):
                held[index].update(cards or [])
    return held


def zhajinhua_compared(state: dict, seat: int) -> set[str]:
    """炸金花: the two sides of a 比牌 see each other's hands at the end (001:736), or at once if so configured."""
    if state.get("result") is None and state.get("compare_reveal") != "immediate":
        return set()
    held = seat_holdings(state)
    shown: set[str] = set()
    for compare in state.get("compares") or []:
        if seat in (compare["seat"], compare["target"]):
            shown |= held[compare["seat"]] | held[compare["target"]]
    return shown


def shengji_bottom(state: dict, seat: int) -> set[str]:
    """升级: the 底牌 a seat buried stays known to it (004:10), until another seat takes it up."""
    if state.get("buried_by") == seat and state.get("burier") is None:
        return set(state.get("_bottom") or [])
    return set()


# What a game's rules show one seat beyond its own cards and the public view.
PRIVATE_REVEALS = {"zhajinhua": zhajinhua_compared, "shengji": shengji_bottom}


def leaked(engine, slug: str, state: dict, seat: int | None, shown: set[str], public_notices=()) -> set[str]:
    """The cards in ``shown`` that the viewer of ``seat`` (None: a spectator, or a later occupant of
    the seat who did not play the hand) may not see in ``state``."""
    allowed = cards_in(engine.view(state, None)) | set(public_notices)
    if seat is not None:
        allowed |= seat_holdings(state)[seat] | PRIVATE_REVEALS.get(slug, lambda s, i: set())(state, seat)
    return shown - allowed
