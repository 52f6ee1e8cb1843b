"""Refusals of the round runtime; ``code`` is the protocol's error code, ``str(exc)`` a readable sentence.

Every refusal changes nothing: no bet row, no ledger entry, no balance.
"""

from django.utils.translation import gettext_lazy as _

from rooms.tables.errors import TableError, TableNotFound

__all__ = [
    "AlreadyBet",
    "AreaClosed",
    "BadArea",
    "BadAmount",
    "BankerMayNotBet",
    "BankError",
    "BelowMinimum",
    "BetRefused",
    "BettingClosed",
    "InsufficientCoins",
    "NotABankerTable",
    "NothingToCancel",
    "NothingToRepeat",
    "NotYourReveal",
    "OverAreaLimit",
    "OverBankLimit",
    "OverTableLimit",
    "RoundError",
    "TableNotFound",
]


class RoundError(TableError):
    """Base class: the round runtime refused the request and changed nothing."""


class BettingClosed(RoundError):
    code = "betting_closed"
    default_message = _("Betting is closed for this round.")


class BadArea(RoundError):
    code = "bad_area"
    default_message = _("There is no such betting area at this table.")


class AreaClosed(RoundError):
    code = "area_closed"
    default_message = _("That area takes no bets in this round.")


class BadAmount(RoundError):
    code = "malformed"
    default_message = _("A bet must be a positive whole number of coins.")


class BelowMinimum(RoundError):
    code = "below_minimum"


class OverAreaLimit(RoundError):
    code = "over_area_limit"


class OverTableLimit(RoundError):
    code = "over_table_limit"


class InsufficientCoins(RoundError):
    code = "insufficient_coins"


class BetRefused(RoundError):
    """The engine refused the bet; ``code`` is the engine's (bad_area, area_closed, ...)."""

    code = "bad_area"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        if code:
            self.code = code
        super().__init__(message)


class NotABankerTable(RoundError):
    code = "not_found"
    default_message = _("There is no such banker table.")


class NothingToCancel(RoundError):
    code = "nothing_to_cancel"
    default_message = _("You have no bets on this round to cancel.")


class NothingToRepeat(RoundError):
    code = "nothing_to_repeat"
    default_message = _("You have no earlier round at this table to repeat.")


class AlreadyBet(RoundError):
    code = "already_bet"
    default_message = _(
        "Repeat places your last round's bets on a round you have not bet on yet: cancel these bets first."
    )


class NotYourReveal(RoundError):
    code = "not_your_reveal"
    default_message = _("Only the top bettor turns these cards, while the reveal waits for them.")


class OverBankLimit(RoundError):
    """The bet's most_won would take the round's bets past what the player banker can pay."""

    code = "over_bank_limit"


class BankerMayNotBet(RoundError):
    code = "banker_may_not_bet"
    default_message = _("The banker does not bet on the areas.")


class BankError(RoundError):
    """A refusal of applying to bank or stepping down (``code`` says which)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)
