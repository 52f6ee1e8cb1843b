"""The presentation protocol: what the platform's pages show of a seated game's finished hands.

The table runtime plays a hand through :class:`games.base.Engine`; the pages
that look back at a hand (战绩 the player's record, the verify page, the staff
replay, the REST API) ask the game's :class:`Presentation`, registered as
``GameInfo.presentation``, so that no page names a game, a role or a key of a
game's state. Everything here is plain data: cards in the notation of
DESIGN.md, numbers, and words as msgids marked with
:func:`games.base.gettext_noop`, which the pages translate when they render.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from games.base import State


@dataclass(frozen=True)
class CardGroup:
    """Cards shown together under one label (a msgid): 底牌 "Bottom cards", a board."""

    label: str
    cards: list[str]


@dataclass(frozen=True)
class Deal:
    """One deal a hand's seed made: each seat's cards as dealt, and the cards dealt to nobody.

    ``note`` (a msgid, or "") says why the hand did not end with this deal,
    for a deal that was thrown in and dealt again.
    """

    hands: list[list[str]]
    shared: list[CardGroup] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class Fact:
    """One fact of a finished hand's record: "Multiple ×4", "Landlord: <player>".

    ``key`` and ``value`` are what the REST API gives (``value`` is JSON).
    ``words`` is how a page says it: msgids, each translated and then filled
    with ``{value}``, joined by " · ". With ``seat`` set, ``value`` is a seat
    and the page puts that seat's player's name in its place.
    """

    key: str
    label: str
    value: Any
    words: tuple[str, ...] = ("{value}",)
    seat: bool = False


@dataclass(frozen=True)
class SeatCards:
    """One seat's row of a record: a card list per column (None: not shown to this player), and its role."""

    cells: list[list[str] | None]
    role: str = ""  # a msgid shown as a badge beside the player ("Landlord"), or ""


@dataclass(frozen=True)
class Record:
    """The cards a finished hand's record shows one player: one column per card set, one row per seat."""

    columns: list[str]  # msgids: ["Dealt", "Left at the end"], ["Cards"]
    seats: list[SeatCards]
    shared: list[CardGroup] = field(default_factory=list)


class Presentation(Protocol):
    """How a seated game's finished hands are shown. Every method is pure and reads no clock or setting.

    ``pieces`` says which notation its hands are in: "cards" (playing cards) or
    "tiles" (mahjong tiles), since the two share strings such as "2s"; a
    presentation without the attribute is read as "cards".
    """

    pieces: str

    def deals(self, state: State) -> list[Deal]:
        """List every deal ``state``'s seed made, in order, the one that was played last.

        A hand that was thrown in and dealt again (everybody passed) has several.
        The cards are each seat's as dealt, before any was played, exchanged or
        taken from the table, so a player who re-derives the deck from the
        revealed seed finds exactly these.
        """
        ...

    def facts(self, details: dict) -> list[Fact]:
        """List the facts a finished hand's record shows, from its ``Outcome.details`` as stored.

        Roles, multiples, bids, how the hand was won: whatever the game counts.
        An empty list is fine.
        """
        ...

    def record(self, state: State, seat: int | None) -> Record:
        """Return the cards a finished hand's record shows ``seat``'s player (None: a spectator).

        Only what the rules show that player once the hand is over; a game
        whose rules keep folded hands hidden keeps them hidden here too.
        """
        ...

    def summary(self, state: State) -> dict:
        """Return the public facts of ``state`` that a replay's step shows (phase, turn, cards on the table)."""
        ...
