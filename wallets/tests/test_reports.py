"""Every finance report against figures worked out by hand (see finance_books.py)."""

import datetime as dt

import pytest

from wallets import reports
from wallets.statement import player_statement
from wallets.tests.factories import UserFactory
from wallets.tests.finance_books import build_books

pytestmark = pytest.mark.django_db

D = dt.date


@pytest.fixture
def books(monkeypatch, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    return build_books(UserFactory, monkeypatch)


def test_the_trial_balance_at_the_end_of_each_day(books):
    first = reports.trial_balance(on=D(2026, 2, 28))
    assert first.by_kind == {"player": 3000, "cashier": -3000}
    assert (first.grants, first.deposits, first.withdrawals, first.issued) == (3000, 0, 0, 3000)

    day1 = reports.trial_balance(on=D(2026, 3, 1))
    # Hand 2 was staked at 23:30 UTC: already 3 March in Shanghai, so not in here.
    assert day1.by_kind == {"player": 1690 + 700 + 900, "cashier": -3300, "escrow": 0, "rake": 10}
    assert (day1.grants, day1.deposits, day1.withdrawals, day1.adjustments) == (3000, 500, 200, 0)
    assert (day1.issued, day1.held_by_players, day1.in_escrow, day1.held_by_house) == (3300, 3290, 0, 10)
    assert day1.grand_total == 0 and day1.alerts == []

    day2 = reports.trial_balance(on=D(2026, 3, 2))
    assert day2.by_kind == {
        "player": 1723 + 795 + 730,
        "cashier": -4300,
        "escrow": 0,
        "rake": 22,
        "bank": 1030,
    }
    assert (day2.issued, day2.adjustments, day2.house_rake, day2.house_bank) == (4300, 1000, 22, 1030)
    assert day2.entries_by_kind["rake"] == 3


def test_the_trial_balance_alerts_when_the_cached_balances_disagree_with_the_entries(books):
    from wallets.models import Account

    Account.objects.filter(user=books.a).update(balance=1)  # corruption behind the service's back
    today = reports.trial_balance(on=reports.site_today())
    assert any("Player wallet balances total" in alert for alert in today.alerts)
    # The past, computed from entries alone, is still consistent.
    assert reports.trial_balance(on=D(2026, 3, 2)).alerts == []


def test_rake_income_by_day_game_and_tier(books):
    report = reports.rake_income(start=D(2026, 3, 1), end=D(2026, 3, 3))
    assert [(r.day, r.game, r.tier, r.amount, r.count) for r in report.rows] == [
        (D(2026, 3, 1), "斗地主", "初级场", 10, 1),
        (D(2026, 3, 2), "斗地主", "初级场", 7, 1),
        (D(2026, 3, 2), "斗地主", "中级场", 5, 1),
    ]
    assert report.total == 22
    assert report.by_day == [(D(2026, 3, 1), 10), (D(2026, 3, 2), 12), (D(2026, 3, 3), 0)]


def test_an_entry_at_23_30_utc_belongs_to_the_next_shanghai_day(books):
    assert reports.rake_income(start=D(2026, 3, 1), end=D(2026, 3, 1)).total == 10
    day2 = reports.rake_income(start=D(2026, 3, 2), end=D(2026, 3, 2))
    assert [(r.tier, r.amount) for r in day2.rows if r.tier == "中级场"] == [("中级场", 5)]


def test_the_house_bank_result_counts_game_rounds_not_staff_funding(books):
    report = reports.bank_result(start=D(2026, 3, 1), end=D(2026, 3, 2))
    assert [(r.day, r.game, r.amount, r.count) for r in report.rows] == [(D(2026, 3, 2), "扎金花", 30, 2)]
    assert reports.banked_games() == ["扎金花"]


def test_the_house_bank_result_is_empty_without_play(db):
    report = reports.bank_result(start=D(2026, 3, 1), end=D(2026, 3, 2))
    assert report.rows == [] and report.total == 0 and reports.banked_games() == []


def _lines(statement):
    return [
        (line.kind, line.reference, line.amount, line.balance_after)
        for line in statement.lines(list(statement.rows))
    ]


def test_a_player_statement_counts_each_hand_once_with_its_net(books):
    """Not "stake −400, settlement +300": one line, −100, and the balance never reads what was carried off."""
    statement = player_statement(player=books.a, start=D(2026, 3, 2), end=reports.site_today())
    h2, h3 = books.hands[1].pk, books.hands[2].pk
    assert _lines(statement) == [
        ("settlement", f"hand:{h2}", -100, 1590),
        ("settlement", f"hand:{h3}", 133, 1723),
    ]
    # Income and expenses are what the hands won and lost, not the coins carried in and back.
    assert (statement.opening, statement.credits, statement.debits, statement.closing) == (
        1690,
        133,
        100,
        1723,
    )
    assert statement.matches_wallet is True
    named = statement.lines(list(statement.rows))
    # Hand 2 was posted with its game and tier, hand 3 before the posters named them: both are named.
    assert [(line.game, line.tier) for line in named] == [("斗地主", "中级场"), ("斗地主", "初级场")]


def test_a_hand_that_lost_everything_it_carried_is_one_line_too(books, monkeypatch):
    """The settlement pays nothing back to a player who lost all they carried; the hand still closes."""
    from wallets.tests.finance_books import _hand, _play, shanghai

    hand = _hand(books.low, 3)
    # b carried 795 and lost them all to c; c's profit of 795 pays a fee of 39 (39.75 rounded down).
    _play(hand, {books.b: 795, books.c: 500}, {books.b: 0, books.c: 1256}, 39, shanghai(3, 3, 9), monkeypatch)
    statement = player_statement(player=books.b, start=D(2026, 3, 3), end=D(2026, 3, 3))
    assert _lines(statement) == [("settlement", f"hand:{hand.pk}", -795, 0)]
    assert (statement.opening, statement.credits, statement.debits, statement.closing) == (795, 0, 795, 0)


def test_coins_at_the_table_count_in_the_balance_until_the_hand_settles(books, monkeypatch):
    """A hand staked before midnight and settled after it is a line of the day it settled."""
    from wallets.services import house_account, ledger_post, wallet_for_user
    from wallets.tests.finance_books import _hand, posted_at, shanghai

    hand = _hand(books.low, 3)
    wallet_a, wallet_c, escrow = (
        wallet_for_user(user=books.a),
        wallet_for_user(user=books.c),
        house_account(code="escrow"),
    )
    with posted_at(shanghai(3, 3, 23, 59), monkeypatch):
        ledger_post(
            key="late:stake",
            kind="stake",
            legs=[(wallet_a, -1000), (wallet_c, -100), (escrow, 1100)],
            reference=f"hand:{hand.pk}",
        )
    day3 = player_statement(player=books.a, start=D(2026, 3, 3), end=D(2026, 3, 3))
    assert (day3.opening, day3.closing, _lines(day3)) == (1723, 1723, [])
    today = player_statement(player=books.a, start=D(2026, 3, 3), end=reports.site_today())
    assert today.closing == 1723 and today.at_table == 1000 and today.wallet.balance == 723
    assert today.matches_wallet is True
    with posted_at(shanghai(3, 4, 0, 1), monkeypatch):
        # a won 50 of c's 100 and pays a fee of 2 on it.
        ledger_post(
            key="late:settle",
            kind="settlement",
            legs=[(escrow, -1100), (wallet_a, 1048), (wallet_c, 50), (house_account(code="rake"), 2)],
            reference=f"hand:{hand.pk}",
        )
    day4 = player_statement(player=books.a, start=D(2026, 3, 4), end=D(2026, 3, 4))
    assert (day4.opening, day4.closing) == (1723, 1771)
    assert _lines(day4) == [("settlement", f"hand:{hand.pk}", 48, 1771)]


def test_a_statement_of_a_past_range_closes_at_that_day(books):
    statement = player_statement(player=books.b, start=D(2026, 2, 1), end=D(2026, 3, 1))
    assert (statement.opening, statement.closing) == (0, 700)
    assert [amount for _kind, _ref, amount, _after in _lines(statement)] == [1000, -200, -100]
    assert statement.matches_wallet is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"kind": "deposit"}, ["deposit"]),
        ({"reference": "zhajinhua:*"}, ["payout", "bet"]),
        ({"amount_min": 900, "amount_max": 900}, ["settlement", "stake"]),
        ({"start": D(2026, 2, 28), "end": D(2026, 2, 28)}, ["grant", "grant", "grant"]),
        ({"kind": "bet", "amount_max": 50}, ["bet"]),
    ],
)
def test_transaction_search(books, query, expected):
    assert [t.kind for t in reports.transaction_search(**query)] == expected


def test_transaction_search_by_hand_and_player(books):
    h1 = books.hands[0].pk
    found = reports.transaction_search(reference=f"hand:{h1}")
    assert [(t.kind, t.amount, t.legs) for t in found] == [("settlement", 900, 5), ("stake", 900, 4)]
    assert [t.kind for t in reports.transaction_search(player=books.b, kind="settlement")] == [
        "settlement"
    ] * 2
    assert reports.transaction_search(reference=f"staff:{books.staff.pk}").count() == 3


def test_a_banker_round_is_reported_under_its_game_and_tier(books, monkeypatch):
    from rooms.models import Game, RoomTier
    from rooms.rounds.models import Round, Shoe
    from rooms.tables.models import Table
    from wallets.services import house_account, ledger_post, wallet_for_user
    from wallets.tests.finance_books import posted_at, shanghai

    game = Game.objects.create(
        slug="baccarat", name_zh="百家乐", name_en="Baccarat", family="banker", min_seats=1, max_seats=1
    )
    tier = RoomTier.objects.create(game=game, code="classic", name="经典场", base_stake=10, rake_bps=500)
    table = Table.objects.create(tier=tier, seat_count=0)
    shoe = Shoe.objects.create(table=table, number=1, seed=b"s" * 32)
    round_ = Round.objects.create(table=table, shoe=shoe, number=1, coup=1, game_slug="baccarat")
    escrow, bank, rake = (house_account(code=code) for code in ("escrow", "bank", "rake"))
    wallet_a, wallet_b = wallet_for_user(user=books.a), wallet_for_user(user=books.b)
    with posted_at(shanghai(3, 2, 22), monkeypatch):
        ledger_post(
            key="r1:bet:a", kind="bet", legs=[(wallet_a, -100), (escrow, 100)], reference=f"round:{round_.pk}"
        )
        ledger_post(
            key="r1:bet:b", kind="bet", legs=[(wallet_b, -60), (escrow, 60)], reference=f"round:{round_.pk}"
        )
        # a won 100 (rake 5 of the profit), b lost 60: the bank pays 100 and keeps 60.
        ledger_post(
            key="r1:settle",
            kind="payout",
            legs=[(escrow, -160), (wallet_a, 195), (rake, 5), (bank, -40)],
            reference=f"round:{round_.pk}",
        )
    day = reports.rake_income(start=D(2026, 3, 2), end=D(2026, 3, 2))
    assert ("百家乐", "经典场", 5, 1) in [(r.game, r.tier, r.amount, r.count) for r in day.rows]
    bank_day = reports.bank_result(start=D(2026, 3, 2), end=D(2026, 3, 2))
    assert ("百家乐", -40, 1) in [(r.game, r.amount, r.count) for r in bank_day.rows]
    assert ("扎金花", 30, 2) in [(r.game, r.amount, r.count) for r in bank_day.rows]


def test_a_statement_stays_true_when_a_posting_waited_for_the_wallet_across_midnight(
    db, monkeypatch, settings
):
    """A transaction is stamped before it waits for the wallet's lock, so posting order and time differ.

    Here the grant of 23:59:58 waited while a deposit stamped 00:00:01 took the wallet first
    (a settlement batch can hold a wallet for a while). The day's statement must still open
    with what the ledger held at midnight (the trial balance's figure) and close at the
    wallet's balance; taking the last entry's balance_after before midnight counted the
    deposit twice.
    """
    from wallets.services import wallet_deposit, wallet_grant
    from wallets.tests.finance_books import posted_at, shanghai

    settings.TIME_ZONE = "Asia/Shanghai"
    player = UserFactory()
    with posted_at(shanghai(3, 2, 0, 0) + dt.timedelta(seconds=1), monkeypatch):
        wallet_deposit(user=player, amount=500, key="d", reason="paid in")  # took the lock first
    with posted_at(shanghai(3, 1, 23, 59) + dt.timedelta(seconds=58), monkeypatch):
        wallet_grant(user=player, amount=1000, key="g", reason="sign-up")  # stamped first, posted second

    statement = player_statement(player=player, start=D(2026, 3, 2), end=reports.site_today())

    assert [amount for _kind, _ref, amount, _after in _lines(statement)] == [500]
    assert (statement.opening, statement.credits, statement.debits, statement.closing) == (1000, 500, 0, 1500)
    assert statement.matches_wallet is True
    day_before = player_statement(player=player, start=D(2026, 3, 1), end=D(2026, 3, 1))
    assert (day_before.opening, day_before.closing) == (0, 1000)
