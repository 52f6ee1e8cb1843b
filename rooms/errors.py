"""Errors the rooms services raise; ``str(exc)`` is a sentence a player can read."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class RoomsError(Exception):
    """Base class for refusals from the rooms app."""


class EntryRefused(RoomsError):
    """A player may not sit down in a room tier; the message says why.

    ``code`` tells the reason apart for callers that branch on it
    (``login_required``, ``game_unavailable``, ``tier_closed``,
    ``below_minimum``, ``above_maximum``); ``minimum``, ``maximum`` and
    ``balance`` carry the numbers the message names.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        minimum: int | None = None,
        maximum: int | None = None,
        balance: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.balance = balance

    def __str__(self) -> str:
        return self.message


class TableError(Exception):
    """Base class of the table runtimes' refusals (rooms.tables.errors, rooms.rounds.errors): it refused the request and changed nothing."""

    code = "error"
    default_message = _("That is not possible now.")

    def __init__(self, message: str | None = None) -> None:
        self.message = str(message if message is not None else self.default_message)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def illegal_action_text(exc) -> str:
    """An engine's refusal (``games.base.IllegalAction``) in the active language, its values filled in."""
    try:
        return gettext(exc.template).format(**exc.params)
    except (KeyError, IndexError, ValueError):
        return str(exc)  # a broken translation must not hide the refusal
