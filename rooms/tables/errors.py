"""Refusals of the table runtime; ``code`` is the protocol's error code, ``str(exc)`` a readable sentence."""

from django.utils.translation import gettext_lazy as _

from rooms.errors import TableError

__all__ = ["TableError"]  # the base class lives with the app's errors: rooms.sockets catches it


class NotSeated(TableError):
    code = "not_seated"
    default_message = _("You do not have a seat at this table.")


class NoHand(TableError):
    code = "no_hand"
    default_message = _("No hand is being played at this table.")


class NotYourTurn(TableError):
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class ActionRefused(TableError):
    """The engine refused the action; the message is the engine's sentence."""

    code = "illegal"


class NotNow(TableError):
    code = "not_now"
    default_message = _("That cannot be done while a hand is being played.")


class AlreadySeated(TableError):
    """The user already sits at another table; ``table_id`` says which."""

    code = "already_seated"

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(_("You are already seated at table %(id)s.") % {"id": table_id})


class TableNotFound(TableError):
    code = "not_found"
    default_message = _("There is no such table.")
