"""Errors the ledger raises; each message is a sentence a player or staff member can read."""


class LedgerError(Exception):
    """Base class: the ledger refused the request and changed nothing."""


class InvalidAmount(LedgerError):
    """An amount is not a non-zero int within ±MAX_AMOUNT (or not positive where it must be)."""


class InvalidTransaction(LedgerError):
    """The request is malformed: bad key, kind, legs, reason or account."""


class UnbalancedTransaction(InvalidTransaction):
    """The legs do not sum to zero."""


class InsufficientFunds(LedgerError):
    """An account that may not go negative would go below zero."""

    def __init__(self, message: str, *, account=None, balance: int = 0, amount: int = 0):
        super().__init__(message)
        self.account = account
        self.balance = balance
        self.amount = amount


class IdempotencyConflict(LedgerError):
    """The idempotency key was already used for a different transaction."""


class AlreadyReversed(LedgerError):
    """The transaction has already been reversed by another transaction."""
