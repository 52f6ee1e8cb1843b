from decimal import Decimal

import pytest
from django.db import transaction

from wallets.errors import (
    AlreadyReversed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidTransaction,
    UnbalancedTransaction,
)
from wallets.models import MAX_AMOUNT, Account, LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check, wallet_balance
from wallets.services import (
    house_account,
    ledger_post,
    ledger_reverse,
    wallet_adjust,
    wallet_deposit,
    wallet_for_user,
    wallet_grant,
    wallet_withdraw,
)

pytestmark = pytest.mark.django_db


def snapshot():
    """Everything a failed call must leave untouched."""
    return (
        LedgerTransaction.objects.count(),
        LedgerEntry.objects.count(),
        dict(Account.objects.values_list("pk", "balance")),
    )


def test_grant_moves_coins_from_the_cashier_and_records_running_balances(player):
    first = wallet_grant(user=player, amount=1000, key="g1", reason="sign-up")
    wallet_grant(user=player, amount=250, key="g2", reason="promo", reference="promo:7")

    assert wallet_balance(user=player) == 1250
    assert house_account(code="cashier").balance == -1250
    assert first.kind == "grant" and first.memo == "sign-up"
    wallet = wallet_for_user(user=player)
    assert list(wallet.entries.order_by("pk").values_list("amount", "balance_after")) == [
        (1000, 1000),
        (250, 1250),
    ]
    assert ledger_check() == []


def test_retry_with_the_same_key_returns_the_first_transaction_and_changes_nothing(player):
    first = wallet_grant(user=player, amount=500, key="same", reason="bonus")
    before = snapshot()

    again = wallet_grant(user=player, amount=500, key="same", reason="bonus")

    assert again.pk == first.pk
    assert snapshot() == before


def test_the_same_key_with_other_content_is_refused(player):
    wallet_grant(user=player, amount=500, key="k", reason="bonus")
    before = snapshot()

    with pytest.raises(
        IdempotencyConflict, match=r"Idempotency key 'k' was already used for a different transaction"
    ):
        wallet_grant(user=player, amount=501, key="k", reason="bonus")
    with pytest.raises(IdempotencyConflict, match="already used"):
        wallet_grant(user=player, amount=500, key="k", reason="another reason")
    assert snapshot() == before


def test_an_overdraft_is_refused_naming_the_balance_and_changes_nothing(player):
    wallet_grant(user=player, amount=300, key="g", reason="start")
    before = snapshot()

    with pytest.raises(InsufficientFunds, match=r"has a balance of 300 coins and cannot pay 301") as raised:
        wallet_withdraw(user=player, amount=301, key="w", reason="cash out")

    assert raised.value.balance == 300 and raised.value.amount == 301
    assert snapshot() == before
    assert not LedgerTransaction.objects.filter(key="w").exists()


def test_withdraw_deposit_and_adjust_move_coins_both_ways(player, make_player):
    staff = make_player(is_staff=True)
    wallet_deposit(user=player, amount=1000, key="d", actor=staff, reason="paid in")
    wallet_withdraw(user=player, amount=400, key="w", actor=staff, reason="paid out")
    wallet_adjust(user=player, amount=-100, key="a1", actor=staff, reason="duplicate bonus")
    txn = wallet_adjust(user=player, amount=5, key="a2", actor=staff, reason="goodwill")

    assert wallet_balance(user=player) == 505
    assert txn.actor == staff and txn.reference == f"staff:{staff.pk}" and txn.kind == "adjustment"
    assert ledger_check() == []


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (-5, "Amount must be positive, got -5"),
        (0, "Amount must not be zero"),
        (1.5, "Amount must be a whole number of coins, not float 1.5"),
        (True, "Amount must be a whole number of coins, not bool True"),
        (Decimal("10"), r"Amount must be a whole number of coins, not Decimal Decimal\('10'\)"),
        ("10", "Amount must be a whole number of coins, not str '10'"),
        (None, "Amount must be a whole number of coins, not NoneType None"),
        (MAX_AMOUNT + 1, f"Amount {MAX_AMOUNT + 1} exceeds the limit of {MAX_AMOUNT} coins"),
    ],
)
def test_bad_amounts_are_refused_with_a_clear_error_and_change_nothing(player, amount, message):
    wallet_grant(user=player, amount=100, key="g", reason="start")
    before = snapshot()

    for service in (wallet_grant, wallet_deposit, wallet_withdraw):
        with pytest.raises(InvalidAmount, match=message):
            service(user=player, amount=amount, key="bad", reason="test")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "Amount must not be zero"),
        (2.0, "not float 2.0"),
        (False, "not bool False"),
        (-(MAX_AMOUNT + 1), "exceeds the limit"),
    ],
)
def test_bad_ledger_leg_amounts_are_refused(player, amount, message):
    wallet = wallet_for_user(user=player)
    cashier = house_account(code="cashier")
    before = snapshot()
    with pytest.raises(InvalidAmount, match=message):
        ledger_post(key="x", kind="grant", legs=[(cashier, amount), (wallet, 5)])
    assert snapshot() == before


def test_malformed_postings_are_refused_with_clear_errors(player, make_player):
    wallet = wallet_for_user(user=player)
    other = wallet_for_user(user=make_player())
    cashier = house_account(code="cashier")
    before = snapshot()

    cases = [
        (InvalidTransaction, "at least two legs", dict(legs=[(wallet, 5)])),
        (InvalidTransaction, "at least two legs", dict(legs=None)),
        (
            UnbalancedTransaction,
            "Legs must sum to zero; these sum to 5",
            dict(legs=[(cashier, -5), (wallet, 10)]),
        ),
        (InvalidTransaction, "appears in more than one leg", dict(legs=[(wallet, -5), (wallet, 5)])),
        (
            InvalidTransaction,
            "must be an \\(account, amount\\) pair",
            dict(legs=[(cashier, -5), (wallet, 3, 2)]),
        ),
        (
            InvalidTransaction,
            "must be an \\(account, amount\\) pair",
            dict(legs=[("cashier", -5), (wallet, 5)]),
        ),
        (InvalidTransaction, "must be saved first", dict(legs=[(Account(kind="player"), -5), (wallet, 5)])),
        (InvalidTransaction, "Unknown transaction kind 'gift'", dict(kind="gift")),
        (InvalidTransaction, "An idempotency key is required", dict(key="")),
        (InvalidTransaction, "The idempotency key must be text", dict(key=7)),
        (InvalidTransaction, "The idempotency key is longer than 200 characters", dict(key="k" * 201)),
        (InvalidTransaction, "The reference is longer than 100 characters", dict(reference="r" * 101)),
        (InvalidTransaction, "The memo must be text", dict(memo=None)),
    ]
    for error, message, overrides in cases:
        kwargs = {"key": "k", "kind": "bet", "legs": [(wallet, 0 + 5), (other, -5)], **overrides}
        if "legs" not in overrides:
            kwargs["legs"] = [(cashier, -5), (wallet, 5)]
        with pytest.raises(error, match=message):
            ledger_post(**kwargs)
    assert snapshot() == before


def test_a_reason_is_required_for_wallet_operations(player):
    for reason in ("", "   ", None):
        with pytest.raises(InvalidTransaction, match="A reason is required"):
            wallet_deposit(user=player, amount=5, key="d", reason=reason)
    assert LedgerTransaction.objects.count() == 0


def test_escrow_and_rake_never_go_negative_but_the_bank_and_cashier_may(player):
    wallet_grant(user=player, amount=100, key="g", reason="start")
    wallet = wallet_for_user(user=player)
    escrow, rake, bank = (house_account(code=code) for code in ("escrow", "rake", "bank"))

    with pytest.raises(InsufficientFunds, match=r"Escrow has a balance of 0 coins and cannot pay 10"):
        ledger_post(key="e", kind="payout", legs=[(escrow, -10), (wallet, 10)])
    with pytest.raises(InsufficientFunds, match=r"Rake income has a balance of 0 coins"):
        ledger_post(key="r", kind="payout", legs=[(rake, -10), (wallet, 10)])

    ledger_post(key="b", kind="payout", legs=[(bank, -10), (wallet, 10)], reference="round:1")
    assert house_account(code="bank").balance == -10
    assert wallet_balance(user=player) == 110


def test_house_accounts_are_created_once_and_unknown_codes_refused():
    Account.objects.filter(code="rake").delete()
    rake = house_account(code="rake")
    assert house_account(code="rake").pk == rake.pk
    assert rake.kind == "rake" and rake.balance == 0
    with pytest.raises(
        InvalidTransaction, match="Unknown house account 'jackpot'; expected one of: cashier, rake"
    ):
        house_account(code="jackpot")


def test_wallet_for_user_creates_one_wallet_per_player(player, make_player):
    from platform.accounts.models import User

    assert wallet_for_user(user=player).pk == wallet_for_user(user=player).pk
    assert wallet_balance(user=make_player()) == 0
    with pytest.raises(InvalidTransaction, match="A wallet belongs to a saved user"):
        wallet_for_user(user=User(username="ghost"))


def test_reversal_posts_the_opposite_legs_and_leaves_the_original_alone(player, make_player):
    staff = make_player(is_staff=True)
    original = wallet_deposit(user=player, amount=700, key="d", actor=staff, reason="wrong player")

    reversal = ledger_reverse(transaction=original, key="rev", actor=staff, reason="typo in username")

    assert wallet_balance(user=player) == 0
    assert (
        reversal.kind == "reversal"
        and reversal.reversal_of == original
        and reversal.memo == "typo in username"
    )
    assert sorted(reversal.entries.values_list("amount", flat=True)) == [-700, 700]
    assert sorted(original.entries.values_list("amount", flat=True)) == [-700, 700]
    assert (
        ledger_reverse(transaction=original, key="rev", actor=staff, reason="typo in username").pk
        == reversal.pk
    )
    with pytest.raises(
        AlreadyReversed,
        match=rf"Transaction #{original.pk} was already reversed by transaction #{reversal.pk}",
    ):
        ledger_reverse(transaction=original, key="rev-2", actor=staff, reason="again")
    with pytest.raises(InvalidTransaction, match="A reason is required"):
        ledger_reverse(transaction=reversal, key="rev-3", actor=staff, reason="")
    assert ledger_check() == []


def test_a_stake_bet_or_settlement_through_escrow_cannot_be_reversed(player, make_player):
    """Escrow belongs to open hands and rounds: only their own settlement or refund empties it.

    Reversing a stake while the hand plays gave the coins back and the settlement then
    paid them out of escrow a second time, from another table's stakes; reversing a
    settlement parked coins in escrow that nothing would ever release.
    """
    other = make_player()
    escrow, rake = house_account(code="escrow"), house_account(code="rake")
    wallet, other_wallet = wallet_for_user(user=player), wallet_for_user(user=other)
    wallet_grant(user=player, amount=100, key="g1", reason="start")
    wallet_grant(user=other, amount=500, key="g2", reason="start")
    stake = ledger_post(
        key="hand:1:stake", kind="stake", legs=[(wallet, -100), (escrow, 100)], reference="hand:1"
    )
    ledger_post(
        key="hand:2:stake", kind="stake", legs=[(other_wallet, -500), (escrow, 500)], reference="hand:2"
    )
    before = snapshot()
    with pytest.raises(InvalidTransaction, match=rf"Transaction #{stake.pk} moved coins through escrow"):
        ledger_reverse(transaction=stake, key="rev", actor=None, reason="player asked")
    assert snapshot() == before
    settlement = ledger_post(
        key="hand:1:settle",
        kind="settlement",
        legs=[(escrow, -100), (wallet, 95), (rake, 5)],
        reference="hand:1",
    )
    with pytest.raises(InvalidTransaction, match="cannot be reversed.*adjustment instead"):
        ledger_reverse(transaction=settlement, key="rev2", actor=None, reason="wrong winner")
    assert wallet_balance(user=player) == 95
    assert Account.objects.get(pk=escrow.pk).balance == 500  # only hand 2's stake
    assert ledger_check() == []


def test_a_reversal_that_would_overdraw_the_player_is_refused(player):
    grant = wallet_grant(user=player, amount=100, key="g", reason="start")
    wallet_withdraw(user=player, amount=60, key="w", reason="spent")
    with pytest.raises(InsufficientFunds, match="has a balance of 40 coins and cannot pay 100"):
        ledger_reverse(transaction=grant, key="rev", actor=None, reason="undo")
    assert wallet_balance(user=player) == 40


def test_a_refused_posting_inside_an_outer_transaction_rolls_back_only_itself(player):
    with transaction.atomic():
        wallet_grant(user=player, amount=100, key="g", reason="start")
        with pytest.raises(InsufficientFunds):
            wallet_withdraw(user=player, amount=101, key="w", reason="too much")
        wallet_withdraw(user=player, amount=30, key="w2", reason="fine")
    assert wallet_balance(user=player) == 70
    assert not LedgerTransaction.objects.filter(key="w").exists()
    assert ledger_check() == []


def test_a_leg_on_a_missing_account_or_an_unsaved_reversal_is_refused(player):
    wallet = wallet_for_user(user=player)
    ghost = Account(pk=987654, kind="player")
    with pytest.raises(InvalidTransaction, match="Account #987654 does not exist"):
        ledger_post(key="ghost", kind="bet", legs=[(ghost, -5), (wallet, 5)])
    with pytest.raises(InvalidTransaction, match="Only a posted transaction can be reversed"):
        ledger_reverse(transaction=LedgerTransaction(kind="grant"), key="r", actor=None, reason="undo")
    assert LedgerTransaction.objects.count() == 0


def test_a_batch_leaves_its_legs_accounts_with_the_balance_it_wrote(player, make_player):
    from wallets.services import Posting, ledger_post_many

    wallet_grant(user=player, amount=300, key="g", reason="start")
    other = make_player()
    wallet_grant(user=other, amount=50, key="g2", reason="start")
    a, b = wallet_for_user(user=player), wallet_for_user(user=other)
    a.balance = b.balance = -1  # stale copies: the batch gives them what it wrote under its lock
    ledger_post_many(
        postings=[
            Posting(key="m:1", kind="adjustment", legs=[(a, -100), (b, 100)]),
            Posting(key="m:2", kind="adjustment", legs=[(b, -30), (a, 30)]),
        ]
    )
    assert (a.balance, b.balance) == (230, 120) == (wallet_balance(user=player), wallet_balance(user=other))
    a.balance = -1
    ledger_post_many(postings=[Posting(key="m:1", kind="adjustment", legs=[(a, -100), (b, 100)])])
    assert a.balance == -1  # a replay moves nothing and writes nothing


def test_a_batch_without_a_savepoint_leaves_a_refusal_to_the_callers_transaction(player, make_player):
    from wallets.services import Posting, ledger_post_many

    wallet_grant(user=player, amount=100, key="g", reason="start")
    a, b = wallet_for_user(user=player), wallet_for_user(user=make_player())
    before = snapshot()
    with pytest.raises(InsufficientFunds, match="cannot pay 150"):
        with transaction.atomic():
            wallet_grant(user=player, amount=1, key="inside", reason="rolled back with the rest")
            ledger_post_many(
                postings=[Posting(key="s:1", kind="adjustment", legs=[(a, -150), (b, 150)])], savepoint=False
            )
    assert snapshot() == before
    assert wallet_balance(user=player) == 100
