"""Every coin movement. Nothing else changes ``Account.balance`` or writes ledger rows.

Lock order (one global order, so two postings can never deadlock each other):
player wallets first, in primary-key order, then house accounts, in
primary-key order. House accounts (rake, escrow, bank, cashier) are hot rows
that every settlement touches; taking them last means a posting that waits for
a busy player wallet does so without holding a hot row, and the hot row is
held only for the few statements between its lock and the commit. An account
never changes kind, so this order is total and stable.

Callers that post twice inside one outer transaction hold the first posting's
locks while taking the second's; they should post at most once per outer
transaction, or always post in the same order.
"""

import hashlib
import json
from collections.abc import Sequence
from typing import NamedTuple

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from wallets.errors import (
    AlreadyReversed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidTransaction,
    UnbalancedTransaction,
)
from wallets.models import MAX_AMOUNT, Account, LedgerEntry, LedgerTransaction

HOUSE_CODES = ("cashier", "rake", "bank", "escrow")
KEY_MAX_LENGTH = LedgerTransaction._meta.get_field("key").max_length
REFERENCE_MAX_LENGTH = LedgerTransaction._meta.get_field("reference").max_length
GAME_SLUG_MAX_LENGTH = LedgerTransaction._meta.get_field("game_slug").max_length

Leg = tuple[Account, int]


# --- accounts ---------------------------------------------------------------


def house_account(*, code: str) -> Account:
    """Return the house account ``code`` ("cashier", "rake", "bank", "escrow"), creating it if missing."""
    if code not in HOUSE_CODES:
        raise InvalidTransaction(
            _("Unknown house account %(code)r; expected one of: %(codes)s.")
            % {"code": code, "codes": ", ".join(HOUSE_CODES)}
        )
    return _get_or_create(lookup={"code": code}, kind=code)


def escrow_subaccount(*, name: str) -> Account:
    """Return the escrow sub-account ``escrow:<name>``, creating it if missing.

    Coins held for longer than one hand or round (a tied pot carried from hand to hand at
    one table) sit apart from the main escrow, so the main escrow still closes per reference.
    """
    code = f"escrow:{name}"
    if not name or len(code) > Account._meta.get_field("code").max_length:
        raise InvalidTransaction(
            _("An escrow sub-account needs a short name, not %(name)r.") % {"name": name}
        )
    return _get_or_create(lookup={"code": code}, kind=Account.Kind.ESCROW)


def wallet_for_user(*, user) -> Account:
    """Return the player's wallet, creating an empty one on first use."""
    if user is None or getattr(user, "pk", None) is None:
        raise InvalidTransaction(_("A wallet belongs to a saved user."))
    return _get_or_create(lookup={"user": user}, kind=Account.Kind.PLAYER)


def _get_or_create(*, lookup: dict, kind: str) -> Account:
    # Race-safe: two first uses at once both try to insert; the unique column
    # lets one win and the loser reads the winner's row.
    account = Account.objects.filter(**lookup).first()
    if account is not None:
        return account
    try:
        with db_transaction.atomic():
            return Account.objects.create(kind=kind, **lookup)
    except IntegrityError:
        return Account.objects.get(**lookup)


# --- validation -------------------------------------------------------------


def validate_amount(amount: object, *, positive: bool = False) -> int:
    """Return ``amount`` if it is a non-zero int within ±MAX_AMOUNT, else raise InvalidAmount."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(
            _("Amount must be a whole number of coins, not %(type)s %(value)r.")
            % {"type": type(amount).__name__, "value": amount}
        )
    if amount == 0:
        raise InvalidAmount(_("Amount must not be zero."))
    if positive and amount < 0:
        raise InvalidAmount(_("Amount must be positive, got %(amount)d.") % {"amount": amount})
    if abs(amount) > MAX_AMOUNT:
        raise InvalidAmount(
            _("Amount %(amount)d exceeds the limit of %(max)d coins.") % {"amount": amount, "max": MAX_AMOUNT}
        )
    return amount


def _clean_legs(legs: Sequence[Leg]) -> list[Leg]:
    if not isinstance(legs, list | tuple) or len(legs) < 2:
        raise InvalidTransaction(_("A transaction needs at least two legs."))
    cleaned: list[Leg] = []
    seen: set[int] = set()
    for leg in legs:
        if not isinstance(leg, tuple | list) or len(leg) != 2 or not isinstance(leg[0], Account):
            raise InvalidTransaction(
                _("Each leg must be an (account, amount) pair, not %(leg)r.") % {"leg": leg}
            )
        account, amount = leg
        if account.pk is None:
            raise InvalidTransaction(_("Each leg's account must be saved first."))
        if account.pk in seen:
            raise InvalidTransaction(
                _("Account #%(pk)d appears in more than one leg; combine them into one.") % {"pk": account.pk}
            )
        seen.add(account.pk)
        cleaned.append((account, validate_amount(amount)))
    total = sum(amount for _account, amount in cleaned)
    if total != 0:
        raise UnbalancedTransaction(_("Legs must sum to zero; these sum to %(total)d.") % {"total": total})
    return sorted(cleaned, key=lambda leg: leg[0].pk)


def _clean_text(value: object, *, field: str, max_length: int | None = None) -> str:
    if not isinstance(value, str):
        raise InvalidTransaction(_("The %(field)s must be text.") % {"field": field})
    if max_length is not None and len(value) > max_length:
        raise InvalidTransaction(
            _("The %(field)s is longer than %(max)d characters.") % {"field": field, "max": max_length}
        )
    return value


def _clean_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidTransaction(_("A reason is required."))
    return reason.strip()


def _clean_attribution(game_slug: object, tier_id: object) -> tuple[str, int | None]:
    game_slug = _clean_text(game_slug, field=_("game"), max_length=GAME_SLUG_MAX_LENGTH)
    if tier_id is not None and (isinstance(tier_id, bool) or not isinstance(tier_id, int) or tier_id <= 0):
        raise InvalidTransaction(_("A room tier is a positive id, not %(value)r.") % {"value": tier_id})
    return game_slug, tier_id


def _fingerprint(*, kind: str, legs: list[Leg], reference: str, actor_id, memo: str, reversal_of_id) -> str:
    content = {
        "kind": kind,
        "legs": [[account.pk, amount] for account, amount in legs],
        "reference": reference,
        "actor": actor_id,
        "memo": memo,
        "reversal_of": reversal_of_id,
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


# --- posting ----------------------------------------------------------------


def ledger_post(
    *,
    key: str,
    kind: str,
    legs: Sequence[Leg],
    reference: str = "",
    actor=None,
    memo: str = "",
    game_slug: str = "",
    tier_id: int | None = None,
) -> LedgerTransaction:
    """Post one balanced transaction once per ``key``, or return the one already posted with it.

    Legs are (account, amount) pairs: positive credits the account, negative
    debits it. Runs in ``atomic()`` (a savepoint inside a caller's
    transaction), never durable, so settlement can post inside its own
    transaction; any refusal rolls back everything this call did.

    ``game_slug`` and ``tier_id``: the game and room tier the coins moved for
    (a hand's stake and settlement, a round's bets and payout), which the
    finance reports group by. They describe the transaction and are not part
    of its fingerprint: a retry that names them differently replays the first.
    """
    return _post(
        key=key,
        kind=kind,
        legs=legs,
        reference=reference,
        actor=actor,
        memo=memo,
        reversal_of=None,
        attribution=_clean_attribution(game_slug, tier_id),
    )


def _cleaned(*, key, kind, legs, reference, actor_id, memo, reversal_of) -> tuple:
    """Validate one posting; return its clean key, legs, reference, memo and fingerprint."""
    key = _clean_text(key, field=_("idempotency key"), max_length=KEY_MAX_LENGTH)
    if not key:
        raise InvalidTransaction(_("An idempotency key is required."))
    if kind not in LedgerTransaction.Kind.values:
        raise InvalidTransaction(_("Unknown transaction kind %(kind)r.") % {"kind": kind})
    reference = _clean_text(reference, field=_("reference"), max_length=REFERENCE_MAX_LENGTH)
    memo = _clean_text(memo, field=_("memo"))
    legs = _clean_legs(legs)
    fingerprint = _fingerprint(
        kind=kind,
        legs=legs,
        reference=reference,
        actor_id=actor_id,
        memo=memo,
        reversal_of_id=getattr(reversal_of, "pk", None),
    )
    return key, legs, reference, memo, fingerprint


def _entries(legs, locked: dict) -> list[tuple]:
    """Apply ``legs`` to the ``locked`` accounts' balances in order; refuse an overdraft.

    ``locked`` maps each account's pk to its locked row (anything with ``pk``,
    ``kind`` and ``balance``). Returns (locked row, amount, balance after) per leg.
    """
    entries = []
    for account, amount in legs:
        current = locked[account.pk]
        after = current.balance + amount
        if after < 0 and current.kind not in Account.MAY_GO_NEGATIVE:
            if not isinstance(current, Account):
                balance, current = current.balance, Account.objects.get(pk=current.pk)
                current.balance = balance
            raise InsufficientFunds(
                _(
                    "Insufficient funds: %(account)s has a balance of %(balance)d coins and cannot pay %(amount)d."
                )
                % {"account": current, "balance": current.balance, "amount": -amount},
                account=current,
                balance=current.balance,
                amount=-amount,
            )
        current.balance = after
        entries.append((current, amount, after))
    return entries


def _post(*, key, kind, legs, reference, actor, memo, reversal_of, attribution) -> LedgerTransaction:
    actor_id = getattr(actor, "pk", None)
    key, legs, reference, memo, fingerprint = _cleaned(
        key=key,
        kind=kind,
        legs=legs,
        reference=reference,
        actor_id=actor_id,
        memo=memo,
        reversal_of=reversal_of,
    )

    with db_transaction.atomic():
        existing = _replay(key=key, fingerprint=fingerprint)
        if existing is not None:
            return existing
        try:
            # The unique key serialises concurrent retries here, before any
            # account lock is taken: a second poster waits for the first to
            # commit, then fails and replays the committed row.
            with db_transaction.atomic():
                txn = LedgerTransaction.objects.create(
                    key=key,
                    fingerprint=fingerprint,
                    kind=kind,
                    reference=reference,
                    actor_id=actor_id,
                    memo=memo,
                    reversal_of=reversal_of,
                    game_slug=attribution[0],
                    tier_id=attribution[1],
                )
        except IntegrityError:
            existing = _replay(key=key, fingerprint=fingerprint)
            if existing is not None:
                return existing
            if reversal_of is not None:
                raise _already_reversed(reversal_of) from None
            raise

        locked = _lock_accounts(legs)
        entries = [
            LedgerEntry(transaction=txn, account=account, amount=amount, balance_after=after)
            for account, amount, after in _entries(legs, locked)
        ]
        for entry in entries:
            entry.account.save(update_fields=["balance"])
        LedgerEntry.objects.bulk_create(entries)
    return txn


class Posting(NamedTuple):
    """One transaction for ``ledger_post_many``: the arguments ``ledger_post`` takes."""

    key: str
    kind: str
    legs: Sequence[Leg]
    reference: str = ""
    memo: str = ""
    game_slug: str = ""
    tier_id: int | None = None


def ledger_post_many(
    *, postings: Sequence[Posting], actor=None, savepoint: bool = True
) -> list[LedgerTransaction]:
    """Post many balanced transactions at once, each once per key, in a handful of statements.

    The same rules as ``ledger_post`` for every posting (validation, one
    transaction per idempotency key, a replay returns the first one, a key
    reused with other content is refused, no overdraft), applied in the given
    order, so each entry's running balance follows that order. The accounts
    of all postings are locked together in the global order (player wallets,
    then house accounts, each by primary key), so a batch of settlements
    takes each hot house row once. Runs in ``atomic()``; any refusal rolls
    the whole batch back. ``savepoint=False``: inside the caller's
    transaction without a savepoint of its own (two round trips fewer), for
    a caller that lets every refusal end its whole transaction (it raises out
    of it, or rolls back), as ``atomic(savepoint=False)`` requires.

    The account instances of the posted legs are given the balance this batch
    left them with (read under its lock), so a caller that shows it needs no
    read of its own; a replayed posting moves nothing and leaves its legs' as
    they were.
    """
    actor_id = getattr(actor, "pk", None)
    cleaned = []
    for posting in postings:
        key, legs, reference, memo, fingerprint = _cleaned(
            key=posting.key,
            kind=posting.kind,
            legs=posting.legs,
            reference=posting.reference,
            actor_id=actor_id,
            memo=posting.memo,
            reversal_of=None,
        )
        game_slug, tier_id = _clean_attribution(posting.game_slug, posting.tier_id)
        cleaned.append((key, posting.kind, legs, reference, memo, game_slug, tier_id, fingerprint))
    if len({item[0] for item in cleaned}) != len(cleaned):
        raise InvalidTransaction(_("Each posting of a batch needs its own idempotency key."))
    if not cleaned:
        return []

    with db_transaction.atomic(savepoint=savepoint):
        keys = [item[0] for item in cleaned]
        if _vendor() == "postgresql":
            # Insert first: a key already posted is skipped (ON CONFLICT) and only those are read
            # back, so a batch of new keys (the usual one) asks nothing first. A concurrent poster
            # of the same key is waited for, and its row read once committed.
            posted = {txn.key: txn for txn in _insert_transactions(cleaned, actor_id=actor_id)}
            skipped = [key for key in keys if key not in posted]
            existing = _existing_by_key(skipped) if skipped else {}
        else:
            existing = _existing_by_key(keys)
            posted = None
        for key, *_rest, fingerprint in cleaned:
            if key in existing and existing[key].fingerprint != fingerprint:
                raise IdempotencyConflict(
                    _("Idempotency key %(key)r was already used for a different transaction (#%(pk)d).")
                    % {"key": key, "pk": existing[key].pk}
                )
        fresh = [item for item in cleaned if item[0] not in existing]
        if fresh:
            if posted is None:
                posted = {txn.key: txn for txn in _insert_transactions(fresh, actor_id=actor_id)}
            existing.update(posted)
            locked = _lock_balances([leg for item in fresh for leg in item[2]])
            entries = []
            for key, _kind, legs, *_rest in fresh:
                txn_id = existing[key].pk
                entries.extend(
                    (txn_id, row.pk, amount, after) for row, amount, after in _entries(legs, locked)
                )
            _save_balances_and_entries(list(locked.values()), entries)
            for _key, _kind, legs, *_rest in fresh:
                for account, _amount in legs:
                    account.balance = locked[account.pk].balance
    return [existing[item[0]] for item in cleaned]


# On PostgreSQL a batch's rows go as one JSON parameter (json_to_recordset) or one array per
# column: a handful of parameters whatever the batch's size, so neither Django's per-value
# compilation of bulk_create nor the driver's per-placeholder quoting is paid per row.


def _existing_by_key(keys: list[str]) -> dict[str, LedgerTransaction]:
    """Return the transactions already posted with any of ``keys``."""
    if _vendor() != "postgresql":
        return {txn.key: txn for txn in LedgerTransaction.objects.filter(key__in=keys)}
    return {
        txn.key: txn
        for txn in LedgerTransaction.objects.raw(
            f'SELECT * FROM "{LedgerTransaction._meta.db_table}" WHERE "key" = ANY(%s)', [keys]
        )
    }


def _insert_transactions(fresh: list[tuple], *, actor_id) -> list[LedgerTransaction]:
    """Insert the headers of ``fresh`` (cleaned postings) and return them saved.

    On PostgreSQL a key already posted is skipped (``ON CONFLICT DO NOTHING``) and left
    out of the list returned.
    """
    now = timezone.now()
    txns = [
        LedgerTransaction(
            key=key,
            fingerprint=fingerprint,
            kind=kind,
            reference=reference,
            actor_id=actor_id,
            memo=memo,
            created_at=now,
            game_slug=game_slug,
            tier_id=tier_id,
        )
        for key, kind, _legs, reference, memo, game_slug, tier_id, fingerprint in fresh
    ]
    if _vendor() != "postgresql":
        return LedgerTransaction.objects.bulk_create(txns)
    rows = [
        {
            "key": t.key,
            "fingerprint": t.fingerprint,
            "kind": t.kind,
            "reference": t.reference,
            "memo": t.memo,
            "game_slug": t.game_slug,
            "tier_id": t.tier_id,
        }
        for t in txns
    ]
    with db_transaction.get_connection().cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{LedgerTransaction._meta.db_table}" '
            '("key", "fingerprint", "kind", "reference", "memo", "game_slug", "tier_id", "actor_id", "created_at") '
            "SELECT v.key, v.fingerprint, v.kind, v.reference, v.memo, v.game_slug, v.tier_id, %s, %s "
            "FROM json_to_recordset(%s::json) AS v(key varchar, fingerprint varchar, kind varchar, "
            "reference varchar, memo text, game_slug varchar, tier_id bigint) "
            'ON CONFLICT ("key") DO NOTHING RETURNING "id", "key"',
            [actor_id, now, _recordset(rows)],
        )
        ids = {key: pk for pk, key in cursor.fetchall()}
    txns = [txn for txn in txns if txn.key in ids]
    for txn in txns:
        txn.pk = ids[txn.key]
    return txns


ENTRY_COLUMNS = ("transaction_id", "account_id", "amount", "balance_after")


def _save_balances_and_entries(accounts: list, entries: list[tuple[int, int, int, int]]) -> None:
    """Write the new balances of the locked ``accounts`` and insert the ``entries``.

    ``entries``: (transaction pk, account pk, amount, balance after) rows. On
    PostgreSQL in one statement, the balances' UPDATE in a CTE of the
    entries' INSERT (the ledger's database rules are deferred to the commit:
    the entries of a transaction must sum to zero; nothing checks a balance
    against an entry while the statement runs).
    """
    if _vendor() != "postgresql":
        Account.objects.bulk_update(accounts, ["balance"])
        LedgerEntry.objects.bulk_create(
            [LedgerEntry(transaction_id=t, account_id=a, amount=m, balance_after=b) for t, a, m, b in entries]
        )
        return
    with db_transaction.get_connection().cursor() as cursor:
        cursor.execute(
            f'WITH b AS (UPDATE "{Account._meta.db_table}" AS a SET "balance" = v.balance '
            'FROM unnest(%s::bigint[], %s::bigint[]) AS v(id, balance) WHERE a."id" = v.id) '
            f'INSERT INTO "{LedgerEntry._meta.db_table}" '
            '("transaction_id", "account_id", "amount", "balance_after") '
            "SELECT v.transaction_id, v.account_id, v.amount, v.balance_after "
            "FROM json_to_recordset(%s::json) "
            "AS v(transaction_id bigint, account_id bigint, amount bigint, balance_after bigint)",
            [
                [account.pk for account in accounts],
                [account.balance for account in accounts],
                _recordset([dict(zip(ENTRY_COLUMNS, entry, strict=True)) for entry in entries]),
            ],
        )


def _recordset(rows: list) -> str:
    """Many rows as one JSON parameter: one C-speed encoding, where per-element array quoting is Python."""
    return json.dumps(rows, separators=(",", ":"))


class _Locked:
    """A locked account's kind and running balance while a batch is posted (no model instance needed)."""

    __slots__ = ("pk", "kind", "balance")

    def __init__(self, pk: int, kind: str, balance: int) -> None:
        self.pk, self.kind, self.balance = pk, kind, balance


def _lock_balances(legs: list[Leg]) -> dict:
    """``_lock_accounts`` for a batch: the same locks in the same order, reading only kind and balance.

    On PostgreSQL in one statement: its rows are sorted in the global order
    (player wallets, then house accounts, each by pk) and only then locked,
    one by one as they leave the sort (a locking SELECT's ORDER BY is applied
    before its row locks), so the locks are taken in that order as when each
    group had its own statement.
    """
    if _vendor() != "postgresql":
        return _lock_accounts(legs)
    with db_transaction.get_connection().cursor() as cursor:
        cursor.execute(
            f'SELECT "id", "kind", "balance" FROM "{Account._meta.db_table}" '
            f'WHERE "id" = ANY(%s) ORDER BY "kind" <> \'{Account.Kind.PLAYER}\', "id" FOR UPDATE',
            [sorted({account.pk for account, _amount in legs})],
        )
        locked = {pk: _Locked(pk, kind, balance) for pk, kind, balance in cursor.fetchall()}
    _refuse_missing(legs, locked)
    return locked


def _vendor() -> str:
    return db_transaction.get_connection().vendor


def _replay(*, key: str, fingerprint: str) -> LedgerTransaction | None:
    existing = LedgerTransaction.objects.filter(key=key).first()
    if existing is None:
        return None
    if existing.fingerprint != fingerprint:
        raise IdempotencyConflict(
            _("Idempotency key %(key)r was already used for a different transaction (#%(pk)d).")
            % {"key": key, "pk": existing.pk}
        )
    return existing


def _lock_accounts(legs: list[Leg]) -> dict[int, Account]:
    """Lock the accounts in the global order: player wallets by pk, then house accounts by pk."""
    rows = Account.objects.select_for_update(of=("self",))
    return _lock_in_order(legs, lambda pks: rows.filter(pk__in=pks).order_by("pk"))


def _lock_in_order(legs: list[Leg], lock) -> dict:
    """Lock the legs' accounts with ``lock(pks)`` (rows back in pk order): player wallets, then house accounts.

    The one global order every posting takes its locks in; refuses an account that does not exist.
    """
    # An account's kind never changes, so the caller's copy tells which group it is in.
    player_pks = sorted({a.pk for a, _amount in legs if a.kind == Account.Kind.PLAYER})
    house_pks = sorted({a.pk for a, _amount in legs if a.kind != Account.Kind.PLAYER})
    locked: dict = {}
    for pks in (player_pks, house_pks):
        if pks:
            locked.update((row.pk, row) for row in lock(pks))
    _refuse_missing(legs, locked)
    return locked


def _refuse_missing(legs: list[Leg], locked: dict) -> None:
    missing = sorted({a.pk for a, _amount in legs} - set(locked))
    if missing:
        raise InvalidTransaction(_("Account #%(pk)d does not exist.") % {"pk": missing[0]})


def _already_reversed(original: LedgerTransaction) -> AlreadyReversed:
    reversal = LedgerTransaction.objects.filter(reversal_of=original).first()
    return AlreadyReversed(
        _("Transaction #%(pk)d was already reversed by transaction #%(by)s.")
        % {"pk": original.pk, "by": reversal.pk if reversal else "?"}
    )


def ledger_reverse(*, transaction: LedgerTransaction, key: str, actor, reason: str) -> LedgerTransaction:
    """Undo ``transaction`` by posting its opposite legs as a new reversal; never edit the original."""
    reason = _clean_reason(reason)
    if transaction.pk is None:
        raise InvalidTransaction(_("Only a posted transaction can be reversed."))
    with db_transaction.atomic():
        earlier = LedgerTransaction.objects.filter(reversal_of=transaction).first()
        if earlier is not None and earlier.key != key:
            raise _already_reversed(transaction)
        legs = [(entry.account, -entry.amount) for entry in transaction.entries.select_related("account")]
        if any(account.kind == Account.Kind.ESCROW for account, _amount in legs):
            # Escrow holds the coins of open hands and rounds, and their own settlement or
            # refund empties it. Reversing a stake or bet pays the player back while the hand
            # still pays out the same coins from escrow (coins invented); reversing a
            # settlement, payout or refund parks coins in escrow that nothing will release.
            raise InvalidTransaction(
                _(
                    "Transaction #%(pk)d moved coins through escrow for a hand or round; it cannot be "
                    "reversed. Correct the player's wallet with an adjustment instead."
                )
                % {"pk": transaction.pk}
            )
        return _post(
            key=key,
            kind=LedgerTransaction.Kind.REVERSAL,
            legs=legs,
            reference=transaction.reference,
            actor=actor,
            memo=reason,
            reversal_of=transaction,
            # A reversal undoes the original where the reports put it: same game, same tier.
            attribution=(transaction.game_slug, transaction.tier_id),
        )


# --- wallet operations (cashier ↔ player) -----------------------------------


def _cashier_move(*, kind: str, user, amount: int, key: str, actor, reason: str, reference: str):
    reason = _clean_reason(reason)
    wallet = wallet_for_user(user=user)
    cashier = house_account(code="cashier")
    if not reference and actor is not None:
        reference = f"staff:{actor.pk}"
    return ledger_post(
        key=key,
        kind=kind,
        legs=[(cashier, -amount), (wallet, amount)],
        reference=reference,
        actor=actor,
        memo=reason,
    )


def wallet_grant(
    *, user, amount: int, key: str, actor=None, reason: str, reference: str = ""
) -> LedgerTransaction:
    """Give the player ``amount`` new coins from the cashier (sign-up bonus, promotions)."""
    amount = validate_amount(amount, positive=True)
    return _cashier_move(
        kind=LedgerTransaction.Kind.GRANT,
        user=user,
        amount=amount,
        key=key,
        actor=actor,
        reason=reason,
        reference=reference,
    )


def wallet_deposit(
    *, user, amount: int, key: str, actor=None, reason: str, reference: str = ""
) -> LedgerTransaction:
    """Credit the player with ``amount`` coins paid in through the cashier (a staff action)."""
    amount = validate_amount(amount, positive=True)
    return _cashier_move(
        kind=LedgerTransaction.Kind.DEPOSIT,
        user=user,
        amount=amount,
        key=key,
        actor=actor,
        reason=reason,
        reference=reference,
    )


def wallet_withdraw(
    *, user, amount: int, key: str, actor=None, reason: str, reference: str = ""
) -> LedgerTransaction:
    """Take ``amount`` coins out of the player's wallet back to the cashier; refuse an overdraft."""
    amount = validate_amount(amount, positive=True)
    return _cashier_move(
        kind=LedgerTransaction.Kind.WITHDRAWAL,
        user=user,
        amount=-amount,
        key=key,
        actor=actor,
        reason=reason,
        reference=reference,
    )


def wallet_adjust(
    *, user, amount: int, key: str, actor=None, reason: str, reference: str = ""
) -> LedgerTransaction:
    """Correct the player's balance by a signed ``amount`` against the cashier."""
    amount = validate_amount(amount)
    return _cashier_move(
        kind=LedgerTransaction.Kind.ADJUSTMENT,
        user=user,
        amount=amount,
        key=key,
        actor=actor,
        reason=reason,
        reference=reference,
    )
